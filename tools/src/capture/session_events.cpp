// SPDX-License-Identifier: GPL-2.0
// session_events.cpp - what the kernel's stream tells a recording: the
// target's forks, execs and exits, and the samples of the processes that
// have no profiles of their own (docs/record.md, "Following children").
#include "session.h"

#include <unistd.h>

#include <algorithm>

#include "mono_clock.h"

namespace kprofile::record {

std::optional<std::vector<Mapping>> read_exec_maps(pid_t pid, std::uint64_t *time)
{
	// The read's start: a sample after it may be in a mapping the read
	// passed over before it was made.
	const std::uint64_t began = monotonic_ns();
	const auto all = read_maps(pid);

	if (!all)
		return std::nullopt;
	std::vector<Mapping> maps = executable_mappings(*all);
	if (time)
		*time = began;
	std::sort(maps.begin(), maps.end(),
		  [](const Mapping &a, const Mapping &b) { return a.start < b.start; });
	return maps;
}

const Mapping *mapping_at(const std::vector<Mapping> &maps, std::uint64_t addr)
{
	auto it = std::upper_bound(maps.begin(), maps.end(), addr,
				   [](std::uint64_t a, const Mapping &m) { return a < m.start; });
	if (it == maps.begin() || addr >= std::prev(it)->end)
		return nullptr;
	return &*std::prev(it);
}

Session::Proc &Session::sampled_proc(pid_t pid, pid_t ppid, const std::string &comm,
				     bool own_totals)
{
	Proc &p = procs_[pid];

	// A pid seen before is a new process now (its old one's counts are
	// kept already: it exited, or it is the pid of an earlier run).
	if (!p.alive || p.rec.pid != pid)
		p = Proc();
	p.rec = {pid, ppid, comm};
	p.own_totals = own_totals;
	return p;
}

void Session::task(const TaskRecord &t)
{
	const bool system = opts_.target == KPROFILE_TARGET_SYSTEM;
	const pid_t pid = t.pid;
	auto it = procs_.find(pid);

	switch (t.kind) {
	case TaskKind::Fork: {
		// Under -a a process is followed from its first user sample.
		if (system || pid == root_ || pid == getpid())
			return;
		auto parent = procs_.find(t.ppid);
		if (it != procs_.end() && it->second.alive && it->second.rec.pid == pid &&
		    !it->second.rec.ppid) {
			// Its samples came first (a ring read before the
			// fork's): it is followed already.
			it->second.rec.ppid = t.ppid;
			return;
		}
		Proc &p = sampled_proc(pid, t.ppid, t.comm, true);
		// A forked child runs its parent's program until it execs.
		if (parent != procs_.end()) {
			p.maps = parent->second.maps;
			p.maps_time = parent->second.maps_time;
			p.fed = parent->second.fed;
		}
		return;
	}
	case TaskKind::Exec:
		if (it == procs_.end() || !it->second.alive)
			return;
		it->second.rec.comm = t.comm;
		// Fed: the new program's MMAP2 records came before this
		// record (the loader maps it before the exec tracepoint), and
		// the old program's mappings they did not replace are gone:
		// no sample can be in them.
		if (fed(it->second))
			return;
		// The new program's mappings: read now (the exec woke us).
		// What the loader maps later is read when a sample misses.
		if (!follow_maps(it->second) && pid != root_)
			it->second.maps.clear();
		return;
	case TaskKind::Exit:
		unseen_maps_.erase(pid);
		if (it != procs_.end() && it->second.alive)
			retire(it->second);
		return;
	}
}

void Session::sample(const SampleRecord &s)
{
	const bool system = opts_.target == KPROFILE_TARGET_SYSTEM;
	const bool user = s.user_mode();
	auto it = procs_.find(s.pid);

	if (s.pid <= 0 || s.pid == getpid())
		return;
	if (it == procs_.end() || !it->second.alive) {
		// Under -a: a process with user hits gets ranges of its own.
		// Otherwise a child whose FORK record was lost.
		if (system && !user)
			return;
		Proc &p = sampled_proc(s.pid, 0, read_comm(s.pid), !system);
		follow_maps(p);
		// -a: the side band sees every process's mmaps; what it told
		// of this one before stands in for a read that came too late.
		p.fed = system;
		if (auto u = unseen_maps_.find(s.pid); u != unseen_maps_.end()) {
			if (p.maps.empty())
				p.maps = std::move(u->second);
			unseen_maps_.erase(u);
		}
		it = procs_.find(s.pid);
	}
	count(it->second, s);
}

void Session::count(Proc &p, const SampleRecord &s)
{
	const bool user = s.user_mode();
	RangeRecord r;

	if (user ? !opts_.user : !kernel_ok_)
		return;
	// The target's profiles count its totals and its kernel hits; its
	// user hits are counted here by mapping, as a child's, in the order
	// of its execs (an exec's old program's profile would go on counting
	// the new one until record saw the exec: busybox and a static
	// program share 0x400000).
	if (p.profiled && !user)
		return;
	r.source = s.source;
	r.pid = p.rec.pid;
	r.mode = user ? KPROFILE_MODE_USER : KPROFILE_MODE_KERNEL;
	if (p.own_totals && !p.profiled) {
		r.kind = RangeKind::CatchAll;
		r.base = user ? 0 : kKernelBase;
		r.size = user ? kUserTop : ~0ULL - kKernelBase;
		r.bucket_shift = kCatchAllShift;
		if (s.ip >= r.base && s.ip - r.base < r.size)
			p.sampled.hit(r, s.ip);
	}
	if (user) {
		const Mapping *m = mapping_at(p.maps, s.ip);
		if (!m && s.time > p.maps_time && !p.read_in_batch && !fed(p)) {
			// Mapped since the last read (the loader, dlopen):
			// read now, once a drain (an address a read after the
			// sample did not find is in no mapping).
			p.read_in_batch = true;
			follow_maps(p);
			m = mapping_at(p.maps, s.ip);
		}
		if (!m)
			return;
		r.kind = RangeKind::Object;
		r.base = m->start;
		r.size = m->end - m->start;
		r.bucket_shift = opts_.bucket_shift;
		r.object = object_index(m->path.empty() ? "[anon]" : m->path);
		r.file_offset = m->offset;
		p.sampled.hit(r, s.ip);
		return;
	}
	if (!p.own_totals)
		return;	// -a: the system-wide kernel profiles count it
	r.kind = RangeKind::Kernel;
	r.bucket_shift = opts_.kernel_bucket_shift;
	if (s.ip >= text_.first && s.ip < text_.second) {
		r.base = text_.first;
		r.size = text_.second - text_.first;
		p.sampled.hit(r, s.ip);
		return;
	}
	for (const auto &m : modules_) {
		if (s.ip < m.base || s.ip - m.base >= m.size)
			continue;
		r.base = m.base;
		r.size = m.size;
		r.object = object_index("[" + m.name + "]");
		p.sampled.hit(r, s.ip);
		return;
	}
}

void Session::map(const MapRecord &m)
{
	auto it = procs_.find(m.pid);

	// An exec needs nothing: its new program's mappings follow.  A
	// process not followed yet (-a) is read when first sampled; its
	// mappings are kept till then.
	if (m.exec)
		return;
	if (it == procs_.end() || !it->second.alive) {
		if (opts_.target == KPROFILE_TARGET_SYSTEM && m.pid > 0 && m.pid != getpid())
			apply_mapping(unseen_maps_[m.pid], m.mapping);
		return;
	}
	apply_mapping(it->second.maps, m.mapping);
}

void Session::side_band(std::function<bool()> complete, bool root_fed)
{
	side_band_ok_ = std::move(complete);
	if (auto it = procs_.find(root_); root_fed && it != procs_.end())
		it->second.fed = true;
}

void Session::end_batch()
{
	for (auto &[pid, p] : procs_)
		p.read_in_batch = false;
}

bool Session::alive() const
{
	if (opts_.target == KPROFILE_TARGET_SYSTEM)
		return true;
	return std::any_of(procs_.begin(), procs_.end(),
			   [](const auto &kv) { return kv.second.alive; });
}

} // namespace kprofile::record
