// SPDX-License-Identifier: GPL-2.0
// dwarf_unwind.cpp - see dwarf_unwind.h.
#include "dwarf_unwind.h"

#include <algorithm>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <optional>
#include <set>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

#include "unique_fd.h"

namespace kprofile::record {

namespace {

// The CFA rule at one address: register + offset (the rule gcc and clang
// emit everywhere but in PLT stubs), an expression, or no unwind table.
struct CfaRule {
	enum Kind { None, RegOffset, Expression } kind = None;
	unsigned reg = 0;
	std::int64_t offset = 0;
};

// The ELF virtual address that file offset @offset is loaded at.
std::optional<std::uint64_t> vaddr_of_offset(Elf *elf, std::uint64_t offset)
{
	std::size_t n = 0;
	if (elf_getphdrnum(elf, &n) != 0)
		return std::nullopt;
	for (std::size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, static_cast<int>(i), &ph) || ph.p_type != PT_LOAD)
			continue;
		// A mapping starts at the page holding the segment's start.
		const std::uint64_t first = ph.p_offset & ~std::uint64_t{0xfff};
		if (offset >= first && offset < ph.p_offset + std::max<std::uint64_t>(ph.p_filesz, 1))
			return ph.p_vaddr - ph.p_offset + offset;
	}
	return std::nullopt;
}

std::string join_debug_path(const UnwindOptions &o)
{
	// "" (beside the file) and ".debug" first, as elfutils' default.
	std::string p = ":.debug";
	for (const auto &d : o.debug_dirs)
		p += ":" + d;
	if (!o.symfs.empty())
		p += ":" + o.symfs + "/usr/lib/debug";
	p += ":/usr/lib/debug";
	return p;
}

} // namespace

const char *unwind_stop_name(UnwindStop s)
{
	switch (s) {
	case UnwindStop::End: return "end";
	case UnwindStop::StackCopy: return "stack copy";
	case UnwindStop::NoUnwindInfo: return "no unwind info";
	case UnwindStop::BadFrame: return "bad frame";
	case UnwindStop::MaxFrames: return "max frames";
	case UnwindStop::Error: return "error";
	}
	return "?";
}

struct UnwindSpace::Session {
	std::string debuginfo_path;
	char *debuginfo_ptr = nullptr;
	Dwfl_Callbacks callbacks{};
	Dwfl *dwfl = nullptr;
	bool attached = false;
	std::unordered_map<std::uint64_t, CfaRule> rules;	// by lookup address
	// The frame last passed to on_frame: its sp and the CFA its
	// unwind rule gives (the next frame's sp), when a register rule.
	std::optional<std::uint64_t> last_sp;
	std::optional<std::uint64_t> expect_sp;

	~Session()
	{
		if (dwfl)
			dwfl_end(dwfl);
	}
	CfaRule rule_at(std::uint64_t addr);
};

// The callbacks libdwfl calls with the UnwindSpace as argument.
struct UnwindCallbacks {
	static pid_t next_thread(Dwfl *, void *arg, void **thread_arg)
	{
		if (*thread_arg)
			return 0;
		*thread_arg = arg;
		return 1;
	}
	static bool get_thread(Dwfl *, pid_t, void *arg, void **thread_arg)
	{
		*thread_arg = arg;
		return true;
	}
	static bool memory_read(Dwfl *, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
	{
		auto *self = static_cast<UnwindSpace *>(arg);
		const StackCopy &s = *self->stack_;
		if (addr >= s.sp && addr - s.sp <= s.bytes.size() &&
		    s.bytes.size() - (addr - s.sp) >= sizeof(*result)) {
			std::memcpy(result, s.bytes.data() + (addr - s.sp), sizeof(*result));
			return true;
		}
		self->read_failed_ = true;
		// Above the copied part of the stack (within what a stack
		// can be): a longer copy would have had it.
		if (addr >= s.sp && addr - s.sp < (std::uint64_t{1} << 30))
			self->beyond_copy_ = true;
		return false;
	}
	static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
	{
		const UserRegs &r = *static_cast<UnwindSpace *>(arg)->regs_;
		// rip is DWARF register 16 too: PLT stubs' CFA expressions
		// read it (DW_OP_breg16).
		for (unsigned i = 0; i < kDwarfRegs; i++) {
			if (!r.has(i))
				continue;
			Dwarf_Word v = r.value[i];
			if (!dwfl_thread_state_registers(thread, static_cast<int>(i), 1, &v))
				return false;
		}
		dwfl_thread_state_register_pc(thread, r.ip());
		return true;
	}
	static int frame(Dwfl_Frame *state, void *arg)
	{
		return static_cast<UnwindSpace *>(arg)->on_frame(state);
	}
};

namespace {
const Dwfl_Thread_Callbacks kThreadCallbacks = {
	UnwindCallbacks::next_thread,
	UnwindCallbacks::get_thread,
	UnwindCallbacks::memory_read,
	UnwindCallbacks::set_initial_registers,
	nullptr,
	nullptr,
};
} // namespace

CfaRule UnwindSpace::Session::rule_at(std::uint64_t addr)
{
	auto it = rules.find(addr);
	if (it != rules.end())
		return it->second;
	CfaRule rule;
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	for (int which = 0; mod && which < 2 && rule.kind == CfaRule::None; which++) {
		Dwarf_Addr bias = 0;
		Dwarf_CFI *cfi = which == 0 ? dwfl_module_eh_cfi(mod, &bias)
					    : dwfl_module_dwarf_cfi(mod, &bias);
		Dwarf_Frame *frame = nullptr;
		if (!cfi || dwarf_cfi_addrframe(cfi, addr - bias, &frame) != 0)
			continue;
		Dwarf_Op *ops = nullptr;
		std::size_t nops = 0;
		rule.kind = CfaRule::Expression;
		if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1) {
			const Dwarf_Op &op = ops[0];
			if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31) {
				rule = {CfaRule::RegOffset,
					static_cast<unsigned>(op.atom - DW_OP_breg0),
					static_cast<std::int64_t>(op.number)};
			} else if (op.atom == DW_OP_bregx) {
				rule = {CfaRule::RegOffset, static_cast<unsigned>(op.number),
					static_cast<std::int64_t>(op.number2)};
			}
		}
		std::free(frame);
	}
	rules.emplace(addr, rule);
	return rule;
}

UnwindSpace::UnwindSpace(std::vector<UnwindMapping> maps, UnwindOptions opts)
	: maps_(std::move(maps)), opts_(std::move(opts)), session_(std::make_unique<Session>())
{
	std::sort(maps_.begin(), maps_.end(),
		  [](const UnwindMapping &a, const UnwindMapping &b) { return a.start < b.start; });
	elf_version(EV_CURRENT);
	Session &s = *session_;
	s.debuginfo_path = join_debug_path(opts_);
	s.debuginfo_ptr = s.debuginfo_path.data();
	s.callbacks.find_elf = dwfl_build_id_find_elf;
	s.callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	s.callbacks.section_address = dwfl_offline_section_address;
	s.callbacks.debuginfo_path = &s.debuginfo_ptr;
	s.dwfl = dwfl_begin(&s.callbacks);
	if (!s.dwfl) {
		warnings_.push_back(fmt::format("libdwfl: {}", dwfl_errmsg(-1)));
		return;
	}
	dwfl_report_begin(s.dwfl);
	for (const auto &m : maps_)
		report(m);
	dwfl_report_end(s.dwfl, nullptr, nullptr);
	s.attached = dwfl_attach_state(s.dwfl, nullptr, 1, &kThreadCallbacks, this);
	if (!s.attached)
		warnings_.push_back(fmt::format("libdwfl: no unwinding: {}", dwfl_errmsg(-1)));
}

UnwindSpace::~UnwindSpace() = default;

void UnwindSpace::report(const UnwindMapping &m)
{
	if (m.path.empty() || (m.path[0] == '[' && m.path != "[vdso]"))
		return;
	UniqueFd fd;
	if (m.path == "[vdso]") {
		if (opts_.vdso.empty())
			return;
		fd = UniqueFd(memfd_create("kprofile-vdso", MFD_CLOEXEC));
		if (fd.get() < 0 ||
		    write(fd.get(), opts_.vdso.data(), opts_.vdso.size()) !=
			    static_cast<ssize_t>(opts_.vdso.size()))
			return;
	} else {
		if (!opts_.symfs.empty())
			fd = UniqueFd(open((opts_.symfs + m.path).c_str(), O_RDONLY | O_CLOEXEC));
		if (fd.get() < 0)
			fd = UniqueFd(open(m.path.c_str(), O_RDONLY | O_CLOEXEC));
		if (fd.get() < 0) {
			warnings_.push_back(fmt::format("{}: {}", m.path, std::strerror(errno)));
			return;
		}
	}
	std::optional<std::uint64_t> vaddr;
	if (Elf *elf = elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr)) {
		vaddr = vaddr_of_offset(elf, m.offset);
		elf_end(elf);
	}
	if (!vaddr) {
		warnings_.push_back(fmt::format("{}: not an ELF file with offset {:#x} loaded",
						m.path, m.offset));
		return;
	}
	const std::uint64_t bias = m.start - *vaddr;
	// A file mapped in several executable pieces is one module.
	Dwfl_Module *known = dwfl_addrmodule(session_->dwfl, m.start);
	if (known)
		return;
	lseek(fd.get(), 0, SEEK_SET);
	if (dwfl_report_elf(session_->dwfl, m.path.c_str(), m.path.c_str(), fd.get(), bias, true))
		(void)fd.release();	// the module owns it now
	else
		warnings_.push_back(fmt::format("{}: {}", m.path, dwfl_errmsg(-1)));
}

const UnwindMapping *UnwindSpace::mapping_at(std::uint64_t addr) const
{
	auto it = std::upper_bound(maps_.begin(), maps_.end(), addr,
				   [](std::uint64_t a, const UnwindMapping &m) { return a < m.start; });
	if (it == maps_.begin())
		return nullptr;
	--it;
	return addr < it->end ? &*it : nullptr;
}

int UnwindSpace::on_frame(Dwfl_Frame *state)
{
	Session &s = *session_;
	UnwindResult &res = *result_;
	// The reads that produced this frame.  dwfl_frame_pc() unwinds the
	// next frame ahead (to tell whether it is a signal frame): its
	// reads are the next frame's.
	const bool read_failed = read_failed_, beyond_copy = beyond_copy_;
	read_failed_ = false;
	beyond_copy_ = false;
	Dwarf_Addr pc = 0;
	bool activation = false;
	if (!dwfl_frame_pc(state, &pc, &activation)) {
		res.stop = UnwindStop::Error;
		res.error = dwfl_errmsg(-1);
		return DWARF_CB_ABORT;
	}
	Dwarf_Word sp = 0;
	const bool have_sp = dwfl_frame_reg(state, kDwarfRsp, &sp) == 0;
	if (!res.frames.empty()) {
		// A caller libdwfl produced from a failed read (its
		// frame-pointer guess after the tables failed), or whose sp
		// is not what the callee's CFA rule said: not a frame.
		const bool guessed = read_failed || !have_sp ||
				     (s.expect_sp && sp != *s.expect_sp) ||
				     (s.last_sp && sp <= *s.last_sp);
		if (guessed) {
			res.stop = beyond_copy ? UnwindStop::StackCopy : UnwindStop::Error;
			if (!beyond_copy)
				res.error = "the unwind tables did not give the caller";
			return DWARF_CB_ABORT;
		}
	}
	const std::uint64_t lookup = activation ? pc : pc - 1;
	const UnwindMapping *m = mapping_at(lookup);
	if (!res.frames.empty() && !m) {
		res.stop = UnwindStop::BadFrame;
		return DWARF_CB_ABORT;
	}
	res.frames.push_back(pc);
	if (res.frames.size() >= max_frames_) {
		res.stop = UnwindStop::MaxFrames;
		return DWARF_CB_ABORT;
	}
	const CfaRule rule = m ? s.rule_at(lookup) : CfaRule{};
	if (rule.kind == CfaRule::None) {
		res.stop = UnwindStop::NoUnwindInfo;
		return DWARF_CB_ABORT;
	}
	s.last_sp.reset();
	if (have_sp)
		s.last_sp = sp;
	s.expect_sp.reset();
	Dwarf_Word base = 0;
	if (rule.kind == CfaRule::RegOffset && dwfl_frame_reg(state, rule.reg, &base) == 0)
		s.expect_sp = base + static_cast<std::uint64_t>(rule.offset);
	return DWARF_CB_OK;
}

UnwindResult UnwindSpace::unwind(const UserRegs &regs, const StackCopy &stack,
				 std::size_t max_frames)
{
	UnwindResult res;
	Session &s = *session_;
	if (!s.attached || max_frames == 0 || !regs.has(kDwarfRip) || !regs.has(kDwarfRsp)) {
		if (max_frames > 0 && regs.has(kDwarfRip))
			res.frames.push_back(regs.ip());
		res.error = !s.attached ? "no objects to unwind with" : "no ip or sp";
		return res;
	}
	regs_ = &regs;
	stack_ = &stack;
	max_frames_ = max_frames;
	result_ = &res;
	read_failed_ = false;
	beyond_copy_ = false;
	s.last_sp.reset();
	s.expect_sp.reset();
	res.stop = UnwindStop::End;
	const int rc = dwfl_getthread_frames(s.dwfl, 1, UnwindCallbacks::frame, this);
	// libdwfl ends the stack where it cannot read the return address
	// as where the tables say there is none: the reads tell them apart.
	if (rc == -1 || (rc == 0 && read_failed_)) {
		if (beyond_copy_) {
			res.stop = UnwindStop::StackCopy;
		} else {
			res.stop = UnwindStop::Error;
			res.error = rc == -1 ? dwfl_errmsg(-1) : "stack memory unreadable";
		}
	}
	if (res.frames.empty())
		res.frames.push_back(regs.ip());
	regs_ = nullptr;
	stack_ = nullptr;
	result_ = nullptr;
	return res;
}

std::string UnwindSpace::symbol(std::uint64_t addr, bool return_address) const
{
	if (!session_->dwfl)
		return "";
	const std::uint64_t a = return_address ? addr - 1 : addr;
	Dwfl_Module *mod = dwfl_addrmodule(session_->dwfl, a);
	const char *name = mod ? dwfl_module_addrname(mod, a) : nullptr;
	return name ? name : "";
}

std::vector<std::uint8_t> current_vdso_image()
{
	const auto base = getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return {};
	// The image is its ELF file: up to the end of the section headers,
	// the last thing the kernel's vdso2c lays out.
	const auto *eh = reinterpret_cast<const Elf64_Ehdr *>(base);
	if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return {};
	std::size_t size = eh->e_shoff + std::size_t{eh->e_shnum} * eh->e_shentsize;
	const auto *p = reinterpret_cast<const std::uint8_t *>(base);
	return {p, p + size};
}

} // namespace kprofile::record
