// SPDX-License-Identifier: GPL-2.0
// sample_recorder.cpp - the sample stream of record -g.
#include "sample_recorder.h"

#include <time.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "errors.h"
#include "dwarf_unwind.h"

namespace kprofile::record {

namespace {

std::uint32_t mode_of(const SampleOptions &o)
{
	if (o.user && o.kernel)
		return KPROFILE_MODE_BOTH;
	return o.kernel ? KPROFILE_MODE_KERNEL : KPROFILE_MODE_USER;
}

} // namespace

SampleRecorder::SampleRecorder(const Device &dev, SampleOptions opts, MapsBook book)
	: opts_(std::move(opts)), book_(std::move(book))
{
	if (opts_.sources.empty() || opts_.sources.size() > KPROFILE_STREAM_MAX_SOURCES)
		throw Failure(usage_error(fmt::format("record follows 1 to {} sources at once (its "
						      "sample stream's limit), not {}",
						      KPROFILE_STREAM_MAX_SOURCES, opts_.sources.size()),
					  {"record the others in another run"}));
	StreamRequest req;
	req.target = opts_.target;
	req.pid = opts_.target == KPROFILE_TARGET_PID ? opts_.pid : 0;
	req.flags = opts_.callchain ? KPROFILE_STREAM_CALLCHAIN : 0;
	if (opts_.inherit && opts_.target != KPROFILE_TARGET_SYSTEM)
		req.flags |= KPROFILE_STREAM_INHERIT;
	req.mode = mode_ = mode_of(opts_);
	req.sources = opts_.sources;
	req.max_frames = opts_.max_frames;
	req.ring_pages = opts_.ring_pages;
	req.own_interval = opts_.own_time_interval;
	if (opts_.stack_bytes) {
		req.flags |= KPROFILE_STREAM_USER_STACK;
		req.stack_bytes = opts_.stack_bytes;
	}
	try {
		stream_ = Stream::create(dev, req);
	} catch (const Failure &f) {
		const int err = f.error().err;
		// Kernel samples need CAP_PERFMON: without it, record user
		// mode, as the bucket profiles leave the kernel out.
		if (req.mode != KPROFILE_MODE_BOTH || opts_.kernel_required ||
		    (err != EPERM && err != EACCES) || opts_.target == KPROFILE_TARGET_SYSTEM)
			throw;
		req.mode = mode_ = KPROFILE_MODE_USER;
		stream_ = Stream::create(dev, req);
		if (opts_.callchain)
			notes_.push_back("kernel frames not sampled: kernel-mode samples need "
					 "CAP_PERFMON (run as root for them)");
	}
	pollable_ = stream_->info().flags & KPROFILE_STREAM_INFO_POLL;
	// Before the command runs on: its loader's mmaps are to come.
	std::string why;
	const bool system = opts_.target == KPROFILE_TARGET_SYSTEM;
	side_ = SideBand::open(system ? 0 : opts_.pid, opts_.inherit && !system, &why);
	if (!side_)
		notes_.push_back(fmt::format("mappings are read from /proc, not told by the kernel ({}): "
					     "the hits in a library that a short-lived process maps "
					     "may be unattributed", why));
	book_.fed(side_band_complete());
}

SampleRecorder::SampleRecorder(std::unique_ptr<Stream> stream, SampleOptions opts, MapsBook book)
	: opts_(std::move(opts)), book_(std::move(book)), stream_(std::move(stream))
{
	mode_ = stream_->request().mode;
	book_.fed(false);
}

std::vector<int> SampleRecorder::side_band_fds() const
{
	return side_ ? side_->fds() : std::vector<int>();
}

void SampleRecorder::start(pid_t root, bool root_fed)
{
	stream_->start();
	if (root > 0) {
		book_.read(root);
		if (root_fed)
			book_.feed(root);
	}
}

bool SampleRecorder::cpu_wanted(std::uint32_t cpu) const
{
	if (opts_.cpus.empty())
		return true;
	return cpu / 8 < opts_.cpus.size() && (opts_.cpus[cpu / 8] >> (cpu % 8) & 1);
}

std::size_t order_due_records(std::vector<StreamRecord> &held, std::uint64_t until)
{
	auto time_of = [](const StreamRecord &r) {
		return std::visit([](const auto &x) { return x.time; }, r);
	};
	std::stable_sort(held.begin(), held.end(), [&](const StreamRecord &a, const StreamRecord &b) {
		return time_of(a) < time_of(b);
	});
	// At @until itself too: where the clock ticks coarsely (a guest's
	// jiffies clocksource: 4 ms steps), the record that woke poll() has
	// the drain's own time, and no later wake-up may come for it (an
	// exec's EXEC held until its exit, when its maps are gone).
	return static_cast<std::size_t>(
		std::partition_point(held.begin(), held.end(),
				     [&](const StreamRecord &r) { return time_of(r) <= until; }) -
		held.begin());
}

void SampleRecorder::take_map(MapRecord &m)
{
	if (observer_.map)
		observer_.map(m);
	if (opts_.callchain)
		book_.map(m);
}

void SampleRecorder::take(std::uint64_t until)
{
	// Rings are drained one after the other: put the records in time
	// order first, so a fork is seen before its child's exec.
	auto end = held_.begin() + static_cast<std::ptrdiff_t>(order_due_records(held_, until));
	auto by_time = [](const MapRecord &a, const MapRecord &b) { return a.time < b.time; };
	std::stable_sort(held_maps_.begin(), held_maps_.end(), by_time);
	auto map = held_maps_.begin();
	const auto maps_end = std::partition_point(held_maps_.begin(), held_maps_.end(),
						   [&](const MapRecord &m) { return m.time <= until; });

	book_.fed(side_band_complete());
	for (auto it = held_.begin(); it != end; ++it) {
		// A mapping before the samples of its time: on a coarse
		// clock the loader's mmap and the first sample in it share
		// a tick.
		const std::uint64_t now = std::visit([](const auto &x) { return x.time; }, *it);
		for (; map != maps_end && map->time <= now; ++map)
			take_map(*map);
		if (auto *t = std::get_if<TaskRecord>(&*it)) {
			if (observer_.task)
				observer_.task(*t);
			if (!opts_.callchain)
				continue;
			switch (t->kind) {
			case TaskKind::Fork:
				book_.fork(t->pid, t->ppid, t->time);
				break;
			case TaskKind::Exec:
				book_.exec(t->pid, t->time, t->comm);
				break;
			case TaskKind::Exit:
				book_.exit(t->pid);
				break;
			}
			tasks_.push_back(std::move(*t));
			continue;
		}
		auto &s = std::get<SampleRecord>(*it);
		if (!cpu_wanted(s.cpu)) {
			filtered_++;
			continue;
		}
		if (observer_.sample)
			observer_.sample(s);
		if (!opts_.callchain)
			continue;
		if (s.user_mode() && s.frames.empty())
			book_.need(s.pid, s.ip, s.time);
		for (std::size_t i = s.nr_kernel; i < s.frames.size(); i++)
			book_.need(s.pid, s.frames[i], s.time);
		samples_.push_back(std::move(s));
	}
	for (; map != maps_end; ++map)
		take_map(*map);
	held_maps_.erase(held_maps_.begin(), maps_end);
	held_.erase(held_.begin(), end);
	if (observer_.end)
		observer_.end();
}

void SampleRecorder::drain()
{
	struct timespec ts {};

	clock_gettime(CLOCK_MONOTONIC, &ts);
	const std::uint64_t began = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
				    static_cast<std::uint64_t>(ts.tv_nsec);
	// The side band first: an mmap is written before the syscall
	// returns, so every one before a due sample is in it now.
	if (side_)
		side_->drain([&](MapRecord &&m) { held_maps_.push_back(std::move(m)); });
	stream_->drain([&](StreamRecord &&r) { held_.push_back(std::move(r)); });
	take(began);
}

void SampleRecorder::stop()
{
	if (!stream_->started())
		return;
	stream_->stop();
	if (side_)
		side_->drain([&](MapRecord &&m) { held_maps_.push_back(std::move(m)); });
	stream_->drain([&](StreamRecord &&r) { held_.push_back(std::move(r)); });
	take(~0ULL);
	if (side_ && !side_->complete())
		notes_.push_back(fmt::format("the kernel's mmap records were incomplete ({} lost{}): "
					     "mappings were read from /proc again where a sample "
					     "missed", side_->lost(),
					     side_->broken() ? ", a ring unreadable" : ""));
	const kprofile_stream_info si = stream_->info();
	lost_ = si.lost;
	untracked_ = si.untracked;
	not_dumpable_ = si.not_dumpable;
	problems_ = stream_->problems();
	if (si.flags & KPROFILE_PROFILE_EXEC_STOPPED)
		notes_.push_back("a followed process executed a set-user-ID program: it was not "
				 "sampled from there on");
	if (lost_ && !opts_.callchain)
		notes_.push_back(fmt::format("{} records of the kernel's stream were lost (its rings "
					     "were full): the followed children's hits and forks in "
					     "them are missing; record again with larger rings "
					     "(-m 128) or a lower rate (-F)", lost_));
	if (untracked_)
		notes_.push_back(fmt::format("{} processes started by followed ones could not be "
					     "sampled (the stream follows 4096 at a time)",
					     untracked_));
	if (not_dumpable_ && opts_.callchain)
		notes_.push_back(fmt::format("{} samples were not recorded: the process was not "
					     "dumpable", not_dumpable_));
	for (const auto &p : problems_)
		notes_.push_back(p);
}

SampleData SampleRecorder::take_data(const std::function<int(const std::string &)> &object_index)
{
	SampleData d;
	auto by_time = [](const auto &a, const auto &b) { return a.time < b.time; };

	if (!opts_.callchain)
		return d;	// the samples went into the processes' ranges
	d.present = true;
	d.callchain = true;
	d.mode = mode_;
	d.ring_pages = stream_->request().ring_pages;
	d.max_frames = stream_->request().max_frames;
	d.stack_bytes = stream_->request().stack_bytes;
	if (d.stack_bytes) {
		const auto vdso = current_vdso_image();
		d.vdso.assign(vdso.begin(), vdso.end());
	}
	const kprofile_stream_info si = stream_->info();
	d.stack_short = si.stack_short;
	if (si.ring_pages)
		d.ring_pages = si.ring_pages;
	d.lost = lost_;
	d.untracked = untracked_;
	d.not_dumpable = not_dumpable_;
	d.filtered = filtered_;
	d.problems = problems_;
	// Each drain passes its records on in time order: sorted already,
	// unless a ring read earlier in a drain held a later record.
	d.samples = std::move(samples_);
	samples_.clear();
	if (!std::is_sorted(d.samples.begin(), d.samples.end(), by_time))
		std::stable_sort(d.samples.begin(), d.samples.end(), by_time);
	d.tasks = std::move(tasks_);
	tasks_.clear();
	if (!std::is_sorted(d.tasks.begin(), d.tasks.end(), by_time))
		std::stable_sort(d.tasks.begin(), d.tasks.end(), by_time);
	d.maps = book_.resolve(object_index);
	return d;
}

std::vector<KernelSymbolRecord> kernel_symbols_for_samples(const std::vector<SampleRecord> &samples,
							   const std::vector<KernelSymbolRecord> &all)
{
	std::vector<std::uint64_t> addrs;

	for (const auto &s : samples) {
		for (std::size_t i = 0; i < s.nr_kernel && i < s.frames.size(); i++)
			addrs.push_back(i ? s.frames[i] - 1 : s.frames[i]);
		if (!s.user_mode() && s.frames.empty())
			addrs.push_back(s.ip);
	}
	std::sort(addrs.begin(), addrs.end());
	addrs.erase(std::unique(addrs.begin(), addrs.end()), addrs.end());
	std::vector<KernelSymbolRecord> out;
	for (std::size_t i = 0; i < all.size() && !addrs.empty(); i++) {
		std::uint64_t end = all[i].addr + all[i].size;
		if (!all[i].size)
			end = i + 1 < all.size() && all[i + 1].addr > all[i].addr ? all[i + 1].addr :
			      all[i].addr + 1;
		auto it = std::lower_bound(addrs.begin(), addrs.end(), all[i].addr);
		if (it != addrs.end() && *it < end) {
			KernelSymbolRecord k = all[i];
			k.size = end - k.addr;
			out.push_back(std::move(k));
		}
	}
	return out;
}

} // namespace kprofile::record
