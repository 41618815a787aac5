// SPDX-License-Identifier: GPL-2.0
// crc32.h - CRC-32 (IEEE 802.3, zlib's crc32()): the record file's section
// checksums (docs/record-format.md), over megabytes of stack copies with
// --call-graph dwarf.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kprofile::record {

// The CRC of @len bytes at @p continued from @crc, the CRC of the bytes
// before them (0 for none), as zlib's crc32(crc, p, len): crc32(crc32(0,
// a), b) is the CRC of a followed by b.  Eight bytes a step through
// tables, or 64 with carry-less multiplication (PCLMULQDQ) on CPUs that
// have it.
std::uint32_t crc32(std::uint32_t crc, const void *p, std::size_t len);

// The same, a byte a step through one table: the reference the tests
// check the fast paths against.
std::uint32_t crc32_bytewise(std::uint32_t crc, const void *p, std::size_t len);

} // namespace kprofile::record
