// The channel between a program memprof runs (spec §8.1) and memprof itself, and the
// async-signal-safe helpers both of memprof's samplers share.
//
// The channel is a ring of fixed-size slots in shared memory (a memfd memprof creates and the
// preload library maps). Any thread of the program reserves a slot by advancing `head` with an
// atomic add (allocation hooks) or compare-and-swap (the SIGPROF handler, which never waits),
// fills it, and commits it by storing its sequence number. memprof reads slots in order and
// advances `tail`. Nothing is locked: a program that forks (the child stops recording), crashes
// (what was committed stays readable in the mapping) or is killed cannot leave memprof waiting.
#ifndef MEMPROF_CHANNEL_H
#define MEMPROF_CHANNEL_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <ucontext.h>  // with _GNU_SOURCE defined first, for REG_RIP

/// Frames kept per allocation or sample; deeper stacks lose their root end and are flagged.
#define MEMPROF_CHANNEL_DEPTH 64
/// Slots in the ring (a power of two).
#define MEMPROF_CHANNEL_SLOTS 16384u
/// The magic number at the start of the mapping, with the layout's version.
#define MEMPROF_CHANNEL_MAGIC 0x6d656d70726f6601ull
/// The file descriptor the program finds the channel on (the first after standard error: the
/// program is given no other), and the environment variables the preload library reads.
#define MEMPROF_CHANNEL_FD 3
#define MEMPROF_CHANNEL_ENV_FD "MEMPROF_CHANNEL_FD"
#define MEMPROF_CHANNEL_ENV_RATE "MEMPROF_SAMPLE_HZ"

enum memprof_event_kind {
    MEMPROF_EVENT_ALLOC = 1,    // address, size, stack: malloc, calloc, realloc's new block, memalign
    MEMPROF_EVENT_FREE = 2,     // address: free, realloc's old block (written before it is freed)
    MEMPROF_EVENT_MMAP = 3,     // address, size, stack: an anonymous mapping
    MEMPROF_EVENT_MUNMAP = 4,   // address, size (written before the mapping goes)
    MEMPROF_EVENT_SAMPLE = 5,   // stack of a thread interrupted by the sampling timer
    MEMPROF_EVENT_MODULE = 6,   // address = load bias, size = path length, path in `frames`
};

#define MEMPROF_EVENT_FLAG_TRUNCATED 1u

typedef struct memprof_event {
    _Atomic uint64_t sequence;  // reservation position + 1 once the slot is complete
    uint32_t kind;
    uint16_t depth;             // frames, innermost first
    uint16_t flags;
    uint32_t thread;            // kernel thread id
    uint32_t reserved;
    uint64_t address;
    uint64_t size;
    uint64_t time_ns;           // CLOCK_MONOTONIC
    uint64_t frames[MEMPROF_CHANNEL_DEPTH];
} memprof_event;

typedef struct memprof_channel {
    uint64_t magic;
    uint64_t slots;
    _Alignas(64) _Atomic uint64_t head;  // next position to reserve (the program's threads)
    _Alignas(64) _Atomic uint64_t tail;  // next position to read (memprof)
    _Alignas(64) _Atomic uint64_t samples_dropped;   // ring full when the timer fired
    _Atomic uint64_t samples_unprepared;             // thread not yet ready to unwind in a handler
    _Atomic uint64_t sample_ticks;                   // timer signals handled
    _Atomic uint64_t handler_ns;                     // time spent in the signal handler
    _Atomic uint64_t hook_waits;                     // times a hook waited for memprof to read
    _Atomic uint32_t started;                        // the preload library is recording
    _Atomic uint32_t ended;                          // the program reached exit()
    _Atomic uint64_t program_pid;
    _Alignas(64) memprof_event events[MEMPROF_CHANNEL_SLOTS];
} memprof_channel;

/// For the malloc replacements on both sides (the preload library, and memprof's own in
/// CSampler's alloc_hooks.c): exported, and thread-locals without a lookup.
#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

/// glibc's own allocator, which a replacement of the malloc family forwards to.
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline uint64_t memprof_now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);  // async-signal-safe (vDSO)
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// The instruction pointer a signal interrupted, from the handler's ucontext.
static inline uintptr_t memprof_interrupted_ip(void *context) {
    const ucontext_t *uc = (const ucontext_t *)context;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

#endif
