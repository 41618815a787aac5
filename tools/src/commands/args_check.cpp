// SPDX-License-Identifier: GPL-2.0
// args_check.cpp - checking record's arguments up front.
#include "args_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "errors.h"
#include "profile_device.h"

namespace kprofile::record {

std::vector<std::uint8_t> check_cpu_list(const std::string &text, unsigned nr_cpus)
{
	std::vector<std::uint8_t> map;

	try {
		map = parse_cpu_list(text);
	} catch (const std::invalid_argument &e) {
		throw Failure(usage_error(e.what()));
	}
	for (std::size_t i = nr_cpus; i < map.size() * 8; i++)
		if (map[i / 8] & (1u << (i % 8)))
			throw Failure(usage_error(
				fmt::format("-C {}: CPU {} does not exist", text, i),
				{nr_cpus == 1 ? "this machine has CPU 0 only" :
				 fmt::format("this machine has CPUs 0-{}", nr_cpus - 1)}));
	return map;
}

void check_output_path(const std::string &path)
{
	const auto slash = path.rfind('/');
	const std::string dir = slash == std::string::npos ? "." :
				slash == 0 ? "/" : path.substr(0, slash);
	struct stat st {};
	const char *advice = "choose another -o FILE, in a directory you can write";

	if (path.empty() || path.back() == '/')
		throw Failure(usage_error(fmt::format("-o '{}' names no file", path), {advice}));
	if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
		throw Failure(usage_error(fmt::format("-o {} is a directory", path), {advice}));
	int err = 0;
	if (::stat(dir.c_str(), &st) != 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (::access(dir.c_str(), W_OK | X_OK) != 0)
		err = errno;
	if (err) {
		Error e = errno_error(err, fmt::format("cannot write {} (in {})", path, dir),
				      {advice});
		e.code = ExitCode::Usage;
		throw Failure(std::move(e));
	}
}

} // namespace kprofile::record
