// SPDX-License-Identifier: GPL-2.0
// maps_book.cpp - per-process mapping snapshots for record -g.
#include "maps_book.h"

#include <algorithm>

#include "mono_clock.h"
#include "process_tree.h"

namespace kprofile::record {

namespace {

constexpr std::uint64_t kUserLimit = (1ULL << 47);

bool same(const MapsBook::PathSnapshot &a, const std::vector<Mapping> &maps, const std::string &comm)
{
	if (a.snap.mappings.size() != maps.size() || a.snap.comm != comm)
		return false;
	for (std::size_t i = 0; i < maps.size(); i++) {
		const auto &m = a.snap.mappings[i];
		if (m.start != maps[i].start || m.end != maps[i].end || m.offset != maps[i].offset ||
		    a.paths[i] != maps[i].path)
			return false;
	}
	return true;
}

} // namespace

ProcReader system_proc_reader()
{
	ProcReader r;

	// Empty for a kernel thread or a zombie: still a snapshot, for
	// its comm.
	r.maps = read_maps;
	r.comm = [](pid_t pid) { return read_comm(pid); };
	r.now = monotonic_ns;
	return r;
}

MapsBook::MapsBook(ProcReader reader) : rd_(std::move(reader))
{
}

bool MapsBook::read(pid_t pid, bool force)
{
	Proc &p = procs_[pid];
	const std::uint64_t begin = rd_.now();
	auto maps = rd_.maps(pid);
	const std::string comm = maps ? rd_.comm(pid) : "";
	const std::uint64_t end = rd_.now();

	reads_++;
	p.read_begin = begin;
	if (!maps)
		return false;
	std::vector<Mapping> exec = executable_mappings(*maps);
	std::sort(exec.begin(), exec.end(),
		  [](const Mapping &a, const Mapping &b) { return a.start < b.start; });
	if (!force && p.last >= 0 && same(snaps_[p.last], exec, comm))
		return true;
	PathSnapshot s;
	s.snap.pid = pid;
	s.snap.time = end;
	s.snap.comm = comm;
	for (const auto &m : exec) {
		s.snap.mappings.push_back({m.start, m.end, m.offset, -1});
		s.paths.push_back(m.path.empty() ? "[anon]" : m.path);
	}
	snaps_.push_back(std::move(s));
	windows_.push_back({begin, end});
	p.last = static_cast<int>(snaps_.size() - 1);
	return true;
}

int MapsBook::copy_snapshot(int from, pid_t pid, std::uint64_t time)
{
	PathSnapshot s = snaps_[static_cast<std::size_t>(from)];

	s.snap.pid = pid;
	s.snap.time = time;
	snaps_.push_back(std::move(s));
	windows_.push_back({time, time});
	return static_cast<int>(snaps_.size() - 1);
}

void MapsBook::map(const MapRecord &m)
{
	auto it = procs_.find(m.pid);

	if (m.exec || it == procs_.end() || it->second.dead || it->second.last < 0)
		return;	// an exec's mappings follow; an unknown pid is read at need
	Proc &p = it->second;
	// Mappings of a snapshot no sample has needed yet change in place.
	if (p.sampled) {
		p.last = copy_snapshot(p.last, m.pid, m.time);
		p.sampled = false;
	}
	PathSnapshot &s = snaps_[static_cast<std::size_t>(p.last)];
	std::vector<Mapping> maps;
	for (std::size_t i = 0; i < s.snap.mappings.size(); i++) {
		const auto &x = s.snap.mappings[i];
		maps.push_back({x.start, x.end, "r-xp", x.offset, s.paths[i]});
	}
	apply_mapping(maps, m.mapping);
	s.snap.mappings.clear();
	s.paths.clear();
	for (const auto &x : maps) {
		s.snap.mappings.push_back({x.start, x.end, x.offset, -1});
		s.paths.push_back(x.path.empty() ? "[anon]" : x.path);
	}
}

void MapsBook::exec(pid_t pid, std::uint64_t time, const std::string &comm)
{
	if (auto it = procs_.find(pid); fed_ && it != procs_.end() && it->second.fed &&
	    it->second.last >= 0 && !it->second.dead) {
		// After @time: the snapshot belongs to the new program
		// (sample_symbols.cpp counts the execs strictly before it).
		Proc &p = it->second;
		p.last = copy_snapshot(p.last, pid, time + 1);
		snaps_[static_cast<std::size_t>(p.last)].snap.comm = comm;
		p.sampled = false;
		return;
	}
	// A read that overlapped the exec may show either program: it cannot
	// be placed before or after it, so it is dropped.
	for (std::size_t i = 0; i < snaps_.size();) {
		if (snaps_[i].snap.pid == pid && windows_[i].begin <= time && time <= windows_[i].end) {
			snaps_.erase(snaps_.begin() + static_cast<std::ptrdiff_t>(i));
			windows_.erase(windows_.begin() + static_cast<std::ptrdiff_t>(i));
			continue;
		}
		i++;
	}
	// Indexes moved: find each process's last snapshot again.
	for (auto &[q, p] : procs_)
		p.last = -1;
	for (std::size_t i = 0; i < snaps_.size(); i++)
		procs_[static_cast<pid_t>(snaps_[i].snap.pid)].last = static_cast<int>(i);
	Proc &p = procs_[pid];
	p.dead = false;
	read(pid, true);
}

void MapsBook::fork(pid_t child, pid_t parent, std::uint64_t time)
{
	auto from = procs_.find(parent);
	const bool copy = fed_ && parent && from != procs_.end() && from->second.fed &&
			  from->second.last >= 0;
	const int last = copy ? from->second.last : -1;
	Proc &p = procs_[child];

	p.dead = false;
	p.sampled = false;
	if (copy) {
		p.fed = true;
		p.last = copy_snapshot(last, child, time);
		return;
	}
	p.fed = false;
	read(child, true);
}

void MapsBook::exit(pid_t pid)
{
	procs_[pid].dead = true;
}

void MapsBook::need(pid_t pid, std::uint64_t addr, std::uint64_t time)
{
	if (addr < 4096 || addr >= kUserLimit || pid <= 0)
		return;
	auto it = procs_.find(pid);
	if (it == procs_.end()) {
		read(pid);
		return;
	}
	Proc &p = it->second;
	if (p.dead)
		return;
	p.sampled = true;
	if (p.fed && fed_)
		return;	// the side band told of every mapping it has
	if (p.last >= 0) {
		const auto &maps = snaps_[p.last].snap.mappings;
		auto m = std::upper_bound(maps.begin(), maps.end(), addr,
					  [](std::uint64_t a, const SnapshotMapping &x) {
						  return a < x.start;
					  });
		if (m != maps.begin() && addr < std::prev(m)->end)
			return;
	}
	// A read that began after the sample saw what was mapped then.
	if (time < p.read_begin)
		return;
	if (!read(pid))
		p.dead = true;	// gone: its EXIT record may still be on its way
}

std::vector<MapsSnapshot> MapsBook::resolve(const std::function<int(const std::string &)> &object_index) const
{
	std::vector<MapsSnapshot> out;

	for (const auto &s : snaps_) {
		MapsSnapshot m = s.snap;
		for (std::size_t i = 0; i < m.mappings.size(); i++)
			m.mappings[i].object = object_index(s.paths[i]);
		out.push_back(std::move(m));
	}
	std::stable_sort(out.begin(), out.end(),
			 [](const MapsSnapshot &a, const MapsSnapshot &b) { return a.time < b.time; });
	return out;
}

} // namespace kprofile::record
