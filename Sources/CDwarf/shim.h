// elfutils' libdwfl (Debian's libdw-dev): symbols and DWARF line tables for stack frames.
#include <elfutils/libdwfl.h>
