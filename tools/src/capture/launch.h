// SPDX-License-Identifier: GPL-2.0
// launch.h - start `-- CMD ARGS...` held back until its profiles exist.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "profile_device.h"

namespace kprofile::record {

// The command is forked at once but waits on a pipe before exec, so the
// target's pid exists for the catch-all profiles.  It asks to be traced
// (PTRACE_TRACEME) so it stops right after exec: its new mappings are
// then known before its first instruction runs, and it is detached.
// Where tracing is refused, exec goes ahead and the maps are read as
// soon as exec has happened.
class Command {
public:
	explicit Command(const std::vector<std::string> &argv);
	~Command();
	Command(const Command &) = delete;
	Command &operator=(const Command &) = delete;

	pid_t pid() const { return pid_; }
	// Let the command exec; returns once the exec happened (the new
	// image is mapped and, when traced, stopped).  Throws Failure
	// when exec fails.
	void exec();
	// Let a traced command run (no-op otherwise).
	void resume();
	// The exit status once exited (waitpid WNOHANG), else nullopt.
	std::optional<int> poll();
	// Ask it to end (SIGTERM), and reap it.
	int terminate();
	// A shell-like status: code, or 128 + signal.
	static int exit_code(int status);

private:
	pid_t pid_ = -1;
	UniqueFd go_;		// write end: one byte lets it exec
	UniqueFd status_;	// read end: errno of TRACEME / exec, CLOEXEC
	bool traced_ = false;
	bool stopped_ = false;
	std::optional<int> status_code_;
	std::string name_;
};

} // namespace kprofile::record
