// The allocation recorder and sampler memprof preloads into a program it runs (spec §8.1).
//
// Every malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign, valloc and
// anonymous mmap/munmap is written with its stack to the shared-memory channel memprof reads
// (memprof_channel.h); each thread has a timer on its own CPU-time clock that sends it SIGPROF at
// the run's rate, and the handler writes its stack (as memprof's own sampler times its worker:
// ../CSampler/sampler.c). A CPU-time timer fires at most once per kernel tick, so a thread is
// sampled at up to the tick rate (250 Hz on Debian's kernels) and every running thread is, where
// one process-wide timer gave the whole program that rate. The hooks never allocate and take no lock:
// a slot is reserved with one atomic add, filled, and committed with one store. Frees and
// unmaps are written before the memory is given back, so a block another thread gets next is
// always read after its release.
//
// libunwind is loaded privately with dlopen(RTLD_LOCAL), as in memprof's own sampler
// (../CSampler/sampler.c): the program's own _Unwind_* and C++ exceptions stay libgcc_s's.
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "memprof_channel.h"
#include "memprof_preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

typedef int (*backtrace_fn)(void **, int);
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static memprof_channel *g_channel;
static _Atomic int g_recording;
static backtrace_fn g_backtrace;
static pthread_create_fn g_pthread_create;
static pid_t g_parent;
static uint64_t g_period_ns;         // the sampling period of CPU time; 0: not sampling
static pthread_key_t g_timer_key;    // its destructor deletes an ending thread's timer
static int g_has_timer_key;

static TLS int t_busy;            // inside a hook or the handler: nested calls pass straight through
static TLS int t_prepared;        // this thread has unwound once (libunwind's first use allocates)
static TLS int t_pending_sample;  // the timer fired while this thread was busy in a hook
static TLS uint32_t t_tid;
static TLS uint64_t t_tail;       // memprof's read position as this thread last read it
static TLS timer_t t_timer;       // this thread's sampling timer, when t_has_timer
static TLS int t_has_timer;

static inline uint32_t thread_id(void) {
    if (!t_tid) t_tid = (uint32_t)syscall(SYS_gettid);
    return t_tid;
}

static inline int recording(void) {
    return atomic_load_explicit(&g_recording, memory_order_relaxed) && !t_busy;
}

static inline void fill(memprof_event *event, uint32_t kind, uint64_t address, uint64_t size, int unwind,
                        uintptr_t interrupted) {
    event->kind = kind;
    event->thread = thread_id();
    event->address = address;
    event->size = size;
    event->flags = 0;
    event->depth = 0;
    if (kind == MEMPROF_EVENT_SAMPLE) event->time_ns = memprof_now_ns(CLOCK_MONOTONIC);
    if (unwind) {
        int depth = g_backtrace((void **)event->frames, MEMPROF_CHANNEL_DEPTH);
        if (depth < 0) depth = 0;
        event->depth = (uint16_t)depth;
        if (depth == MEMPROF_CHANNEL_DEPTH) event->flags = MEMPROF_EVENT_FLAG_TRUNCATED;
        // A sample starts at the interrupted instruction: the handler's own frames and the
        // signal trampoline above it go.
        for (int i = 0; interrupted && i < depth; i++) {
            if (event->frames[i] != interrupted) continue;
            memmove(event->frames, event->frames + i, (size_t)(depth - i) * sizeof(uint64_t));
            event->depth = (uint16_t)(depth - i);
            break;
        }
    }
}

/// Reserves the next slot, waiting while memprof has not read far enough. Gives up recording if
/// memprof went away (the parent changed), so a program is never stuck on a dead reader.
static memprof_event *reserve_waiting(uint64_t *position) {
    memprof_channel *c = g_channel;
    uint64_t pos = atomic_fetch_add_explicit(&c->head, 1, memory_order_relaxed);
    // The tail only moves forward: while this thread's copy says there is room, there is.
    if (pos - t_tail >= MEMPROF_CHANNEL_SLOTS &&
        pos - (t_tail = atomic_load_explicit(&c->tail, memory_order_acquire)) >= MEMPROF_CHANNEL_SLOTS) {
        atomic_fetch_add_explicit(&c->hook_waits, 1, memory_order_relaxed);
        unsigned spins = 0;
        while (pos - (t_tail = atomic_load_explicit(&c->tail, memory_order_acquire)) >= MEMPROF_CHANNEL_SLOTS) {
            if ((++spins & 1023u) == 0 && getppid() != g_parent) {
                atomic_store(&g_recording, 0);
                return NULL;
            }
            sched_yield();
        }
    }
    *position = pos;
    return &c->events[pos & (MEMPROF_CHANNEL_SLOTS - 1)];
}

static void take_sample(uintptr_t interrupted);

static void record(uint32_t kind, uint64_t address, uint64_t size, int unwind) {
    t_busy = 1;
    uint64_t pos;
    memprof_event *event = reserve_waiting(&pos);
    if (event) {
        fill(event, kind, address, size, unwind, 0);
        if (unwind) t_prepared = 1;
        atomic_store_explicit(&event->sequence, pos + 1, memory_order_release);
    }
    t_busy = 0;
    if (t_pending_sample) {
        t_pending_sample = 0;
        take_sample(0);
    }
}

/// Writes the calling thread's stack as a sample; drops it when the ring is full (a signal
/// handler must not wait).
static void take_sample(uintptr_t interrupted) {
    memprof_channel *c = g_channel;
    uint64_t start = memprof_now_ns(CLOCK_MONOTONIC);
    t_busy = 1;
    uint64_t pos = atomic_load_explicit(&c->head, memory_order_relaxed);
    for (;;) {
        if (pos - atomic_load_explicit(&c->tail, memory_order_acquire) >= MEMPROF_CHANNEL_SLOTS) {
            atomic_fetch_add_explicit(&c->samples_dropped, 1, memory_order_relaxed);
            t_busy = 0;
            return;
        }
        if (atomic_compare_exchange_weak_explicit(&c->head, &pos, pos + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            break;
    }
    memprof_event *event = &c->events[pos & (MEMPROF_CHANNEL_SLOTS - 1)];
    fill(event, MEMPROF_EVENT_SAMPLE, 0, 0, 1, interrupted);
    atomic_store_explicit(&event->sequence, pos + 1, memory_order_release);
    t_busy = 0;
    atomic_fetch_add_explicit(&c->handler_ns, memprof_now_ns(CLOCK_MONOTONIC) - start,
                              memory_order_relaxed);
}

static void on_sigprof(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    if (!atomic_load_explicit(&g_recording, memory_order_relaxed) || info->si_code != SI_TIMER) return;
    int saved_errno = errno;
    atomic_fetch_add_explicit(&g_channel->sample_ticks, 1, memory_order_relaxed);
    if (t_busy) {
        t_pending_sample = 1;  // taken when the hook this thread is in has finished
    } else if (!t_prepared) {
        atomic_fetch_add_explicit(&g_channel->samples_unprepared, 1, memory_order_relaxed);
    } else {
        take_sample(memprof_interrupted_ip(context));
    }
    errno = saved_errno;
}

// --- the malloc family ---------------------------------------------------------------------

EXPORT void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    if (pointer && recording()) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, 1);
    return pointer;
}

EXPORT void free(void *pointer) {
    if (pointer && recording()) record(MEMPROF_EVENT_FREE, (uintptr_t)pointer, 0, 0);
    __libc_free(pointer);
}

EXPORT void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    if (pointer && recording()) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, count * size, 1);
    return pointer;
}

EXPORT void *realloc(void *old, size_t size) {
    int tracking = recording();
    if (old && tracking) record(MEMPROF_EVENT_FREE, (uintptr_t)old, 0, 0);
    void *pointer = __libc_realloc(old, size);
    if (tracking) {
        if (pointer) {
            record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, 1);
        } else if (old && size > 0) {
            // Failed: the old block is still there; it is counted again from here.
            record(MEMPROF_EVENT_ALLOC, (uintptr_t)old, malloc_usable_size(old), 1);
        }
    }
    return pointer;
}

static void *aligned(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    if (pointer && recording()) record(MEMPROF_EVENT_ALLOC, (uintptr_t)pointer, size, 1);
    return pointer;
}

EXPORT int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0)
        return EINVAL;
    void *pointer = aligned(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

EXPORT void *aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size); }
EXPORT void *memalign(size_t alignment, size_t size) { return aligned(alignment, size); }
EXPORT void *valloc(size_t size) { return aligned((size_t)sysconf(_SC_PAGESIZE), size); }

// --- anonymous mappings --------------------------------------------------------------------

EXPORT void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    void *result = (void *)syscall(SYS_mmap, address, length, protection, flags, fd, offset);
    if (result != MAP_FAILED && (flags & MAP_ANONYMOUS) && recording())
        record(MEMPROF_EVENT_MMAP, (uintptr_t)result, length, 1);
    return result;
}

EXPORT void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset)
    __attribute__((alias("mmap")));

EXPORT int munmap(void *address, size_t length) {
    if (recording()) record(MEMPROF_EVENT_MUNMAP, (uintptr_t)address, length, 0);
    return (int)syscall(SYS_munmap, address, length);
}

// --- threads -------------------------------------------------------------------------------

typedef struct start_request {
    void *(*routine)(void *);
    void *argument;
} start_request;

static void prepare_thread(void) {
    if (t_prepared || !g_backtrace) return;
    void *frames[MEMPROF_CHANNEL_DEPTH];
    t_busy = 1;  // libunwind's first use on a thread allocates: not recorded
    g_backtrace(frames, MEMPROF_CHANNEL_DEPTH);
    t_busy = 0;
    t_prepared = 1;
}

/// Starts the calling thread's sampling timer: SIGPROF to this thread after each period of its
/// own CPU time. A thread whose timer cannot be made (the signal queue limit) is not sampled.
static void start_thread_timer(void) {
    if (!g_period_ns || t_has_timer) return;
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event.sigev_notify_thread_id = (pid_t)thread_id();
    t_busy = 1;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &t_timer) == 0) {
        struct itimerspec spec;
        memset(&spec, 0, sizeof spec);
        spec.it_interval.tv_sec = (time_t)(g_period_ns / 1000000000u);
        spec.it_interval.tv_nsec = (long)(g_period_ns % 1000000000u);
        spec.it_value = spec.it_interval;
        t_has_timer = 1;
        timer_settime(t_timer, 0, &spec, NULL);
        if (g_has_timer_key) pthread_setspecific(g_timer_key, (void *)1);  // so its end deletes it
    }
    t_busy = 0;
}

static void end_thread_timer(void *unused) {
    (void)unused;
    if (!t_has_timer) return;
    t_has_timer = 0;
    timer_delete(t_timer);
}

static void *start_thread(void *raw) {
    start_request request = *(start_request *)raw;
    __libc_free(raw);
    prepare_thread();  // so the sampler can unwind this thread before it ever allocates
    start_thread_timer();
    return request.routine(request.argument);
}

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                          void *(*routine)(void *), void *argument) {
    if (!g_pthread_create) g_pthread_create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    if (!g_pthread_create) return EAGAIN;
    if (!atomic_load(&g_recording)) return g_pthread_create(thread, attributes, routine, argument);
    start_request *request = __libc_malloc(sizeof *request);
    if (!request) return EAGAIN;
    request->routine = routine;
    request->argument = argument;
    int result = g_pthread_create(thread, attributes, start_thread, request);
    if (result != 0) __libc_free(request);
    return result;
}

// --- start and end -------------------------------------------------------------------------

/// Writes one module event per loaded object with a file: load bias, address range, path.
static int report_module(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    char path[4096];
    const char *name = info->dlpi_name;
    if (!name || !name[0]) {
        ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
        if (length <= 0) return 0;
        path[length] = 0;
        name = path;
    }
    if (name[0] != '/') return 0;  // the vDSO and other objects without a file
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (start < low) low = start;
        if (start + header->p_memsz > high) high = start + header->p_memsz;
    }
    if (low >= high) return 0;
    size_t length = strlen(name);
    size_t room = (MEMPROF_CHANNEL_DEPTH - 2) * sizeof(uint64_t) - 1;
    if (length > room) length = room;
    uint64_t pos;
    t_busy = 1;
    memprof_event *event = reserve_waiting(&pos);
    if (event) {
        event->kind = MEMPROF_EVENT_MODULE;
        event->address = info->dlpi_addr;
        event->size = length;
        event->depth = 0;
        event->frames[0] = low;
        event->frames[1] = high;
        memcpy(&event->frames[2], name, length);
        ((char *)&event->frames[2])[length] = 0;
        atomic_store_explicit(&event->sequence, pos + 1, memory_order_release);
    }
    t_busy = 0;
    return 0;
}

static void after_fork_in_child(void) {
    // The child shares the mapping but is not the program memprof watches: it records nothing
    // (and has no timers: a child does not inherit them).
    atomic_store(&g_recording, 0);
    t_has_timer = 0;
}

__attribute__((constructor)) static void memprof_preload_start(void) {
    const char *fd_text = getenv(MEMPROF_CHANNEL_ENV_FD);
    if (!fd_text) return;
    int fd = atoi(fd_text);
    const char *rate_text = getenv(MEMPROF_CHANNEL_ENV_RATE);
    double rate = rate_text ? strtod(rate_text, NULL) : 0;
    // Programs this one starts do not record into memprof's channel.
    unsetenv(MEMPROF_CHANNEL_ENV_FD);
    unsetenv(MEMPROF_CHANNEL_ENV_RATE);
    unsetenv("LD_PRELOAD");
    void *memory = mmap(NULL, sizeof(memprof_channel), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (memory == MAP_FAILED) return;
    memprof_channel *channel = memory;
    if (channel->magic != MEMPROF_CHANNEL_MAGIC) {
        munmap(memory, sizeof(memprof_channel));
        return;
    }
    void *library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    backtrace_fn backtrace = library ? (backtrace_fn)dlsym(library, "unw_backtrace") : NULL;
    if (!backtrace) return;  // memprof reads `started` == 0 as "the recorder did not start"
    g_pthread_create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    g_backtrace = backtrace;
    g_channel = channel;
    g_parent = getppid();
    // The program leads a process group of its own (memprof ends the group at the window and at
    // its exit), so a Ctrl-C at memprof's terminal does not reach it: it ends when memprof does.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != g_parent) _exit(128 + SIGKILL);  // memprof ended before the line above
    pthread_atfork(NULL, NULL, after_fork_in_child);
    prepare_thread();
    atomic_store(&channel->program_pid, (uint64_t)getpid());
    atomic_store(&g_recording, 1);
    dl_iterate_phdr(report_module, NULL);
    if (rate > 0 && rate <= 1e6) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_sigprof;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGPROF, &action, NULL) == 0) {
            g_has_timer_key = pthread_key_create(&g_timer_key, end_thread_timer) == 0;
            g_period_ns = (uint64_t)(1e9 / rate);
            start_thread_timer();  // this thread's; threads started later start their own
        }
    }
    atomic_store(&channel->started, 1);
}

__attribute__((destructor)) static void memprof_preload_end(void) {
    if (!atomic_load(&g_recording)) return;
    dl_iterate_phdr(report_module, NULL);  // objects loaded with dlopen since the start
    atomic_store(&g_channel->ended, 1);
}
