// An example program for memprof's `work: {command: ...}` (spec §8.1), with allocation behaviour
// known to the byte, so tests can check what memprof reports. No stdio: it would allocate.
//
//   memprof-example-c            hold_blocks: 40 MiB in 256 KiB blocks, a quarter freed;
//                                leak_small: 5 MiB in 1 KiB pieces never freed; the rest freed
//   memprof-example-c sleep S    sleeps S seconds (a fetch handler that overruns its window)
//   memprof-example-c crash      dereferences a null pointer (SIGSEGV)
//   memprof-example-c exit N     hold_blocks, then exits with status N (a handler that fails)
//   memprof-example-c threads N  churn N on each of two threads
//   memprof-example-c churn N    N malloc/free pairs of 16–512 bytes, 64 live at a time
//                                (the allocation-heavy program of scripts/bench-userprog.sh)
//   memprof-example-c spin N     N rounds of arithmetic, no allocation (sampling overhead)
//   memprof-example-c scribble S a hostile program: writes N seeded random events, then random
//                                counters, into memprof's channel (what memprof must survive)
#define _GNU_SOURCE  // memprof_channel.h reads REG_RIP from ucontext.h
#include "memprof_channel.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KIB 1024u
#define MIB (1024u * 1024u)
#define BLOCK (256u * KIB)
#define BLOCKS (40u * MIB / BLOCK)

static void *held[BLOCKS];

/// Allocates 40 MiB in 256 KiB blocks, touches them, and frees every fourth one.
__attribute__((noinline)) static void hold_blocks(void) {
    for (unsigned i = 0; i < BLOCKS; i++) {
        held[i] = malloc(BLOCK);
        memset(held[i], (int)i, BLOCK);
    }
    for (unsigned i = 0; i < BLOCKS; i += 4) {
        free(held[i]);
        held[i] = NULL;
    }
}

/// Leaks 5 MiB in 1 KiB pieces: each piece is linked from the next, and the last is dropped.
__attribute__((noinline)) static void leak_small(void) {
    void *previous = NULL;
    for (unsigned i = 0; i < 5u * MIB / KIB; i++) {
        void **piece = malloc(KIB);
        *piece = previous;
        previous = piece;
    }
    __asm__ volatile("" : : "r"(previous) : "memory");
}

__attribute__((noinline)) static void release_blocks(void) {
    for (unsigned i = 0; i < BLOCKS; i++) free(held[i]);
}

__attribute__((noinline)) static void crash(void) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

__attribute__((noinline)) static unsigned long churn(unsigned long count) {
    void *live[64] = {0};
    unsigned long sum = 0, state = 12345;
    for (unsigned long i = 0; i < count; i++) {
        state = state * 6364136223846793005ul + 1442695040888963407ul;
        unsigned slot = (unsigned)(state >> 58);
        free(live[slot]);
        size_t size = 16 + (size_t)((state >> 20) % 497);
        live[slot] = malloc(size);
        ((char *)live[slot])[0] = (char)i;
        sum += (unsigned long)((char *)live[slot])[0];
    }
    for (unsigned i = 0; i < 64; i++) free(live[i]);
    return sum;
}

__attribute__((noinline)) static unsigned long spin(unsigned long rounds) {
    unsigned long x = 1;
    for (unsigned long i = 0; i < rounds; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

/// The address of memprof's channel in this process, from /proc/self/maps; 0 if not mapped.
static uintptr_t find_channel(void) {
    static char maps[1 << 16];
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0) return 0;
    ssize_t length = read(fd, maps, sizeof maps - 1);
    close(fd);
    if (length <= 0) return 0;
    maps[length] = 0;
    char *match = strstr(maps, "memprof-channel");
    if (!match) return 0;
    while (match > maps && match[-1] != '\n') match--;
    uintptr_t address = 0;
    for (; *match && *match != '-'; match++) {
        char c = *match;
        address = address * 16 + (uintptr_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return address;
}

__attribute__((noinline)) static int scribble(unsigned long seed) {
    free(malloc(64));  // something real first
    memprof_channel *channel = (memprof_channel *)find_channel();
    if (!channel) return 4;
    unsigned long state = seed * 2654435761ul + 1;
    for (int i = 0; i < 5000; i++) {
        uint64_t pos = atomic_fetch_add(&channel->head, 1);
        while (pos - atomic_load(&channel->tail) >= MEMPROF_CHANNEL_SLOTS) sched_yield();
        memprof_event *event = &channel->events[pos & (MEMPROF_CHANNEL_SLOTS - 1)];
        uint64_t *words = (uint64_t *)((char *)event + sizeof(uint64_t));
        size_t count = (sizeof *event - sizeof(uint64_t)) / sizeof(uint64_t);
        for (size_t w = 0; w < count; w++) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            words[w] = state;
        }
        event->kind = (uint32_t)(state % 8);  // every kind, and one that does not exist
        if (i % 3 == 0) event->depth = (uint16_t)(state % 80);
        atomic_store(&event->sequence, pos + 1);
    }
    // Then the counters and positions, as nonsense.
    atomic_store(&channel->head, state);
    atomic_store(&channel->sample_ticks, state * 3);
    atomic_store(&channel->samples_dropped, ~0ull);
    atomic_store(&channel->handler_ns, ~0ull);
    atomic_store(&channel->tail, 7);
    return 0;
}

static void *churn_thread(void *count) {
    churn(*(unsigned long *)count);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "threads") == 0) {
        unsigned long count = strtoul(argv[2], NULL, 10);
        pthread_t threads[2];
        for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, churn_thread, &count);
        for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "sleep") == 0) {
        struct timespec duration = {atoi(argv[2]), 0};
        nanosleep(&duration, NULL);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "exit") == 0) {
        hold_blocks();  // some work first, then a failure status
        return atoi(argv[2]);
    }
    if (argc >= 2 && strcmp(argv[1], "crash") == 0) {
        crash();
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "scribble") == 0) {
        _exit(scribble(strtoul(argv[2], NULL, 10)));  // no exit handlers: the channel is nonsense now
    }
    if (argc >= 3 && strcmp(argv[1], "spin") == 0) {
        return spin(strtoul(argv[2], NULL, 10)) == 1 ? 3 : 0;
    }
    if (argc >= 3 && strcmp(argv[1], "churn") == 0) {
        return churn(strtoul(argv[2], NULL, 10)) == 1 ? 3 : 0;
    }
    hold_blocks();
    leak_small();
    release_blocks();
    return 0;
}
