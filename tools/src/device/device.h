// SPDX-License-Identifier: GPL-2.0
// device.h - /dev/kprofile: an owned descriptor and one typed method per
// ioctl.  Each returns its result or an Error that says what to do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <linux/kprofile.h>

#include "result.h"
#include "unique_fd.h"

namespace kprofile {

// ioctl(@fd, @request, @arg), retried on EINTR: 0, or the errno.  For
// /dev/kprofile and the profile fds it hands out.
int ioctl_errno(int fd, unsigned long request, void *arg);

class Device {
public:
	// $KPROFILE_DEVICE, else /dev/kprofile.
	static std::string default_path();

	// Open @path read-write, close-on-exec.
	static Result<Device> open(const std::string &path);

	const std::string &path() const { return path_; }
	int fd() const { return fd_.get(); }

	// KPROFILE_IOC_INFO.
	Result<kprofile_info> info() const;
	// KPROFILE_IOC_INFO, and an Error when the module's ABI version is
	// not the tool's.
	Result<kprofile_info> checked_info() const;
	// KPROFILE_IOC_INFO_EX: whether the counters are usable now (busy when
	// perf holds them), the AMD family, the usable counters.  nullopt
	// from a module that predates it (ENOTTY).
	Result<std::optional<kprofile_info_ex>> info_ex() const;
	// KPROFILE_IOC_VERSION: the module's release.  nullopt from a module
	// that predates it (ENOTTY).
	Result<std::optional<kprofile_version>> version() const;
	// KPROFILE_IOC_QUERY_SOURCE: answered for unsupported sources too.
	Result<kprofile_source_info> query_source(std::uint32_t source) const;
	// KPROFILE_IOC_LIST_SOURCES, sized by asking first (ENOSPC).
	Result<std::vector<kprofile_source_info>> list_sources() const;
	// KPROFILE_IOC_SET_INTERVAL: returns the interval actually used.
	Result<std::uint32_t> set_interval(std::uint32_t source, std::uint32_t interval) const;
	// KPROFILE_IOC_GET_INTERVAL.
	Result<std::uint32_t> get_interval(std::uint32_t source) const;
	// KPROFILE_IOC_SCHEDULE: can @sources (at most 16) be armed together?
	Result<kprofile_schedule> schedule(const std::vector<std::uint32_t> &sources) const;
	// KPROFILE_IOC_CREATE_PROFILE: the new profile's fd, or the errno
	// (the caller explains it: the advice depends on the request).
	Result<UniqueFd> create_profile(const kprofile_create_profile &req) const;
	// KPROFILE_IOC_CREATE_STREAM: the new stream's fd, or the errno (the
	// caller explains it, as for profiles).
	Result<UniqueFd> create_stream(const kprofile_create_stream &req) const;

private:
	Device(UniqueFd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
	// ioctl(@request, @arg), retried on EINTR; the errno or 0.
	int call(unsigned long request, void *arg) const;
	Error fail(Op op, int err) const;
	// The same, naming @source ("ProfileTime (0x00)", or "source 0x1D"
	// for an interface-specific one: the device does not know the
	// interface's names).
	Error fail_source(Op op, int err, std::uint32_t source) const;

	UniqueFd fd_;
	std::string path_;
};

} // namespace kprofile
