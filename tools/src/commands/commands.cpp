// SPDX-License-Identifier: GPL-2.0
// commands.cpp - what the record commands share (commands.h).
#include "commands.h"

#include <cerrno>
#include <fstream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "command.h"
#include "errors.h"
#include "profile_file.h"

namespace kprofile::record {

void fail(const std::exception &e)
{
	Error err;

	err.what = e.what();
	if (const auto *f = dynamic_cast<const Failure *>(&e)) {
		throw *f;
	} else if (dynamic_cast<const FormatError *>(&e)) {
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

} // namespace kprofile::record
