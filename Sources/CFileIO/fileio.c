#define _GNU_SOURCE
#include "memprof_fileio.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int memprof_o_direct(void) {
#ifdef O_DIRECT
    return O_DIRECT;
#else
    return 0;
#endif
}

long memprof_direct_io_alignment(int fd) {
#if defined(STATX_DIOALIGN)
    struct statx st;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &st) == 0 && (st.stx_mask & STATX_DIOALIGN)) {
        if (st.stx_dio_offset_align == 0) return 0;
        long offset = (long)st.stx_dio_offset_align, memory = (long)st.stx_dio_mem_align;
        return offset > memory ? offset : memory;
    }
#endif
    (void)fd;
    return sysconf(_SC_PAGESIZE);
}
