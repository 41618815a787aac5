// SPDX-License-Identifier: GPL-2.0
// sample_symbols.cpp - frames of samples to objects and symbols.
#include "sample_symbols.h"

#include <algorithm>

#include <fmt/format.h>

namespace kprofile::record {

namespace {

constexpr int kMaxForkDepth = 16;

std::string basename_of(const std::string &path)
{
	auto slash = path.rfind('/');

	return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "name [module]" (kernel_symbol_table()) -> "[module]", else "".
std::string module_of(const std::string &name)
{
	if (name.size() < 4 || name.back() != ']')
		return "";
	auto open = name.rfind(" [");
	return open == std::string::npos ? "" : name.substr(open + 1);
}

} // namespace

SampleSymbols::SampleSymbols(const ProfileData &data, RangeResolver &resolver, bool srcline,
			     std::string symfs)
	: data_(data), resolver_(resolver), srcline_(srcline), unwinder_(data, std::move(symfs))
{
	for (const auto &t : data.samples.tasks) {
		PidInfo &p = pids_[t.pid];
		if (t.kind == TaskKind::Exec)
			p.execs.push_back(t.time);
		if (t.kind == TaskKind::Fork) {
			p.ppid = t.ppid;
			p.fork_time = t.time;
		}
		if (t.kind != TaskKind::Exit && !t.comm.empty())
			p.comms.push_back({t.time, t.comm});
	}
	const auto &maps = data.samples.maps;
	for (std::size_t i = 0; i < maps.size(); i++) {
		PidInfo &p = pids_[maps[i].pid];
		p.snaps.push_back(i);
		if (!maps[i].comm.empty())
			p.comms.push_back({maps[i].time, maps[i].comm});
	}
	for (auto &[pid, p] : pids_) {
		std::sort(p.execs.begin(), p.execs.end());
		std::stable_sort(p.snaps.begin(), p.snaps.end(), [&](std::size_t a, std::size_t b) {
			return maps[a].time < maps[b].time;
		});
		std::stable_sort(p.comms.begin(), p.comms.end(),
				 [](const auto &a, const auto &b) { return a.first < b.first; });
	}
}

std::vector<std::string> SampleSymbols::warnings() const
{
	auto w = resolver_.warnings();
	for (auto &u : unwinder_.warnings())
		w.push_back(std::move(u));
	return w;
}

std::string SampleSymbols::comm(std::int64_t pid, std::uint64_t time) const
{
	if (pid == 0)
		return "swapper";
	auto it = pids_.find(pid);
	if (it != pids_.end() && !it->second.comms.empty()) {
		const auto &c = it->second.comms;
		auto after = std::upper_bound(c.begin(), c.end(), time,
					      [](std::uint64_t t, const auto &e) { return t < e.first; });
		return after == c.begin() ? c.front().second : std::prev(after)->second;
	}
	std::string known = process_comm(data_, pid);
	return known.empty() ? fmt::format(":{}", pid) : known;
}

std::vector<std::size_t> SampleSymbols::candidates(std::int64_t pid, std::uint64_t time) const
{
	auto it = pids_.find(pid);
	if (it == pids_.end())
		return {};
	const PidInfo &p = it->second;
	const auto &maps = data_.samples.maps;
	// The exec generation: EXEC records at or before @time; a snapshot's,
	// those strictly before its read.
	auto gen_at = [&](std::uint64_t t, bool inclusive) {
		auto e = inclusive ? std::upper_bound(p.execs.begin(), p.execs.end(), t) :
				     std::lower_bound(p.execs.begin(), p.execs.end(), t);
		return e - p.execs.begin();
	};
	const auto gen = gen_at(time, true);
	std::vector<std::size_t> same;
	for (std::size_t i : p.snaps)
		if (gen_at(maps[i].time, false) == gen)
			same.push_back(i);
	if (same.empty())
		return {};
	// The last read before @time first; then later reads (a library
	// mapped since), then earlier ones.
	std::size_t anchor = 0;
	while (anchor + 1 < same.size() && maps[same[anchor + 1]].time <= time)
		anchor++;
	std::vector<std::size_t> out;
	for (std::size_t i = anchor; i < same.size(); i++)
		out.push_back(same[i]);
	for (std::size_t i = anchor; i-- > 0;)
		out.push_back(same[i]);
	return out;
}

const RangeResolver::View &SampleSymbols::view(std::size_t snap, std::size_t mapping)
{
	auto [it, added] = views_.try_emplace({snap, mapping});
	if (added) {
		const SnapshotMapping &m = data_.samples.maps[snap].mappings[mapping];
		if (m.object >= 0) {
			RangeRecord r;
			r.kind = RangeKind::Object;
			r.base = m.start;
			r.size = m.end - m.start;
			r.object = m.object;
			r.file_offset = m.offset;
			r.bucket_shift = 2;
			it->second = resolver_.view(data_, r);
		}
	}
	return it->second;
}

int SampleSymbols::intern(FrameSym f)
{
	frames_.push_back(std::move(f));
	return static_cast<int>(frames_.size() - 1);
}

std::vector<std::size_t> SampleSymbols::lookup(std::int64_t &pid, std::uint64_t &time) const
{
	std::vector<std::size_t> cands;
	// A child without a snapshot of its own yet runs its parent's
	// program until it execs: look at the parent's at the fork.
	for (int depth = 0; depth < kMaxForkDepth; depth++) {
		cands = candidates(pid, time);
		auto it = pids_.find(pid);
		if (!cands.empty() || it == pids_.end() || !it->second.ppid ||
		    (!it->second.execs.empty() && it->second.execs.front() <= time))
			break;
		time = it->second.fork_time;
		pid = it->second.ppid;
	}
	return cands;
}

std::vector<std::uint64_t> SampleSymbols::unwound(const SampleRecord &s, bool &truncated)
{
	std::int64_t pid = s.pid;
	std::uint64_t time = s.time;
	const auto cands = lookup(pid, time);
	if (cands.empty()) {
		truncated = true;
		return {s.regs.size() > kDwarfRip ? s.regs[kDwarfRip] : s.ip};
	}
	UnwindResult r = unwinder_.unwind(s, cands);
	truncated = r.truncated();
	return std::move(r.frames);
}

const PerfMap::Entry *SampleSymbols::jit_symbol(std::int64_t pid, std::uint64_t addr)
{
	auto [it, added] = perf_maps_.try_emplace(pid);
	if (added)
		it->second = PerfMap::load(perf_map_path(pid, perf_map_dir_));
	return it->second ? it->second->find(addr) : nullptr;
}

int SampleSymbols::user_frame(std::int64_t pid, std::uint64_t time, std::uint64_t addr, bool ret)
{
	const std::int64_t sampled_pid = pid;
	const std::vector<std::size_t> cands = lookup(pid, time);
	const std::size_t anchor = cands.empty() ? SIZE_MAX : cands.front();
	auto [cit, added] = user_cache_.try_emplace({pid, anchor, addr, ret}, -1);
	if (!added)
		return cit->second;

	const std::uint64_t look = ret && addr ? addr - 1 : addr;
	const auto &maps = data_.samples.maps;
	FrameSym f;
	f.address = addr;
	f.symbol = f.object = f.object_path = "[unknown]";
	for (std::size_t snap : cands) {
		const auto &ms = maps[snap].mappings;
		auto m = std::upper_bound(ms.begin(), ms.end(), look,
					  [](std::uint64_t a, const SnapshotMapping &x) {
						  return a < x.start;
					  });
		if (m == ms.begin() || look >= std::prev(m)->end)
			continue;
		--m;
		f.object_path = m->object >= 0 ? data_.objects[m->object].path : "[anon]";
		f.object = basename_of(f.object_path);
		f.symbol = fmt::format("{}+{:#x}", f.object, addr - m->start + m->offset);
		const auto &v = view(snap, static_cast<std::size_t>(m - ms.begin()));
		if (v.table && v.translate) {
			if (auto t = v.translate(look)) {
				if (const Symbol *s = v.table->find(*t)) {
					f.symbol = s->name;
					f.resolved = true;
					f.offset = *t + (look != addr) - s->start;
				}
				if (srcline_ && v.srcline)
					f.srcline = v.srcline(*t);
			}
		}
		break;
	}
	// Generated code (no file behind it): the JIT's perf-PID.map, the
	// sampled process's own, else that of the process it was forked from.
	if (!f.resolved && (f.object_path == "[unknown]" || f.object_path == "[anon]")) {
		for (std::int64_t p : {sampled_pid, pid}) {
			if (const PerfMap::Entry *e = jit_symbol(p, look)) {
				f.object_path = perf_map_path(p, perf_map_dir_);
				f.object = basename_of(f.object_path);
				f.symbol = e->name;
				f.resolved = true;
				f.offset = look + (look != addr) - e->start;
				break;
			}
		}
	}
	cit->second = intern(std::move(f));
	return cit->second;
}

int SampleSymbols::kernel_frame(std::uint64_t addr, bool ret)
{
	auto [cit, added] = kernel_cache_[ret].try_emplace(addr, -1);
	if (!added)
		return cit->second;
	if (!kernel_loaded_) {
		RangeRecord r;
		r.kind = RangeKind::Kernel;
		r.bucket_shift = 2;
		kernel_view_ = resolver_.view(data_, r);
		kernel_loaded_ = true;
	}
	const std::uint64_t look = ret ? addr - 1 : addr;
	FrameSym f;
	f.address = addr;
	f.kernel = true;
	f.object = f.object_path = "[kernel]";
	f.symbol = fmt::format("{:#x}", addr);
	if (kernel_view_.table) {
		if (const Symbol *s = kernel_view_.table->find(look)) {
			f.symbol = s->name;
			f.resolved = true;
			f.offset = addr - s->start;
			// "fn [mod]": the module is the frame's object, the name
			// fn alone, as perf's "fn+0x3d4 ([mod])" (script printed
			// "fn [mod]+0x3d4 ([mod])", pprof "fn [mod]").
			if (std::string mod = module_of(s->name); !mod.empty()) {
				f.object = f.object_path = mod;
				f.symbol = s->name.substr(0, s->name.size() - mod.size() - 1);
			}
		}
	}
	cit->second = intern(std::move(f));
	return cit->second;
}

NamedSample SampleSymbols::name(const SampleRecord &s)
{
	NamedSample n;

	n.record = &s;
	n.comm = comm(s.pid, s.time);
	n.truncated = s.truncated();
	if (s.regs.size() == kDwarfRegs) {
		// --call-graph dwarf: the kernel frames as recorded, then the
		// user ones from the stack copy (instead of the module's
		// frame-pointer walk).
		const std::size_t nk = std::min<std::size_t>(s.nr_kernel, s.frames.size());
		bool cut = false;
		const auto user = unwound(s, cut);
		n.truncated = cut;
		n.frames.reserve(nk + user.size());
		for (std::size_t i = 0; i < nk; i++)
			n.frames.push_back(kernel_frame(s.frames[i], i != 0));
		for (std::size_t i = 0; i < user.size(); i++)
			n.frames.push_back(user_frame(s.pid, s.time, user[i], i != 0));
		if (!n.frames.empty())
			return n;
	}
	if (s.frames.empty()) {
		n.frames.push_back(s.user_mode() ? user_frame(s.pid, s.time, s.ip, false) :
				   kernel_frame(s.ip, false));
		return n;
	}
	n.frames.reserve(s.frames.size());
	for (std::size_t i = 0; i < s.frames.size(); i++) {
		// The innermost kernel and user entries are where the task
		// was; the others are return addresses (named by the call
		// before them).
		const bool ret = i != 0 && i != s.nr_kernel;
		n.frames.push_back(s.kernel_frame(i) ? kernel_frame(s.frames[i], ret) :
				   user_frame(s.pid, s.time, s.frames[i], ret));
	}
	return n;
}

} // namespace kprofile::record
