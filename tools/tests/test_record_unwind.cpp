// SPDX-License-Identifier: GPL-2.0
// record --call-graph dwarf's unwinder on real samples: unwind_target (built
// -O2 -fomit-frame-pointer) samples itself with SIGPROF and saves each
// sample's registers and stack copy; these tests unwind them with
// UnwindSpace and check every frame against what the program was doing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fixtures/unwind_capture.h"
#include "dwarf_unwind.h"
#include "maps.h"
#include "symbolize.h"

using namespace kprofile::record;

namespace {

struct Capture {
	std::vector<UnwindMapping> maps;
	std::vector<std::uint8_t> vdso;
	std::uint64_t vdso_start = 0;
	std::vector<kp_unwind_sample> samples;
};

// Run @exe (a build of unwind_target.c) and read what it captured.
Capture run_target(const std::string &exe)
{
	char tmpl[] = "/tmp/kp-unwind-XXXXXX";
	const int fd = mkstemp(tmpl);
	if (fd < 0)
		throw std::runtime_error("mkstemp");
	close(fd);
	const std::string out = tmpl;
	const int rc = std::system(fmt::format("'{}' '{}'", exe, out).c_str());
	std::ifstream in(out, std::ios::binary);
	std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	unlink(out.c_str());
	if (rc != 0)
		throw std::runtime_error(fmt::format("{} exited with {}", exe, rc));
	std::uint64_t head[5];
	if (raw.size() < sizeof(head))
		throw std::runtime_error("short capture");
	std::memcpy(head, raw.data(), sizeof(head));
	const std::size_t want = sizeof(head) + head[2] + head[4] + head[1] * sizeof(kp_unwind_sample);
	if (head[0] != KP_UNWIND_MAGIC || raw.size() != want)
		throw std::runtime_error("malformed capture");
	Capture c;
	const char *p = raw.data() + sizeof(head);
	for (const auto &m : executable_mappings(parse_maps(std::string(p, head[2]))))
		c.maps.push_back({m.start, m.end, m.offset, m.path});
	p += head[2];
	c.vdso_start = head[3];
	c.vdso.assign(p, p + head[4]);
	p += head[4];
	c.samples.resize(head[1]);
	std::memcpy(c.samples.data(), p, head[1] * sizeof(kp_unwind_sample));
	return c;
}

UserRegs regs_of(const kp_unwind_sample &s)
{
	UserRegs r;
	for (unsigned i = 0; i < KP_UNWIND_REGS; i++)
		r.set(i, s.regs[i]);
	return r;
}

StackCopy stack_of(const kp_unwind_sample &s, std::size_t len = KP_UNWIND_STACK)
{
	StackCopy c;
	c.sp = s.regs[kDwarfRsp];
	c.bytes.assign(s.stack, s.stack + std::min<std::size_t>(len, s.stack_len));
	return c;
}

std::vector<std::string> names(const UnwindSpace &space, const UnwindResult &r)
{
	std::vector<std::string> out;
	for (std::size_t i = 0; i < r.frames.size(); i++)
		out.push_back(space.symbol(r.frames[i], i > 0));
	return out;
}

std::string show(const std::vector<std::string> &n, const UnwindResult &r)
{
	return fmt::format("{} [{}] {}", fmt::join(n, ";"), unwind_stop_name(r.stop), r.error);
}

bool has(const std::vector<std::string> &n, const std::string &what)
{
	return std::find(n.begin(), n.end(), what) != n.end();
}

class RecordUnwind : public ::testing::Test {
protected:
	static void SetUpTestSuite()
	{
		eh_ = new Capture(run_target(KP_UNWIND_TARGET));
		df_ = new Capture(run_target(KP_UNWIND_TARGET_DF));
	}
	static void TearDownTestSuite()
	{
		delete eh_;
		delete df_;
	}
	static UnwindOptions with_vdso(const Capture &c)
	{
		UnwindOptions o;
		o.vdso = c.vdso;
		return o;
	}
	// The leaf's samples: the caller named is the one calling it then,
	// and the stack goes on to work() and main().
	static void expect_callers_right(const Capture &c, UnwindSpace &space)
	{
		int leaf = 0, seen[3] = {};
		for (const auto &s : c.samples) {
			if (s.phase != KP_PHASE_CALLERS)
				continue;
			const auto r = space.unwind(regs_of(s), stack_of(s), 127);
			const auto n = names(space, r);
			EXPECT_EQ(r.stop, UnwindStop::End) << show(n, r);
			EXPECT_TRUE(has(n, "main")) << show(n, r);
			if (n[0] != "leaf")
				continue;
			leaf++;
			ASSERT_GE(n.size(), 4U) << show(n, r);
			ASSERT_TRUE(s.truth == 1 || s.truth == 2);
			EXPECT_EQ(n[1], s.truth == 1 ? "caller_a" : "caller_b") << show(n, r);
			EXPECT_EQ(n[2], "work") << show(n, r);
			EXPECT_EQ(n[3], "main") << show(n, r);
			seen[s.truth]++;
		}
		EXPECT_GT(leaf, 0);
		EXPECT_GT(seen[1], 0);
		EXPECT_GT(seen[2], 0);
	}
	static Capture *eh_;
	static Capture *df_;
};

Capture *RecordUnwind::eh_;
Capture *RecordUnwind::df_;

} // namespace

TEST_F(RecordUnwind, EhFrameNamesTheCallerOfALeafWithoutFramePointers)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	EXPECT_TRUE(space.warnings().empty()) << fmt::format("{}", fmt::join(space.warnings(), "\n"));
	expect_callers_right(*eh_, space);
}

TEST_F(RecordUnwind, VdsoFramesUnwindWithItsImage)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	UnwindSpace blind(eh_->maps, {});
	int in_vdso = 0;
	for (const auto &s : eh_->samples) {
		const std::uint64_t ip = s.regs[kDwarfRip];
		if (ip < eh_->vdso_start || ip >= eh_->vdso_start + eh_->vdso.size())
			continue;
		in_vdso++;
		const auto r = space.unwind(regs_of(s), stack_of(s), 127);
		const auto n = names(space, r);
		EXPECT_EQ(r.stop, UnwindStop::End) << show(n, r);
		EXPECT_TRUE(has(n, "vdso_caller")) << show(n, r);
		EXPECT_TRUE(has(n, "main")) << show(n, r);
		// Without the image there is nothing to unwind it with: the
		// sampled ip only, never a guess.
		const auto b = blind.unwind(regs_of(s), stack_of(s), 127);
		EXPECT_EQ(b.frames, std::vector<std::uint64_t>{ip});
		EXPECT_EQ(b.stop, UnwindStop::NoUnwindInfo);
	}
	EXPECT_GT(in_vdso, 0) << "no sample in the vDSO";
}

// Cut the stack copy short anywhere: the frames that fit, the same as
// with the whole copy, then a stop marked truncated; never another frame.
TEST_F(RecordUnwind, ShortStackCopyGivesAPrefixMarkedTruncated)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	int shorter = 0;
	for (const auto &s : eh_->samples) {
		const auto full = space.unwind(regs_of(s), stack_of(s), 127);
		ASSERT_EQ(full.stop, UnwindStop::End);
		for (std::size_t len = 0; len <= 512; len += 8) {
			const auto r = space.unwind(regs_of(s), stack_of(s, len), 127);
			ASSERT_LE(r.frames.size(), full.frames.size());
			ASSERT_GE(r.frames.size(), 1U);
			EXPECT_TRUE(std::equal(r.frames.begin(), r.frames.end(), full.frames.begin()))
				<< "copy of " << len << ": " << show(names(space, r), r)
				<< " vs " << show(names(space, full), full);
			// leaf() pushes nothing: its return address is at sp,
			// so 8 bytes already name its caller.
			if (len >= 8 && space.symbol(full.frames[0], false) == "leaf")
				EXPECT_GE(r.frames.size(), 2U) << "copy of " << len;
			if (r.frames.size() < full.frames.size()) {
				shorter++;
				EXPECT_TRUE(r.truncated());
				EXPECT_EQ(r.stop, UnwindStop::StackCopy) << len;
			} else {
				EXPECT_EQ(r.stop, UnwindStop::End) << len;
			}
		}
	}
	EXPECT_GT(shorter, 0);
}

// A return address the tables point at that lies in no mapping (a
// corrupted stack) ends the stack before it.
TEST_F(RecordUnwind, ReturnAddressOutsideTheMappingsIsNotAFrame)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	int checked = 0;
	for (const auto &s : eh_->samples) {
		const auto full = space.unwind(regs_of(s), stack_of(s), 127);
		if (names(space, full)[0] != "leaf")
			continue;
		StackCopy bad = stack_of(s);
		for (std::size_t off = 0; off + 8 <= bad.bytes.size(); off += 8) {
			std::uint64_t w;
			std::memcpy(&w, bad.bytes.data() + off, 8);
			if (w == full.frames[1]) {
				w = 0x1000;
				std::memcpy(bad.bytes.data() + off, &w, 8);
			}
		}
		const auto r = space.unwind(regs_of(s), bad, 127);
		EXPECT_EQ(r.frames, std::vector<std::uint64_t>{full.frames[0]});
		EXPECT_EQ(r.stop, UnwindStop::BadFrame);
		checked++;
	}
	EXPECT_GT(checked, 0);
}

TEST_F(RecordUnwind, FrameLimitStopsTheWalk)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	const auto &s = eh_->samples.at(0);
	const auto full = space.unwind(regs_of(s), stack_of(s), 127);
	ASSERT_GE(full.frames.size(), 3U);
	const auto r = space.unwind(regs_of(s), stack_of(s), 2);
	EXPECT_EQ(r.frames, std::vector<std::uint64_t>(full.frames.begin(), full.frames.begin() + 2));
	EXPECT_EQ(r.stop, UnwindStop::MaxFrames);
}

// unwind_target_df has its unwind tables in .debug_frame only, and strip
// took them out of the file that ran: they are found by build-id.
TEST_F(RecordUnwind, DebugFrameFromASeparateDebugFileByBuildId)
{
	UnwindOptions o = with_vdso(*df_);
	o.debug_dirs = {KP_UNWIND_DEBUG_DIR};
	UnwindSpace space(df_->maps, o);
	expect_callers_right(*df_, space);

	// Without the debug file: the leaf's own ip, then nothing.
	UnwindSpace blind(df_->maps, with_vdso(*df_));
	int leaf = 0;
	for (const auto &s : df_->samples) {
		const auto r = blind.unwind(regs_of(s), stack_of(s), 127);
		if (blind.symbol(r.frames[0], false) != "leaf")
			continue;
		leaf++;
		EXPECT_EQ(r.frames.size(), 1U) << show(names(blind, r), r);
		EXPECT_EQ(r.stop, UnwindStop::NoUnwindInfo);
	}
	EXPECT_GT(leaf, 0);
}

// Registers the module did not capture are unknown, not zero: with ip and
// sp alone, a leaf's caller still comes from its CFA rule (rsp + 8).
TEST_F(RecordUnwind, IpAndSpAloneUnwindALeaf)
{
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	int leaf = 0;
	for (const auto &s : eh_->samples) {
		UserRegs few;
		few.set(kDwarfRip, s.regs[kDwarfRip]);
		few.set(kDwarfRsp, s.regs[kDwarfRsp]);
		few.set(kDwarfRbp, s.regs[kDwarfRbp]);
		const auto full = space.unwind(regs_of(s), stack_of(s), 127);
		const auto r = space.unwind(few, stack_of(s), 127);
		ASSERT_LE(r.frames.size(), full.frames.size());
		EXPECT_TRUE(std::equal(r.frames.begin(), r.frames.end(), full.frames.begin()));
		if (names(space, full)[0] == "leaf") {
			leaf++;
			EXPECT_GE(r.frames.size(), 2U);
		}
	}
	EXPECT_GT(leaf, 0);
}

// A sample in a PLT stub: its CFA rule is an expression of rip (DW_OP_breg16,
// `rsp + 8 + ((rip & 15) >= 11) * 8`), so rip must be a register libdwfl
// can read, not only the pc.  The leaf's samples, moved into the stub of
// clock_gettime (as if the leaf's caller had called it), unwind through it.
TEST_F(RecordUnwind, PltStubUnwindsThroughItsCfaExpression)
{
	auto elf = ElfObject::load(KP_UNWIND_TARGET);
	ASSERT_TRUE(elf);
	const Symbol *plt = elf->symbols().named("clock_gettime@plt");
	ASSERT_NE(plt, nullptr);
	const UnwindMapping *exe = nullptr;
	for (const auto &m : eh_->maps)
		if (m.path == KP_UNWIND_TARGET && !exe)
			exe = &m;
	ASSERT_NE(exe, nullptr);
	auto vaddr = elf->offset_to_vaddr(exe->offset);
	ASSERT_TRUE(vaddr);
	const std::uint64_t stub = exe->start - *vaddr + plt->start;
	UnwindSpace space(eh_->maps, with_vdso(*eh_));
	int checked = 0;
	for (const auto &s : eh_->samples) {
		const auto full = space.unwind(regs_of(s), stack_of(s), 127);
		if (space.symbol(full.frames[0], false) != "leaf")
			continue;
		UserRegs r = regs_of(s);
		r.set(kDwarfRip, stub);
		const auto moved = space.unwind(r, stack_of(s), 127);
		ASSERT_EQ(moved.frames.size(), full.frames.size()) << show(names(space, moved), moved);
		EXPECT_EQ(moved.frames[0], stub);
		EXPECT_TRUE(std::equal(full.frames.begin() + 1, full.frames.end(), moved.frames.begin() + 1));
		EXPECT_EQ(moved.stop, UnwindStop::End);
		checked++;
	}
	EXPECT_GT(checked, 0);
}
