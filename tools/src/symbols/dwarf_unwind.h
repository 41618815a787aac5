// SPDX-License-Identifier: GPL-2.0
// dwarf_unwind.h - user call stacks from a sample's registers and a copy of
// the top of its user stack (record --call-graph dwarf), unwound after the
// fact by elfutils' libdwfl from the binaries' own unwind tables: .eh_frame,
// .debug_frame, and the separate debug files found by build-id.  What perf's
// unwind-libdw.c does for PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER.
//
// A frame is only reported when the unwind tables produced it: where the
// copy of the stack ends, where an object has no unwind table, or where a
// return address falls outside the process's executable mappings, the
// stack stops there and is marked truncated.  libdwfl's own guess by frame
// pointer (its fallback when unwinding from the tables fails) is never
// taken: in code built without frame pointers it names wrong callers.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

typedef struct Dwfl Dwfl;
typedef struct Dwfl_Frame Dwfl_Frame;

namespace kprofile::record {

// x86-64 user registers in DWARF numbering (the psABI's table): rax, rdx,
// rcx, rbx, rsi, rdi, rbp, rsp, r8..r15, then the return address column,
// which holds rip.
enum DwarfReg : unsigned {
	kDwarfRax = 0,
	kDwarfRbx = 3,
	kDwarfRbp = 6,
	kDwarfRsp = 7,
	kDwarfRip = 16,
	kDwarfRegs = 17,
};

struct UserRegs {
	std::array<std::uint64_t, kDwarfRegs> value{};
	std::uint32_t valid = 0;	// bit N: value[N] was captured

	void set(unsigned reg, std::uint64_t v)
	{
		value[reg] = v;
		valid |= 1U << reg;
	}
	bool has(unsigned reg) const { return valid & (1U << reg); }
	std::uint64_t ip() const { return value[kDwarfRip]; }
	std::uint64_t sp() const { return value[kDwarfRsp]; }
};

// The bytes of the user stack from the sampled sp upwards.
struct StackCopy {
	std::uint64_t sp = 0;		// user address of bytes[0]
	std::vector<std::uint8_t> bytes;
};

// One executable mapping of the process (an r-x line of /proc/PID/maps).
struct UnwindMapping {
	std::uint64_t start = 0;
	std::uint64_t end = 0;		// exclusive
	std::uint64_t offset = 0;	// file offset mapped at @start
	std::string path;		// "[vdso]" for the vDSO; "" anonymous
};

struct UnwindOptions {
	// Look object files up under this directory first (report --symfs),
	// and their separate debug files under it too.
	std::string symfs;
	// Directories holding .build-id/xx/yyyy.debug trees, searched before
	// the default /usr/lib/debug.
	std::vector<std::string> debug_dirs;
	// The vDSO's ELF image, for a "[vdso]" mapping; none: no vDSO frames
	// beyond the sampled one.
	std::vector<std::uint8_t> vdso;
};

// Why an unwind stopped.
enum class UnwindStop {
	End,		// the outermost frame (its return address is undefined)
	StackCopy,	// the next frame was beyond the copy of the stack
	NoUnwindInfo,	// no unwind table covers the last frame's address
	BadFrame,	// the tables gave a return address in no mapping
	MaxFrames,	// the frame limit
	Error,		// libdwfl failed otherwise
};

const char *unwind_stop_name(UnwindStop s);

struct UnwindResult {
	// Innermost first: the sampled ip, then return addresses (as the
	// module's frame-pointer walk reports them).
	std::vector<std::uint64_t> frames;
	UnwindStop stop = UnwindStop::Error;
	std::string error;	// libdwfl's message for Error

	// The stack had more frames than these.
	bool truncated() const { return stop != UnwindStop::End; }
};

// One process's executable mappings at one moment and the libdwfl session
// over them; unwinds any number of samples taken while they were mapped.
// Not copyable or movable (libdwfl holds a pointer to it).
class UnwindSpace {
public:
	UnwindSpace(std::vector<UnwindMapping> maps, UnwindOptions opts);
	~UnwindSpace();
	UnwindSpace(const UnwindSpace &) = delete;
	UnwindSpace &operator=(const UnwindSpace &) = delete;

	// Unwind one sample of thread @tid, at most @max_frames frames.
	UnwindResult unwind(const UserRegs &regs, const StackCopy &stack, std::size_t max_frames);

	// The function containing @addr by the objects' symbol tables (for
	// diagnostics and tests); "" when none.  @addr as in frames: a
	// return address is looked up at @addr - 1 when @return_address.
	std::string symbol(std::uint64_t addr, bool return_address) const;

	// Problems met opening the objects (one line each).
	const std::vector<std::string> &warnings() const { return warnings_; }

private:
	struct Session;		// the Dwfl and its callbacks
	const UnwindMapping *mapping_at(std::uint64_t addr) const;
	void report(const UnwindMapping &m);
	bool has_cfi(std::uint64_t addr);
	int on_frame(Dwfl_Frame *state);

	friend struct UnwindCallbacks;

	std::vector<UnwindMapping> maps_;	// ascending start
	UnwindOptions opts_;
	std::unique_ptr<Session> session_;
	std::unordered_map<std::uint64_t, bool> cfi_cache_;
	std::vector<std::string> warnings_;

	// The sample being unwound.
	const UserRegs *regs_ = nullptr;
	const StackCopy *stack_ = nullptr;
	std::size_t max_frames_ = 0;
	UnwindResult *result_ = nullptr;
	bool read_failed_ = false;	// since the last frame
	bool beyond_copy_ = false;	// a read above the copy's end failed
};

// The running kernel's vDSO image (this process's), for UnwindOptions::vdso
// when the samples come from this machine; empty when it has none.
std::vector<std::uint8_t> current_vdso_image();

} // namespace kprofile::record
