// SPDX-License-Identifier: GPL-2.0
// kernel_modules.h - where each loaded module's code is, for profiles of
// module text: /proc/modules gives each module's base and size, and the
// next module's base bounds it (since Linux 6.4 a module's text, data and
// read-only data are separate allocations, while the size is their sum).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profile_file.h"

namespace kprofile::record {

struct ModuleText {
	std::string name;
	std::uint64_t base = 0;
	std::uint64_t size = 0;
};

// Parse /proc/modules text ("name size refs deps state 0xaddr ...");
// modules with a hidden (zero) address are left out.  Sorted by base,
// each range cut at the next module's base.  @syms (from /proc/kallsyms)
// lowers a module's base to its first text symbol when that is lower.
std::vector<ModuleText> parse_modules(const std::string &text,
				      const std::vector<KernelSymbolRecord> &syms);
// /proc/modules of this machine; empty when unreadable.
std::vector<ModuleText> read_modules(const std::vector<KernelSymbolRecord> &syms);

} // namespace kprofile::record
