// The channel is a header-only layout (include/memprof_channel.h); SwiftPM needs one source file.
#define _GNU_SOURCE  // REG_RIP in ucontext.h
#include "memprof_channel.h"

_Static_assert(sizeof(memprof_event) % 8 == 0, "events are 8-byte aligned");
