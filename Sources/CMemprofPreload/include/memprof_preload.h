// libmemprof-preload.so: loaded into a program memprof runs (spec §8.1) with LD_PRELOAD. It
// exports the malloc family, mmap, munmap and pthread_create in place of the C library's, and
// has no API of its own; see preload.c and ../CProfilingChannel/include/memprof_channel.h.
#ifndef MEMPROF_PRELOAD_H
#define MEMPROF_PRELOAD_H
#endif
