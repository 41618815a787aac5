// SPDX-License-Identifier: GPL-2.0
// profile_device.h - profile objects (KPROFILE_IOC_CREATE_PROFILE) over a
// live bucket buffer, and what record/report/top need of the device on
// top of device.h: source descriptors, the schedule check, the
// advice for a refused profile.  Every failure throws Failure (errors.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include <linux/kprofile.h>

#include "device.h"
#include "errors.h"
#include "unique_fd.h"

namespace kprofile::record {

// Zeroed anonymous memory for 32-bit bucket counters, unmapped on
// destruction.  The kernel pins its pages while the profile runs.
class BucketBuffer {
public:
	explicit BucketBuffer(std::size_t buckets);
	~BucketBuffer();
	BucketBuffer(const BucketBuffer &) = delete;
	BucketBuffer &operator=(const BucketBuffer &) = delete;
	std::uint32_t *data() const { return data_; }
	std::size_t count() const { return count_; }
	std::size_t bytes() const { return count_ * 4; }
	// A copy of the live counts (relaxed atomic loads).
	std::vector<std::uint32_t> snapshot() const;

private:
	std::uint32_t *data_ = nullptr;
	std::size_t count_ = 0;
	std::size_t map_bytes_ = 0;
};

struct SourceDesc {
	std::uint32_t value = 0;
	std::string name;
	std::uint32_t interval = 0;
	bool supported = false;
	bool timer = false;
	std::string reason;
};

// A KPROFILE_IOC_QUERY_SOURCE / LIST_SOURCES entry as record uses it.
SourceDesc source_desc(const kprofile_source_info &si);

struct ProfileRequest {
	std::uint32_t target = KPROFILE_TARGET_SELF;
	pid_t pid = 0;
	std::uint64_t base = 0;
	std::uint64_t size = 0;
	std::uint32_t bucket_shift = 4;
	std::uint32_t source = 0;
	std::uint32_t mode = KPROFILE_MODE_BOTH;
	std::vector<std::uint8_t> cpus;	// bitmap, empty = all online
	// ProfileTime: the profile's own interval (100 ns units; its fd's
	// KPROFILE_IOC_SET_INTERVAL, no capability needed), 0: the
	// machine-wide one.
	std::uint32_t own_interval = 0;
	// What the range is, for errors: "libc.so.6 of process 42"
	// (profile_label()); empty: the addresses are named.
	std::string what;
};

// A profile's range as a user knows it: "the kernel text of process 42",
// "module [9p] (system-wide)", "/usr/lib/libc.so.6 of process 42", "the
// user-space catch-all of process 42".  @object_path: the object's path
// ("[name]" for a module), empty for none.
std::string profile_label(bool catch_all, bool kernel, const std::string &object_path,
			  pid_t pid);

// One profile object: its fd and its live buffer.
class Profile {
public:
	Profile(UniqueFd fd, std::unique_ptr<BucketBuffer> buffer)
		: buffer_(std::move(buffer)), fd_(std::move(fd)) {}
	void start();
	void stop();
	bool started() const { return started_; }
	kprofile_profile_stats stats() const;
	// Why counting stopped (KPROFILE_IOC_PROFILE_STATS_EX): flags
	// (KPROFILE_PROFILE_*) and the interrupts hidden as not dumpable; zero
	// from a module without that ioctl.
	kprofile_profile_stats_ex stats_ex() const;
	const BucketBuffer &buffer() const { return *buffer_; }

private:
	std::unique_ptr<BucketBuffer> buffer_;
	UniqueFd fd_;	// declared last: closed before the buffer is unmapped
	bool started_ = false;
};

// Can these counter sources run together?  Throws a Failure naming which
// fit together when they do not.
void check_schedule(const Device &dev, const std::vector<SourceDesc> &sources);
// Create a profile; errors carry advice for the request's target.
std::unique_ptr<Profile> create_profile(const Device &dev, const ProfileRequest &req);
// Give a stopped ProfileTime profile's or stream's fd @fd its own
// interval (KPROFILE_IOC_SET_INTERVAL on it); throws a Failure that says
// what to do when the module refuses.  @what: "a profile", "the sample
// stream".
void set_own_interval(int fd, std::uint32_t interval, const std::string &what);

// The error for counter sources @names that KPROFILE_IOC_SCHEDULE said do
// not fit (@s as it returned): which fit together, which do not, and why.
Error schedule_error(const std::vector<std::string> &names, const kprofile_schedule &s);
// Advice for an errno from creating or starting a profile.
std::string profile_advice(int err, const ProfileRequest &req);
// "0-3,6" -> a CPU bitmap; throws std::invalid_argument.
std::vector<std::uint8_t> parse_cpu_list(const std::string &text);

} // namespace kprofile::record
