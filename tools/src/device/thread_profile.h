// SPDX-License-Identifier: GPL-2.0
// thread_profile.h - thread profiling over /dev/kprofile: the machine-wide
// hardware-counter configuration (KPROFILE_IOC_SET_HW_CONFIG_EX, as
// KeSetHardwareCounterConfiguration) and a thread-profiling client
// (KPROFILE_IOC_THREAD_ENABLE, _READ, _LIST), each owning what it set up.
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "device.h"
#include "result.h"
#include "unique_fd.h"

namespace kprofile {

// The configuration, in force while the object lives; destroying it puts
// back the empty configuration (and so frees the counters).
class HwConfig {
public:
	// Set @sources, each counting in the privilege levels of the same
	// entry of @modes (enum kprofile_mode; missing entries: table mode).
	// On failure the Error says what to do and @reason (when given) gets
	// the module's reason: who holds the counters, or why there is no PMU.
	static Result<HwConfig> set(const Device &dev, const std::vector<std::uint32_t> &sources,
				    std::string *reason = nullptr,
				    const std::vector<std::uint32_t> &modes = {});

	HwConfig(HwConfig &&other) noexcept;
	HwConfig &operator=(HwConfig &&) = delete;
	HwConfig(const HwConfig &) = delete;
	~HwConfig();

	// The counter each entry got.
	const std::vector<std::uint32_t> &counters() const { return counters_; }

private:
	HwConfig(int fd, std::vector<std::uint32_t> counters) : fd_(fd), counters_(std::move(counters)) {}
	int fd_;	// the device's, which outlives this
	std::vector<std::uint32_t> counters_;
};

// Totals over the profiled threads (ReadThreadProfilingData).
struct ThreadTotals {
	std::uint64_t context_switches = 0;
	std::uint64_t cycle_time = 0;	// TSC cycles while running
	std::uint64_t threads = 0;
	bool counters_valid = false;	// false: no PMU, see reason
	std::vector<std::uint64_t> counters;	// per configuration entry
	std::string reason;
};

// One profiled thread.
struct ThreadRow {
	pid_t tid = 0;
	pid_t pid = 0;
	std::string comm;
	bool exited = false;
	std::uint64_t context_switches = 0;
	std::uint64_t cycle_time = 0;
	std::vector<std::uint64_t> counters;	// per configuration entry
};

// A thread-profiling client: closing it (destruction) disables profiling.
class ThreadProfile {
public:
	// Profile thread @pid (0: the caller); with @inherit also the
	// threads and processes it creates later; with @start_on_exec from
	// @pid's next exec on (what it counted before is dropped there).
	static Result<ThreadProfile> enable(const Device &dev, pid_t pid, bool inherit,
					    bool start_on_exec = false);

	Result<ThreadTotals> read() const;
	// Per thread, in the order they joined.  @entries: configuration
	// entries to report per thread.
	Result<std::vector<ThreadRow>> threads(std::size_t entries) const;

private:
	explicit ThreadProfile(UniqueFd fd, std::string device) : fd_(std::move(fd)), device_(std::move(device)) {}
	UniqueFd fd_;
	std::string device_;
};

} // namespace kprofile
