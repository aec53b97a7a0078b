// The signal side of memprof's stack sampler (spec §8).
//
// Everything here that runs inside the SIGPROF handler is async-signal-safe: no allocation, no
// locks, no Swift. The handler unwinds the interrupted worker with libunwind's `unw_backtrace`
// into one slot of a preallocated single-producer/single-consumer ring and counts what it drops
// when the ring is full. A Swift thread drains the ring (`csampler_peek` / `csampler_pop`).
//
// libunwind is loaded privately with dlopen(RTLD_LOCAL) instead of being linked: linking
// `-lunwind` would make its `_Unwind_*` replace libgcc_s's for the whole process (C++ throws in
// Foundation and ICU get about 10x slower). See scripts/bench-sampler.sh for the measurement.
#ifndef CSAMPLER_H
#define CSAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "CProgram.h"  // programs run as work (spec §8.1)
#include "CAllocTracker.h"  // the worker's own allocations

#ifdef __cplusplus
extern "C" {
#endif

/// Deepest stack a sample keeps; deeper stacks are cut at the root end and flagged.
#define CSAMPLER_MAX_DEPTH 128

/// The sample was cut at CSAMPLER_MAX_DEPTH frames (its root end is missing).
#define CSAMPLER_FLAG_TRUNCATED 1u

typedef struct csampler_sample {
    uint32_t tag;        // (app, handler) tag id set with csampler_set_tag when the signal came
    uint16_t depth;      // frames in pcs, innermost first
    uint16_t flags;      // CSAMPLER_FLAG_*
    uint64_t time_ns;    // CLOCK_MONOTONIC at handler entry
    uintptr_t ip;        // interrupted instruction pointer, from the signal's ucontext
    void *pcs[CSAMPLER_MAX_DEPTH];
} csampler_sample;

typedef struct csampler_stats {
    uint64_t ticks;          // timer signals handled while armed (recorded + dropped)
    uint64_t recorded;       // samples written to the ring
    uint64_t dropped;        // ticks lost because the ring was full
    uint64_t overruns;       // timer expirations the kernel merged (timer_getoverrun)
    uint64_t foreign;        // SIGPROF signals that were not ours, ignored
    uint64_t handler_ns;     // time spent inside the handler, summed
} csampler_stats;

/// Loads libunwind.so.8 privately and resolves unw_backtrace. Idempotent.
/// Returns 0, or -1 with a message in `error`.
int csampler_load_unwinder(char *error, size_t error_size);

/// Allocates a ring of `capacity` slots (rounded up to a power of two) and installs the SIGPROF
/// handler. Returns 0, or -1 with errno set. Call csampler_close to free it; it restores a
/// previous SIGPROF handler, but leaves the idle handler in place of the default action (which
/// would end the process on a late signal).
int csampler_open(uint32_t capacity);
void csampler_close(void);

/// Called on the worker thread before it is ever sampled: the first `unw_backtrace` on a thread
/// allocates, so it must not happen inside the handler. Returns the thread's kernel tid.
pid_t csampler_prepare_thread(void);

/// Creates and arms a timer that sends SIGPROF to the calling thread only (SIGEV_THREAD_ID)
/// every `period_ns`, and starts accepting its signals. With `cpu_clock` non-zero the timer
/// counts the calling thread's CPU time (capped at the kernel tick), otherwise CLOCK_MONOTONIC.
/// Call it on the thread to sample. Returns 0, or -1 with errno set.
int csampler_timer_start(int cpu_clock, uint64_t period_ns);
/// Disarms and deletes the timer; signals after this are ignored. Call on the same thread.
void csampler_timer_stop(void);

/// Sets the tag written into the samples taken from now on.
void csampler_set_tag(uint32_t tag);

/// The oldest undrained sample, or NULL. Valid until csampler_pop.
const csampler_sample *csampler_peek(void);
void csampler_pop(void);

/// A snapshot of the counters; csampler_reset_stats zeroes them.
void csampler_get_stats(csampler_stats *stats);
void csampler_reset_stats(void);

/// Measures what one sample costs the calling thread, in nanoseconds of its CPU time: a fixed
/// spin loop of about `window_seconds` runs alternately without and with a CLOCK_MONOTONIC timer
/// at `rate_hz` whose handler unwinds the stack like a real sample; the cost is the extra CPU
/// time divided by the signals handled, median of `rounds` pairs. This counts everything a
/// sample costs here (timer interrupt, signal delivery, handler, return, cache effects), which
/// on a virtual machine can be far more than the handler itself. The handler must be installed
/// (csampler_open) and no sampling timer armed.
double csampler_measure_sample_cost(double rate_hz, double window_seconds, int rounds);

/// The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
uint64_t csampler_thread_cpu_ns(void);
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t csampler_monotonic_ns(void);

/// Finds the loaded object holding `address`: its load bias and path ("" for the main program).
/// Returns 1 when found. Uses dl_iterate_phdr; not for the signal handler.
int csampler_find_object(uintptr_t address, uintptr_t *bias, const char **path);

/// dladdr: nearest dynamic symbol name (or NULL) and its address. Returns 1 when found.
int csampler_dladdr(uintptr_t address, const char **symbol, uintptr_t *symbol_address,
                    const char **path);

/// Demangles a Swift (`$s…`, `_T…`) or C++ (`_Z…`) name. Returns malloc'd text the caller frees
/// with csampler_free, or NULL when the name is not mangled.
char *csampler_demangle(const char *name);
void csampler_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
