// Starts a program with the preload library and folds what it records. See include/CProgram.h.
#define _GNU_SOURCE
#include "CProgram.h"
#include "memprof_channel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define STDERR_TAIL 4096u
/// Bounds: distinct stacks kept (later new stacks are folded into one "[more stacks]" entry),
/// modules kept, and blocks in use tracked at once.
#define MAX_STACKS (1u << 20)
#define MAX_MODULES 4096u
#define MAX_LIVE (1ull << 27)

typedef struct stack_entry {
    uint64_t hash;
    uint32_t first_frame;  // index into frames
    uint16_t depth;
    uint16_t truncated;
    uint64_t samples, allocated_bytes, allocations;
    uint64_t in_use, in_use_blocks;
    uint64_t at_peak;       // in_use when the total last peaked, saved before the first change after it
    uint64_t touched_peak;  // the peak version at_peak belongs to
} stack_entry;

typedef struct live_entry {
    uint64_t address;  // 0: empty
    uint64_t size;
    uint32_t stack;
    uint32_t mapping;  // 1: an anonymous mmap
} live_entry;

typedef struct module_entry {
    uint64_t bias, low, high;
    char *path;
} module_entry;

struct csampler_program {
    pid_t pid;
    int running;
    int stderr_fd;
    memprof_channel *channel;
    uint64_t started_ns;
    csampler_program_result result;

    stack_entry *stacks;
    uint32_t stack_count, stack_capacity;
    uint32_t *stack_index;  // open addressing: stack id + 1, 0 empty
    uint32_t stack_index_mask;
    uint64_t *frames;
    size_t frame_count, frame_capacity;

    live_entry *live;
    uint64_t live_mask, live_count;

    module_entry modules[MAX_MODULES];
    uint32_t module_count;

    uint64_t in_use;
    uint64_t peak_version;
    uint64_t read_position;  // memprof's own copy of the tail: the program can write the mapping

    char tail[STDERR_TAIL];
    size_t tail_length;

    csampler_program *next_running, *previous_running;  // in `g_running` while started and not reaped
};

// The programs started and not yet reaped, so that an interrupted memprof can end their groups
// (csampler_programs_end_all). A program leaves the list before it is reaped, under the lock:
// its pid, its group's id, cannot have been given to another process while it is listed.
static pthread_mutex_t g_running_lock = PTHREAD_MUTEX_INITIALIZER;
static csampler_program *g_running;

static void list_running(csampler_program *p) {
    pthread_mutex_lock(&g_running_lock);
    p->previous_running = NULL;
    p->next_running = g_running;
    if (g_running) g_running->previous_running = p;
    g_running = p;
    pthread_mutex_unlock(&g_running_lock);
}

static void unlist_running(csampler_program *p) {
    pthread_mutex_lock(&g_running_lock);
    if (p->previous_running) p->previous_running->next_running = p->next_running;
    else if (g_running == p) g_running = p->next_running;
    if (p->next_running) p->next_running->previous_running = p->previous_running;
    p->next_running = p->previous_running = NULL;
    pthread_mutex_unlock(&g_running_lock);
}

void csampler_programs_end_all(void) {
    pthread_mutex_lock(&g_running_lock);
    for (csampler_program *p = g_running; p; p = p->next_running) kill(-p->pid, SIGKILL);
    pthread_mutex_unlock(&g_running_lock);
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static int grow_stack_index(csampler_program *p) {
    uint32_t capacity = p->stack_index_mask ? (p->stack_index_mask + 1) * 2 : 4096;
    uint32_t *index = calloc(capacity, sizeof *index);
    if (!index) return -1;
    for (uint32_t id = 0; id < p->stack_count; id++) {
        uint32_t slot = (uint32_t)p->stacks[id].hash & (capacity - 1);
        while (index[slot]) slot = (slot + 1) & (capacity - 1);
        index[slot] = id + 1;
    }
    free(p->stack_index);
    p->stack_index = index;
    p->stack_index_mask = capacity - 1;
    return 0;
}

/// The id of the stack `frames` (innermost first), added if new; UINT32_MAX when out of memory.
static uint32_t intern_stack(csampler_program *p, const uint64_t *frames, uint16_t depth, uint16_t truncated) {
    if (depth == 0) {  // an unwinding that gave nothing still needs a stack: the empty one
        static const uint64_t none = 0;
        frames = &none;
    }
    uint64_t hash = mix(depth + ((uint64_t)truncated << 32));
    for (uint16_t i = 0; i < depth; i++) hash = mix(hash ^ frames[i]);
    if (p->stack_count >= MAX_STACKS) {
        depth = 0;
        hash = 0;  // every further new stack folds into the overflow entry
    }
    uint32_t slot = (uint32_t)hash & p->stack_index_mask;
    while (p->stack_index[slot]) {
        stack_entry *entry = &p->stacks[p->stack_index[slot] - 1];
        if (entry->hash == hash && entry->depth == depth && entry->truncated == truncated &&
            memcmp(&p->frames[entry->first_frame], frames, depth * sizeof(uint64_t)) == 0)
            return p->stack_index[slot] - 1;
        slot = (slot + 1) & p->stack_index_mask;
    }
    if (p->stack_count == p->stack_capacity) {
        uint32_t capacity = p->stack_capacity * 2;
        stack_entry *stacks = realloc(p->stacks, capacity * sizeof *stacks);
        if (!stacks) return UINT32_MAX;
        p->stacks = stacks;
        p->stack_capacity = capacity;
    }
    if (p->frame_count + depth > p->frame_capacity) {
        size_t capacity = p->frame_capacity * 2 + depth;
        uint64_t *pool = realloc(p->frames, capacity * sizeof *pool);
        if (!pool) return UINT32_MAX;
        p->frames = pool;
        p->frame_capacity = capacity;
    }
    uint32_t id = p->stack_count++;
    stack_entry *entry = &p->stacks[id];
    memset(entry, 0, sizeof *entry);
    entry->hash = hash;
    entry->first_frame = (uint32_t)p->frame_count;
    entry->depth = depth;
    entry->truncated = truncated;
    memcpy(&p->frames[p->frame_count], frames, depth * sizeof(uint64_t));
    p->frame_count += depth;
    p->stack_index[slot] = id + 1;
    if (p->stack_count * 2 > p->stack_index_mask + 1 && grow_stack_index(p) != 0) return UINT32_MAX;
    return id;
}

/// Changes a stack's bytes in use, first saving what it held at the last peak (see CProgram.h).
static void change_in_use(csampler_program *p, stack_entry *stack, int64_t bytes, int64_t blocks) {
    if (stack->touched_peak != p->peak_version) {
        stack->at_peak = stack->in_use;
        stack->touched_peak = p->peak_version;
    }
    stack->in_use += (uint64_t)bytes;
    stack->in_use_blocks += (uint64_t)blocks;
    p->in_use += (uint64_t)bytes;
    if (bytes > 0 && p->in_use > p->result.peak_bytes) {
        p->result.peak_bytes = p->in_use;
        p->peak_version++;  // every stack now holds at the peak exactly what it holds in use
    }
}

static int grow_live(csampler_program *p) {
    uint64_t capacity = p->live_mask ? (p->live_mask + 1) * 2 : 1u << 16;
    if (capacity > MAX_LIVE) return -1;
    live_entry *table = calloc(capacity, sizeof *table);
    if (!table) return -1;
    for (uint64_t i = 0; p->live && i <= p->live_mask; i++) {
        if (!p->live[i].address) continue;
        uint64_t slot = mix(p->live[i].address) & (capacity - 1);
        while (table[slot].address) slot = (slot + 1) & (capacity - 1);
        table[slot] = p->live[i];
    }
    free(p->live);
    p->live = table;
    p->live_mask = capacity - 1;
    return 0;
}

static live_entry *find_live(csampler_program *p, uint64_t address) {
    uint64_t slot = mix(address) & p->live_mask;
    while (p->live[slot].address) {
        if (p->live[slot].address == address) return &p->live[slot];
        slot = (slot + 1) & p->live_mask;
    }
    return NULL;
}

/// Removes an entry by shifting the entries after it back (linear probing without tombstones).
static void remove_live(csampler_program *p, live_entry *entry) {
    uint64_t hole = (uint64_t)(entry - p->live);
    uint64_t next = (hole + 1) & p->live_mask;
    while (p->live[next].address) {
        uint64_t home = mix(p->live[next].address) & p->live_mask;
        // The entry at `next` may move into the hole if its home is not in (hole, next].
        if (((next - home) & p->live_mask) >= ((next - hole) & p->live_mask)) {
            p->live[hole] = p->live[next];
            hole = next;
        }
        next = (next + 1) & p->live_mask;
    }
    p->live[hole].address = 0;
    p->live_count--;
}

static void release(csampler_program *p, live_entry *entry, uint64_t bytes) {
    stack_entry *stack = &p->stacks[entry->stack];
    int whole = bytes >= entry->size;
    if (whole) bytes = entry->size;
    change_in_use(p, stack, -(int64_t)bytes, whole ? -1 : 0);
    p->result.releases++;
    if (whole) {
        remove_live(p, entry);
    } else {  // the start of a mapping was unmapped: the rest stays, further on
        live_entry rest = *entry;
        remove_live(p, entry);
        rest.address += bytes;
        rest.size -= bytes;
        uint64_t slot = mix(rest.address) & p->live_mask;
        while (p->live[slot].address) slot = (slot + 1) & p->live_mask;
        p->live[slot] = rest;
        p->live_count++;
    }
}

static void on_allocation(csampler_program *p, const memprof_event *event, uint32_t mapping) {
    uint32_t id = intern_stack(p, event->frames, event->depth, event->flags & MEMPROF_EVENT_FLAG_TRUNCATED);
    if (id == UINT32_MAX) {
        p->result.lost_events++;
        return;
    }
    live_entry *existing = find_live(p, event->address);
    if (existing) release(p, existing, existing->size);  // a release memprof never saw
    if ((p->live_count + 1) * 2 > p->live_mask + 1 && grow_live(p) != 0) {
        p->result.lost_events++;
        return;
    }
    stack_entry *stack = &p->stacks[id];
    stack->allocated_bytes += event->size;
    stack->allocations++;
    p->result.allocated_bytes += event->size;
    p->result.allocations++;
    uint64_t slot = mix(event->address) & p->live_mask;
    while (p->live[slot].address) slot = (slot + 1) & p->live_mask;
    p->live[slot] = (live_entry){event->address, event->size, id, mapping};
    p->live_count++;
    change_in_use(p, stack, (int64_t)event->size, 1);
}

static void on_module(csampler_program *p, const memprof_event *event) {
    const char *path = (const char *)&event->frames[2];
    size_t length = strnlen(path, (MEMPROF_CHANNEL_DEPTH - 2) * sizeof(uint64_t) - 1);
    for (uint32_t i = 0; i < p->module_count; i++) {
        if (p->modules[i].bias == event->address && strncmp(p->modules[i].path, path, length) == 0) return;
    }
    if (p->module_count == MAX_MODULES) return;
    char *copy = strndup(path, length);
    if (!copy) return;
    p->modules[p->module_count++] = (module_entry){event->address, event->frames[0], event->frames[1], copy};
}

static void consume(csampler_program *p, const memprof_event *shared) {
    // Copy the slot out of the mapping first and check what the program wrote: it can write
    // anything there, and nothing it writes may make memprof read outside its own memory.
    // Only what the event uses is copied (a release has no frames; an allocation a few): the
    // rest of the slot's cache lines stay in the program's core.
    memprof_event copy;
    memcpy(&copy, (const void *)shared, offsetof(memprof_event, frames));
    if (copy.depth > MEMPROF_CHANNEL_DEPTH) copy.depth = MEMPROF_CHANNEL_DEPTH;
    size_t frames = copy.kind == MEMPROF_EVENT_MODULE ? MEMPROF_CHANNEL_DEPTH : copy.depth;
    memcpy(copy.frames, (const void *)shared->frames, frames * sizeof(uint64_t));
    const memprof_event *event = &copy;
    p->result.events++;
    switch (event->kind) {
    case MEMPROF_EVENT_ALLOC: on_allocation(p, event, 0); break;
    case MEMPROF_EVENT_MMAP: on_allocation(p, event, 1); break;
    case MEMPROF_EVENT_FREE:
    case MEMPROF_EVENT_MUNMAP: {
        live_entry *entry = find_live(p, event->address);
        if (entry && (event->kind == MEMPROF_EVENT_MUNMAP) == (entry->mapping == 1)) {
            release(p, entry, event->kind == MEMPROF_EVENT_MUNMAP ? event->size : entry->size);
        } else {
            p->result.unknown_releases++;  // allocated before recording began, or not tracked
        }
        break;
    }
    case MEMPROF_EVENT_SAMPLE: {
        uint32_t id = intern_stack(p, event->frames, event->depth, event->flags & MEMPROF_EVENT_FLAG_TRUNCATED);
        if (id != UINT32_MAX) {
            p->stacks[id].samples++;
            p->result.samples++;
        }
        break;
    }
    case MEMPROF_EVENT_MODULE: on_module(p, event); break;
    default: p->result.lost_events++; break;
    }
}

/// Reads committed slots in order. With `ended`, a slot reserved but never committed (the
/// program died while writing it) is counted lost and skipped.
static int drain(csampler_program *p, int ended) {
    memprof_channel *c = p->channel;
    int read = 0;
    // Once the program has ended, at most one lap of the ring is left to read.
    uint64_t left = MEMPROF_CHANNEL_SLOTS;
    while (!ended || left-- > 0) {
        uint64_t tail = p->read_position;
        memprof_event *event = &c->events[tail & (MEMPROF_CHANNEL_SLOTS - 1)];
        if (atomic_load_explicit(&event->sequence, memory_order_acquire) == tail + 1) {
            consume(p, event);
        } else {
            uint64_t head = atomic_load_explicit(&c->head, memory_order_acquire);
            if (!ended || tail >= head) break;
            p->result.lost_events++;
        }
        p->read_position = tail + 1;
        read++;
        // The program's threads read `tail` on every event: it is written every 256 slots (and
        // at the end of a drain), not every slot, so its cache line is not moved at each event.
        if ((read & 255) == 0) atomic_store_explicit(&c->tail, p->read_position, memory_order_release);
        if (!ended && read >= (int)(4 * MEMPROF_CHANNEL_SLOTS)) break;  // let the caller check the time
    }
    atomic_store_explicit(&c->tail, p->read_position, memory_order_release);
    if (ended) {
        uint64_t head = atomic_load_explicit(&c->head, memory_order_acquire);
        if (head > p->read_position) p->result.lost_events += head - p->read_position;
    }
    return read;
}

static void read_stderr(csampler_program *p) {
    char buffer[4096];
    for (;;) {
        ssize_t count = read(p->stderr_fd, buffer, sizeof buffer);
        if (count <= 0) return;
        size_t n = (size_t)count;
        if (n >= STDERR_TAIL) {
            memcpy(p->tail, buffer + n - STDERR_TAIL, STDERR_TAIL);
            p->tail_length = STDERR_TAIL;
        } else {
            size_t keep = p->tail_length + n > STDERR_TAIL ? STDERR_TAIL - n : p->tail_length;
            memmove(p->tail, p->tail + p->tail_length - keep, keep);
            memcpy(p->tail + keep, buffer, n);
            p->tail_length = keep + n;
        }
    }
}

/// A program record with empty tables, or NULL with a message in `error`.
static csampler_program *new_program(char *error, size_t error_size) {
    csampler_program *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    p->stderr_fd = -1;
    p->stack_capacity = 1024;
    p->stacks = malloc(p->stack_capacity * sizeof *p->stacks);
    p->frame_capacity = 1u << 16;
    p->frames = malloc(p->frame_capacity * sizeof *p->frames);
    if (p->stacks && p->frames && grow_stack_index(p) == 0 && grow_live(p) == 0) return p;
    snprintf(error, error_size, "out of memory for the allocation tables");
    csampler_program_free(p);
    return NULL;
}

csampler_program *csampler_program_start(const char *path, char *const argv[], char *const envp[],
                                         const char *cwd, const char *preload, double rate_hz,
                                         char *error, size_t error_size) {
    csampler_program *p = new_program(error, error_size);
    if (!p) return NULL;
    int memfd = memfd_create("memprof-channel", MFD_CLOEXEC);
    int pipe_fds[2] = {-1, -1};
    if (memfd < 0 ||
        ftruncate(memfd, sizeof(memprof_channel)) != 0 || pipe2(pipe_fds, O_CLOEXEC) != 0) {
        snprintf(error, error_size, "cannot set up the channel to the program: %s", strerror(errno));
        goto fail;
    }
    p->channel = mmap(NULL, sizeof(memprof_channel), PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (p->channel == MAP_FAILED) {
        p->channel = NULL;
        snprintf(error, error_size, "cannot map the channel to the program: %s", strerror(errno));
        goto fail;
    }
    p->channel->magic = MEMPROF_CHANNEL_MAGIC;
    p->channel->slots = MEMPROF_CHANNEL_SLOTS;

    size_t count = 0;
    while (envp[count]) count++;
    char **environment = calloc(count + 4, sizeof(char *));
    char preload_variable[4200], fd_variable[64], rate_variable[64];
    snprintf(preload_variable, sizeof preload_variable, "LD_PRELOAD=%s", preload);
    snprintf(fd_variable, sizeof fd_variable, "%s=%d", MEMPROF_CHANNEL_ENV_FD, MEMPROF_CHANNEL_FD);
    snprintf(rate_variable, sizeof rate_variable, "%s=%.3f", MEMPROF_CHANNEL_ENV_RATE, rate_hz);
    if (!environment) goto fail;
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        // memprof's own variables are memprof's to give: one inherited from memprof's
        // environment would come first and be the one the program reads.
        if (strncmp(envp[i], "LD_PRELOAD=", 11) != 0 &&
            strncmp(envp[i], MEMPROF_CHANNEL_ENV_FD "=", sizeof MEMPROF_CHANNEL_ENV_FD) != 0 &&
            strncmp(envp[i], MEMPROF_CHANNEL_ENV_RATE "=", sizeof MEMPROF_CHANNEL_ENV_RATE) != 0)
            environment[used++] = envp[i];
    }
    environment[used++] = preload_variable;
    environment[used++] = fd_variable;
    environment[used++] = rate_variable;

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
    posix_spawn_file_actions_adddup2(&actions, memfd, MEMPROF_CHANNEL_FD);
    // Nothing else of memprof's reaches the program: a descriptor memprof inherited without
    // close-on-exec (a test runner's pipe, a CI runner's socket) would be held open by the program
    // and what it starts, and keep whoever waits for it to close waiting for them.
    posix_spawn_file_actions_addclosefrom_np(&actions, MEMPROF_CHANNEL_FD + 1);
    if (cwd) posix_spawn_file_actions_addchdir_np(&actions, cwd);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigfillset(&defaults);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    // A process group of its own (its id is the program's pid): what the program starts is in
    // it too, and memprof ends the whole group at the window and when the program exits.
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    p->started_ns = memprof_now_ns(CLOCK_MONOTONIC);
    int status = posix_spawn(&p->pid, path, &actions, &attributes, argv, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    free(environment);
    if (status != 0) {
        snprintf(error, error_size, "cannot start %s: %s", path, strerror(status));
        goto fail;
    }
    close(pipe_fds[1]);
    close(memfd);
    p->stderr_fd = pipe_fds[0];
    fcntl(p->stderr_fd, F_SETFL, O_NONBLOCK);
    p->running = 1;
    list_running(p);
    return p;
fail:
    if (memfd >= 0) close(memfd);
    if (pipe_fds[0] >= 0) close(pipe_fds[0]);
    if (pipe_fds[1] >= 0) close(pipe_fds[1]);
    csampler_program_free(p);
    return NULL;
}

int csampler_program_poll(csampler_program *p, int timeout_ms) {
    if (!p->running) return 0;
    if (drain(p, 0) == 0) {
        struct pollfd descriptor = {p->stderr_fd, POLLIN, 0};
        // Nothing to read: sleep a little, waking early for standard error.
        poll(&descriptor, 1, timeout_ms < 1 ? 0 : 1);
    }
    read_stderr(p);
    // Has the program ended? Asked without reaping it, so its pid (the group's id) stays its own
    // while the rest of its group is killed: no other process can have been given that id yet.
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != p->pid) return 1;
    kill(-p->pid, SIGKILL);  // what it started and left running ends with it
    unlist_running(p);
    int status = 0;
    struct rusage usage;
    pid_t ended = wait4(p->pid, &status, 0, &usage);
    if (ended != p->pid) return 1;
    p->result.wall_ns = memprof_now_ns(CLOCK_MONOTONIC) - p->started_ns;
    p->result.exited = WIFEXITED(status);
    p->result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    p->result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    p->result.cpu_ns = (uint64_t)usage.ru_utime.tv_sec * 1000000000u + (uint64_t)usage.ru_utime.tv_usec * 1000u +
                       (uint64_t)usage.ru_stime.tv_sec * 1000000000u + (uint64_t)usage.ru_stime.tv_usec * 1000u;
    p->result.max_rss_bytes = (uint64_t)usage.ru_maxrss * 1024u;
    drain(p, 1);
    read_stderr(p);
    memprof_channel *c = p->channel;
    p->result.recorder_started = (int)atomic_load(&c->started);
    p->result.sample_ticks = atomic_load(&c->sample_ticks);
    p->result.samples_dropped = atomic_load(&c->samples_dropped);
    p->result.samples_unprepared = atomic_load(&c->samples_unprepared);
    p->result.handler_ns = atomic_load(&c->handler_ns);
    p->result.hook_waits = atomic_load(&c->hook_waits);
    p->result.end_bytes = p->in_use;
    p->result.end_blocks = p->live_count;
    p->running = 0;
    return 0;
}

void csampler_program_kill(csampler_program *p) {
    if (p->running) kill(-p->pid, SIGKILL);  // the program's whole group
}

void csampler_program_get_result(const csampler_program *p, csampler_program_result *result) {
    *result = p->result;
}

size_t csampler_program_stack_count(const csampler_program *p) { return p->stack_count; }

void csampler_program_get_stack(const csampler_program *p, size_t index, csampler_program_stack *out) {
    const stack_entry *entry = &p->stacks[index];
    out->frames = &p->frames[entry->first_frame];
    out->depth = entry->depth;
    out->truncated = entry->truncated;
    out->samples = entry->samples;
    out->allocated_bytes = entry->allocated_bytes;
    out->allocations = entry->allocations;
    out->peak_bytes = entry->touched_peak == p->peak_version ? entry->at_peak : entry->in_use;
    out->end_bytes = entry->in_use;
    out->end_blocks = entry->in_use_blocks;
}

size_t csampler_program_module_count(const csampler_program *p) { return p->module_count; }

void csampler_program_get_module(const csampler_program *p, size_t index, uint64_t *bias, uint64_t *low,
                                 uint64_t *high, const char **path) {
    *bias = p->modules[index].bias;
    *low = p->modules[index].low;
    *high = p->modules[index].high;
    *path = p->modules[index].path;
}

const char *csampler_program_stderr_tail(const csampler_program *p, size_t *length) {
    *length = p->tail_length;
    return p->tail;
}

void csampler_program_free(csampler_program *p) {
    if (!p) return;
    if (p->running) {
        kill(-p->pid, SIGKILL);
        unlist_running(p);
        waitpid(p->pid, NULL, 0);
    }
    if (p->stderr_fd >= 0) close(p->stderr_fd);
    if (p->channel) munmap(p->channel, sizeof(memprof_channel));
    for (uint32_t i = 0; i < p->module_count; i++) free(p->modules[i].path);
    free(p->stacks);
    free(p->stack_index);
    free(p->frames);
    free(p->live);
    free(p);
}

// --- trackers: the same folding for memprof's own worker thread (CAllocTracker.h) -----------

csampler_program *csampler_tracker_open(char *error, size_t error_size) {
    csampler_program *p = new_program(error, error_size);
    if (!p) return NULL;
    void *ring = mmap(NULL, sizeof(memprof_channel), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ring != MAP_FAILED) p->channel = ring;
    if (!p->channel) {
        snprintf(error, error_size, "cannot set up allocation tracking: %s", strerror(errno));
        csampler_program_free(p);
        return NULL;
    }
    p->channel->magic = MEMPROF_CHANNEL_MAGIC;
    p->channel->slots = MEMPROF_CHANNEL_SLOTS;
    p->started_ns = memprof_now_ns(CLOCK_MONOTONIC);
    p->result.recorder_started = 1;
    return p;
}

__attribute__((visibility("hidden"))) memprof_channel *csampler_tracker_channel(csampler_program *p) {
    return p ? p->channel : NULL;
}

int csampler_tracker_drain(csampler_program *p) { return drain(p, 0); }

void csampler_tracker_finish(csampler_program *p) {
    while (drain(p, 0) > 0) {
    }
    p->result.wall_ns = memprof_now_ns(CLOCK_MONOTONIC) - p->started_ns;
    p->result.hook_waits = atomic_load(&p->channel->hook_waits);
    p->result.end_bytes = p->in_use;
    p->result.end_blocks = p->live_count;
}
