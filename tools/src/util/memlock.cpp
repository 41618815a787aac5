// SPDX-License-Identifier: GPL-2.0
// memlock.cpp - RLIMIT_MEMLOCK and what to say when it is too small.
#include "memlock.h"

#include <linux/capability.h>
#include <sys/resource.h>

#include <sstream>

#include <fmt/format.h>

#include "proc_read.h"

namespace kprofile::record {

namespace {

// CAP_IPC_LOCK in /proc/self/status's CapEff (hexadecimal).
bool has_ipc_lock()
{
	std::string text;
	read_path("/proc/self/status", text);
	std::istringstream status(text);
	std::string line;

	while (std::getline(status, line)) {
		if (line.rfind("CapEff:", 0) != 0)
			continue;
		std::uint64_t caps = 0;
		std::istringstream(line.substr(7)) >> std::hex >> caps;
		return caps & (1ULL << CAP_IPC_LOCK);
	}
	return false;
}

// The default before 5.16 (MLOCK_LIMIT, include/uapi/linux/resource.h).
constexpr std::uint64_t kOldDefault = 64 * 1024;
// The default since (9dcc38e2813e, "Increase default MLOCK_LIMIT to 8 MiB").
constexpr std::uint64_t kNewDefault = 8 * 1024 * 1024;

} // namespace

std::optional<std::uint64_t> memlock_limit()
{
	struct rlimit rl {};

	if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || has_ipc_lock())
		return std::nullopt;
	return static_cast<std::uint64_t>(rl.rlim_cur);
}

std::string memlock_advice(std::optional<std::uint64_t> limit)
{
	if (!limit)
		return "the bucket buffers cannot be pinned: out of memory; use larger buckets (-b)";
	if (*limit < kNewDefault)
		return fmt::format("the bucket buffers cannot be pinned: RLIMIT_MEMLOCK is {} KiB "
				   "(the default before Linux 5.16 is {} KiB, {} MiB since); raise it "
				   "(`ulimit -l {}`), use larger buckets (-b), or grant CAP_IPC_LOCK",
				   *limit / 1024, kOldDefault / 1024, kNewDefault / (1024 * 1024),
				   kNewDefault / 1024);
	return fmt::format("the bucket buffers cannot be pinned within RLIMIT_MEMLOCK ({} KiB): "
			   "use larger buckets (-b), or raise it (`ulimit -l`)", *limit / 1024);
}

} // namespace kprofile::record
