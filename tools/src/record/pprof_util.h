// SPDX-License-Identifier: GPL-2.0
// pprof_util.h - what both pprof writers (report_export.cpp: bucket rows,
// sample_export.cpp: samples with stacks) need: the profile's string table
// and its gzipped encoding.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "profile.pb.h"

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
