// SPDX-License-Identifier: GPL-2.0
// proc_read.cpp - read a /proc file whole (proc_read.h).
#include "proc_read.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>

#include "unique_fd.h"

namespace kprofile::record {

int read_all(int fd, std::string &out)
{
	// Each read used to resize the string by the size asked for, which
	// zero-fills it: 1 MiB per 4 KiB page of /proc/kallsyms, a gigabyte
	// written per record (2.7 s of its 3 s fixed cost under TCG).
	std::array<char, 65536> buf;

	for (;;) {
		const ssize_t n = ::read(fd, buf.data(), buf.size());
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return 0;
		out.append(buf.data(), static_cast<std::size_t>(n));
	}
}

int read_path(const std::string &path, std::string &out)
{
	UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));

	if (!fd)
		return errno;
	return read_all(fd.get(), out);
}

std::optional<int> read_sysctl(const std::string &path)
{
	std::string text;

	if (read_path(path, text))
		return std::nullopt;
	const char *begin = text.c_str();
	char *end = nullptr;
	errno = 0;
	const long v = std::strtol(begin, &end, 10);
	if (end == begin || errno)
		return std::nullopt;
	return static_cast<int>(v);
}

} // namespace kprofile::record
