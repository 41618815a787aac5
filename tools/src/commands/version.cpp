// SPDX-License-Identifier: GPL-2.0
// version.cpp - `kprofile --version`.  KPROFILE_TOOL_VERSION comes from the
// file VERSION (tools/CMakeLists.txt reads it, this directory's
// CMakeLists.txt passes it), as the module's MODULE_VERSION does.
#include "version.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include <fmt/format.h>
#include <linux/kprofile.h>

#include "device.h"

#ifndef KPROFILE_TOOL_VERSION
#error "KPROFILE_TOOL_VERSION: the build passes the contents of VERSION"
#endif

namespace kprofile {

std::string_view tool_version()
{
	return KPROFILE_TOOL_VERSION;
}

ModuleVersion query_module_version(const std::string &path)
{
	ModuleVersion m;
	struct stat st;

	if (::stat(path.c_str(), &st) != 0 && errno == ENOENT)
		return m;
	auto dev = Device::open(path);
	if (!dev) {
		m.state = ModuleVersion::State::Unreadable;
		m.why = errno_text(dev.error().err);
		return m;
	}
	auto v = dev.value().version();
	if (!v) {
		m.state = ModuleVersion::State::Unreadable;
		m.why = errno_text(v.error().err);
		return m;
	}
	if (v.value()) {
		m.state = ModuleVersion::State::Known;
		m.abi = v.value()->abi_version;
		m.version = std::string(v.value()->version,
					strnlen(v.value()->version, sizeof(v.value()->version)));
		return m;
	}
	// ENOTTY: a module before KPROFILE_IOC_VERSION, or no kprofile at all.
	auto info = dev.value().info();
	if (!info) {
		m.state = ModuleVersion::State::Unreadable;
		m.why = "not a kprofile device (" + errno_text(info.error().err) + ")";
		return m;
	}
	m.state = ModuleVersion::State::Unversioned;
	m.abi = info.value().abi_version;
	return m;
}

std::string render_version(std::string_view tool, const ModuleVersion &m,
			   const std::string &path)
{
	std::string out = fmt::format("kprofile {} (ABI {})\n", tool, KPROFILE_ABI_VERSION);

	switch (m.state) {
	case ModuleVersion::State::Absent:
		break;
	case ModuleVersion::State::Unreadable:
		out += fmt::format("module: version unknown: {}: {}\n", path, m.why);
		break;
	case ModuleVersion::State::Unversioned:
		out += fmt::format("module: version unknown (it predates KPROFILE_IOC_VERSION), ABI {}, {}\n", m.abi, path);
		break;
	case ModuleVersion::State::Known:
		out += fmt::format("module: {} (ABI {}), {}\n", m.version, m.abi, path);
		break;
	}
	if (m.state == ModuleVersion::State::Known && m.version != tool)
		out += fmt::format("note: the module ({}) and the tool ({}) are different releases\n",
				   m.version, tool);
	if ((m.state == ModuleVersion::State::Known || m.state == ModuleVersion::State::Unversioned) &&
	    m.abi != KPROFILE_ABI_VERSION)
		out += fmt::format("warning: the module's ABI {} is not the tool's {}: "
				   "install the tool and module of one release\n",
				   m.abi, KPROFILE_ABI_VERSION);
	return out;
}

} // namespace kprofile
