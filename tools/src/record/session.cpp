// SPDX-License-Identifier: GPL-2.0
// session.cpp - creating, following and reading the profiles of a target.
#include "record/session.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "record/symbolize.h"

namespace kprofile::record {

Session::Session(const ProfileDevice &dev, SessionOptions opts)
	: dev_(dev), opts_(std::move(opts))
{
}

Session::~Session()
{
	stop();
}

int Session::object_index(const std::string &path)
{
	auto it = object_ids_.find(path);
	if (it != object_ids_.end())
		return it->second;
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
	objects_.push_back(o);
	const int idx = static_cast<int>(objects_.size() - 1);
	object_ids_[path] = idx;
	return idx;
}

void Session::add(RangeKind kind, std::uint64_t base, std::uint64_t size, std::uint32_t shift,
		  std::uint32_t mode, int object, std::uint64_t offset, const SourceDesc &src)
{
	ProfileRequest req;
	req.target = opts_.target;
	req.pid = opts_.target == KPROFILE_TARGET_PID ? opts_.pid : 0;
	req.base = base;
	req.size = size;
	req.bucket_shift = shift;
	req.source = src.value;
	req.mode = mode;
	req.cpus = opts_.cpus;

	Live l;
	l.profile = dev_.create(req);
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
	live_.push_back(std::move(l));
}

void Session::start_base()
{
	if (opts_.user)
		for (const auto &s : opts_.sources)
			add(RangeKind::CatchAll, 0, kUserTop, kCatchAllShift, KPROFILE_MODE_USER, -1,
			    0, s);
	if (!opts_.kernel)
		return;

	kallsyms_ = read_kallsyms();
	auto text = kernel_text_range(kallsyms_);
	if (!text) {
		if (opts_.kernel_required)
			throw RecordError(EACCES, "cannot find the kernel text (_stext/_etext) in /proc/kallsyms",
					  "kernel addresses are hidden: run as root, or set "
					  "`sysctl kernel.kptr_restrict=0`");
		notes_.push_back("kernel not profiled: /proc/kallsyms hides addresses "
				 "(run as root or set kernel.kptr_restrict=0)");
		return;
	}
	try {
		for (const auto &s : opts_.sources) {
			add(RangeKind::CatchAll, kKernelBase, ~0ULL - kKernelBase, kCatchAllShift,
			    KPROFILE_MODE_KERNEL, -1, 0, s);
			add(RangeKind::Kernel, text->first, text->second - text->first,
			    opts_.kernel_bucket_shift, KPROFILE_MODE_KERNEL, -1, 0, s);
		}
	} catch (const RecordError &e) {
		if (opts_.kernel_required || (e.error() != EPERM && e.error() != EACCES))
			throw;
		// Drop the kernel profiles we made; keep the user ones.
		live_.erase(std::remove_if(live_.begin(), live_.end(),
					   [](const Live &l) {
						   return l.meta.base >= kKernelBase;
					   }),
			    live_.end());
		notes_.push_back("kernel not profiled: " + e.advice());
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

bool Session::follow()
{
	if (opts_.target == KPROFILE_TARGET_SYSTEM || !opts_.user)
		return true;
	std::vector<Mapping> maps;
	try {
		maps = read_maps(opts_.pid);
	} catch (const std::system_error &) {
		return false;
	}
	if (maps.empty())
		return false;	// a zombie has no mappings
	for (const auto &m : follower_.update(maps)) {
		const int obj = object_index(m.path.empty() ? "[anon]" : m.path);
		for (const auto &s : opts_.sources) {
			try {
				add(RangeKind::Object, m.start, m.end - m.start, opts_.bucket_shift,
				    KPROFILE_MODE_USER, obj, m.offset, s);
			} catch (const RecordError &e) {
				if (e.error() == ESRCH)
					return false;
				throw;
			}
		}
	}
	return true;
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
	if (any)
		stopped_ = std::chrono::steady_clock::now();
}

std::chrono::nanoseconds Session::elapsed() const
{
	if (live_.empty())
		return {};
	auto end = stopped_ > started_ ? stopped_ : std::chrono::steady_clock::now();
	return end - started_;
}

std::vector<std::string> Session::stop_notes() const
{
	std::uint64_t hidden = 0;
	bool exec = false, lost = false;

	for (const auto &l : live_) {
		const auto st = l.profile->stats_ex();
		exec |= st.flags & KPROFILE_PROFILE_EXEC_STOPPED;
		lost |= st.flags & KPROFILE_PROFILE_BUFFER_LOST;
		hidden += st.not_dumpable;
	}
	std::vector<std::string> out;
	if (exec)
		out.push_back(fmt::format("the process executed a set-user-ID (set-group-ID, "
					  "file-capability) program: it was not profiled from "
					  "there on, as perf stops there ({} interrupts not counted)",
					  hidden));
	else if (hidden)
		out.push_back(fmt::format("{} interrupts were not counted: the process was not "
					  "dumpable (it changed its ids or called "
					  "prctl(PR_SET_DUMPABLE, 0))", hidden));
	if (lost)
		out.push_back("a bucket buffer's mapping went away while recording: later hits "
			      "in it are counted as unavailable");
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
	for (const auto &l : live_) {
		RangeRecord r = l.meta;
		auto st = l.profile->stats();
		r.hits = st.hits;
		r.outside = st.outside;
		r.unavailable = st.unavailable;
		r.wrong_mode = st.wrong_mode;
		r.buckets = l.profile->buffer().snapshot();
		r.buckets.resize(std::min<std::size_t>(r.buckets.size(),
						       (r.size + r.bucket_size() - 1) >> r.bucket_shift));
		d.ranges.push_back(std::move(r));
	}
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
