// memprof's side of a program run as work (spec §8.1): starts it with the preload library and
// the shared-memory channel, reads the channel while it runs, and folds what it read into
// per-stack totals: samples, bytes and blocks allocated, bytes in use at the peak, bytes still
// held at the end. See ../../CProfilingChannel/include/memprof_channel.h for the channel.
#ifndef CPROGRAM_H
#define CPROGRAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csampler_program csampler_program;

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `cwd` (NULL: memprof's), with
/// LD_PRELOAD=`preload`, sampling at `rate_hz` (0: no sampling). Standard input and output are
/// /dev/null; standard error is read and its tail kept. The program leads a process group of its
/// own; when it ends, or is killed, the rest of the group is killed too (a process that moved to
/// another group or session with setsid escapes this). Returns NULL with a message in `error`.
csampler_program *csampler_program_start(const char *path, char *const argv[], char *const envp[],
                                         const char *cwd, const char *preload, double rate_hz,
                                         char *error, size_t error_size);

/// Reads what the program wrote, waiting at most `timeout_ms` for something to happen.
/// Returns 1 while the program runs, 0 once it has ended and everything it wrote was read.
int csampler_program_poll(csampler_program *program, int timeout_ms);

/// Ends the program and its process group with SIGKILL (its time ran out); poll until it
/// returns 0 afterwards.
void csampler_program_kill(csampler_program *program);

/// Ends the process group of every program started and not yet reaped, with SIGKILL: what an
/// interrupted memprof does before it exits (a program dies with memprof by itself, but what it
/// started would be left running). Safe from any thread; not from a signal handler.
void csampler_programs_end_all(void);

typedef struct csampler_program_result {
    int exited;            // 1: exit status in exit_status; 0: ended by `signal`
    int exit_status;
    int signal;
    int recorder_started;  // the preload library mapped the channel and recorded
    uint64_t wall_ns;      // from start to end
    uint64_t cpu_ns;       // user + system time of the program (rusage)
    uint64_t max_rss_bytes;
    uint64_t allocated_bytes, allocations, releases;
    uint64_t peak_bytes;        // most bytes in use at once
    uint64_t end_bytes, end_blocks;  // still in use when the program ended
    uint64_t samples, sample_ticks, samples_dropped, samples_unprepared, handler_ns;
    uint64_t events, lost_events, hook_waits, unknown_releases;
} csampler_program_result;

void csampler_program_get_result(const csampler_program *program, csampler_program_result *result);

typedef struct csampler_program_stack {
    const uint64_t *frames;  // innermost first
    uint32_t depth;
    uint32_t truncated;
    uint64_t samples;
    uint64_t allocated_bytes, allocations;
    uint64_t peak_bytes;     // bytes this stack held when the program's total in use peaked
    uint64_t end_bytes, end_blocks;
} csampler_program_stack;

size_t csampler_program_stack_count(const csampler_program *program);
void csampler_program_get_stack(const csampler_program *program, size_t index,
                                csampler_program_stack *stack);

/// Objects the program had loaded: load bias, address range and path.
size_t csampler_program_module_count(const csampler_program *program);
void csampler_program_get_module(const csampler_program *program, size_t index, uint64_t *bias,
                                 uint64_t *low, uint64_t *high, const char **path);

/// The last bytes the program wrote to standard error (at most 4 KiB).
const char *csampler_program_stderr_tail(const csampler_program *program, size_t *length);

void csampler_program_free(csampler_program *program);

#ifdef __cplusplus
}
#endif

#endif
