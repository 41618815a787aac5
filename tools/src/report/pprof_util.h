// SPDX-License-Identifier: GPL-2.0
// pprof_util.h - what both pprof writers (report_export.cpp: bucket rows,
// sample_export.cpp: samples with stacks) need: the profile's string table,
// its time and cpu sample type, its mappings, functions and locations, and
// its gzipped encoding.
#pragma once

#include <cstdint>
#include <map>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "profile.pb.h"
#include "profile_file.h"

namespace kprofile::record {

// Strings of a pprof profile: index 0 is "".
class StringTable {
public:
	explicit StringTable(perftools::profiles::Profile &p) : p_(p) { id(""); }
	std::int64_t id(const std::string &s)
	{
		auto [it, added] = ids_.try_emplace(s, static_cast<std::int64_t>(ids_.size()));
		if (added)
			p_.add_string_table(s);
		return it->second;
	}

private:
	perftools::profiles::Profile &p_;
	std::map<std::string, std::int64_t> ids_;
};

// The recording's start and length (@data's start_time in seconds).
inline void set_profile_time(perftools::profiles::Profile &p, const ProfileData &data)
{
	p.set_time_nanos(static_cast<std::int64_t>(data.start_time) * 1000000000);
	p.set_duration_nanos(static_cast<std::int64_t>(data.duration_ns));
}

// A "count" value named @name (a source's hits); returns its index among
// the sample types.
inline int add_count_type(perftools::profiles::Profile &p, StringTable &st,
			  const std::string &name)
{
	const int index = p.sample_type_size();
	auto *vt = p.add_sample_type();
	vt->set_type(st.id(name));
	vt->set_unit(st.id("count"));
	return index;
}

// The "cpu"/"nanoseconds" value that a ProfileTime hit stands for (its
// @interval is in 100 ns units), made the period and the default sample
// type; returns its index among the sample types.
inline int add_cpu_time_type(perftools::profiles::Profile &p, StringTable &st,
			     std::uint32_t interval)
{
	const int index = p.sample_type_size();
	auto *vt = p.add_sample_type();
	vt->set_type(st.id("cpu"));
	vt->set_unit(st.id("nanoseconds"));
	p.mutable_period_type()->set_type(st.id("cpu"));
	p.mutable_period_type()->set_unit(st.id("nanoseconds"));
	p.set_period(static_cast<std::int64_t>(interval) * 100);
	p.set_default_sample_type(st.id("cpu"));
	return index;
}

// Mapping @id of the object at @path: its build ID from @objects, and the
// address range [@lo, @hi) at file offset @off when @hi > @lo.
inline void add_mapping(perftools::profiles::Profile &p, StringTable &st, std::uint64_t id,
			const std::string &path, const std::vector<ObjectRecord> &objects,
			std::uint64_t lo, std::uint64_t hi, std::uint64_t off)
{
	perftools::profiles::Mapping *m = p.add_mapping();
	m->set_id(id);
	m->set_filename(st.id(path));
	for (const auto &o : objects)
		if (o.path == path && !o.build_id.empty())
			m->set_build_id(st.id(o.build_id));
	if (hi > lo) {
		m->set_memory_start(lo);
		m->set_memory_limit(hi);
		m->set_file_offset(off);
	}
	m->set_has_functions(true);
}

// Function @id named @symbol, in the file @srcline names ("file:line").
inline void add_function(perftools::profiles::Profile &p, StringTable &st, std::uint64_t id,
			 const std::string &symbol, const std::string &srcline)
{
	perftools::profiles::Function *fn = p.add_function();
	fn->set_id(id);
	fn->set_name(st.id(symbol));
	fn->set_system_name(st.id(symbol));
	fn->set_filename(st.id(srcline.substr(0, srcline.rfind(':'))));
}

// Location @id at @address in @mapping: one line of @function, at the
// line number @srcline ends with (none without a ':').
inline void add_location(perftools::profiles::Profile &p, std::uint64_t id, std::uint64_t mapping,
			 std::uint64_t address, std::uint64_t function, const std::string &srcline)
{
	perftools::profiles::Location *l = p.add_location();
	l->set_id(id);
	l->set_mapping_id(mapping);
	l->set_address(address);
	perftools::profiles::Line *line = l->add_line();
	line->set_function_id(function);
	if (auto colon = srcline.rfind(':'); colon != std::string::npos)
		line->set_line(std::strtoll(srcline.c_str() + colon + 1, nullptr, 10));
}

// pprof takes the first mapping for the main binary ("File: ..." in
// `go tool pprof`): move the mapping of the recording's program there
// (the command's, or -p's process's name), else the first one that is
// a file, not "[kernel]" or a module (it once showed File: [kernel]).
inline void main_mapping_first(perftools::profiles::Profile &p, const ProfileData &data)
{
	std::string main = data.command.empty() ? process_comm(data, data.pid) : data.command[0];
	main = main.substr(main.rfind('/') == std::string::npos ? 0 : main.rfind('/') + 1);
	int best = -1;
	for (int i = 0; i < p.mapping_size(); i++) {
		const std::string &f = p.string_table(static_cast<int>(p.mapping(i).filename()));
		const std::string base = f.substr(f.rfind('/') == std::string::npos ? 0 :
						  f.rfind('/') + 1);
		if (!main.empty() && base == main) {
			best = i;
			break;
		}
		if (best < 0 && !f.empty() && f[0] != '[')
			best = i;
	}
	if (best > 0)
		p.mutable_mapping()->SwapElements(0, best);
}

// @p serialized and gzipped, as pprof files are.
inline std::string gzip_profile(const perftools::profiles::Profile &p)
{
	std::string out;
	{
		google::protobuf::io::StringOutputStream sink(&out);
		google::protobuf::io::GzipOutputStream::Options opts;
		opts.format = google::protobuf::io::GzipOutputStream::GZIP;
		google::protobuf::io::GzipOutputStream gz(&sink, opts);
		if (!p.SerializeToZeroCopyStream(&gz) || !gz.Close())
			throw std::runtime_error("cannot encode the pprof profile");
	}
	return out;
}

} // namespace kprofile::record
