// SPDX-License-Identifier: GPL-2.0
// command.cpp - helpers shared by the commands.
#include "command.h"

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "errors.h"
#include "profile_file.h"

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

void fail(const std::exception &e)
{
	Error err;

	err.what = e.what();
	if (const auto *f = dynamic_cast<const Failure *>(&e)) {
		throw *f;
	} else if (dynamic_cast<const record::FormatError *>(&e)) {
		err.code = ExitCode::Usage;
	} else if (dynamic_cast<const std::invalid_argument *>(&e)) {
		err.code = ExitCode::Usage;
	}
	throw Failure(std::move(err));
}

void add_input_option(CLI::App &cmd, std::string &input)
{
	cmd.add_option("-i,--input", input, "The record file (default kprofile.data)")
		->type_name("FILE");
}

void write_output(const std::string &path, const std::string &bytes)
{
	if (path.empty() || path == "-") {
		print_out(bytes);
		return;
	}
	std::ofstream out(path, std::ios::binary | std::ios::trunc);
	if (out)
		out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
	if (!out || !out.flush())
		throw Failure(errno_error(errno, "cannot write " + path,
					  {"choose another -o FILE or directory"}));
}

} // namespace kprofile
