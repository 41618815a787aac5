// SPDX-License-Identifier: GPL-2.0
// sampled_ranges.h - the bucket histograms of a process that has no
// profile objects of its own: a child the kernel follows for the
// recording (the stream's KPROFILE_STREAM_INHERIT), or under -a any
// process, built by record from the stream's sample records (pid, ip,
// source, mode) as a profile would have counted them.
//
// Only the buckets that have hits are kept while recording (a short child
// of a build has a handful), and a range is written as pieces covering
// just those: each from a bucket with hits to the last one that follows
// within kGap buckets (base and file offset moved with it), so a thousand
// children cost kilobytes, not the catch-all's 65,536 counters or the
// kernel text's 220,000 each.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "profile_file.h"

namespace kprofile::record {

class SampledRanges {
public:
	// One hit at @ip in the range @meta describes (kind, source, mode,
	// base, size, bucket_shift, object, file_offset, pid; no buckets).
	// @ip must be inside it.
	void hit(const RangeRecord &meta, std::uint64_t ip);
	// The ranges with their hits, as pieces over their buckets with
	// hits, in the order the ranges were first hit (each range's pieces
	// by address).
	std::vector<RangeRecord> records() const;
	// Buckets with hits at most this far apart share a piece.
	static constexpr std::uint64_t kGap = 64;
	std::uint64_t hits() const { return hits_; }

private:
	struct Range {
		RangeRecord meta;
		std::map<std::uint64_t, std::uint32_t> counts;	// bucket -> hits
	};
	std::vector<Range> ranges_;
	std::uint64_t hits_ = 0;
};

} // namespace kprofile::record
