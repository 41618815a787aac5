// SPDX-License-Identifier: GPL-2.0
// record_codec.h - the records of <linux/kprofile_stream.h> as bytes: one
// decoder for the module's rings and the record file's sample section
// (which stores the records in the same layout), and the encoder that
// writes them (record, and the tests' synthetic rings).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "sample_data.h"

namespace kprofile::record {

using StreamRecord = std::variant<SampleRecord, TaskRecord>;

struct Decoded {
	// Bytes the record takes (its header's size); 0 with @error set
	// when the bytes are not a valid record: nothing after them can be
	// trusted.
	std::size_t size = 0;
	// The record; nullopt for a PAD record and for a type this reader
	// does not know (skipped by its size: a newer module's).
	std::optional<StreamRecord> record;
	bool pad = false;
	std::string error;
};

// Decode the record at @p, of which @avail bytes may be read.  Checks
// that the header fits, that its size is a multiple of 8, at least the
// header, at most @avail, and large enough for the type's fixed part and
// its frames.  Never reads outside [p, p + avail).
Decoded decode_record(const void *p, std::size_t avail);

// Append @r to @out in the ABI layout (reserved fields zero, comm
// NUL-padded and cut at 15 bytes).
void encode_record(std::string &out, const SampleRecord &r);
void encode_record(std::string &out, const TaskRecord &r);
// @r's record up to its stack copy: encode_record() appends this, then
// r.stack, then stack_padding(r) zero bytes (the sample section writes
// the copies from where they lie, sample_file.h).
void encode_sample_head(std::string &out, const SampleRecord &r);
// The zero bytes after @r's stack copy that end its record on 8 bytes (0
// without KPROFILE_SAMPLE_STACK).
std::size_t stack_padding(const SampleRecord &r);
// A PAD record of @size bytes (a multiple of 8, at least 8).
void encode_pad(std::string &out, std::size_t size);

// The encoded size of @r.
std::size_t encoded_size(const SampleRecord &r);

} // namespace kprofile::record
