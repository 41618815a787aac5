// SPDX-License-Identifier: GPL-2.0
// version.h - `kprofile --version`: the tool's version (the file VERSION at
// the top of the tree), its ABI, and the loaded module's version.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kprofile {

// The project version the tool was built from, e.g. "0.9.0".
std::string_view tool_version();

// What the device at a path says about the module behind it.
struct ModuleVersion {
	enum class State {
		Absent,		// no device node: the module is not loaded
		Unreadable,	// the node is there but cannot be opened or asked
		Unversioned,	// a module older than KPROFILE_IOC_VERSION
		Known,		// KPROFILE_IOC_VERSION answered
	};
	State state = State::Absent;
	std::uint32_t abi = 0;	// Unversioned (from the info ioctl), Known
	std::string version;	// Known: e.g. "0.9.0"
	std::string why;	// Unreadable: the error
};

// Ask the device at @path; never fails (the state says what happened).
ModuleVersion query_module_version(const std::string &path);

// The text of `kprofile --version`: "kprofile VERSION (ABI N)", then a
// "module: ..." line unless the module is absent.
std::string render_version(std::string_view tool, const ModuleVersion &m,
			   const std::string &path);

} // namespace kprofile
