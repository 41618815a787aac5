// SPDX-License-Identifier: GPL-2.0
// symbolize.h - ELF symbols (libelf), build-ids, C++ demangling and
// /proc/kallsyms.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile_file.h"
#include "symbol_table.h"

namespace kprofile::record {

// abi::__cxa_demangle, or @name unchanged when it is not a mangled name.
std::string demangle(const std::string &name);

// The symbols, build-id and load segments of one ELF file.
class ElfObject {
public:
	// Load @path; nullopt with @error set when it is not a readable ELF.
	// Its separate debug file is looked for under @root (--symfs) +
	// /usr/lib/debug/.build-id/.
	static std::optional<ElfObject> load(const std::string &path, std::string *error = nullptr,
					     const std::string &root = "");

	// The ELF virtual address a file offset is loaded at (via PT_LOAD).
	std::optional<std::uint64_t> offset_to_vaddr(std::uint64_t offset) const;

	const std::string &build_id() const { return build_id_; }
	const SymbolTable &symbols() const { return symbols_; }
	// Where the symbols came from: "symtab", "dynsym", "debug:<path>", "".
	const std::string &symbol_source() const { return symbol_source_; }

private:
	struct Segment {
		std::uint64_t offset, vaddr, filesz;
	};
	std::string build_id_;
	std::vector<Segment> segments_;
	SymbolTable symbols_;
	std::string symbol_source_;
};

// /usr/lib/debug/.build-id/xx/yyyy.debug under @root, for @build_id.
std::string debug_file_path(const std::string &build_id, const std::string &root = "");
// The Debian package whose debug symbols would name @path's code
// ("libc6-dbg" for libc6's files, else "PACKAGE-dbgsym"), from the dpkg
// file lists in @dpkg_info; "" when no package lists @path (also as
// /lib/... for /usr/lib/..., and the other way: merged /usr).
std::string debug_package_for(const std::string &path,
			      const std::string &dpkg_info = "/var/lib/dpkg/info");

// The build-id of @path (lowercase hex), or "" when none / unreadable.
std::string read_build_id(const std::string &path);

// Text symbols parsed from /proc/kallsyms-format text.  Addresses that are
// all zero (kptr_restrict) make the result empty.
std::vector<KernelSymbolRecord> parse_kallsyms(const std::string &text);
// Read /proc/kallsyms (empty when unreadable or hidden).
std::vector<KernelSymbolRecord> read_kallsyms();
// The kernel's text range from _stext/_etext, when kallsyms shows it.
std::optional<std::pair<std::uint64_t, std::uint64_t>>
kernel_text_range(const std::vector<KernelSymbolRecord> &syms);
// A symbol table from kernel symbols ("name [module]" for modules).
SymbolTable kernel_symbol_table(const std::vector<KernelSymbolRecord> &syms);

} // namespace kprofile::record
