// SPDX-License-Identifier: GPL-2.0
// runner.h - what record and top share: the target options, building the
// session, and the loop that follows maps until the target is done.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "launch.h"
#include "process_tree.h"
#include "sample_recorder.h"
#include "session.h"

namespace CLI {
class App;
}

namespace kprofile::record {

// The options record and top have in common.
struct TargetArgs {
	std::vector<std::string> sources;	// names or values; default ProfileTime
	std::optional<std::string> interval;	// -i: units allowed (args_check.h)
	std::optional<double> frequency;	// -F HZ (ProfileTime)
	std::uint32_t bucket_shift = 4;
	std::uint32_t kernel_bucket_shift = kDefaultKernelBucketShift;
	pid_t pid = 0;
	bool system = false;
	std::string cpus;
	bool user_only = false;
	bool kernel_only = false;
	std::optional<double> duration;
	bool no_inherit = false;		// do not follow children
	bool call_graph = false;		// -g: the sample stream too (record)
	bool samples_allowed = false;		// -g is record's; top refuses it
	std::uint32_t mmap_pages = 0;		// -m: data pages per ring (0: default)
	std::uint32_t stack_bytes = 0;		// --call-graph dwarf[,SIZE]; 0: fp
	std::vector<std::string> command;
};

// Add -s -i -b --kernel-bucket -p -a -C --user --kernel --duration
// --no-inherit and `-- CMD` to @app; with @samples (record) also
// -g/--samples, --call-graph fp and -m/--mmap-pages, without (top) a
// hidden -g that is refused with the reason.
void add_target_options(CLI::App &app, TargetArgs &args, bool samples = false);

// Data pages per ring with --call-graph dwarf and no -m.
constexpr std::uint32_t kDwarfRingPages = 128;

// --call-graph's value: "fp" gives 0, "dwarf[,SIZE]" the stack bytes each
// sample copies (default 8192; SIZE rounded up to a multiple of 8, at
// most 65528), as perf takes it; nullopt with @error set otherwise.
std::optional<std::uint32_t> parse_call_graph(const std::string &v, std::string *error);

// The error of a -p target that exited while record set it up (@seconds
// after setup began): it says so, not which profile request failed.
Error target_gone_error(pid_t pid, double seconds);

// The checks of @args that need no device (a usage Failure, before
// anything is opened or started); returns @args.
const TargetArgs &check_target_args(const TargetArgs &args);

// A target being profiled: the device, the command (if any), the session.
class Run {
public:
	Run(const TargetArgs &args, const std::string &device);
	~Run();

	// Start profiling (and the command); notes go to stderr.
	void start();
	// Follow maps until the command exits, the process ends, SIGINT or
	// SIGTERM, or the duration passes; @tick runs every @every.
	void loop(const std::function<bool()> &tick, std::chrono::milliseconds every);
	void stop();

	Session &session() { return *session_; }
	// The sample stream (record -g), or nullptr.
	SampleRecorder *samples() { return samples_.get(); }
	const Device &device() const { return dev_; }
	// The command's shell-like exit code, when it exited by itself.
	std::optional<int> command_exit() const { return command_exit_; }
	const TargetArgs &args() const { return args_; }
	// The recording as it is now; the sample stream's records (record
	// -g) are handed over, not copied: a later call has none of them
	// (SampleRecorder::take_data()).
	ProfileData data();

private:
	TargetArgs args_;
	Device dev_;
	std::unique_ptr<Command> cmd_;
	std::unique_ptr<Session> session_;
	std::unique_ptr<SampleRecorder> samples_;
	// Put back the machine-wide intervals -i/-F changed (idempotent).
	void restore_intervals();
	// The sample stream's options: the profiles' target and sources.
	SampleOptions sample_options(const SessionOptions &so) const;
	// -F/-i without CAP_PERFMON: ProfileTime's @want as the recording's
	// own interval, clamped to the source's range (@machine: the
	// machine-wide one, which stays), said on stderr.
	std::uint32_t own_time_interval(const SourceDesc &d, std::uint32_t want,
					std::uint32_t machine) const;

	std::optional<int> command_exit_;
	kprofile_info info_{};
	std::vector<std::uint8_t> cpus_;
	// (source, interval before -i/-F), restored when the recording ends.
	std::vector<std::pair<std::uint32_t, std::uint32_t>> saved_intervals_;
};

} // namespace kprofile::record
