// SPDX-License-Identifier: GPL-2.0
// command.cpp - helpers shared by the commands.
#include "command.h"

#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace kprofile {

Device open_device(const Context &ctx)
{
	return Device::open(ctx.device).value();
}

Session open_session(const Context &ctx)
{
	Device dev = open_device(ctx);
	kprofile_info info = dev.checked_info().value();

	return {std::move(dev), info};
}

bool process_alive(pid_t pid)
{
	if (pid <= 0 || (::kill(pid, 0) != 0 && errno != EPERM))
		return false;
	std::ifstream in(fmt::format("/proc/{}/stat", pid));
	std::string line;
	if (!std::getline(in, line))
		return false;
	const auto paren = line.rfind(')');	// the comm may hold spaces and ')'
	return paren == std::string::npos || paren + 2 >= line.size() ||
	       (line[paren + 2] != 'Z' && line[paren + 2] != 'X');
}

void print_json(const nlohmann::json &j)
{
	print_out(j.dump(2) + "\n");
}

void print_out(const std::string &text)
{
	std::fwrite(text.data(), 1, text.size(), stdout);
}

void print_err(const std::string &text)
{
	std::fflush(stdout);
	std::fwrite(text.data(), 1, text.size(), stderr);
}

} // namespace kprofile
