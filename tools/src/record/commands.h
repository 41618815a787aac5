// SPDX-License-Identifier: GPL-2.0
// commands.h - what `kprofile record`, `report` and `top` share: the
// mapping of their failures onto the tool's errors (tools/src/errors.h).
// Their setup_NAME() functions are declared in tools/src/command.h.
#pragma once

#include <exception>

namespace kprofile::record {

// Rethrow @e (a Failure as it is; a FormatError or std::invalid_argument as
// a Usage error; anything else as Internal) as the tool's Failure.
[[noreturn]] void fail(const std::exception &e);

} // namespace kprofile::record
