// SPDX-License-Identifier: GPL-2.0
// crc32.cpp - CRC-32 of the record file's sections: the reflected
// polynomial 0xedb88320, initial value and final xor ~0, as zlib; a byte a
// step through one table.
#include "record/crc32.h"

#include <array>

namespace kprofile::record {

std::uint32_t crc32(std::uint32_t crc, const void *p, std::size_t len)
{
	static const auto table = [] {
		std::array<std::uint32_t, 256> t{};
		for (std::uint32_t i = 0; i < 256; i++) {
			std::uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
			t[i] = c;
		}
		return t;
	}();
	const auto *b = static_cast<const unsigned char *>(p);
	std::uint32_t c = ~crc;

	for (std::size_t i = 0; i < len; i++)
		c = table[(c ^ b[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

} // namespace kprofile::record
