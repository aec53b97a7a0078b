// Allocation tracking inside memprof itself, for the built-in kernels and registered work that
// run on memprof's worker thread (spec §8's work, with §8.1's allocation records).
//
// memprof's executable replaces the malloc family (malloc, calloc, realloc, free, posix_memalign,
// aligned_alloc, memalign, valloc) and anonymous mmap/munmap, forwarding to glibc's own
// `__libc_malloc` family and the raw system calls, as glibc's manual allows a program to do
// ("Replacing malloc"). A replacement records only on a thread that called
// csampler_alloc_begin: one thread-local load and a branch on every other thread. Recording
// writes the call and its stack into the same ring of slots a preloaded program writes
// (memprof_channel.h), here in memprof's own memory, and the same code as for programs
// (program.c) folds it into per-stack totals; the hooks never allocate and take no lock.
#ifndef CALLOC_TRACKER_H
#define CALLOC_TRACKER_H

#include <stddef.h>

#include "CProgram.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A tracker: a csampler_program without a process, read with csampler_program_get_result,
/// csampler_program_stack_count and csampler_program_get_stack, freed with csampler_program_free.
/// Returns NULL with a message in `error`.
csampler_program *csampler_tracker_open(char *error, size_t error_size);

/// Folds what the recording thread has written so far. Call it from another thread, often
/// enough (every millisecond or so) while the recording thread runs: when the ring is full the
/// recording thread waits for it. Returns the events read.
int csampler_tracker_drain(csampler_program *tracker);

/// After csampler_alloc_end on the recording thread: folds the rest and fixes what was still
/// held at the end (end_bytes, end_blocks).
void csampler_tracker_finish(csampler_program *tracker);

/// On the thread whose allocations are to be recorded: from now on until csampler_alloc_end,
/// its calls of the malloc family and anonymous mmap/munmap go into `tracker` with their stacks.
/// libunwind must be loaded (csampler_load_unwinder). Returns 0, or -1 when the replacements
/// are not the ones the process uses (for example a library interposed malloc before memprof).
int csampler_alloc_begin(csampler_program *tracker);
void csampler_alloc_end(void);

/// 1 when the malloc the process calls is memprof's replacement.
int csampler_alloc_hooks_active(void);

#ifdef __cplusplus
}
#endif

#endif
