// memprof's replacements of the malloc family and anonymous mmap/munmap, recording the worker
// thread's allocations with their stacks. See include/CAllocTracker.h for the contract.
//
// These definitions are linked into memprof's executable, which the dynamic linker searches
// first, so every library in the process (the Swift runtime, Foundation, libc's own strdup...)
// calls them. On a thread that does not record they cost one thread-local load and a branch,
// then call glibc's implementation (`__libc_malloc`, exported by glibc for this purpose).
#define _GNU_SOURCE
#include "CAllocTracker.h"
#include "memprof_channel.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RECORDING_RING __builtin_expect(t_ring != NULL, 0)

typedef int (*backtrace_fn)(void **, int);
__attribute__((visibility("hidden"))) backtrace_fn csampler_unwinder(void);  // sampler.c
__attribute__((visibility("hidden"))) memprof_channel *csampler_tracker_channel(csampler_program *tracker);  // program.c

/// The ring this thread records into, NULL when it does not record. While a hook records it is
/// NULL too, so what the hook itself calls (libunwind's first unwinding allocates) passes through.
static TLS memprof_channel *t_ring;
static TLS uint64_t t_tail;  // the ring's read position as this thread last read it
static backtrace_fn g_backtrace;

/// Writes one event. The recording thread is the ring's only writer: the slot is its next
/// position, reserved without an atomic read-modify-write; when memprof has not read far enough
/// the thread waits (yielding) for the draining thread.
__attribute__((noinline)) static void record(uint32_t kind, uint64_t address, uint64_t size, uintptr_t caller) {
    memprof_channel *c = t_ring;
    t_ring = NULL;
    uint64_t pos = atomic_load_explicit(&c->head, memory_order_relaxed);
    // The tail only moves forward: while this thread's copy says there is room, there is.
    if (pos - t_tail >= MEMPROF_CHANNEL_SLOTS &&
        pos - (t_tail = atomic_load_explicit(&c->tail, memory_order_acquire)) >= MEMPROF_CHANNEL_SLOTS) {
        atomic_fetch_add_explicit(&c->hook_waits, 1, memory_order_relaxed);
        while (pos - (t_tail = atomic_load_explicit(&c->tail, memory_order_acquire)) >= MEMPROF_CHANNEL_SLOTS) sched_yield();
    }
    memprof_event *event = &c->events[pos & (MEMPROF_CHANNEL_SLOTS - 1)];
    event->kind = kind;
    event->thread = 0;
    event->address = address;
    event->size = size;
    event->flags = 0;
    event->depth = 0;
    event->time_ns = 0;
    if (caller) {
        int depth = g_backtrace((void **)event->frames, MEMPROF_CHANNEL_DEPTH);
        if (depth < 0) depth = 0;
        if (depth == MEMPROF_CHANNEL_DEPTH) event->flags = MEMPROF_EVENT_FLAG_TRUNCATED;
        // The stack starts at the caller of malloc: this function and the hook go.
        for (int i = 0; i < depth && i < 4; i++) {
            if (event->frames[i] != caller) continue;
            memmove(event->frames, event->frames + i, (size_t)(depth - i) * sizeof(uint64_t));
            depth -= i;
            break;
        }
        event->depth = (uint16_t)depth;
    }
    atomic_store_explicit(&event->sequence, pos + 1, memory_order_release);
    atomic_store_explicit(&c->head, pos + 1, memory_order_release);
    t_ring = c;
}

#define CALLER ((uintptr_t)__builtin_return_address(0))

EXPORT void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    if (RECORDING_RING && pointer) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, CALLER);
    return pointer;
}

EXPORT void free(void *pointer) {
    if (RECORDING_RING && pointer) record(MEMPROF_EVENT_FREE, (uintptr_t)pointer, 0, 0);
    __libc_free(pointer);
}

EXPORT void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    if (RECORDING_RING && pointer) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, count * size, CALLER);
    return pointer;
}

EXPORT void *realloc(void *old, size_t size) {
    if (!RECORDING_RING) return __libc_realloc(old, size);
    uintptr_t caller = CALLER;
    if (old) record(MEMPROF_EVENT_FREE, (uintptr_t)old, 0, 0);
    void *pointer = __libc_realloc(old, size);
    if (pointer) {
        record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, caller);
    } else if (old && size > 0) {
        // Failed: the old block is still there; it is counted again from here.
        record(MEMPROF_EVENT_ALLOC, (uintptr_t)old, malloc_usable_size(old), caller);
    }
    return pointer;
}

static inline void *aligned(size_t alignment, size_t size, uintptr_t caller) {
    void *pointer = __libc_memalign(alignment, size);
    if (RECORDING_RING && pointer) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, caller);
    return pointer;
}

EXPORT int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0)
        return EINVAL;
    void *pointer = aligned(alignment, size, CALLER);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

EXPORT void *aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size, CALLER); }
EXPORT void *memalign(size_t alignment, size_t size) { return aligned(alignment, size, CALLER); }
EXPORT void *valloc(size_t size) { return aligned((size_t)sysconf(_SC_PAGESIZE), size, CALLER); }

EXPORT void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    void *result = (void *)syscall(SYS_mmap, address, length, protection, flags, fd, offset);
    if (RECORDING_RING && result != MAP_FAILED && (flags & MAP_ANONYMOUS))
        record(MEMPROF_EVENT_MMAP, (uintptr_t)result, length, CALLER);
    return result;
}

EXPORT void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset)
    __attribute__((alias("mmap")));

EXPORT int munmap(void *address, size_t length) {
    if (RECORDING_RING) record(MEMPROF_EVENT_MUNMAP, (uintptr_t)address, length, 0);
    return (int)syscall(SYS_munmap, address, length);
}

int csampler_alloc_hooks_active(void) {
    return dlsym(RTLD_DEFAULT, "malloc") == (void *)malloc && dlsym(RTLD_DEFAULT, "free") == (void *)free;
}

int csampler_alloc_begin(csampler_program *tracker) {
    backtrace_fn backtrace = csampler_unwinder();
    memprof_channel *ring = csampler_tracker_channel(tracker);
    if (!backtrace || !ring || !csampler_alloc_hooks_active()) return -1;
    g_backtrace = backtrace;
    void *frames[MEMPROF_CHANNEL_DEPTH];
    backtrace(frames, MEMPROF_CHANNEL_DEPTH);  // libunwind's first use on a thread allocates: before recording
    t_tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
    t_ring = ring;
    return 0;
}

void csampler_alloc_end(void) {
    t_ring = NULL;
}
