// SPDX-License-Identifier: GPL-2.0
// srcline.cpp - DWARF line lookups through libdw.
#include "srcline.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace kprofile::record {

struct LineTable::Impl {
	int fd = -1;
	Dwarf *dwarf = nullptr;

	~Impl()
	{
		if (dwarf)
			dwarf_end(dwarf);
		if (fd >= 0)
			::close(fd);
	}
};

LineTable::LineTable(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineTable::LineTable(LineTable &&) noexcept = default;
LineTable &LineTable::operator=(LineTable &&) noexcept = default;
LineTable::~LineTable() = default;

std::optional<LineTable> LineTable::open(const std::string &path)
{
	auto impl = std::make_unique<Impl>();

	impl->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (impl->fd < 0)
		return std::nullopt;
	impl->dwarf = dwarf_begin(impl->fd, DWARF_C_READ);
	if (!impl->dwarf)
		return std::nullopt;
	return LineTable(std::move(impl));
}

std::string LineTable::lookup(std::uint64_t addr) const
{
	Dwarf_Die cu;

	if (!dwarf_addrdie(impl_->dwarf, addr, &cu))
		return "";
	Dwarf_Line *line = dwarf_getsrc_die(&cu, addr);
	if (!line)
		return "";
	const char *file = dwarf_linesrc(line, nullptr, nullptr);
	int lineno = 0;
	if (!file || dwarf_lineno(line, &lineno) != 0)
		return "";
	std::string name = file;
	auto slash = name.rfind('/');
	if (slash != std::string::npos)
		name.erase(0, slash + 1);
	return fmt::format("{}:{}", name, lineno);
}

} // namespace kprofile::record
