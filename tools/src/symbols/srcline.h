// SPDX-License-Identifier: GPL-2.0
// srcline.h - file:line of an address from an ELF file's DWARF line
// tables (libdw), for `kprofile report --srcline`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kprofile::record {

class LineTable {
public:
	// The line tables of @path (the object, or its separate debug file);
	// nullopt when it has no DWARF or cannot be read.
	static std::optional<LineTable> open(const std::string &path);

	// "file.c:42" for ELF address @addr (file names without their
	// directory), or "" when no line covers it.
	std::string lookup(std::uint64_t addr) const;

	LineTable(LineTable &&) noexcept;
	LineTable &operator=(LineTable &&) noexcept;
	~LineTable();

private:
	struct Impl;
	explicit LineTable(std::unique_ptr<Impl> impl);
	std::unique_ptr<Impl> impl_;
};

} // namespace kprofile::record
