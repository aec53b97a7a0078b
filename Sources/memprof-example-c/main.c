// An example program for memprof's `work: {command: ...}` (spec §8.1), with allocation behaviour
// known to the byte, so tests can check what memprof reports. No stdio: it would allocate.
//
//   memprof-example-c            hold_blocks: 40 MiB in 256 KiB blocks, a quarter freed;
//                                leak_small: 5 MiB in 1 KiB pieces never freed; the rest freed
//   memprof-example-c sleep S    sleeps S seconds (a fetch handler that overruns its window)
//   memprof-example-c crash      dereferences a null pointer (SIGSEGV)
//   memprof-example-c threads N  churn N on each of two threads
//   memprof-example-c churn N    N malloc/free pairs of 16–512 bytes, 64 live at a time
//                                (the allocation-heavy program of scripts/bench-userprog.sh)
//   memprof-example-c spin N     N rounds of arithmetic, no allocation (sampling overhead)
#include <pthread.h>
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
    if (argc >= 2 && strcmp(argv[1], "crash") == 0) {
        crash();
        return 0;
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
