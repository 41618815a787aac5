// SPDX-License-Identifier: GPL-2.0
// follow_pacer.cpp - the back-off of record's maps reads.
#include "record/follow_pacer.h"

#include <unistd.h>

#include <algorithm>
#include <array>

namespace kprofile::record {

FollowPacer::ms FollowPacer::after_read(bool changed)
{
	if (changed)
		reset();
	else
		delay_ = std::min(delay_ * 2, lim_.max);
	return delay_;
}

void FollowPacer::reset()
{
	delay_ = lim_.first;
}

bool ExecWatch::changed()
{
	const std::string link = "/proc/" + std::to_string(pid_) + "/exe";
	std::array<char, 4096> buf{};
	const ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());

	if (n < 0)
		return true;
	std::string exe(buf.data(), static_cast<std::size_t>(n));
	const bool differs = exe_ && *exe_ != exe;
	exe_ = std::move(exe);
	return differs;
}

} // namespace kprofile::record
