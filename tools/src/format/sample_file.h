// SPDX-License-Identifier: GPL-2.0
// sample_file.h - the sample section of the record file (version 3,
// docs/record-format.md): the header's "samples" object and the records,
// stored in the layout of <linux/kprofile_stream.h> (record_codec.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sample_data.h"

namespace kprofile::record {

// The records of the sample section as they go into the file: samples
// and task records merged in time order, each in the layout
// encode_record() gives, but a sample's stack copy (--call-graph dwarf,
// most of the bytes) is not copied: a piece points at it where it lies in
// the SampleData, which must outlive this.  The other bytes are in
// @fixed, in order.
struct SampleSection {
	std::string fixed;
	struct Piece {
		const char *at;		// nullptr: the next @len bytes of @fixed
		std::size_t len;
	};
	std::vector<Piece> pieces;
	std::uint64_t size = 0;		// bytes in all
	std::uint32_t crc = 0;		// their CRC-32 (crc32.h)

	// @f(const char *p, std::size_t len) for each piece, in order.
	template <typename F> void each(F &&f) const
	{
		std::size_t off = 0;
		for (const auto &p : pieces) {
			if (p.at) {
				f(p.at, p.len);
			} else {
				f(fixed.data() + off, p.len);
				off += p.len;
			}
		}
	}
	void append_to(std::string &out) const
	{
		each([&out](const char *p, std::size_t len) { out.append(p, len); });
	}
};

SampleSection sample_section(const SampleData &s);

// The "samples" header object for @s, whose records (@section, of @s)
// start at @data_offset of the data area.
nlohmann::json samples_header(const SampleData &s, std::uint64_t data_offset,
			      const SampleSection &section);

// Read the sample section described by @j from @bytes (the data area is
// [data_start, data_start + data_len)); @objects is the number of objects
// (mappings must name one of them).  Throws FormatError on anything
// malformed: a section outside the data, a record that does not decode,
// counts that disagree, a mapping of a missing object.
SampleData parse_samples(const nlohmann::json &j, const std::string &bytes,
			 std::size_t data_start, std::uint64_t data_len, std::size_t objects);

} // namespace kprofile::record
