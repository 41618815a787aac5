// SPDX-License-Identifier: GPL-2.0
// record -g's samples: the record file's sample section (version 3, and
// version 2 still read), the maps book that follows processes through
// fork and exec, naming frames by the program that ran at each sample's
// time, Children and Self, and call graphs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include <linux/kprofile.h>

#include "maps_book.h"
#include "profile_file.h"
#include "sample_recorder.h"
#include "sample_report.h"
#include "sample_symbols.h"
#include "record_test_util.h"

using namespace kprofile::record;

namespace {

SampleRecord sample(std::uint64_t time, std::int32_t pid, std::vector<std::uint64_t> frames,
		    std::uint16_t nr_kernel = 0)
{
	SampleRecord s;
	s.time = time;
	s.pid = s.tid = pid;
	s.ip = frames.front();
	s.flags = nr_kernel ? 0 : KPROFILE_SAMPLE_USER;
	s.nr_kernel = nr_kernel;
	s.nr_user = static_cast<std::uint16_t>(frames.size() - nr_kernel);
	s.frames = std::move(frames);
	return s;
}

ProfileData with_samples()
{
	ProfileData d;
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/bin/old", "aa"}, {"/bin/new", "bb"}};
	SampleData &s = d.samples;
	s.present = true;
	s.callchain = true;
	s.mode = KPROFILE_MODE_USER;
	s.ring_pages = 16;
	s.lost = 3;
	s.problems = {"ring 1 (CPU 1): bad"};
	s.maps = {{10, 100, "old", {{0x1000, 0x2000, 0, 0}}},
		  {10, 300, "new", {{0x1000, 0x3000, 0x1000, 1}}}};
	s.samples = {sample(150, 10, {0x1010, 0x1104}), sample(250, 10, {0x1010}),
		     sample(260, 11, {0x1020}),
		     sample(400, 10, {0xffffffff81000010ULL, 0x1010}, 1)};
	s.tasks = {{TaskKind::Exec, 200, 0, 10, 10, 0, "new"},
		   {TaskKind::Fork, 120, 1, 11, 11, 10, "old"}};
	return d;
}

// ELF address = file offset; a table per object, and the kernel's.
class FakeResolver : public RangeResolver {
public:
	View view(const ProfileData &, const RangeRecord &r) override
	{
		View v;
		if (r.kind == RangeKind::Kernel) {
			v.table = &kernel;
			v.translate = [](std::uint64_t a) { return std::optional<std::uint64_t>(a); };
			return v;
		}
		v.table = &tables[r.object];
		const std::uint64_t base = r.base, off = r.file_offset;
		v.translate = [base, off](std::uint64_t a) {
			return std::optional<std::uint64_t>(a - base + off);
		};
		return v;
	}
	std::map<int, SymbolTable> tables;
	SymbolTable kernel;
};

FakeResolver resolver()
{
	FakeResolver r;
	r.tables[0].add(0x0, 0x100, "old_main");
	r.tables[0].add(0x100, 0x100, "old_caller");
	r.tables[0].finalize();
	r.tables[1].add(0x1000, 0x100, "new_main");
	r.tables[1].finalize();
	r.kernel.add(0xffffffff81000000ULL, 0x100, "do_syscall_64");
	r.kernel.add(0xffffffffc0000000ULL, 0x100, "mod_fn [kprofile]");
	r.kernel.finalize(1 << 16);
	return r;
}

} // namespace

TEST(RecordSamples, FileSectionRoundTrips)
{
	const ProfileData d = with_samples();
	const ProfileData e = parse(serialize(d));

	EXPECT_EQ(e.version, 3U);
	ASSERT_TRUE(e.samples.present);
	EXPECT_EQ(e.samples.lost, 3U);
	EXPECT_EQ(e.samples.mode, static_cast<std::uint32_t>(KPROFILE_MODE_USER));
	EXPECT_EQ(e.samples.problems, d.samples.problems);
	ASSERT_EQ(e.samples.samples.size(), 4U);
	EXPECT_EQ(e.samples.samples[0].frames, d.samples.samples[0].frames);
	EXPECT_EQ(e.samples.samples[3].nr_kernel, 1U);
	ASSERT_EQ(e.samples.tasks.size(), 2U);
	EXPECT_EQ(e.samples.tasks[0].kind, TaskKind::Fork) << "read back in time order";
	EXPECT_EQ(e.samples.tasks[1].comm, "new");
	ASSERT_EQ(e.samples.maps.size(), 2U);
	EXPECT_EQ(e.samples.maps[1].mappings[0].object, 1);
	EXPECT_EQ(e.samples.maps[1].mappings[0].offset, 0x1000U);
	EXPECT_TRUE(holds_kernel_addresses(d)) << "a kernel frame is the KASLR base too";
}

TEST(RecordSamples, AFileWithoutSamplesHasNoSection)
{
	ProfileData d = with_samples();
	d.samples = SampleData{};
	const std::string bytes = serialize(d);

	EXPECT_EQ(bytes.find("\"samples\""), std::string::npos);
	EXPECT_FALSE(parse(bytes).samples.present);
	EXPECT_FALSE(holds_kernel_addresses(d));
}

TEST(RecordSamples, ReadsVersion2Files)
{
	const ProfileData d = read_file(KP_FIXTURE_V2);

	EXPECT_EQ(d.version, 2U);
	EXPECT_FALSE(d.samples.present);
	ASSERT_EQ(d.ranges.size(), 2U);
	EXPECT_EQ(d.ranges[1].buckets[2], 60U);
	EXPECT_EQ(d.processes.at(0).comm, "v2");
	EXPECT_EQ(parse(serialize(d)).version, kFileVersion);
}

TEST(RecordSamples, DamagedSectionsAreRefused)
{
	const std::string good = serialize(with_samples());

	// Cut inside the records: the samples are lost, the bucket profile
	// before them is read whole, and the reader is told (before,
	// nothing was salvaged of a truncated file).
	const ProfileData cut = parse(good.substr(0, good.size() - 5));
	EXPECT_FALSE(cut.samples.present);
	EXPECT_EQ(cut.ranges.size(), with_samples().ranges.size());
	EXPECT_NE(cut.damage.find("truncated: the last 5 bytes of its"), std::string::npos)
		<< cut.damage;
	EXPECT_NE(cut.damage.find("so its samples (call stacks) are left out; its bucket "
				  "profile is whole"), std::string::npos) << cut.damage;
	EXPECT_TRUE(parse(good).damage.empty());
	// A record size that is not a multiple of 8: the last sample's size
	// field sits 48 + 8 bytes before the end (one user frame after the
	// kernel one... the last record is the sample at 400 with 2 frames).
	std::string bad = good;
	const std::size_t last = bad.size() - (48 + 16);
	bad[last + 4] = 61;
	try {
		parse(bad);
		ADD_FAILURE() << "a damaged sample section was read";
	} catch (const FormatError &e) {
		// Damage in a whole section, not a cut.
		EXPECT_NE(std::string(e.what()).find("corrupted: its samples"), std::string::npos)
			<< e.what();
	}
	// Cut inside the bucket data of a file with samples: both said.
	ProfileData ranged = with_samples();
	RangeRecord r;
	r.base = 0x1000;
	r.size = 0x100;
	r.bucket_shift = 4;
	r.hits = 16 * 0x5a5a5a5aULL;
	r.buckets.assign(16, 0x5a5a5a5aU);
	ranged.ranges.push_back(r);
	const std::string whole = serialize(ranged);
	const std::size_t bucket_at = whole.find(std::string(64, '\x5a'));
	ASSERT_NE(bucket_at, std::string::npos);
	const ProfileData early = parse(whole.substr(0, bucket_at + 30));
	EXPECT_TRUE(early.ranges.empty());
	EXPECT_FALSE(early.samples.present);
	EXPECT_NE(early.damage.find("1 of its 1 bucket ranges (" + std::to_string(r.hits) + " hits)"),
		  std::string::npos) << early.damage;
	EXPECT_NE(early.damage.find(") and its samples (call stacks) are left out"),
		  std::string::npos) << early.damage;
	// A sample length that wraps the reader's arithmetic: corruption,
	// never a read past the end.
	const std::size_t hlen = static_cast<unsigned char>(good[16]) |
				 static_cast<unsigned char>(good[17]) << 8;
	nlohmann::json header = nlohmann::json::parse(good.substr(24, hlen));
	header["samples"]["bytes"] = ~0ULL;
	std::string text = header.dump();
	while ((24 + text.size()) % 4)
		text.push_back(' ');
	std::string huge = good.substr(0, 16);
	for (int i = 0; i < 8; i++)
		huge.push_back(static_cast<char>((text.size() >> (8 * i)) & 0xff));
	huge += text + good.substr(24 + hlen);
	try {
		parse(huge);
		ADD_FAILURE() << "a sample section of 2^64-1 bytes was read";
	} catch (const FormatError &e) {
		EXPECT_NE(std::string(e.what()).find("corrupted"), std::string::npos) << e.what();
	}
	// A mapping of an object the file does not have.
	ProfileData d = with_samples();
	d.samples.maps[0].mappings[0].object = 7;
	EXPECT_THROW(parse(serialize(d)), FormatError);
}

TEST(RecordSamples, NamesFramesByTheProgramOfTheirTime)
{
	const ProfileData d = with_samples();
	FakeResolver r = resolver();
	SampleSymbols syms(d, r);

	// Before the exec at 200: the old program; 0x1104 is a return
	// address, named by the byte before.
	NamedSample a = syms.name(d.samples.samples[0]);
	ASSERT_EQ(a.frames.size(), 2U);
	EXPECT_EQ(syms.frame(a.frames[0]).symbol, "old_main");
	EXPECT_EQ(syms.frame(a.frames[0]).object_path, "/bin/old");
	EXPECT_EQ(syms.frame(a.frames[1]).symbol, "old_caller");
	EXPECT_EQ(a.comm, "old");
	// After the exec, before the new program's maps were read: the
	// snapshot of its generation (300), not the old one.
	NamedSample b = syms.name(d.samples.samples[1]);
	EXPECT_EQ(syms.frame(b.frames[0]).symbol, "new_main");
	EXPECT_EQ(b.comm, "new");
	// The child forked at 120 has no maps of its own: its parent's at
	// the fork.
	NamedSample c = syms.name(d.samples.samples[2]);
	EXPECT_EQ(syms.frame(c.frames[0]).symbol, "old_main");
	EXPECT_EQ(c.comm, "old");
	// A kernel frame, then the user one.
	NamedSample k = syms.name(d.samples.samples[3]);
	EXPECT_TRUE(syms.frame(k.frames[0]).kernel);
	EXPECT_EQ(syms.frame(k.frames[0]).symbol, "do_syscall_64");
	EXPECT_EQ(syms.frame(k.frames[0]).object, "[kernel]");
	EXPECT_EQ(syms.frame(k.frames[1]).symbol, "new_main");
	EXPECT_EQ(syms.comm(0, 5), "swapper");
	EXPECT_EQ(syms.comm(99, 5), ":99");
}

TEST(RecordSamples, UnknownAddressesAndModules)
{
	ProfileData d = with_samples();
	d.samples.samples = {sample(150, 10, {0x9000}),
			     sample(160, 10, {0xffffffffc0000008ULL, 0x1010}, 1)};
	FakeResolver r = resolver();
	SampleSymbols syms(d, r);

	NamedSample a = syms.name(d.samples.samples[0]);
	EXPECT_EQ(syms.frame(a.frames[0]).symbol, "[unknown]");
	EXPECT_FALSE(syms.frame(a.frames[0]).resolved);
	NamedSample m = syms.name(d.samples.samples[1]);
	EXPECT_EQ(syms.frame(m.frames[0]).object, "[kprofile]");
	// The module once, as the object (script once printed
	// "mod_fn [kprofile]+0x8 ([kprofile])").
	EXPECT_EQ(syms.frame(m.frames[0]).symbol, "mod_fn");
	EXPECT_EQ(syms.frame(m.frames[0]).offset, 8U);
}

TEST(RecordSamples, ChildrenCountEachStackOnceAndSelfTheLeaf)
{
	ProfileData d;
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/bin/p", ""}};
	d.samples.present = true;
	d.samples.maps = {{1, 0, "p", {{0x1000, 0x2000, 0, 0}}}};
	// main (0x000) -> a (0x100) -> leaf (0x200), 3 times; main -> b
	// (0x300) -> leaf once; a recursing into itself once.
	for (int i = 0; i < 3; i++)
		d.samples.samples.push_back(sample(10 + i, 1, {0x1200, 0x1108, 0x1008}));
	d.samples.samples.push_back(sample(20, 1, {0x1200, 0x1308, 0x1008}));
	d.samples.samples.push_back(sample(30, 1, {0x1110, 0x1108, 0x1008}));
	FakeResolver r;
	r.tables[0].add(0x000, 0x100, "main");
	r.tables[0].add(0x100, 0x100, "a");
	r.tables[0].add(0x200, 0x100, "leaf");
	r.tables[0].add(0x300, 0x100, "b");
	r.tables[0].finalize();
	SampleSymbols syms(d, r);
	auto named = select_samples(d, syms, {});
	SampleView view(d, syms, named, {Dim::Symbol});
	Report rep = view.report(true);

	std::map<std::string, std::pair<double, double>> got;	// self, children
	for (const auto &row : rep.rows)
		got[row.symbol] = {row.hits, *row.children};
	EXPECT_EQ(got["main"], std::make_pair(0.0, 5.0));
	EXPECT_EQ(got["a"], std::make_pair(1.0, 4.0)) << "the recursion counts once";
	EXPECT_EQ(got["leaf"], std::make_pair(4.0, 4.0));
	EXPECT_EQ(got["b"], std::make_pair(0.0, 1.0));
	EXPECT_EQ(rep.rows.front().symbol, "main") << "sorted by children";
	EXPECT_DOUBLE_EQ(rep.rows.front().children_overhead, 100.0);
	ASSERT_EQ(rep.sources.size(), 1U);
	EXPECT_EQ(rep.sources[0].total, 5U);

	const Row *leaf = nullptr;
	for (const auto &row : rep.rows)
		if (row.symbol == "leaf")
			leaf = &row;
	ASSERT_NE(leaf, nullptr);
	const std::string callers = view.call_graph(*leaf, CallGraph::Callee);
	EXPECT_NE(callers.find("---leaf\n"), std::string::npos) << callers;
	EXPECT_NE(callers.find("|--60.00%--a\n"), std::string::npos) << callers;
	EXPECT_NE(callers.find("`--20.00%--b\n"), std::string::npos) << callers;
	const std::string callees = view.call_graph(rep.rows.front(), CallGraph::Caller);
	EXPECT_NE(callees.find("|--80.00%--a\n"), std::string::npos) << callees;
	EXPECT_EQ(view.call_graph(*leaf, CallGraph::Caller), "") << "nothing under a leaf";
}

TEST(RecordSamples, MapsBookSnapshotsChangesAndFollowsExec)
{
	test::FakeProc fp;
	fp.comm = "p";
	const Mapping lib{0x1000, 0x2000, "r-xp", 0, "/lib/a.so"};
	const Mapping data{0x5000, 0x6000, "rw-p", 0, "/lib/a.so"};
	fp.maps[7] = {lib, data};
	MapsBook book(fp.reader());

	ASSERT_TRUE(book.read(7));
	ASSERT_EQ(book.snapshots().size(), 1U);
	EXPECT_EQ(book.snapshots()[0].snap.mappings.size(), 1U) << "executable mappings only";
	EXPECT_TRUE(book.read(7));
	EXPECT_EQ(book.snapshots().size(), 1U) << "an unchanged read is no new snapshot";
	// A sample inside a known mapping reads nothing; outside, it reads
	// when it was taken after the last read began.
	const std::size_t reads = book.reads();
	book.need(7, 0x1800, fp.now + 1);
	EXPECT_EQ(book.reads(), reads);
	fp.maps[7].push_back({0x8000, 0x9000, "r-xp", 0, "/lib/b.so"});
	book.need(7, 0x8800, fp.now + 1);
	EXPECT_EQ(book.reads(), reads + 1);
	EXPECT_EQ(book.snapshots().size(), 2U) << "dlopen: a new snapshot";
	// Garbage addresses (a frame-pointer walk through code without frame
	// pointers): a read made after their samples did not find them, so
	// they are in no mapping; no timer, no read again.  A later sample
	// with one reads once more.
	const std::uint64_t sampled = fp.now - 15;	// before the last read began
	book.need(7, 0x7000, sampled);
	book.need(7, 0x7000, sampled);
	EXPECT_EQ(book.reads(), reads + 1) << "the last read began after these samples";
	book.need(7, 0x7000, fp.now + 1);
	EXPECT_EQ(book.reads(), reads + 2) << "a sample after the last read: read again";
	book.need(7, 0x7000, fp.now - 15);
	EXPECT_EQ(book.reads(), reads + 2);
	book.need(7, 0x10, fp.now + 100);	// below a page: never a read
	book.need(7, 1ULL << 50, fp.now + 100);	// outside user space
	EXPECT_EQ(book.reads(), reads + 2);

	// An exec during the last read drops it, and reads again.
	const std::uint64_t during = book.snapshots().back().snap.time - 5;
	book.exec(7, during);
	ASSERT_EQ(book.snapshots().size(), 2U);
	EXPECT_GT(book.snapshots().back().snap.time, during);

	// A fork's child is read at once, even when unchanged from nothing.
	fp.maps[8] = {lib};
	book.fork(8);
	EXPECT_EQ(book.snapshots().back().snap.pid, 8);
	auto resolved = book.resolve([](const std::string &p) { return p == "/lib/a.so" ? 0 : 1; });
	EXPECT_EQ(resolved.back().mappings[0].object, 0);
	// An exited process is read no more.
	book.exit(8);
	const std::size_t before = book.reads();
	book.need(8, 0x9999, fp.now + 100);
	EXPECT_EQ(book.reads(), before);
}

TEST(RecordSamples, KernelSymbolsForSampledFrames)
{
	const std::vector<KernelSymbolRecord> all = {{0xffffffff81000000ULL, 0x100, "a", ""},
						     {0xffffffff81000100ULL, 0, "b", ""},
						     {0xffffffff81000200ULL, 0x10, "c", ""}};
	std::vector<SampleRecord> s = {sample(1, 1, {0xffffffff81000180ULL, 0x400000}, 1),
				       sample(2, 1, {0x400000})};
	auto kept = kernel_symbols_for_samples(s, all);
	ASSERT_EQ(kept.size(), 1U);
	EXPECT_EQ(kept[0].name, "b");
	EXPECT_EQ(kept[0].size, 0x100U) << "sized to the next symbol";
}
