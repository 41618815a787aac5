// SPDX-License-Identifier: GPL-2.0
// Planted (tests/layering): a file-format source calling the symbols
// layer without its header, through a declaration of its own.  Compiles;
// must not link.
#include <cstddef>
#include <vector>

#include "profile_file.h"

namespace kprofile::record {

std::vector<KernelSymbolRecord> read_kallsyms();	// symbols/symbolize.h

std::size_t planted_kernel_symbols()
{
	return read_kallsyms().size();
}

} // namespace kprofile::record
