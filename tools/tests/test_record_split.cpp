// SPDX-License-Identifier: GPL-2.0
// Bucket-to-symbol attribution: splitting shared buckets, unresolved
// addresses as object+offset, the unattributed row, totals.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "record_test_util.h"

#include "pprof_util.h"
#include "report_export.h"
#include "report_model.h"
#include "symbolize.h"
#include "report_select.h"

using namespace kprofile::record;
using kprofile::record::test::row;

namespace {

// Symbols at ELF addresses 0x1000.. of a fake object loaded so that file
// offset X is at ELF address X (like a simple PIE).
class FakeResolver : public RangeResolver {
public:
	FakeResolver()
	{
		table.add(0x1000, 0x30, "alpha");	// 0x1000..0x1030
		table.add(0x1030, 0x50, "beta");	// 0x1030..0x1080
		table.add(0x1100, 0x100, "ns::gamma(int)");
		table.finalize();
	}
	View view(const ProfileData &, const RangeRecord &r) override
	{
		View v;
		if (r.kind != RangeKind::Object)
			return v;
		v.table = &table;
		v.translate = [&r](std::uint64_t a) {
			return std::optional<std::uint64_t>(a - r.base + r.file_offset);
		};
		return v;
	}
	SymbolTable table;
};

ProfileData recording(std::vector<std::uint32_t> buckets, std::uint32_t catchall)
{
	ProfileData d;
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/usr/bin/spin", ""}};
	RangeRecord r;
	r.kind = RangeKind::Object;
	r.base = 0x7000;	// runtime address of file offset 0x1000
	r.file_offset = 0x1000;
	r.size = buckets.size() * 0x40;
	r.bucket_shift = 6;	// 64-byte buckets
	r.object = 0;
	r.buckets = std::move(buckets);
	const RangeRecord all = test::catch_all(catchall);
	d.ranges = {r, all};
	return d;
}

} // namespace

TEST(RecordSplit, TableOverlapsAndSplitsByBytes)
{
	FakeResolver f;
	// 0x1000..0x1040: 0x30 bytes of alpha, 0x10 of beta.
	Split s = split_bucket(f.table, 0x1000, 0x1040, 40);
	ASSERT_EQ(s.parts.size(), 2U);
	EXPECT_FALSE(s.exact);
	EXPECT_EQ(s.parts[0].symbol->name, "alpha");
	EXPECT_DOUBLE_EQ(s.parts[0].hits, 30.0);
	EXPECT_DOUBLE_EQ(s.parts[1].hits, 10.0);

	Split one = split_bucket(f.table, 0x1140, 0x1180, 9);
	ASSERT_EQ(one.parts.size(), 1U);
	EXPECT_TRUE(one.exact);
	EXPECT_DOUBLE_EQ(one.parts[0].hits, 9.0);

	// Padding between beta and gamma takes no share.
	Split pad = split_bucket(f.table, 0x1070, 0x10b0, 4);
	ASSERT_EQ(pad.parts.size(), 1U);
	EXPECT_EQ(pad.parts[0].symbol->name, "beta");
	EXPECT_DOUBLE_EQ(pad.parts[0].hits, 4.0);

	EXPECT_TRUE(split_bucket(f.table, 0x2000, 0x2040, 5).parts.empty());
}

TEST(RecordSplit, ReportShowsASharedBucketAsOneRowNamingItsSymbols)
{
	FakeResolver f;
	// Buckets of 64 bytes from offset 0x1000: [alpha|beta], [beta], ...,
	// 0x1100 and 0x1140 in gamma.
	auto d = recording({40, 8, 0, 0, 100, 20}, 200);
	Report rep = build_report(d, f);

	const Row *gamma = row(rep, "ns::gamma(int)");
	ASSERT_NE(gamma, nullptr);
	EXPECT_DOUBLE_EQ(gamma->hits, 120.0);
	EXPECT_EQ(gamma->exact_hits, 120U);
	EXPECT_FALSE(gamma->ambiguous);
	EXPECT_EQ(gamma->object, "spin");

	// Which of alpha and beta ran is not known: no share is invented.
	EXPECT_EQ(row(rep, "alpha"), nullptr);
	const Row *both = row(rep, "alpha | beta");
	ASSERT_NE(both, nullptr);
	EXPECT_DOUBLE_EQ(both->hits, 40.0);
	EXPECT_EQ(both->exact_hits, 0U);
	EXPECT_TRUE(both->ambiguous);
	const Row *beta = row(rep, "beta");
	ASSERT_NE(beta, nullptr);
	EXPECT_DOUBLE_EQ(beta->hits, 8.0);
	EXPECT_EQ(beta->exact_hits, 8U);
	EXPECT_FALSE(beta->ambiguous);

	EXPECT_EQ(rep.rows.front().symbol, "ns::gamma(int)") << "hottest first";
}

// record -a on an idle CPU: kallsyms gives no sizes, and the 64-byte
// bucket of native_safe_halt also held native_halt and the start of a
// large neighbour; split by guessed bytes, the neighbour became the
// report's top row, a function that never ran.
TEST(RecordSplit, SizelessNeighboursOfAHotBucketGetNoInventedRow)
{
	struct Kallsyms : RangeResolver {
		Kallsyms()
		{
			table.add(0x1000, 0, "native_safe_halt");	// 0x1000..0x1008
			table.add(0x1008, 0, "native_halt");		// ..0x1010
			table.add(0x1010, 0, "acpi_idle_enter");	// ..0x1400
			table.add(0x1400, 0, "after");
			table.finalize();
		}
		View view(const ProfileData &, const RangeRecord &r) override
		{
			View v;
			v.table = &table;
			v.translate = [&r](std::uint64_t a) {
				return std::optional<std::uint64_t>(a - r.base + r.file_offset);
			};
			return v;
		}
		SymbolTable table;
	} k;
	auto d = recording({100, 0, 0}, 100);
	Report rep = build_report(d, k);

	ASSERT_FALSE(rep.rows.empty());
	EXPECT_EQ(rep.rows.front().symbol, "native_safe_halt | native_halt | acpi_idle_enter");
	EXPECT_DOUBLE_EQ(rep.rows.front().hits, 100.0);
	EXPECT_EQ(row(rep, "acpi_idle_enter"), nullptr) << "no invented hotspot";
	EXPECT_EQ(row(rep, "native_halt"), nullptr);
}

TEST(RecordSplit, UnattributedIsCatchAllMinusAttributed)
{
	FakeResolver f;
	auto d = recording({0, 0, 0, 0, 60, 0}, 100);
	Report rep = build_report(d, f);
	ASSERT_EQ(rep.sources.size(), 1U);
	EXPECT_EQ(rep.sources[0].total, 100U);
	EXPECT_EQ(rep.sources[0].attributed, 60U);
	EXPECT_EQ(rep.sources[0].unattributed, 40U);
	const Row *un = row(rep, "[user space, outside the profiled objects]");
	ASSERT_NE(un, nullptr);
	EXPECT_DOUBLE_EQ(un->overhead, 40.0);
	EXPECT_DOUBLE_EQ(row(rep, "ns::gamma(int)")->overhead, 60.0);

	double sum = 0;
	for (const auto &r : rep.rows)
		sum += r.overhead;
	EXPECT_NEAR(sum, 100.0, 1e-9);
}

// The review's C2: under -a the unattributed row said "[outside every
// profiled range]" although the user catch-all, a profiled range, counted
// them.  The label says which half and why; kernel-side leftovers (code
// outside the kernel and module text) get their own row.
TEST(RecordSplit, UnattributedRowsSayWhichHalfAndWhy)
{
	FakeResolver f;
	auto d = recording({0, 0, 0, 0, 60, 0}, 100);	// 40 user hits unattributed
	d.target = "system";
	RangeRecord kall;	// the kernel catch-all: 30 hits, 25 in the kernel text
	kall.kind = RangeKind::CatchAll;
	kall.base = 0xffff800000000000ULL;
	kall.size = ~0ULL - kall.base;
	kall.bucket_shift = 31;
	kall.buckets.assign(kall.size / (1ULL << 31) + 1, 0);
	kall.buckets[7] = 30;
	RangeRecord text;
	text.kind = RangeKind::Kernel;
	text.base = 0xffffffff81000000ULL;
	text.size = 0x40;
	text.bucket_shift = 6;
	text.buckets = {25};
	d.ranges.push_back(kall);
	d.ranges.push_back(text);

	Report rep = build_report(d, f);
	EXPECT_EQ(rep.sources[0].total, 130U);
	EXPECT_EQ(rep.sources[0].unattributed, 45U);
	const Row *user = row(rep, "[user space, unattributed]");
	const Row *kernel = row(rep, "[kernel, outside the kernel and module text]");
	ASSERT_TRUE(user && kernel);
	EXPECT_EQ(user->exact_hits, 40U);
	EXPECT_EQ(kernel->exact_hits, 5U);
	EXPECT_EQ(user->object, "[unattributed]");
	for (const auto &r : rep.rows)
		EXPECT_EQ(r.symbol.find("outside every profiled range"), std::string::npos);

	d.target = "command";	// a command's own leftovers are named as such
	rep = build_report(d, f);
	ASSERT_NE(row(rep, "[user space, outside the profiled objects]"), nullptr);
	EXPECT_EQ(row(rep, "[user space, unattributed]"), nullptr);
}

// top --delta (the review's E1): a refresh shows what was counted since
// the previous one.
TEST(RecordSplit, DeltaSinceIsWhatTheRangesCountedInBetween)
{
	FakeResolver f;
	auto before = recording({40, 0, 0, 0, 60, 0}, 100);	// alpha's 40: all before
	before.duration_ns = 1000000000;
	auto now = recording({40, 0, 0, 0, 70, 30}, 150);	// gamma: 40 more
	now.duration_ns = 3000000000;
	RangeRecord late = test::catch_all(9);	// a profile created since: whole
	late.pid = 77;
	now.ranges.push_back(late);

	const ProfileData d = delta_since(now, before);
	EXPECT_EQ(d.duration_ns, 2000000000U);
	EXPECT_EQ(d.ranges[0].buckets, (std::vector<std::uint32_t>{0, 0, 0, 0, 10, 30}));
	EXPECT_EQ(d.ranges[1].buckets[0], 50U);
	EXPECT_EQ(d.ranges[2].buckets[0], 9U);
	Report rep = build_report(d, f);
	EXPECT_EQ(rep.sources[0].total, 59U);
	EXPECT_EQ(rep.rows.front().symbol, "ns::gamma(int)");
	EXPECT_EQ(rep.rows.front().exact_hits, 40U);
	EXPECT_EQ(row(rep, "alpha"), nullptr) << "nothing new in alpha: no row";
	EXPECT_EQ(delta_since(before, now).ranges[0].buckets[4], 0U) << "never negative";
}

TEST(RecordSplit, MissingSymbolsShowObjectPlusFileOffset)
{
	FakeResolver f;
	// Bucket 3 (offset 0x10c0) is in no symbol.
	auto d = recording({0, 0, 0, 7, 0, 0}, 7);
	Report rep = build_report(d, f);
	const Row *r = row(rep, "spin+0x10c0");
	ASSERT_NE(r, nullptr);
	EXPECT_FALSE(r->resolved);
	EXPECT_DOUBLE_EQ(r->hits, 7.0);
	ASSERT_TRUE(r->address);
	EXPECT_EQ(*r->address, 0x70c0U);
}

TEST(RecordSplit, WithoutCatchAllTheTotalIsWhatWasAttributed)
{
	FakeResolver f;
	auto d = recording({0, 0, 0, 0, 10, 10}, 0);
	d.ranges.pop_back();
	Report rep = build_report(d, f);
	EXPECT_EQ(rep.sources[0].total, 20U);
	EXPECT_FALSE(rep.sources[0].has_catchall);
	EXPECT_EQ(row(rep, "[user space, outside the profiled objects]"), nullptr);
}

TEST(RecordSplit, SourceFilterAndSortKeys)
{
	FakeResolver f;
	auto d = recording({40, 8, 0, 0, 100, 20}, 200);
	EXPECT_TRUE(build_report(d, f, {"ProfileTotalIssues"}).rows.empty());
	EXPECT_FALSE(build_report(d, f, {"Time"}).rows.empty());
	EXPECT_FALSE(build_report(d, f, {"0"}).rows.empty());

	Report rep = build_report(d, f);
	sort_rows(rep.rows, {"symbol"});
	EXPECT_EQ(rep.rows.front().symbol, "[user space, outside the profiled objects]");
	EXPECT_EQ(rep.rows[1].symbol, "alpha | beta");
	EXPECT_THROW(parse_sort("overhead,bogus"), std::invalid_argument);
	EXPECT_EQ(parse_sort("").order, std::vector<std::string>{"overhead"});
}

TEST(RecordSplit, RawDumpListsNonZeroBucketsWithSymbolOffsets)
{
	FakeResolver f;
	auto d = recording({40, 0, 0, 7, 0, 0}, 47);
	auto raw = raw_buckets(d, f);
	ASSERT_EQ(raw.size(), 3U);
	EXPECT_EQ(raw[0].address, 0x7000U);
	EXPECT_EQ(raw[0].hits, 40U);
	EXPECT_EQ(raw[0].symbol, "alpha | beta");
	EXPECT_EQ(raw[1].symbol, "spin+0x10c0");
	EXPECT_EQ(raw[2].object, "[catch-all]") << "every hit of the target, not the unattributed ones";
}

// kernrate -z: --raw with --dso or --symbol dumps the zoomed object's
// buckets only; --raw ignored both and dumped every bucket, the 2 GiB
// catch-alls included.
TEST(RecordSplit, RawDumpHonoursDsoAndSymbol)
{
	FakeResolver f;
	auto d = recording({40, 0, 0, 7, 0, 0}, 47);
	auto raw = raw_buckets(d, f);
	EXPECT_EQ(filter_raw(raw, {.dsos = {"spin"}}), 1U);
	ASSERT_EQ(raw.size(), 2U);
	EXPECT_EQ(raw[0].object_path, "/usr/bin/spin");
	EXPECT_EQ(raw[1].object, "spin");

	raw = raw_buckets(d, f);
	filter_raw(raw, {.symbols = {"be*"}});
	ASSERT_EQ(raw.size(), 1U) << "the bucket beta shares with alpha";
	EXPECT_EQ(raw[0].symbol, "alpha | beta");

	raw = raw_buckets(d, f);
	filter_raw(raw, {.dsos = {"kernel"}});
	EXPECT_TRUE(raw.empty());
	raw = raw_buckets(d, f);
	EXPECT_EQ(filter_raw(raw, {.percent_limit = 50}), 0U) << "no overhead in a dump";
}

// `go tool pprof` takes the first mapping for the main binary ("File:"):
// it was whichever object had the hottest row, [kernel] under -a or a
// busy syscall loop.
TEST(RecordSplit, PprofPutsTheProgramsMappingFirst)
{
	ProfileData d;
	d.command = {"./work-dyn", "1"};
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/lib/x86_64-linux-gnu/libm.so.6", ""}, {"/tmp/work-dyn", ""}};
	Report rep;
	SourceTotals t;
	t.name = "ProfileTime";
	t.interval = 10000;
	t.timer = true;
	rep.sources = {t};
	for (const char *obj : {"[kernel]", "/lib/x86_64-linux-gnu/libm.so.6", "/tmp/work-dyn"}) {
		Row r;
		r.source_name = "ProfileTime";
		r.object = r.object_path = obj;
		r.symbol = std::string("fn_in_") + obj;
		r.hits = 10;
		r.address = 0x1000;
		rep.rows.push_back(r);
	}
	const std::string gz = render_pprof(d, rep);
	google::protobuf::io::ArrayInputStream in(gz.data(), static_cast<int>(gz.size()));
	google::protobuf::io::GzipInputStream unzip(&in);
	perftools::profiles::Profile p;
	ASSERT_TRUE(p.ParseFromZeroCopyStream(&unzip));
	ASSERT_EQ(p.mapping_size(), 3);
	EXPECT_EQ(p.string_table(static_cast<int>(p.mapping(0).filename())), "/tmp/work-dyn");
	for (const auto &l : p.location()) {	// ids still name the right ones
		bool found = false;
		for (const auto &m : p.mapping())
			found |= m.id() == l.mapping_id();
		EXPECT_TRUE(found);
	}
}

// A bucket recording's folded stacks are rooted as record -g's are, by
// the comm ("work-dyn-156" vs "work-dyn" before).
TEST(RecordSplit, FoldedRootIsTheCommAsInSampleStacks)
{
	Report rep;
	Row r;
	r.source_name = "ProfileTime";
	r.object = "work-dyn";
	r.symbol = "hot_int";
	r.comm = "work-dyn";
	r.pid = 156;
	r.hits = 7;
	rep.rows = {r};
	EXPECT_EQ(render_folded(rep), "work-dyn;work-dyn;hot_int 7\n");
	rep.rows[0].comm.clear();
	EXPECT_EQ(render_folded(rep), "156;work-dyn;hot_int 7\n");
}

// Unresolved code is summed per object, with the debug package that
// would name it (before: eighteen libm.so.6+0x... rows, and
// no word of libc6-dbg).
TEST(RecordSplit, UnresolvedShareAndDebugPackagePerObject)
{
	char tmpl[] = "/tmp/kp-dpkg-XXXXXX";
	const std::string dir = ::mkdtemp(tmpl);
	{
		std::ofstream(dir + "/libc6:amd64.list") << "/.\n/lib/x86_64-linux-gnu/libm.so.6\n";
		std::ofstream(dir + "/zlib1g:amd64.list") << "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13\n";
	}
	EXPECT_EQ(debug_package_for("/usr/lib/x86_64-linux-gnu/libm.so.6", dir), "libc6-dbg")
		<< "merged /usr: listed as /lib/...";
	EXPECT_EQ(debug_package_for("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", dir),
		  "zlib1g-dbgsym");
	EXPECT_EQ(debug_package_for("/usr/lib/x86_64-linux-gnu/libm.so", dir), "")
		<< "a prefix of a listed path is not it";
	std::filesystem::remove_all(dir);

	FakeResolver f;
	// Bucket 3 (offset 0x10c0) is in no symbol; gamma's are named.
	auto d = recording({0, 0, 0, 30, 60, 10}, 100);
	Report rep = build_report(d, f);
	bool said = false;
	for (const auto &w : rep.warnings)
		said |= w.rfind("/usr/bin/spin: 30% of its hits (30) are in code no symbol names", 0) == 0;
	EXPECT_TRUE(said) << ::testing::PrintToString(rep.warnings);
}
