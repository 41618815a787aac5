// SPDX-License-Identifier: GPL-2.0
// sample_unwind.cpp - see sample_unwind.h.
#include "sample_unwind.h"

#include <algorithm>
#include <set>

#include <linux/kprofile.h>

namespace kprofile::record {

SampleUnwinder::SampleUnwinder(const ProfileData &data, std::string symfs) : data_(data)
{
	opts_.symfs = std::move(symfs);
	opts_.vdso.assign(data.samples.vdso.begin(), data.samples.vdso.end());
}

UnwindResult SampleUnwinder::unwind(const SampleRecord &s, const std::vector<std::size_t> &snaps)
{
	auto [it, added] = spaces_.try_emplace(snaps);
	if (added) {
		std::vector<UnwindMapping> maps;
		for (std::size_t i : snaps) {
			for (const auto &m : data_.samples.maps[i].mappings) {
				const bool overlaps = std::any_of(maps.begin(), maps.end(), [&](const auto &o) {
					return m.start < o.end && o.start < m.end;
				});
				if (overlaps)
					continue;
				maps.push_back({m.start, m.end, m.offset,
						m.object >= 0 ? data_.objects[m.object].path : ""});
			}
		}
		it->second = std::make_unique<UnwindSpace>(std::move(maps), opts_);
	}
	UserRegs regs;
	for (unsigned i = 0; i < kDwarfRegs && i < s.regs.size(); i++)
		regs.set(i, s.regs[i]);
	StackCopy stack;
	stack.sp = regs.sp();
	stack.bytes.assign(s.stack.begin(), s.stack.end());
	return it->second->unwind(regs, stack, KPROFILE_STREAM_MAX_FRAMES);
}

std::vector<std::string> SampleUnwinder::warnings() const
{
	std::set<std::string> seen;
	std::vector<std::string> out;
	for (const auto &[key, space] : spaces_)
		for (const auto &w : space->warnings())
			if (seen.insert(w).second)
				out.push_back("unwinding: " + w);
	return out;
}

} // namespace kprofile::record
