// SPDX-License-Identifier: GPL-2.0
// device.cpp - the ioctls of /dev/kprofile.
#include "device.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/ioctl.h>

#include "source_parse.h"
#include "source_table.h"

namespace kprofile {

std::string Device::default_path()
{
	const char *env = std::getenv("KPROFILE_DEVICE");

	return env && *env ? env : "/dev/" KPROFILE_DEVICE_NAME;
}

Result<Device> Device::open(const std::string &path)
{
	int fd;

	do
		fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return explain(Op::Open, errno, {.device = path});
	return Device(UniqueFd(fd), path);
}

int ioctl_errno(int fd, unsigned long request, void *arg)
{
	int ret;

	do
		ret = ::ioctl(fd, request, arg);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? errno : 0;
}

int Device::call(unsigned long request, void *arg) const
{
	return ioctl_errno(fd_.get(), request, arg);
}

Error Device::fail(Op op, int err) const
{
	return explain(op, err, {.device = path_});
}

Error Device::fail_source(Op op, int err, std::uint32_t source) const
{
	const auto name = generic_name(source);

	return explain(op, err, {.device = path_,
				 .source = source_label(source, name ? *name : std::string_view{})});
}

Result<kprofile_info> Device::info() const
{
	kprofile_info info{};

	if (int err = call(KPROFILE_IOC_INFO, &info))
		return fail(Op::Info, err);
	return info;
}

Result<std::optional<kprofile_info_ex>> Device::info_ex() const
{
	kprofile_info_ex x{};

	if (int err = call(KPROFILE_IOC_INFO_EX, &x)) {
		if (err == ENOTTY)
			return std::optional<kprofile_info_ex>{};
		return fail(Op::Info, err);
	}
	return std::optional<kprofile_info_ex>{x};
}

Result<std::optional<kprofile_version>> Device::version() const
{
	kprofile_version v{};

	if (int err = call(KPROFILE_IOC_VERSION, &v)) {
		if (err == ENOTTY)
			return std::optional<kprofile_version>{};
		return fail(Op::Info, err);
	}
	return std::optional<kprofile_version>{v};
}

Result<kprofile_info> Device::checked_info() const
{
	auto info = this->info();

	if (info && info.value().abi_version != KPROFILE_ABI_VERSION)
		return abi_mismatch(info.value().abi_version, path_);
	return info;
}

Result<kprofile_source_info> Device::query_source(std::uint32_t source) const
{
	kprofile_source_info info{};

	info.source = source;
	if (int err = call(KPROFILE_IOC_QUERY_SOURCE, &info))
		return fail_source(Op::QuerySource, err, source);
	return info;
}

Result<std::vector<kprofile_source_info>> Device::list_sources() const
{
	std::vector<kprofile_source_info> entries;
	kprofile_source_list list{};

	// Ask for the count, then fetch; the tables cannot grow while the
	// module is loaded, but retry a few times rather than assume it.
	for (int attempt = 0; attempt < 4; attempt++) {
		entries.assign(list.count, kprofile_source_info{});
		list.flags = 0;
		list.entries = reinterpret_cast<std::uintptr_t>(entries.data());
		int err = call(KPROFILE_IOC_LIST_SOURCES, &list);
		if (!err) {
			entries.resize(list.count);
			return entries;
		}
		if (err != ENOSPC)
			return fail(Op::ListSources, err);
	}
	return fail(Op::ListSources, ENOSPC);
}

Result<std::uint32_t> Device::set_interval(std::uint32_t source, std::uint32_t interval) const
{
	kprofile_interval req{.source = source, .interval = interval};

	if (int err = call(KPROFILE_IOC_SET_INTERVAL, &req))
		return fail_source(Op::SetInterval, err, source);
	return req.interval;
}

Result<std::uint32_t> Device::get_interval(std::uint32_t source) const
{
	kprofile_interval req{.source = source, .interval = 0};

	if (int err = call(KPROFILE_IOC_GET_INTERVAL, &req))
		return fail_source(Op::GetInterval, err, source);
	return req.interval;
}

Result<kprofile_schedule> Device::schedule(const std::vector<std::uint32_t> &sources) const
{
	kprofile_schedule req{};

	if (sources.size() > KPROFILE_MAX_COUNTERS)
		return fail(Op::Other, EINVAL);
	req.nr_sources = static_cast<std::uint32_t>(sources.size());
	std::copy(sources.begin(), sources.end(), req.sources);
	if (int err = call(KPROFILE_IOC_SCHEDULE, &req))
		return fail(Op::Other, err);
	return req;
}

namespace {

// An ioctl that returns a new fd: the fd, or an Error with the bare errno.
Result<UniqueFd> new_fd(int dev, unsigned long request, void *arg)
{
	int fd;

	do
		fd = ::ioctl(dev, request, arg);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		Error e;
		e.err = errno;
		e.code = exit_code_for(e.err);
		e.what = errno_text(e.err);
		return e;
	}
	return UniqueFd(fd);
}

} // namespace

Result<UniqueFd> Device::create_profile(const kprofile_create_profile &req) const
{
	kprofile_create_profile copy = req;

	return new_fd(fd_.get(), KPROFILE_IOC_CREATE_PROFILE, &copy);
}

Result<UniqueFd> Device::create_stream(const kprofile_create_stream &req) const
{
	kprofile_create_stream copy = req;

	return new_fd(fd_.get(), KPROFILE_IOC_CREATE_STREAM, &copy);
}

} // namespace kprofile
