// SPDX-License-Identifier: GPL-2.0
// sample_file.cpp - write and read the record file's sample section.
#include "sample_file.h"

#include <algorithm>

#include <linux/kprofile.h>

#include "crc32.h"
#include "json_field.h"
#include "profile_file.h"
#include "record_codec.h"

namespace kprofile::record {

using nlohmann::json;

namespace {

template <typename T>
T get(const json &j, const char *key, T fallback)
{
	return json_field_or<T>(j, key, std::move(fallback), "samples ");
}

json maps_json(const std::vector<MapsSnapshot> &maps)
{
	json out = json::array();

	for (const auto &m : maps) {
		json list = json::array();
		for (const auto &e : m.mappings)
			list.push_back({e.start, e.end, e.offset, e.object});
		out.push_back({{"pid", m.pid}, {"time", m.time}, {"comm", m.comm},
			       {"mappings", std::move(list)}});
	}
	return out;
}

std::vector<MapsSnapshot> maps_from_json(const json &j, std::size_t objects)
{
	std::vector<MapsSnapshot> out;

	if (!j.is_array())
		throw FormatError("record file: samples \"maps\" is not an array");
	for (const auto &m : j) {
		MapsSnapshot s;
		s.pid = get<std::int64_t>(m, "pid", 0);
		s.time = get<std::uint64_t>(m, "time", 0);
		s.comm = get<std::string>(m, "comm", "");
		for (const auto &e : get<json>(m, "mappings", json::array())) {
			if (!e.is_array() || e.size() != 4)
				throw FormatError("record file: a mapping is not [start, end, offset, "
						  "object]");
			SnapshotMapping sm;
			try {
				sm.start = e[0].get<std::uint64_t>();
				sm.end = e[1].get<std::uint64_t>();
				sm.offset = e[2].get<std::uint64_t>();
				sm.object = e[3].get<int>();
			} catch (const json::exception &) {
				throw FormatError("record file: a mapping has a value of the wrong type");
			}
			if (sm.end <= sm.start || sm.object < -1 ||
			    sm.object >= static_cast<int>(objects))
				throw FormatError("record file: a mapping is empty or names a missing "
						  "object");
			s.mappings.push_back(sm);
		}
		out.push_back(std::move(s));
	}
	return out;
}

std::string hex_of(const std::string &bytes)
{
	static const char digits[] = "0123456789abcdef";
	std::string out;
	out.reserve(bytes.size() * 2);
	for (unsigned char c : bytes) {
		out += digits[c >> 4];
		out += digits[c & 15];
	}
	return out;
}

bool bytes_of_hex(const std::string &hex, std::string &out)
{
	auto nibble = [](char c) {
		return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
	};
	if (hex.size() % 2)
		return false;
	out.clear();
	for (std::size_t i = 0; i < hex.size(); i += 2) {
		const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out += static_cast<char>(hi << 4 | lo);
	}
	return true;
}

} // namespace

SampleSection sample_section(const SampleData &s)
{
	SampleSection out;
	std::size_t i = 0, t = 0, fixed_piece = 0;
	// The bytes appended to @fixed since the last piece become one.
	auto close_fixed = [&] {
		if (out.fixed.size() > fixed_piece)
			out.pieces.push_back({nullptr, out.fixed.size() - fixed_piece});
		fixed_piece = out.fixed.size();
	};

	// Merge samples and task records by time (each list is sorted).
	while (i < s.samples.size() || t < s.tasks.size()) {
		if (t == s.tasks.size() ||
		    (i < s.samples.size() && s.samples[i].time < s.tasks[t].time)) {
			const SampleRecord &r = s.samples[i++];
			encode_sample_head(out.fixed, r);
			if (!r.stack.empty() && (r.flags & KPROFILE_SAMPLE_STACK)) {
				close_fixed();
				out.pieces.push_back({r.stack.data(), r.stack.size()});
			}
			out.fixed.append(stack_padding(r), '\0');
		} else {
			encode_record(out.fixed, s.tasks[t++]);
		}
	}
	close_fixed();
	out.each([&out](const char *p, std::size_t len) {
		out.size += len;
		out.crc = crc32(out.crc, p, len);
	});
	return out;
}

json samples_header(const SampleData &s, std::uint64_t data_offset, const SampleSection &section)
{
	json j = {
		{"encoding", "kprofile-stream-records"},
		{"data_offset", data_offset},
		{"bytes", section.size},
		{"samples", s.samples.size()},
		{"tasks", s.tasks.size()},
		{"callchain", s.callchain},
		{"mode", s.mode},
		{"ring_pages", s.ring_pages},
		{"max_frames", s.max_frames},
		{"lost", s.lost},
		{"untracked", s.untracked},
		{"not_dumpable", s.not_dumpable},
		{"filtered", s.filtered},
		{"problems", s.problems},
		{"maps", maps_json(s.maps)},
	};
	if (s.stack_bytes) {
		// --call-graph dwarf: samples carry their user stack copies;
		// report unwinds them, through the vDSO with its image.
		j["stack_bytes"] = s.stack_bytes;
		j["stack_short"] = s.stack_short;
		j["vdso"] = hex_of(s.vdso);
	}
	return j;
}

SampleData parse_samples(const json &j, const std::string &bytes, std::size_t data_start,
			 std::uint64_t data_len, std::size_t objects)
{
	SampleData s;

	if (!j.is_object())
		throw FormatError("record file: \"samples\" is not an object");
	const std::string enc = get<std::string>(j, "encoding", "");
	if (enc != "kprofile-stream-records")
		throw FormatError("record file: unknown sample encoding \"" + enc + "\"");
	const auto off = get<std::uint64_t>(j, "data_offset", 0);
	const auto len = get<std::uint64_t>(j, "bytes", 0);
	if (off > data_len || len > data_len - off)
		throw FormatError("record file is truncated (sample data)");
	s.present = true;
	s.callchain = get<bool>(j, "callchain", false);
	s.mode = get<std::uint32_t>(j, "mode", 0);
	s.ring_pages = get<std::uint32_t>(j, "ring_pages", 0);
	s.max_frames = get<std::uint32_t>(j, "max_frames", 0);
	s.lost = get<std::uint64_t>(j, "lost", 0);
	s.untracked = get<std::uint64_t>(j, "untracked", 0);
	s.not_dumpable = get<std::uint64_t>(j, "not_dumpable", 0);
	s.filtered = get<std::uint64_t>(j, "filtered", 0);
	s.problems = get<std::vector<std::string>>(j, "problems", {});
	s.maps = maps_from_json(get<json>(j, "maps", json::array()), objects);
	s.stack_bytes = get<std::uint32_t>(j, "stack_bytes", 0);
	s.stack_short = get<std::uint64_t>(j, "stack_short", 0);
	if (!bytes_of_hex(get<std::string>(j, "vdso", ""), s.vdso))
		throw FormatError("record file: samples \"vdso\" is not hex");

	const char *p = bytes.data() + data_start + off;
	std::uint64_t pos = 0;
	while (pos < len) {
		Decoded d = decode_record(p + pos, static_cast<std::size_t>(len - pos));
		if (!d.error.empty())
			throw FormatError("record file: sample data at byte " + std::to_string(pos) +
					  ": " + d.error);
		pos += d.size;
		if (!d.record)
			continue;
		if (auto *smp = std::get_if<SampleRecord>(&*d.record))
			s.samples.push_back(std::move(*smp));
		else
			s.tasks.push_back(std::get<TaskRecord>(std::move(*d.record)));
	}
	// The writer merges them in time order; a file that is not stays
	// readable.
	auto by_time = [](const auto &a, const auto &b) { return a.time < b.time; };
	std::stable_sort(s.samples.begin(), s.samples.end(), by_time);
	std::stable_sort(s.tasks.begin(), s.tasks.end(), by_time);
	std::stable_sort(s.maps.begin(), s.maps.end(), by_time);
	if (s.samples.size() != get<std::uint64_t>(j, "samples", s.samples.size()) ||
	    s.tasks.size() != get<std::uint64_t>(j, "tasks", s.tasks.size()))
		throw FormatError("record file: the sample section holds other counts than its "
				  "header says");
	return s;
}

} // namespace kprofile::record
