// SPDX-License-Identifier: GPL-2.0
// sample_recorder.h - the sample stream beside the bucket profiles, for
// the same sources and target: it tells record of every fork, exec and
// exit of the processes it follows and of their samples (an observer
// gets them in time order: Session counts the children's hits from them);
// `record -g` keeps the samples with their call stacks too, with the
// maps of every process they name (maps_book.h).  record sleeps in
// poll() on fd() between drains.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "maps_book.h"
#include "profile_file.h"
#include "sample_data.h"
#include "side_band.h"
#include "stream.h"

namespace kprofile::record {

struct SampleOptions {
	std::uint32_t target = KPROFILE_TARGET_PID;
	pid_t pid = 0;			// KPROFILE_TARGET_PID
	bool inherit = true;		// KPROFILE_STREAM_INHERIT (not system-wide)
	bool user = true;		// sample user mode
	bool kernel = true;		// and kernel mode, when permitted
	bool kernel_required = false;	// --kernel: a refusal is an error
	std::vector<std::uint32_t> sources;
	std::uint32_t ring_pages = 0;	// 0: the module's default
	std::uint32_t max_frames = 0;	// 0: the module's default
	std::uint32_t stack_bytes = 0;	// --call-graph dwarf: user stack bytes
	std::vector<std::uint8_t> cpus;	// -C: samples of other CPUs are dropped
	std::uint32_t own_time_interval = 0;	// ProfileTime's own, 0: machine-wide
	// -g: call stacks, and the samples and task records kept for the
	// file; without it the records only go to the observer.
	bool callchain = true;
};

// Each record of a drain, in time order (samples of unwanted CPUs left
// out), then end() once per drain.
// The kernel's mmap and exec records (side_band.h) come in the same time
// order, each before the stream's records of its time.
struct RecordObserver {
	std::function<void(const TaskRecord &)> task;
	std::function<void(const SampleRecord &)> sample;
	std::function<void()> end;
	std::function<void(const MapRecord &)> map;
};

class SampleRecorder {
public:
	// Create the stream (stopped).  Kernel mode is asked for unless
	// --user; when the module refuses it (EPERM, EACCES) and --kernel was
	// not given, user mode is recorded with a note.  Throws Failure.
	SampleRecorder(const Device &dev, SampleOptions opts, MapsBook book = MapsBook());
	// Over a stream made already (Stream::over(): the tests' and the host
	// benchmark's rings), with no side band: the mappings come from
	// @book's reader.  @opts' stream fields are not used.
	SampleRecorder(std::unique_ptr<Stream> stream, SampleOptions opts, MapsBook book);

	void observe(RecordObserver o) { observer_ = std::move(o); }
	// Start the stream and read the target's maps (@root; 0 for none);
	// @root_fed: the side band sees all of its mmaps from now on (it
	// opened on each of its threads).
	void start(pid_t root, bool root_fed = false);
	// Drain the rings, and pass on what they held in time order: the
	// records stamped at or before the time the drain began (a record
	// of a ring read earlier in the drain may still come with an earlier
	// time; later ones wait for the next drain).  Follow forks and execs; read maps
	// samples need (-g).
	void drain();
	// The stream fd: poll() it for POLLIN between drains.
	int fd() const { return stream_->fd(); }
	// Whether the module wakes poll() (KPROFILE_STREAM_INFO_POLL).
	bool pollable() const { return pollable_; }
	// The side band's fds, to poll() too (its watermark); none when
	// the kernel refused it.
	std::vector<int> side_band_fds() const;
	// Whether the side band runs and has lost nothing so far: mappings
	// are known without reading /proc.
	bool side_band_complete() const { return side_ && side_->complete(); }
	// Stop the stream and drain what is left; take its statistics.
	void stop();

	// What record keeps: records in time order, and the maps snapshots
	// with objects named by @object_index (a path -> ProfileData index).
	// The samples and task records are moved out, not copied (with
	// --call-graph dwarf each holds a stack copy of up to 8 KiB): once
	// taken, sample_count() and task_count() are 0 and a second call
	// returns none of them.
	SampleData take_data(const std::function<int(const std::string &)> &object_index);

	const std::vector<std::string> &notes() const { return notes_; }
	std::uint64_t lost() const { return lost_; }
	std::size_t sample_count() const { return samples_.size(); }
	std::size_t task_count() const { return tasks_.size(); }
	// The stream's mode (enum kprofile_mode) after any fallback.
	std::uint32_t mode() const { return mode_; }

private:
	// Apply the records drained so far up to @until (ns, inclusive; all
	// with ~0) to the maps book and the observer, and keep them (-g);
	// the later ones stay in @held_ (order_due_records()).
	void take(std::uint64_t until);
	void take_map(MapRecord &m);
	bool cpu_wanted(std::uint32_t cpu) const;

	SampleOptions opts_;
	MapsBook book_;
	std::unique_ptr<Stream> stream_;
	RecordObserver observer_;
	std::vector<StreamRecord> held_;	// drained, not passed on yet
	std::unique_ptr<SideBand> side_;	// null: the kernel refused it
	std::vector<MapRecord> held_maps_;	// its records, as held_'s
	bool pollable_ = false;
	std::uint32_t mode_ = KPROFILE_MODE_BOTH;
	std::vector<SampleRecord> samples_;
	std::vector<TaskRecord> tasks_;
	std::vector<std::string> notes_;
	std::vector<std::string> problems_;
	std::uint64_t lost_ = 0, untracked_ = 0, not_dumpable_ = 0, filtered_ = 0;
};

// Put @held (the records of drains, not passed on yet) in time order and
// return how many of them, from the first, are due: stamped at or before
// @until, the time a drain began.  A later one was written after that
// drain began, so the wake-up that goes with it (an exec's, an exit's,
// the watermark's) is still to come: it waits for the next drain.
std::size_t order_due_records(std::vector<StreamRecord> &held, std::uint64_t until);

// The symbols worth keeping for sampled kernel frames: those of @all
// (sorted by address, sizes known or to the next symbol) that hold one of
// the kernel frames of @samples.
std::vector<KernelSymbolRecord> kernel_symbols_for_samples(const std::vector<SampleRecord> &samples,
							   const std::vector<KernelSymbolRecord> &all);

} // namespace kprofile::record
