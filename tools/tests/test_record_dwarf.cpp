// SPDX-License-Identifier: GPL-2.0
// record --call-graph dwarf in the tool: the option's spelling, samples
// with their user registers and stack copy through the record codec (the
// rings' layout and the file's), report naming the frames it unwinds from
// them (unwind_target's SIGPROF samples, as the module would have taken
// them), and JIT symbols from perf-PID.map.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <linux/kprofile.h>

#include "fixtures/unwind_capture.h"
#include "maps.h"
#include "perf_map.h"
#include "profile_file.h"
#include "record_codec.h"
#include "resolver.h"
#include "runner.h"
#include "sample_symbols.h"

using namespace kprofile::record;

namespace {

SampleRecord stack_sample()
{
	SampleRecord s;
	s.time = 7;
	s.pid = s.tid = 42;
	s.ip = 0x401000;
	s.flags = KPROFILE_SAMPLE_USER | KPROFILE_SAMPLE_STACK | KPROFILE_SAMPLE_STACK_SHORT;
	s.nr_user = 1;
	s.frames = {0x401000};
	for (unsigned i = 0; i < KPROFILE_USER_REGS; i++)
		s.regs.push_back(1000 + i);
	s.stack = std::string("0123456789abc");
	return s;
}

// The bytes write_file() puts in a file (a temporary one, removed).
std::string written_file(const ProfileData &d)
{
	char path[] = "/tmp/kp_dwarf_file_XXXXXX";
	const int fd = mkstemp(path);

	if (fd < 0)
		throw std::runtime_error("mkstemp failed");
	close(fd);
	write_file(path, d);
	std::ifstream in(path, std::ios::binary);
	std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	unlink(path);
	return written;
}

} // namespace

TEST(RecordDwarf, CallGraphOptionAsPerfSpellsIt)
{
	std::string err;
	EXPECT_EQ(parse_call_graph("fp", &err), 0U);
	EXPECT_EQ(parse_call_graph("dwarf", &err), 8192U);
	EXPECT_EQ(parse_call_graph("dwarf,4096", &err), 4096U);
	EXPECT_EQ(parse_call_graph("dwarf,100", &err), 104U) << "rounded up to 8, as perf";
	EXPECT_EQ(parse_call_graph("dwarf,65528", &err), 65528U);
	for (const char *bad : {"dwarf,0", "dwarf,65529", "dwarf,", "dwarf,x", "lbr", "dwarf8"}) {
		err.clear();
		EXPECT_FALSE(parse_call_graph(bad, &err)) << bad;
		EXPECT_FALSE(err.empty()) << bad;
	}
}

TEST(RecordDwarf, StackCopyRoundTripsThroughTheCodec)
{
	const SampleRecord s = stack_sample();
	std::string bytes;
	encode_record(bytes, s);
	EXPECT_EQ(bytes.size(), encoded_size(s));
	EXPECT_EQ(bytes.size(), sizeof(kprofile_record_sample) + 8 + sizeof(kprofile_sample_stack) + 16);
	const Decoded d = decode_record(bytes.data(), bytes.size());
	ASSERT_TRUE(d.error.empty()) << d.error;
	const auto &r = std::get<SampleRecord>(*d.record);
	EXPECT_EQ(r.frames, s.frames);
	EXPECT_EQ(r.regs, s.regs);
	EXPECT_EQ(r.stack, s.stack);

	// A copy that claims more bytes than the record holds is refused.
	std::string bad = bytes;
	const std::uint32_t huge = 64;
	std::memcpy(bad.data() + sizeof(kprofile_record_sample) + 8 +
			    offsetof(kprofile_sample_stack, size), &huge, 4);
	EXPECT_FALSE(decode_record(bad.data(), bad.size()).error.empty());
	// As is a STACK flag with no room for the registers.
	SampleRecord nostack = s;
	nostack.flags &= ~KPROFILE_SAMPLE_STACK;
	std::string shortrec;
	encode_record(shortrec, nostack);
	std::uint32_t flags = s.flags;
	std::memcpy(shortrec.data() + offsetof(kprofile_record_sample, flags), &flags, 4);
	EXPECT_FALSE(decode_record(shortrec.data(), shortrec.size()).error.empty());
}

// The file's sample section is written from pieces (the stack copies
// where they lie, not copied into one buffer, profile_file.cpp): the file
// write_file() writes is serialize()'s bytes, its section is the records
// encode_record() gives in time order, and it reads back whole.
TEST(RecordDwarf, FileWrittenFromPiecesIsTheSerializedOne)
{
	ProfileData d;
	d.target = "command";
	d.command = {"prog"};
	d.samples.present = d.samples.callchain = true;
	d.samples.stack_bytes = 8192;
	d.samples.vdso = std::string("\x7f" "ELF fake vdso", 14);
	SampleRecord odd = stack_sample();		// 13 bytes: 3 of padding
	SampleRecord big = stack_sample();
	big.time = 9;
	big.flags &= ~KPROFILE_SAMPLE_STACK_SHORT;
	for (int i = 0; i < 5000; i++)
		big.stack.push_back(static_cast<char>(i * 7));
	SampleRecord empty = stack_sample();		// a copy of no bytes
	empty.time = 11;
	empty.stack.clear();
	SampleRecord fp = stack_sample();		// no STACK: no registers
	fp.time = 12;
	fp.flags = KPROFILE_SAMPLE_USER;
	fp.regs.clear();
	fp.stack.clear();
	d.samples.samples = {odd, big, empty, fp};
	d.samples.tasks = {TaskRecord{TaskKind::Fork, 8, 0, 43, 43, 42, ""},
			   TaskRecord{TaskKind::Exit, 20, 0, 43, 43, 0, ""}};

	std::string section;
	encode_record(section, odd);
	encode_record(section, d.samples.tasks[0]);
	encode_record(section, big);
	encode_record(section, empty);
	encode_record(section, fp);
	encode_record(section, d.samples.tasks[1]);
	const std::string bytes = serialize(d);
	ASSERT_GE(bytes.size(), section.size());
	EXPECT_EQ(bytes.substr(bytes.size() - section.size()), section);

	const std::string written = written_file(d);
	EXPECT_EQ(written, bytes);

	const ProfileData e = parse(written);
	ASSERT_EQ(e.samples.samples.size(), 4U);
	EXPECT_EQ(e.samples.samples[0].stack, odd.stack);
	EXPECT_EQ(e.samples.samples[1].stack, big.stack);
	EXPECT_EQ(e.samples.samples[1].regs, big.regs);
	EXPECT_TRUE(e.samples.samples[2].stack.empty());
	EXPECT_TRUE(e.samples.samples[3].regs.empty());
	EXPECT_EQ(e.samples.tasks.size(), 2U);
	EXPECT_EQ(e.samples.vdso, d.samples.vdso);
}

// More pieces than one writev() takes (IOV_MAX, 1024 on Linux): written
// in turns, in order.
TEST(RecordDwarf, FileOfMoreStackCopiesThanOneWritevTakes)
{
	ProfileData d;
	d.samples.present = d.samples.callchain = true;
	d.samples.stack_bytes = 8192;
	for (int i = 0; i < 1500; i++) {
		SampleRecord s = stack_sample();
		s.time = 100 + i;
		s.stack = fmt::format("stack copy {:5}", i);
		d.samples.samples.push_back(std::move(s));
	}
	const std::string written = written_file(d);
	EXPECT_EQ(written, serialize(d));
	const ProfileData e = parse(written);
	ASSERT_EQ(e.samples.samples.size(), 1500U);
	EXPECT_EQ(e.samples.samples[1499].stack, "stack copy  1499");
}

TEST(RecordDwarf, PerfMapParsedAsPerfDoes)
{
	const PerfMap m = PerfMap::parse("7f0000001000 40 py::fib:/tmp/x.py\n"
					 "0x7f0000002000 0x10 LazyCompile:~f /a.js:1\r\n"
					 "garbage line\n"
					 "7f0000003000 zz bad\n"
					 "7f0000004000 0 empty\n"
					 "7f0000001000 20 py::fib (regenerated)\n");
	ASSERT_EQ(m.size(), 2U);
	ASSERT_NE(m.find(0x7f0000001010), nullptr);
	EXPECT_EQ(m.find(0x7f0000001010)->name, "py::fib (regenerated)");
	EXPECT_EQ(m.find(0x7f0000001020), nullptr) << "the later entry's size counts";
	ASSERT_NE(m.find(0x7f000000200f), nullptr);
	EXPECT_EQ(m.find(0x7f000000200f)->name, "LazyCompile:~f /a.js:1");
	EXPECT_EQ(m.find(0x7f0000002010), nullptr);
	EXPECT_EQ(m.find(0x7f0000000fff), nullptr);
	EXPECT_EQ(perf_map_path(12, "/tmp"), "/tmp/perf-12.map");
}

TEST(RecordDwarf, JitFramesNamedFromThePerfMapOfTheProcess)
{
	char dir[] = "/tmp/kp-perfmap-XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	{
		std::ofstream(perf_map_path(42, dir)) << "7f0000001000 100 py::hot:/w.py\n";
	}
	ProfileData d;
	d.objects = {{"[anon]", ""}};
	d.samples.present = true;
	d.samples.callchain = true;
	d.samples.maps = {{42, 1, "python3", {{0x7f0000000000, 0x7f0000010000, 0, 0}}}};
	SampleRecord s;
	s.time = 5;
	s.pid = s.tid = 42;
	s.ip = 0x7f0000001010;
	s.flags = KPROFILE_SAMPLE_USER;
	s.nr_user = 2;
	s.frames = {0x7f0000001010, 0x7f0000005000};
	d.samples.samples = {s};
	FileResolver resolver;
	SampleSymbols syms(d, resolver);
	syms.set_perf_map_dir(dir);
	const NamedSample n = syms.name(d.samples.samples[0]);
	ASSERT_EQ(n.frames.size(), 2U);
	EXPECT_EQ(syms.frame(n.frames[0]).symbol, "py::hot:/w.py");
	EXPECT_EQ(syms.frame(n.frames[0]).object, "perf-42.map");
	EXPECT_EQ(syms.frame(n.frames[0]).offset, 0x10U);
	EXPECT_FALSE(syms.frame(n.frames[1]).resolved) << "outside every entry";
	unlink(perf_map_path(42, dir).c_str());
	rmdir(dir);
}

// unwind_target's samples as record would keep them (ip frame from the
// module's walk, registers and stack from USER_STACK): report names the
// leaf's real caller, through work() to main().
TEST(RecordDwarf, ReportUnwindsRecordedStackCopies)
{
	char out[] = "/tmp/kp-dwarf-XXXXXX";
	const int fd = mkstemp(out);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(std::system(fmt::format("'{}' '{}'", KP_UNWIND_TARGET, out).c_str()), 0);
	std::ifstream in(out, std::ios::binary);
	std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	unlink(out);
	std::uint64_t head[5];
	ASSERT_GE(raw.size(), sizeof(head));
	std::memcpy(head, raw.data(), sizeof(head));
	ASSERT_EQ(raw.size(), sizeof(head) + head[2] + head[4] + head[1] * sizeof(kp_unwind_sample));

	ProfileData d;
	SampleData &sd = d.samples;
	sd.present = sd.callchain = true;
	sd.stack_bytes = KP_UNWIND_STACK;
	const char *p = raw.data() + sizeof(head);
	MapsSnapshot snap;
	snap.pid = 77;
	for (const auto &m : executable_mappings(parse_maps(std::string(p, head[2])))) {
		d.objects.push_back({m.path.empty() ? "[anon]" : m.path, ""});
		snap.mappings.push_back({m.start, m.end, m.offset, static_cast<int>(d.objects.size() - 1)});
	}
	sd.maps = {snap};
	p += head[2];
	sd.vdso.assign(p, head[4]);
	p += head[4];
	std::vector<std::uint32_t> truth;
	for (std::uint64_t i = 0; i < head[1]; i++, p += sizeof(kp_unwind_sample)) {
		kp_unwind_sample k;
		std::memcpy(&k, p, sizeof(k));
		SampleRecord s;
		s.time = 10 + i;
		s.pid = s.tid = 77;
		s.ip = k.regs[16];
		s.flags = KPROFILE_SAMPLE_USER | KPROFILE_SAMPLE_STACK;
		s.nr_user = 1;
		s.frames = {s.ip};
		s.regs.assign(k.regs, k.regs + KP_UNWIND_REGS);
		s.stack.assign(reinterpret_cast<const char *>(k.stack), k.stack_len);
		// Through the file's encoding and back.
		std::string bytes;
		encode_record(bytes, s);
		sd.samples.push_back(std::get<SampleRecord>(*decode_record(bytes.data(),
									   bytes.size()).record));
		truth.push_back(k.phase == KP_PHASE_CALLERS ? k.truth : 0);
	}
	FileResolver resolver;
	SampleSymbols syms(d, resolver);
	int leaf = 0;
	for (std::size_t i = 0; i < sd.samples.size(); i++) {
		const NamedSample n = syms.name(sd.samples[i]);
		std::vector<std::string> names;
		for (int f : n.frames)
			names.push_back(syms.frame(f).symbol);
		const std::string all = fmt::format("{}", fmt::join(names, ";"));
		EXPECT_FALSE(n.truncated) << all;
		EXPECT_NE(std::find(names.begin(), names.end(), "main"), names.end()) << all;
		if (names[0] != "leaf")
			continue;
		leaf++;
		ASSERT_GE(names.size(), 3U) << all;
		EXPECT_EQ(names[1], truth[i] == 1 ? "caller_a" : "caller_b") << all;
		EXPECT_EQ(names[2], "work") << all;
	}
	EXPECT_GT(leaf, 0);
}
