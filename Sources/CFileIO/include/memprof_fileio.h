// What memprof's file output asks of the system that Swift's Glibc module does not export
// (glibc declares them only with _GNU_SOURCE): the direct I/O flag and its alignment.
#ifndef MEMPROF_FILEIO_H
#define MEMPROF_FILEIO_H

#include <sys/types.h>

/// O_DIRECT of this system's <fcntl.h>, or 0 where it has none.
int memprof_o_direct(void);

/// The alignment direct I/O asks of offsets, lengths and buffers for the file open as `fd`:
/// statx's STATX_DIOALIGN where the kernel reports it, else the page size (a multiple of every
/// disk's logical block); 0 when the file system does not support direct I/O.
long memprof_direct_io_alignment(int fd);

#endif
