// SPDX-License-Identifier: GPL-2.0
// command.cpp - helpers shared by the commands.
#include "command.h"

#include <cstdio>

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
