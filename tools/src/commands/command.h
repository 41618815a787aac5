// SPDX-License-Identifier: GPL-2.0
// command.h - what every `kprofile` command shares: the registry entry
// (main.cpp lists them), the global options, and small helpers.
//
// Adding a command: write cmd_NAME.cpp with a setup_NAME() that adds its
// options to the CLI11 subcommand and sets its callback, declare it here,
// and add one line to main.cpp's table (and the file to this
// directory's CMakeLists.txt).
// A callback reports failure by throwing Failure (Result::value() does).
#pragma once

#include <exception>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "device.h"

namespace CLI {
class App;
}

namespace kprofile {

// Options that apply to every command.
struct Context {
	std::string device;	// --device, default Device::default_path()
};

using CommandSetup = void (*)(CLI::App &cmd, Context &ctx);

struct CommandSpec {
	const char *name;
	const char *summary;
	CommandSetup setup;
};

void setup_info(CLI::App &cmd, Context &ctx);
void setup_sources(CLI::App &cmd, Context &ctx);
void setup_interval(CLI::App &cmd, Context &ctx);
void setup_record(CLI::App &cmd, Context &ctx);	// cmd_record.cpp
void setup_report(CLI::App &cmd, Context &ctx);	// cmd_report.cpp
void setup_top(CLI::App &cmd, Context &ctx);	// cmd_top.cpp
void setup_script(CLI::App &cmd, Context &ctx);	// cmd_script.cpp
void setup_stat(CLI::App &cmd, Context &ctx);

// Open ctx.device; throws Failure with advice.
Device open_device(const Context &ctx);
// Open the device and read its information, refusing an ABI mismatch.
struct Session {
	Device device;
	kprofile_info info;
};
Session open_session(const Context &ctx);


// @j, indented, and a newline, to stdout.
void print_json(const nlohmann::json &j);
// @text to stdout / stderr as is.
void print_out(const std::string &text);
void print_err(const std::string &text);

// What record, report, script and top share:
//
// Rethrow @e (a Failure as it is; a FormatError or std::invalid_argument as
// a Usage error; anything else as Internal) as the tool's Failure.
[[noreturn]] void fail(const std::exception &e);

// -i,--input FILE: the record file to read into @input.
void add_input_option(CLI::App &cmd, std::string &input);

// @bytes to stdout when @path is "" or "-", else into the file @path
// (created or truncated); a Failure when it cannot be written.
void write_output(const std::string &path, const std::string &bytes);

} // namespace kprofile
