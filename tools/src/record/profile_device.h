// SPDX-License-Identifier: GPL-2.0
// profile_device.h - the /dev/kprofile calls record/report/top make:
// info, sources, intervals, schedule, and profile objects over a live
// bucket buffer.  Every failure throws RecordError with advice.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

#include <linux/kprofile.h>

namespace kprofile::record {

// A failure with the errno, what failed, and what to do about it.  Its
// kind picks the tool's exit code (tools/src/errors.h): the device is
// unusable, the command line is wrong, the module refused, or other.
class RecordError : public std::runtime_error {
public:
	enum class Kind { Device, Usage, Refused, Internal };

	// The kind follows from @err: EPERM, EACCES, EOPNOTSUPP, EBUSY,
	// ESRCH, EINVAL, ENOSPC, ENOMEM are refusals, the rest internal.
	RecordError(int err, const std::string &what, const std::string &advice = "");
	RecordError(Kind kind, int err, const std::string &what, const std::string &advice = "");
	int error() const { return err_; }
	Kind kind() const { return kind_; }
	const std::string &advice() const { return advice_; }

private:
	int err_;
	Kind kind_;
	std::string advice_;
};

// An owned file descriptor.
class UniqueFd {
public:
	UniqueFd() = default;
	explicit UniqueFd(int fd) : fd_(fd) {}
	~UniqueFd() { reset(); }
	UniqueFd(UniqueFd &&o) noexcept : fd_(o.release()) {}
	UniqueFd &operator=(UniqueFd &&o) noexcept
	{
		if (this != &o) {
			reset();
			fd_ = o.release();
		}
		return *this;
	}
	UniqueFd(const UniqueFd &) = delete;
	UniqueFd &operator=(const UniqueFd &) = delete;
	int get() const { return fd_; }
	int release()
	{
		int fd = fd_;
		fd_ = -1;
		return fd;
	}
	void reset();

private:
	int fd_ = -1;
};

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

struct ProfileRequest {
	std::uint32_t target = KPROFILE_TARGET_SELF;
	pid_t pid = 0;
	std::uint64_t base = 0;
	std::uint64_t size = 0;
	std::uint32_t bucket_shift = 4;
	std::uint32_t source = 0;
	std::uint32_t mode = KPROFILE_MODE_BOTH;
	std::vector<std::uint8_t> cpus;	// bitmap, empty = all online
};

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

class ProfileDevice {
public:
	// Open @path (the tool's --device, /dev/kprofile by default).
	explicit ProfileDevice(const std::string &path);
	kprofile_info info() const;
	std::vector<SourceDesc> sources() const;
	SourceDesc source(std::uint32_t value) const;
	// Set the machine-wide interval; returns the interval in use.
	std::uint32_t set_interval(std::uint32_t source, std::uint32_t interval) const;
	// Can these counter sources run together?  Throws a RecordError
	// naming which fit together when they do not.
	void check_schedule(const std::vector<SourceDesc> &sources) const;
	// Create a profile; errors carry advice for the request's target.
	std::unique_ptr<Profile> create(const ProfileRequest &req) const;

	const std::string &path() const { return path_; }

private:
	std::string path_;
	UniqueFd fd_;
};

// The error for counter sources @names that KPROFILE_IOC_SCHEDULE said do
// not fit (@s as it returned): which fit together, which do not, and why.
RecordError schedule_error(const std::vector<std::string> &names, const kprofile_schedule &s);
// Advice for an errno from creating or starting a profile.
std::string profile_advice(int err, const ProfileRequest &req);
// Resolve "ProfileTime", "Time", "0x13", "19" to a source value among
// @known; throws RecordError listing the valid names.
std::uint32_t parse_source(const std::string &text, const std::vector<SourceDesc> &known);
// "0-3,6" -> a CPU bitmap; throws std::invalid_argument.
std::vector<std::uint8_t> parse_cpu_list(const std::string &text);

} // namespace kprofile::record
