// SPDX-License-Identifier: GPL-2.0
// commands.h - what `kprofile record`, `report`, `script` and `top` share:
// the mapping of their failures onto the tool's errors (util/errors.h),
// the record file they read (-i) and the output they write (-o).  Their
// setup_NAME() functions are declared in command.h.
#pragma once

#include <exception>
#include <string>

namespace CLI {
class App;
}

namespace kprofile::record {

// Rethrow @e (a Failure as it is; a FormatError or std::invalid_argument as
// a Usage error; anything else as Internal) as the tool's Failure.
[[noreturn]] void fail(const std::exception &e);

// -i,--input FILE: the record file to read into @input.
void add_input_option(CLI::App &cmd, std::string &input);

// @bytes to stdout when @path is "" or "-", else into the file @path
// (created or truncated); a Failure when it cannot be written.
void write_output(const std::string &path, const std::string &bytes);

} // namespace kprofile::record
