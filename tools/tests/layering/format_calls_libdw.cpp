// SPDX-License-Identifier: GPL-2.0
// Planted (tests/layering): a file-format source calling libdw, whose
// header every compiler finds in /usr/include.  Compiles; must not link:
// the file format does not link libdw.
#include <elfutils/libdw.h>

#include "record_codec.h"

namespace kprofile::record {

bool planted_has_dwarf(int fd)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	return dw != nullptr;
}

} // namespace kprofile::record
