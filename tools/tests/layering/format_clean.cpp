// SPDX-License-Identifier: GPL-2.0
// Planted (tests/layering): a file-format source as it may be, using its
// own headers and util's.  Must build and link.
#include <string>

#include "record_codec.h"
#include "unique_fd.h"

namespace kprofile::record {

void planted_pad(std::string &out)
{
	UniqueFd fd;
	encode_pad(out, fd ? 8 : 16);
}

} // namespace kprofile::record
