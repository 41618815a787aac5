// SPDX-License-Identifier: GPL-2.0
// session.cpp - creating, following and reading the profiles of a target.
#include "session.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "kernel_modules.h"
#include "symbolize.h"

namespace kprofile::record {

Session::Session(const Device &dev, SessionOptions opts)
	: dev_(dev), opts_(std::move(opts))
{
}

Session::~Session()
{
	stop();
}

ObjectRecord object_record(const std::string &path)
{
	ObjectRecord o;
	o.path = path;
	if (!path.empty() && path[0] == '/') {
		std::string file = path;
		const std::string deleted = " (deleted)";
		if (file.size() > deleted.size() &&
		    file.compare(file.size() - deleted.size(), deleted.size(), deleted) == 0)
			file.resize(file.size() - deleted.size());
		o.build_id = read_build_id(file);
	}
	return o;
}

int object_index(ProfileData &data, const std::string &path)
{
	for (std::size_t i = 0; i < data.objects.size(); i++)
		if (data.objects[i].path == path)
			return static_cast<int>(i);
	data.objects.push_back(object_record(path));
	return static_cast<int>(data.objects.size() - 1);
}

int Session::object_index(const std::string &path)
{
	auto it = object_ids_.find(path);
	if (it != object_ids_.end())
		return it->second;
	objects_.push_back(object_record(path));
	const int idx = static_cast<int>(objects_.size() - 1);
	object_ids_[path] = idx;
	return idx;
}

void Session::add(RangeKind kind, std::uint64_t base, std::uint64_t size, std::uint32_t shift,
		  std::uint32_t mode, int object, std::uint64_t offset, const SourceDesc &src,
		  pid_t pid)
{
	ProfileRequest req;
	req.target = pid ? KPROFILE_TARGET_PID : KPROFILE_TARGET_SYSTEM;
	req.pid = pid;
	req.base = base;
	req.size = size;
	req.bucket_shift = shift;
	req.source = src.value;
	// The module arms a source once per mode: a user (or kernel) profile
	// counts user (kernel) events only, and its sampling period is spent
	// in that mode alone, as perf's :u.  When both are recorded, every
	// profile asks for both: they share one counter whose period spans
	// both, as perf's plain event, and the ranges keep user and kernel
	// hits apart as the mode would.  Kernel profiles are made first
	// (start_base), so kernel_ok_ is known for the user ones.
	req.mode = mode;
	if ((mode == KPROFILE_MODE_KERNEL && opts_.user) || (mode == KPROFILE_MODE_USER && kernel_ok_))
		req.mode = KPROFILE_MODE_BOTH;
	req.cpus = opts_.cpus;
	req.own_interval = src.timer ? opts_.own_time_interval : 0;
	req.what = profile_label(kind == RangeKind::CatchAll, base >= kKernelBase,
				 object >= 0 ? objects_[object].path : std::string(), pid);

	Live l;
	l.profile = create_profile(dev_, req);
	// Before start_pending(), profiles are only created: starting them
	// together keeps the window where the catch-all counts hits that no
	// object profile can yet see small.
	if (pending_done_)
		l.profile->start();
	l.meta.kind = kind;
	l.meta.source = src.value;
	l.meta.base = base;
	l.meta.size = size;
	l.meta.bucket_shift = shift;
	l.meta.mode = mode;
	l.meta.object = object;
	l.meta.file_offset = offset;
	l.meta.pid = pid;
	live_.push_back(std::move(l));
}

void Session::add_kernel(pid_t pid)
{
	auto text = kernel_text_range(kallsyms_);

	for (const auto &s : opts_.sources) {
		add(RangeKind::CatchAll, kKernelBase, ~0ULL - kKernelBase, kCatchAllShift,
		    KPROFILE_MODE_KERNEL, -1, 0, s, pid);
		add(RangeKind::Kernel, text->first, text->second - text->first,
		    opts_.kernel_bucket_shift, KPROFILE_MODE_KERNEL, -1, 0, s, pid);
		for (const auto &m : modules_)
			add(RangeKind::Kernel, m.base, m.size, opts_.kernel_bucket_shift,
			    KPROFILE_MODE_KERNEL, object_index("[" + m.name + "]"), 0, s, pid);
	}
}

void Session::start_base()
{
	const pid_t root = opts_.target == KPROFILE_TARGET_SYSTEM ? 0 : opts_.pid;

	root_ = root;
	if (root) {
		procs_[root].rec = {root, 0, read_comm(root)};
		procs_[root].profiled = true;
	}
	start_kernel(root);
	if (opts_.user)
		for (const auto &s : opts_.sources)
			add(RangeKind::CatchAll, 0, kUserTop, kCatchAllShift, KPROFILE_MODE_USER, -1,
			    0, s, root);
}

void Session::start_kernel(pid_t root)
{
	if (!opts_.kernel)
		return;

	kallsyms_ = read_kallsyms();
	if (!kernel_text_range(kallsyms_)) {
		if (opts_.kernel_required)
			throw Failure(errno_error(EACCES, "cannot find the kernel text (_stext/_etext) in /proc/kallsyms",
						  {kallsyms_advice()}));
		notes_.push_back("kernel not profiled: " + kallsyms_advice());
		return;
	}
	modules_ = read_modules(kallsyms_);
	text_ = *kernel_text_range(kallsyms_);
	try {
		add_kernel(root);
		kernel_ok_ = true;
	} catch (const Failure &f) {
		const Error &e = f.error();
		if (opts_.kernel_required || (e.err != EPERM && e.err != EACCES))
			throw;
		// Drop the kernel profiles we made; keep the user ones.
		live_.erase(std::remove_if(live_.begin(), live_.end(),
					   [](const Live &l) {
						   return l.meta.base >= kKernelBase;
					   }),
			    live_.end());
		notes_.push_back("kernel not profiled: " + (e.hints.empty() ? e.what : e.hints[0]));
	}
}

void Session::start_pending()
{
	started_ = std::chrono::steady_clock::now();
	for (int pass = 0; pass < 2; pass++)
		for (auto &l : live_)
			if ((l.meta.kind == RangeKind::CatchAll) == (pass == 0) &&
			    !l.profile->started())
				l.profile->start();
	pending_done_ = true;
}

void Session::skip(Proc &p, const Error &e)
{
	// A child the user may not profile (a set-user-ID program: EACCES),
	// or one the module refused, is left out; the recording goes on.
	if (e.err != ESRCH)
		skipped_.push_back(fmt::format("process {} ({}) was not followed: {}", p.rec.pid,
					       p.rec.comm, e.what));
}

bool Session::follow_maps(Proc &p)
{
	const pid_t pid = static_cast<pid_t>(p.rec.pid);
	auto maps = read_exec_maps(pid, &p.maps_time);

	if (!maps || maps->empty()) {
		p.maps.clear();
		return process_alive(pid);	// EACCES for a moment; a zombie
	}
	p.maps = std::move(*maps);
	return true;
}

void Session::retire(Proc &p)
{
	const auto pid = p.rec.pid;

	p.alive = false;
	for (auto &r : p.sampled.records())
		retired_.push_back(std::move(r));
	p.sampled = SampledRanges();
	p.maps.clear();
	for (int pass = 0; pass < 2; pass++)
		for (auto &l : live_)
			if (l.meta.pid == pid && (l.meta.kind == RangeKind::CatchAll) == (pass == 1))
				l.profile->stop();
	for (auto it = live_.begin(); it != live_.end();) {
		if (it->meta.pid != pid) {
			++it;
			continue;
		}
		const auto st = it->profile->stats_ex();
		retired_exec_ |= st.flags & KPROFILE_PROFILE_EXEC_STOPPED;
		if (st.flags & KPROFILE_PROFILE_BUFFER_LOST) {
			retired_lost_hits_ += st.stats.unavailable;
			retired_lost_procs_.insert(fmt::format("{} {}", p.rec.comm, pid));
		}
		retired_hidden_ += st.not_dumpable;
		retired_.push_back(record_of(*it));
		it = live_.erase(it);
	}
}

bool Session::follow_root()
{
	auto it = procs_.find(root_);

	if (it == procs_.end())
		return false;
	// A held command was still our fork when start_base() read it.
	if (std::string comm = read_comm(root_); !comm.empty())
		it->second.rec.comm = comm;
	return follow_maps(it->second);
}

void Session::stop()
{
	bool any = false;

	for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
		any |= it->profile->started();
		if (it->meta.kind != RangeKind::CatchAll)
			it->profile->stop();
	}
	for (auto it = live_.rbegin(); it != live_.rend(); ++it)
		it->profile->stop();
	if (any || started_ != std::chrono::steady_clock::time_point{})
		stopped_ = std::chrono::steady_clock::now();
}

std::chrono::nanoseconds Session::elapsed() const
{
	if (started_ == std::chrono::steady_clock::time_point{})
		return {};	// never started
	auto end = stopped_ > started_ ? stopped_ : std::chrono::steady_clock::now();
	return end - started_;
}

std::vector<std::string> Session::stop_notes() const
{
	// A process that exited (or exec'd a set-user-ID program and was
	// retired) counts as much as a live one.
	std::uint64_t hidden = retired_hidden_, lost_hits = retired_lost_hits_;
	std::set<std::string> lost_procs = retired_lost_procs_;
	bool exec = retired_exec_;

	for (const auto &l : live_) {
		const auto st = l.profile->stats_ex();
		exec |= st.flags & KPROFILE_PROFILE_EXEC_STOPPED;
		if (st.flags & KPROFILE_PROFILE_BUFFER_LOST) {
			lost_hits += st.stats.unavailable;
			auto it = procs_.find(static_cast<pid_t>(l.meta.pid));
			lost_procs.insert(it == procs_.end() ? std::string("system-wide") :
					  fmt::format("{} {}", it->second.rec.comm, l.meta.pid));
		}
		hidden += st.not_dumpable;
	}
	std::vector<std::string> out = skipped_;
	if (exec)
		out.push_back(fmt::format("the process executed a set-user-ID (set-group-ID, "
					  "file-capability) program: it was not profiled from "
					  "there on, as perf stops there ({} interrupts not counted)",
					  hidden));
	else if (hidden)
		out.push_back(fmt::format("{} interrupts were not counted: the process was not "
					  "dumpable (it changed its ids or called "
					  "prctl(PR_SET_DUMPABLE, 0))", hidden));
	if (!lost_procs.empty()) {
		std::string who;
		for (const auto &p : lost_procs)
			who += (who.empty() ? "" : ", ") + p;
		out.push_back(fmt::format("{} hits were not counted: the memory of a profile's "
					  "buckets was unmapped or replaced while recording "
					  "(processes: {}); their totals are short by as much.  "
					  "kprofile never unmaps a buffer in use: please report "
					  "this with the kernel version",
					  lost_hits, who));
	}
	return out;
}

RangeRecord Session::record_of(const Live &l) const
{
	RangeRecord r = l.meta;
	auto st = l.profile->stats();

	r.hits = st.hits;
	r.outside = st.outside;
	r.unavailable = st.unavailable;
	r.wrong_mode = st.wrong_mode;
	r.buckets = l.profile->buffer().snapshot();
	r.buckets.resize(std::min<std::size_t>(r.buckets.size(),
					       (r.size + r.bucket_size() - 1) >> r.bucket_shift));
	return r;
}

std::vector<ProcessRecord> Session::processes() const
{
	std::vector<ProcessRecord> out;

	for (const auto &[pid, p] : procs_)
		out.push_back(p.rec);
	return out;
}

ProfileData Session::snapshot() const
{
	ProfileData d;

	d.target = opts_.target == KPROFILE_TARGET_SYSTEM ? "system" : "pid";
	d.pid = opts_.pid;
	d.duration_ns = static_cast<std::uint64_t>(elapsed().count());
	for (const auto &s : opts_.sources)
		d.sources.push_back({s.value, s.name, s.interval, s.timer});
	d.objects = objects_;
	d.ranges = retired_;
	for (const auto &l : live_)
		d.ranges.push_back(record_of(l));
	for (const auto &[pid, p] : procs_)
		for (auto &r : p.sampled.records())
			d.ranges.push_back(std::move(r));
	d.processes = processes();
	return d;
}

std::vector<KernelSymbolRecord> kernel_symbols_for(const ProfileData &data,
						   std::vector<KernelSymbolRecord> all)
{
	std::vector<KernelSymbolRecord> out;

	for (std::size_t i = 0; i < all.size(); i++)
		if (!all[i].size && i + 1 < all.size() && all[i + 1].addr > all[i].addr)
			all[i].size = all[i + 1].addr - all[i].addr;
	for (const auto &k : all) {
		bool keep = false;
		for (const auto &r : data.ranges) {
			if (r.kind != RangeKind::Kernel || k.addr + k.size <= r.base ||
			    k.addr >= r.base + r.size)
				continue;
			const std::uint64_t first = (std::max(k.addr, r.base) - r.base) >> r.bucket_shift;
			const std::uint64_t last =
				(std::min(k.addr + std::max<std::uint64_t>(k.size, 1), r.base + r.size) -
				 1 - r.base) >> r.bucket_shift;
			for (std::uint64_t b = first; b <= last && b < r.buckets.size() && !keep; b++)
				keep = r.buckets[b] != 0;
			if (keep)
				break;
		}
		if (keep)
			out.push_back(k);
	}
	return out;
}

MachineRecord machine_record(const kprofile_info &info)
{
	MachineRecord m;
	struct utsname u {};

	m.abi_version = info.abi_version;
	m.interface = info.interface == KPROFILE_INTERFACE_EMON ? "emon" :
		      info.interface == KPROFILE_INTERFACE_AMD64 ? "amd64" : "none";
	m.vendor = std::string(info.vendor, strnlen(info.vendor, sizeof(info.vendor)));
	m.family = info.family;
	m.model = info.model;
	m.perfmon_version = info.perfmon_version;
	m.num_counters = info.num_counters;
	m.counter_width = info.counter_width;
	m.num_cpus = info.num_cpus;
	m.reason = std::string(info.reason, strnlen(info.reason, sizeof(info.reason)));
	if (uname(&u) == 0)
		m.kernel_release = u.release;
	return m;
}

} // namespace kprofile::record
