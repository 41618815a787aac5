// SPDX-License-Identifier: GPL-2.0
// crc32.h - CRC-32 (IEEE 802.3): the record file's section checksums
// (docs/record-format.md), over megabytes of stack copies with
// --call-graph dwarf.  Intel's ISA-L computes it (Debian's libisal: 64
// bytes a step with PCLMULQDQ where the CPU has it, chosen at run time):
// zlib's crc32_z() is the same function at about four instructions a
// byte, 14,000 a 3.7 KiB stack copy, which an icount guest charges.
#pragma once

#include <cstddef>
#include <cstdint>

#include <isa-l/crc.h>

namespace kprofile::record {

// The CRC of @len bytes at @p continued from @crc, the CRC of the bytes
// before them (0 for none): crc32(crc32(0, a), b) is the CRC of a
// followed by b.
inline std::uint32_t crc32(std::uint32_t crc, const void *p, std::size_t len)
{
	return ::crc32_gzip_refl(crc, static_cast<const unsigned char *>(p), len);
}

} // namespace kprofile::record
