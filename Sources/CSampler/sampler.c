// The SIGPROF handler, its ring buffer and timers. See include/CSampler.h for the contract.
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY  // must come before libunwind.h, or the local unwinder's names do not match
#include <libunwind.h>  // only libunwind.h: the toolchain's own unwind.h shadows Debian's

#include "CSampler.h"
#include "memprof_channel.h"  // now_ns and the interrupted ip, shared with the preload library

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

// unw_backtrace's type, checked against the header without referencing the symbol: the library
// is loaded at run time, never linked.
typedef int (*backtrace_fn)(void **, int);
_Static_assert(__builtin_types_compatible_p(__typeof__(unw_backtrace), int(void **, int)),
               "unw_backtrace changed its signature");

static backtrace_fn g_backtrace;
static void *g_unwind_library;

/// The loaded unw_backtrace, for the allocation hooks (alloc_hooks.c); NULL before csampler_load_unwinder.
__attribute__((visibility("hidden"))) int (*csampler_unwinder(void))(void **, int) { return g_backtrace; }

static csampler_sample *g_ring;
static size_t g_ring_bytes;
static uint64_t g_mask;
static _Atomic uint64_t g_head;  // written by the handler only
static _Atomic uint64_t g_tail;  // written by the drainer only

static _Atomic int g_armed;
static _Atomic int g_generation;  // sigev value of the armed timer; other timers' signals are ignored
static _Atomic int g_next_generation = 1;
static _Atomic uint32_t g_tag;
static _Atomic int g_calibrating;
static _Atomic uint64_t g_calibration_hits;
static void *g_scratch[CSAMPLER_MAX_DEPTH];
static volatile uintptr_t g_scratch_ip;

static _Atomic uint64_t g_ticks, g_recorded, g_dropped, g_overruns, g_foreign, g_handler_ns;

static struct sigaction g_previous_action;
static int g_installed;

static void on_sigprof(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    int saved_errno = errno;
    if (atomic_load_explicit(&g_calibrating, memory_order_relaxed)) {
        // Calibration: the same work as a real sample, into a scratch buffer.
        if (info->si_code == SI_TIMER && g_backtrace) {
            g_scratch_ip = memprof_interrupted_ip(context);
            g_backtrace(g_scratch, CSAMPLER_MAX_DEPTH);
        }
        atomic_fetch_add_explicit(&g_calibration_hits, 1, memory_order_relaxed);
        errno = saved_errno;
        return;
    }
    if (info->si_code != SI_TIMER || !atomic_load_explicit(&g_armed, memory_order_acquire) ||
        info->si_value.sival_int != atomic_load_explicit(&g_generation, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&g_foreign, 1, memory_order_relaxed);
        errno = saved_errno;
        return;
    }
    uint64_t start = memprof_now_ns(CLOCK_MONOTONIC);
    atomic_fetch_add_explicit(&g_ticks, 1, memory_order_relaxed);
    if (info->si_overrun > 0) {
        atomic_fetch_add_explicit(&g_overruns, (uint64_t)info->si_overrun, memory_order_relaxed);
    }
    uint64_t head = atomic_load_explicit(&g_head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&g_tail, memory_order_acquire);
    if (head - tail > g_mask) {
        atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
    } else {
        csampler_sample *slot = &g_ring[head & g_mask];
        slot->tag = atomic_load_explicit(&g_tag, memory_order_relaxed);
        slot->time_ns = start;
        slot->ip = memprof_interrupted_ip(context);
        int depth = g_backtrace(slot->pcs, CSAMPLER_MAX_DEPTH);
        if (depth < 0) depth = 0;
        slot->depth = (uint16_t)depth;
        slot->flags = depth == CSAMPLER_MAX_DEPTH ? CSAMPLER_FLAG_TRUNCATED : 0;
        atomic_store_explicit(&g_head, head + 1, memory_order_release);
        atomic_fetch_add_explicit(&g_recorded, 1, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&g_handler_ns, memprof_now_ns(CLOCK_MONOTONIC) - start,
                              memory_order_relaxed);
    errno = saved_errno;
}

int csampler_load_unwinder(char *error, size_t error_size) {
    if (g_backtrace) return 0;
    void *library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, error_size, "cannot load libunwind.so.8 (install libunwind-dev): %s",
                 dlerror());
        return -1;
    }
    backtrace_fn function = (backtrace_fn)dlsym(library, "unw_backtrace");
    if (!function) {
        snprintf(error, error_size, "libunwind.so.8 has no unw_backtrace: %s", dlerror());
        dlclose(library);
        return -1;
    }
    g_unwind_library = library;
    g_backtrace = function;
    return 0;
}

int csampler_open(uint32_t capacity) {
    if (!g_backtrace) {
        errno = ENOSYS;
        return -1;
    }
    if (g_ring) csampler_close();
    uint64_t slots = 16;
    while (slots < capacity) slots <<= 1;
    size_t bytes = (size_t)slots * sizeof(csampler_sample);
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return -1;
    // Touch every page now so the handler never takes a first-touch page fault.
    memset(memory, 0, bytes);
    g_ring = memory;
    g_ring_bytes = bytes;
    g_mask = slots - 1;
    atomic_store(&g_head, 0);
    atomic_store(&g_tail, 0);
    csampler_reset_stats();
    if (!g_installed) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_sigprof;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGPROF, &action, &g_previous_action) != 0) return -1;
        g_installed = 1;
    }
    return 0;
}

void csampler_close(void) {
    atomic_store(&g_armed, 0);
    csampler_timer_stop();
    // Give SIGPROF back only to a real previous handler. When there was none, ours stays
    // installed (idle, ignoring every signal): SIGPROF's default action ends the process, and a
    // late signal must never do that.
    int previous_is_default =
        !(g_previous_action.sa_flags & SA_SIGINFO) && g_previous_action.sa_handler == SIG_DFL;
    if (g_installed && !previous_is_default) {
        sigaction(SIGPROF, &g_previous_action, NULL);
        g_installed = 0;
    }
    if (g_ring) {
        munmap(g_ring, g_ring_bytes);
        g_ring = NULL;
        g_ring_bytes = 0;
    }
}

pid_t csampler_prepare_thread(void) {
    void *frames[CSAMPLER_MAX_DEPTH];
    if (g_backtrace) g_backtrace(frames, CSAMPLER_MAX_DEPTH);
    return (pid_t)syscall(SYS_gettid);
}

static timer_t g_timer;
static int g_has_timer;

int csampler_timer_start(int cpu_clock, uint64_t period_ns) {
    if (g_has_timer) csampler_timer_stop();
    clockid_t clock = CLOCK_MONOTONIC;
    if (cpu_clock && pthread_getcpuclockid(pthread_self(), &clock) != 0) return -1;
    int generation = atomic_fetch_add(&g_next_generation, 1);
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    event.sigev_value.sival_int = generation;
    if (timer_create(clock, &event, &g_timer) != 0) return -1;
    g_has_timer = 1;
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_interval.tv_sec = (time_t)(period_ns / 1000000000u);
    spec.it_interval.tv_nsec = (long)(period_ns % 1000000000u);
    spec.it_value = spec.it_interval;
    atomic_store_explicit(&g_generation, generation, memory_order_relaxed);
    atomic_store_explicit(&g_armed, 1, memory_order_release);
    if (timer_settime(g_timer, 0, &spec, NULL) != 0) {
        int saved = errno;
        csampler_timer_stop();
        errno = saved;
        return -1;
    }
    return 0;
}

void csampler_timer_stop(void) {
    if (!g_has_timer) return;
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    timer_settime(g_timer, 0, &spec, NULL);
    atomic_store_explicit(&g_armed, 0, memory_order_release);
    timer_delete(g_timer);
    g_has_timer = 0;
}

void csampler_set_tag(uint32_t tag) { atomic_store_explicit(&g_tag, tag, memory_order_relaxed); }

const csampler_sample *csampler_peek(void) {
    if (!g_ring) return NULL;
    uint64_t tail = atomic_load_explicit(&g_tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&g_head, memory_order_acquire);
    return head == tail ? NULL : &g_ring[tail & g_mask];
}

void csampler_pop(void) {
    uint64_t tail = atomic_load_explicit(&g_tail, memory_order_relaxed);
    atomic_store_explicit(&g_tail, tail + 1, memory_order_release);
}

void csampler_get_stats(csampler_stats *stats) {
    stats->ticks = atomic_load(&g_ticks);
    stats->recorded = atomic_load(&g_recorded);
    stats->dropped = atomic_load(&g_dropped);
    stats->overruns = atomic_load(&g_overruns);
    stats->foreign = atomic_load(&g_foreign);
    stats->handler_ns = atomic_load(&g_handler_ns);
}

void csampler_reset_stats(void) {
    atomic_store(&g_ticks, 0);
    atomic_store(&g_recorded, 0);
    atomic_store(&g_dropped, 0);
    atomic_store(&g_overruns, 0);
    atomic_store(&g_foreign, 0);
    atomic_store(&g_handler_ns, 0);
}

static volatile uint32_t g_spin_sink;

__attribute__((noinline)) static void spin(uint64_t iterations) {
    uint32_t x = 1;
    for (uint64_t i = 0; i < iterations; i++) {
        x = x * 1664525u + 1013904223u;
        __asm__ volatile("" : "+r"(x));
    }
    g_spin_sink = x;
}

double csampler_measure_sample_cost(double rate_hz, double window_seconds, int rounds) {
    if (!g_installed || !g_backtrace || rounds <= 0 || rate_hz <= 0) return 0;
    // Size the spin so one window takes about window_seconds of this thread's CPU.
    uint64_t iterations = 1u << 20;
    for (;;) {
        uint64_t start = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID);
        spin(iterations);
        uint64_t spent = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
        if (spent > 2000000u || iterations > (1ull << 40)) {
            iterations = (uint64_t)((double)iterations * window_seconds * 1e9 / (double)(spent ? spent : 1));
            break;
        }
        iterations <<= 2;
    }
    double *costs = malloc(sizeof(double) * (size_t)rounds);
    if (!costs) return 0;
    clockid_t clock = CLOCK_MONOTONIC;
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    timer_t timer;
    if (timer_create(clock, &event, &timer) != 0) {
        free(costs);
        return 0;
    }
    uint64_t period = (uint64_t)(1e9 / rate_hz);
    struct itimerspec on, off;
    memset(&on, 0, sizeof on);
    memset(&off, 0, sizeof off);
    on.it_interval.tv_sec = (time_t)(period / 1000000000u);
    on.it_interval.tv_nsec = (long)(period % 1000000000u);
    on.it_value = on.it_interval;
    atomic_store(&g_calibrating, 1);
    for (int round = 0; round < rounds; round++) {
        uint64_t start = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID);
        spin(iterations);
        uint64_t plain = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
        uint64_t hits_before = atomic_load(&g_calibration_hits);
        start = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID);
        timer_settime(timer, 0, &on, NULL);
        spin(iterations);
        timer_settime(timer, 0, &off, NULL);
        uint64_t sampled = memprof_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
        uint64_t hits = atomic_load(&g_calibration_hits) - hits_before;
        costs[round] = hits ? ((double)sampled - (double)plain) / (double)hits : 0;
    }
    atomic_store(&g_calibrating, 0);
    timer_delete(timer);
    for (int i = 1; i < rounds; i++) {  // insertion sort: rounds is small
        double value = costs[i];
        int j = i - 1;
        while (j >= 0 && costs[j] > value) { costs[j + 1] = costs[j]; j--; }
        costs[j + 1] = value;
    }
    double median = costs[rounds / 2];
    free(costs);
    return median > 0 ? median : 0;
}

uint64_t csampler_thread_cpu_ns(void) { return memprof_now_ns(CLOCK_THREAD_CPUTIME_ID); }
uint64_t csampler_monotonic_ns(void) { return memprof_now_ns(CLOCK_MONOTONIC); }

struct find_object_query {
    uintptr_t address;
    uintptr_t bias;
    const char *path;
    int found;
};

static int find_object_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct find_object_query *query = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t low = info->dlpi_addr + header->p_vaddr;
        if (query->address >= low && query->address < low + header->p_memsz) {
            query->bias = info->dlpi_addr;
            query->path = info->dlpi_name ? info->dlpi_name : "";
            query->found = 1;
            return 1;
        }
    }
    return 0;
}

int csampler_find_object(uintptr_t address, uintptr_t *bias, const char **path) {
    struct find_object_query query = {address, 0, NULL, 0};
    dl_iterate_phdr(find_object_callback, &query);
    if (!query.found) return 0;
    *bias = query.bias;
    *path = query.path;
    return 1;
}

int csampler_dladdr(uintptr_t address, const char **symbol, uintptr_t *symbol_address,
                    const char **path) {
    Dl_info info;
    if (!dladdr((void *)address, &info)) return 0;
    *symbol = info.dli_sname;
    *symbol_address = (uintptr_t)info.dli_saddr;
    *path = info.dli_fname;
    return 1;
}

// From the Swift runtime (libswiftCore), always present in a Swift process.
extern char *swift_demangle(const char *mangled_name, size_t mangled_name_length,
                            char *output_buffer, size_t *output_buffer_size, uint32_t flags);
// From libstdc++, present when anything in the process uses C++ (Foundation does).
extern char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length,
                            int *status) __attribute__((weak));

char *csampler_demangle(const char *name) {
    if (!name) return NULL;
    if (name[0] == '_' && name[1] == 'Z') {
        if (!__cxa_demangle) return NULL;
        int status = 0;
        char *result = __cxa_demangle(name, NULL, NULL, &status);
        return status == 0 ? result : NULL;
    }
    return swift_demangle(name, strlen(name), NULL, NULL, 0);
}

void csampler_free(void *pointer) { free(pointer); }
