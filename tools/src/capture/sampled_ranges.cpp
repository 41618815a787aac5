// SPDX-License-Identifier: GPL-2.0
// sampled_ranges.cpp - bucket histograms built from sample records.
#include "sampled_ranges.h"

#include <algorithm>

namespace kprofile::record {

namespace {

bool same_range(const RangeRecord &a, const RangeRecord &b)
{
	return a.kind == b.kind && a.source == b.source && a.base == b.base && a.size == b.size &&
	       a.bucket_shift == b.bucket_shift && a.object == b.object && a.mode == b.mode &&
	       a.file_offset == b.file_offset && a.pid == b.pid;
}

} // namespace

void SampledRanges::hit(const RangeRecord &meta, std::uint64_t ip)
{
	auto it = std::find_if(ranges_.begin(), ranges_.end(),
			       [&](const Range &r) { return same_range(r.meta, meta); });
	if (it == ranges_.end()) {
		ranges_.push_back({meta, {}});
		it = std::prev(ranges_.end());
		it->meta.buckets.clear();
	}
	it->counts[(ip - meta.base) >> meta.bucket_shift]++;
	it->meta.hits++;
	hits_++;
}

std::vector<RangeRecord> SampledRanges::records() const
{
	std::vector<RangeRecord> out;

	for (const auto &r : ranges_) {
		auto it = r.counts.begin();
		while (it != r.counts.end()) {
			// One piece: buckets with hits no more than kGap apart.
			auto last = it, next = std::next(it);
			while (next != r.counts.end() && next->first - last->first <= kGap)
				last = next++;
			RangeRecord rec = r.meta;
			const std::uint64_t first = it->first;
			const std::uint64_t skip = first << rec.bucket_shift;
			rec.base += skip;
			rec.file_offset += rec.kind == RangeKind::Object ? skip : 0;
			rec.size = std::min(rec.size - skip,
					    (last->first - first + 1) << rec.bucket_shift);
			rec.buckets.assign(last->first - first + 1, 0);
			rec.hits = 0;
			for (; it != next; ++it) {
				rec.buckets[it->first - first] = it->second;
				rec.hits += it->second;
			}
			out.push_back(std::move(rec));
		}
	}
	return out;
}

} // namespace kprofile::record
