// SPDX-License-Identifier: GPL-2.0
// sample_file.h - the sample section of the record file (version 3,
// docs/record-format.md): the header's "samples" object and the records,
// stored in the layout of <linux/kprofile_stream.h> (record_codec.h).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "record/sample_data.h"

namespace kprofile::record {

// The "samples" header object for @s, whose records start at
// @data_offset of the data area; the records are appended to @section
// (samples and task records merged in time order).
nlohmann::json samples_header(const SampleData &s, std::uint64_t data_offset,
			      std::string &section);

// Read the sample section described by @j from @bytes (the data area is
// [data_start, data_start + data_len)); @objects is the number of objects
// (mappings must name one of them).  Throws FormatError on anything
// malformed: a section outside the data, a record that does not decode,
// counts that disagree, a mapping of a missing object.
SampleData parse_samples(const nlohmann::json &j, const std::string &bytes,
			 std::size_t data_start, std::uint64_t data_len, std::size_t objects);

} // namespace kprofile::record
