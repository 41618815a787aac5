// SPDX-License-Identifier: GPL-2.0
// sample_recorder.h - `record -g`: the sample stream beside the bucket
// profiles, for the same sources and target; drained in record's loop,
// with the maps of every process it names followed (maps_book.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "record/maps_book.h"
#include "record/profile_file.h"
#include "record/sample_data.h"
#include "record/stream.h"

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
	std::vector<std::uint8_t> cpus;	// -C: samples of other CPUs are dropped
};

class SampleRecorder {
public:
	// Create the stream (stopped).  Kernel mode is asked for unless
	// --user; when the module refuses it (EPERM, EACCES) and --kernel was
	// not given, user mode is recorded with a note.  Throws Failure.
	SampleRecorder(const Device &dev, SampleOptions opts, MapsBook book = MapsBook());

	// Start the stream and read the target's maps (@root; 0 for none).
	void start(pid_t root);
	// Drain the rings; follow forks and execs; read maps samples need.
	void poll();
	// Stop the stream and drain what is left; take its statistics.
	void stop();

	// What record keeps: records in time order, and the maps snapshots
	// with objects named by @object_index (a path -> ProfileData index).
	SampleData data(const std::function<int(const std::string &)> &object_index) const;

	const std::vector<std::string> &notes() const { return notes_; }
	std::uint64_t lost() const { return lost_; }
	std::size_t sample_count() const { return samples_.size(); }
	std::size_t task_count() const { return tasks_.size(); }
	// The stream's mode (enum kprofile_mode) after any fallback.
	std::uint32_t mode() const { return mode_; }

private:
	// Apply the records of one drain to the maps book, and keep them.
	void take(std::vector<StreamRecord> &batch);
	bool cpu_wanted(std::uint32_t cpu) const;

	SampleOptions opts_;
	MapsBook book_;
	std::unique_ptr<Stream> stream_;
	std::uint32_t mode_ = KPROFILE_MODE_BOTH;
	std::vector<SampleRecord> samples_;
	std::vector<TaskRecord> tasks_;
	std::vector<std::string> notes_;
	std::vector<std::string> problems_;
	std::uint64_t lost_ = 0, untracked_ = 0, not_dumpable_ = 0, filtered_ = 0;
};

// The symbols worth keeping for sampled kernel frames: those of @all
// (sorted by address, sizes known or to the next symbol) that hold one of
// the kernel frames of @samples.
std::vector<KernelSymbolRecord> kernel_symbols_for_samples(const std::vector<SampleRecord> &samples,
							   const std::vector<KernelSymbolRecord> &all);

} // namespace kprofile::record
