// SPDX-License-Identifier: GPL-2.0
// symbolize.cpp - ELF symbol tables, build-ids, demangling, kallsyms.
#include "symbolize.h"
#include "proc_read.h"
#include "text_scan.h"
#include "unique_fd.h"

#include <cxxabi.h>
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>

namespace kprofile::record {

namespace {

struct FreeDeleter {
	void operator()(char *p) const { std::free(p); }
};

struct ElfDeleter {
	void operator()(Elf *e) const { elf_end(e); }
};
using ElfPtr = std::unique_ptr<Elf, ElfDeleter>;

bool elf_ready()
{
	static const bool ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

std::string hex(const unsigned char *p, std::size_t n)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;

	for (std::size_t i = 0; i < n; i++) {
		s.push_back(digits[p[i] >> 4]);
		s.push_back(digits[p[i] & 15]);
	}
	return s;
}

std::string build_id_of(Elf *elf)
{
	Elf_Scn *scn = nullptr;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		Elf_Data *data = elf_getdata(scn, nullptr);
		if (!data)
			continue;
		std::size_t off = 0, name_off, desc_off;
		GElf_Nhdr nhdr;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
			if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
			    std::memcmp(static_cast<char *>(data->d_buf) + name_off, "GNU", 4) == 0)
				return hex(static_cast<unsigned char *>(data->d_buf) + desc_off,
					   nhdr.n_descsz);
		}
	}
	return "";
}

// Add the function symbols of section type @type; returns how many.
std::size_t add_symbols(Elf *elf, Elf64_Word type, SymbolTable &table)
{
	Elf_Scn *scn = nullptr;
	std::size_t added = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != type || shdr.sh_entsize == 0)
			continue;
		Elf_Data *data = elf_getdata(scn, nullptr);
		if (!data)
			continue;
		const std::size_t n = shdr.sh_size / shdr.sh_entsize;
		// Globals first, so an alias keeps its exported name.
		for (int pass = 0; pass < 2; pass++) {
			for (std::size_t i = 0; i < n; i++) {
				GElf_Sym sym;

				if (!gelf_getsym(data, static_cast<int>(i), &sym))
					continue;
				const int st = GELF_ST_TYPE(sym.st_info);
				const bool global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
				if ((st != STT_FUNC && st != STT_GNU_IFUNC) ||
				    sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
					continue;
				if (global != (pass == 0))
					continue;
				const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
				if (!name || !*name)
					continue;
				table.add(sym.st_value, sym.st_size, demangle(name));
				added++;
			}
		}
	}
	return added;
}

// The section called @name, or nullptr.
Elf_Scn *section_named(Elf *elf, std::string_view name, GElf_Shdr *shdr)
{
	std::size_t shstrndx = 0;
	Elf_Scn *scn = nullptr;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return nullptr;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, shdr) && (n = elf_strptr(elf, shstrndx, shdr->sh_name)) &&
		    name == n)
			return scn;
	}
	return nullptr;
}

// Name the PLT stubs as perf does, "cos@plt": the Nth R_X86_64_JUMP_SLOT
// relocation of .rela.plt is the Nth stub, in .plt.sec when there is one
// (IBT's second PLT, from its first byte) or else in .plt after its
// 16-byte header.  Without them a stub's hits went to the size-less
// symbol before it (crt's _init).  Returns how many were named.
std::size_t add_plt_symbols(Elf *elf, SymbolTable &table)
{
	GElf_Shdr rela{}, plt{}, dynsym{};
	Elf_Scn *rscn = section_named(elf, ".rela.plt", &rela);
	std::uint64_t first = 0;

	if (!rscn || rela.sh_type != SHT_RELA || rela.sh_entsize == 0)
		return 0;
	if (section_named(elf, ".plt.sec", &plt)) {
		first = plt.sh_addr;
	} else if (section_named(elf, ".plt", &plt)) {
		first = plt.sh_addr + 16;
	} else {
		return 0;
	}
	const std::uint64_t end = plt.sh_addr + plt.sh_size;
	Elf_Scn *sscn = elf_getscn(elf, rela.sh_link);
	Elf_Data *rdata = elf_getdata(rscn, nullptr);
	Elf_Data *sdata = sscn ? elf_getdata(sscn, nullptr) : nullptr;
	if (!rdata || !sdata || !gelf_getshdr(sscn, &dynsym))
		return 0;
	const std::size_t n = rela.sh_size / rela.sh_entsize;
	std::size_t added = 0;
	for (std::size_t i = 0; i < n; i++) {
		const std::uint64_t at = first + 16 * i;
		GElf_Rela r;
		GElf_Sym sym;

		if (at + 16 > end)
			break;
		if (!gelf_getrela(rdata, static_cast<int>(i), &r) ||
		    GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(sdata, static_cast<int>(GELF_R_SYM(r.r_info)), &sym))
			continue;
		const char *name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		table.add(at, 16, demangle(name) + "@plt");
		added++;
	}
	return added;
}

ElfPtr open_elf(const UniqueFd &fd)
{
	if (!elf_ready() || fd.get() < 0)
		return nullptr;
	ElfPtr elf(elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr));
	if (!elf || elf_kind(elf.get()) != ELF_K_ELF)
		return nullptr;
	return elf;
}

} // namespace

std::string demangle(const std::string &name)
{
	if (name.rfind("_Z", 0) != 0)
		return name;
	int status = 0;
	std::unique_ptr<char, FreeDeleter> out(
		abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status));
	return status == 0 && out ? std::string(out.get()) : name;
}

std::string debug_file_path(const std::string &build_id, const std::string &root)
{
	if (build_id.size() <= 2)
		return "";
	return root + "/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" +
	       build_id.substr(2) + ".debug";
}

std::string debug_package_for(const std::string &path, const std::string &dpkg_info)
{
	std::vector<std::string> names = {path};
	for (const char *pre : {"/usr/lib/", "/usr/bin/", "/usr/sbin/"}) {
		const std::string p = pre;
		if (path.rfind(p, 0) == 0)
			names.push_back(path.substr(4));
		else if (path.rfind(p.substr(4), 0) == 0)
			names.push_back("/usr" + path);
	}
	DIR *dir = ::opendir(dpkg_info.c_str());
	if (!dir)
		return "";
	std::string found;
	while (const struct dirent *e = ::readdir(dir)) {
		const std::string list = e->d_name;
		if (list.size() < 6 || list.compare(list.size() - 5, 5, ".list") != 0)
			continue;
		std::string text;
		if (read_path(dpkg_info + "/" + list, text) != 0)
			continue;
		for (const auto &n : names) {
			const auto at = text.find(n + "\n");
			if (at != std::string::npos && (at == 0 || text[at - 1] == '\n')) {
				found = list.substr(0, list.size() - 5);
				break;
			}
		}
		if (!found.empty())
			break;
	}
	::closedir(dir);
	found = found.substr(0, found.find(':'));	// "libc6:amd64"
	if (found.empty())
		return "";
	return found == "libc6" ? "libc6-dbg" : found + "-dbgsym";
}

std::optional<ElfObject> ElfObject::load(const std::string &path, std::string *error,
					 const std::string &root)
{
	UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
	if (fd.get() < 0) {
		if (error)
			*error = path + ": " + std::strerror(errno);
		return std::nullopt;
	}
	ElfPtr elf = open_elf(fd);
	if (!elf) {
		if (error)
			*error = path + ": not an ELF file";
		return std::nullopt;
	}

	ElfObject obj;
	obj.build_id_ = build_id_of(elf.get());

	std::size_t phnum = 0;
	if (elf_getphdrnum(elf.get(), &phnum) == 0) {
		for (std::size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf.get(), static_cast<int>(i), &ph) && ph.p_type == PT_LOAD)
				obj.segments_.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
		}
	}

	if (add_symbols(elf.get(), SHT_SYMTAB, obj.symbols_)) {
		obj.symbol_source_ = "symtab";
	} else if (obj.build_id_.size() > 2) {
		// A separate debug file (Debian's -dbgsym packages) has the
		// same addresses.
		const std::string dbg = debug_file_path(obj.build_id_, root);
		UniqueFd dfd(::open(dbg.c_str(), O_RDONLY | O_CLOEXEC));
		ElfPtr delf = open_elf(dfd);
		if (delf && add_symbols(delf.get(), SHT_SYMTAB, obj.symbols_))
			obj.symbol_source_ = "debug:" + dbg;
	}
	if (obj.symbol_source_.empty() && add_symbols(elf.get(), SHT_DYNSYM, obj.symbols_))
		obj.symbol_source_ = "dynsym";
	add_plt_symbols(elf.get(), obj.symbols_);
	obj.symbols_.finalize();
	return obj;
}

std::optional<std::uint64_t> ElfObject::offset_to_vaddr(std::uint64_t offset) const
{
	for (const auto &s : segments_)
		if (offset >= s.offset && offset < s.offset + std::max<std::uint64_t>(s.filesz, 1))
			return s.vaddr + (offset - s.offset);
	return std::nullopt;
}

std::string read_build_id(const std::string &path)
{
	UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
	ElfPtr elf = open_elf(fd);

	return elf ? build_id_of(elf.get()) : "";
}

// A hand-written scanner (memchr per line, no iostreams): /proc/kallsyms
// has 100 000+ lines, and record reads it once per run.
std::vector<KernelSymbolRecord> parse_kallsyms(const std::string &text)
{
	std::vector<KernelSymbolRecord> out;
	const char *p = text.data();
	const char *const end = p + text.size();
	bool nonzero = false;

	out.reserve(text.size() / 64);
	while (p < end) {
		const char *nl = static_cast<const char *>(std::memchr(p, '\n', end - p));
		std::string_view rest(p, (nl ? nl : end) - p);
		p = nl ? nl + 1 : end;

		const std::string_view addr = next_word(rest);
		const std::string_view type = next_word(rest);
		const std::string_view name = next_word(rest);
		const std::string_view module = next_word(rest);
		if (name.empty() || type.size() != 1 ||
		    (type[0] != 't' && type[0] != 'T' && type[0] != 'w' && type[0] != 'W'))
			continue;
		KernelSymbolRecord k;
		if (!parse_hex(addr, k.addr))
			continue;
		nonzero |= k.addr != 0;
		k.name = name;
		if (module.size() > 2 && module.front() == '[' && module.back() == ']')
			k.module = module.substr(1, module.size() - 2);
		out.push_back(std::move(k));
	}
	if (!nonzero)
		return {};
	// Sorted already but for the modules, usually: a stable sort is cheap.
	if (!std::is_sorted(out.begin(), out.end(),
			    [](const auto &a, const auto &b) { return a.addr < b.addr; }))
		std::stable_sort(out.begin(), out.end(),
				 [](const auto &a, const auto &b) { return a.addr < b.addr; });
	return out;
}

std::vector<KernelSymbolRecord> read_kallsyms()
{
	// Unreadable: no text, so no symbols (parse_kallsyms() of "").
	std::string text;

	read_path("/proc/kallsyms", text);
	return parse_kallsyms(text);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>>
kernel_text_range(const std::vector<KernelSymbolRecord> &syms)
{
	std::uint64_t stext = 0, etext = 0;

	for (const auto &k : syms) {
		if (!k.module.empty())
			continue;
		if (k.name == "_stext")
			stext = k.addr;
		else if (k.name == "_etext")
			etext = k.addr;
	}
	if (!stext || etext <= stext)
		return std::nullopt;
	return std::make_pair(stext, etext);
}

SymbolTable kernel_symbol_table(const std::vector<KernelSymbolRecord> &syms)
{
	SymbolTable t;

	for (const auto &k : syms)
		t.add(k.addr, k.size,
		      k.module.empty() ? k.name : k.name + " [" + k.module + "]");
	// Kernel symbols are packed: a sizeless one ends at the next.
	t.finalize(1 << 16);
	return t;
}

} // namespace kprofile::record
