// SPDX-License-Identifier: GPL-2.0
// follow_pacer.h - when `record` re-reads a target's /proc/PID/maps: often
// while a program maps its libraries, then backing off exponentially once
// the loader is done, and at once when the target executes another program.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

namespace kprofile::record {

// The delay between two maps reads: @first after a read that found new
// mappings (a loader maps a library every millisecond or so), doubling
// after each read that found none, up to @max (dlopen() is rare).  Reading
// and parsing the maps of a 30-library program every 1..20 ms cost 12 %
// of a CPU in the review (docs/performance.md); with the doubling a
// settled program's maps are read about 10 times in its first second and
// once a second after that.  A library mapped during the back-off is
// profiled at the next read; its hits until then count in the catch-all
// (report's [unattributed]).
class FollowPacer {
public:
	using ms = std::chrono::milliseconds;

	struct Limits {
		ms first{1};
		ms max{1000};
	};

	FollowPacer() = default;
	explicit FollowPacer(Limits l) : lim_(l), delay_(l.first) {}

	// A read found new mappings (@changed) or not; returns the delay
	// until the next one.
	ms after_read(bool changed);
	// Start over (the target executed a new program).
	void reset();
	ms delay() const { return delay_; }

private:
	Limits lim_{};
	ms delay_{lim_.first};
};

// Notices an exec of @pid from /proc/PID/exe (one readlink, no parsing):
// the cheap check that runs between maps reads.
class ExecWatch {
public:
	explicit ExecWatch(pid_t pid) : pid_(pid) {}
	// True when the executable differs from the last call's (false on
	// the first call), or the process is gone (so the caller re-reads
	// its maps and finds out).
	bool changed();

private:
	pid_t pid_;
	std::optional<std::string> exe_;
};

} // namespace kprofile::record
