// SPDX-License-Identifier: GPL-2.0
// No invented hotspots: size-less symbols (crt's frame_dummy, assembly
// labels) never take a share of a bucket a sized function overlaps, zero
// rows are not reported, and a bucket that runs past the object's last
// segment still resolves.
#include <gtest/gtest.h>

#include "record_test_util.h"

#include "report_model.h"
#include "report_render.h"

using namespace kprofile::record;
using kprofile::record::test::row;

namespace {

// A resolver over one hand-made table; ELF address = file offset, and
// only [0, @mapped_end) translates (the rest of the last page is not in
// any PT_LOAD segment).
class TableResolver : public RangeResolver {
public:
	explicit TableResolver(std::uint64_t mapped_end = ~0ULL) : end_(mapped_end) {}
	View view(const ProfileData &, const RangeRecord &r) override
	{
		View v;
		v.table = &table;
		v.translate = [&r, this](std::uint64_t a) -> std::optional<std::uint64_t> {
			std::uint64_t off = a - r.base + r.file_offset;
			if (off >= end_)
				return std::nullopt;
			return off;
		};
		return v;
	}
	SymbolTable table;

private:
	std::uint64_t end_;
};

// One object range over file offsets [0x1000, 0x1000 + 16 * n), 16-byte
// buckets, mapped at 0x555500001000.
ProfileData recording(const std::vector<std::pair<std::uint64_t, std::uint32_t>> &hits,
		      std::uint32_t shift = 4, std::uint64_t size = 0x1000)
{
	ProfileData d;
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/tmp/mt", ""}};
	RangeRecord r;
	r.kind = RangeKind::Object;
	r.base = 0x555500001000;
	r.file_offset = 0x1000;
	r.size = size;
	r.bucket_shift = shift;
	r.object = 0;
	r.buckets.assign(size >> shift, 0);
	std::uint64_t total = 0;
	for (const auto &[off, n] : hits) {
		r.buckets[(off - 0x1000) >> shift] += n;
		total += n;
	}
	const RangeRecord all = test::catch_all(static_cast<std::uint32_t>(total));
	d.ranges = {r, all};
	return d;
}

// The symbols of the review's `mt` (gcc -O2, crt1 + crtbegin): the crt
// helpers have no st_size; frame_dummy is a 9-byte jmp stub right before
// worker_a, so worker_a's loop head shares frame_dummy's 16-byte bucket.
void add_mt_symbols(SymbolTable &t)
{
	t.add(0x1060, 0x26, "_start");
	t.add(0x1090, 0, "deregister_tm_clones");
	t.add(0x10c0, 0, "register_tm_clones");
	t.add(0x1100, 0, "__do_global_dtors_aux");
	t.add(0x1140, 0, "frame_dummy");
	t.add(0x1149, 0x30, "worker_a");
	t.add(0x1179, 0x30, "worker_b");
	t.add(0x11a9, 0x40, "main");
	t.finalize();
}

} // namespace

TEST(RecordAttribution, FrameDummyNeverTakesItsNeighboursHits)
{
	TableResolver res;
	add_mt_symbols(res.table);
	// worker_a's loop: 100 hits in the bucket frame_dummy shares, 50 in
	// worker_a's own next bucket.
	auto d = recording({{0x1140, 100}, {0x1150, 50}});
	Report rep = build_report(d, res);

	EXPECT_EQ(row(rep, "frame_dummy"), nullptr)
		<< "frame_dummy has no size and never runs: it must not be a hotspot";
	const Row *a = row(rep, "worker_a");
	ASSERT_NE(a, nullptr);
	EXPECT_DOUBLE_EQ(a->hits, 150.0);
	EXPECT_TRUE(a->ambiguous) << "the shared bucket is still marked";
	EXPECT_EQ(a->exact_hits, 50U);
	EXPECT_EQ(rep.rows.front().symbol, "worker_a");
}

TEST(RecordAttribution, SizelessLabelInsideAFunctionTakesNoShare)
{
	TableResolver res;
	res.table.add(0x1000, 0x100, "entry_SYSCALL_64");
	res.table.add(0x1040, 0, "entry_SYSCALL_64_after_hwframe");
	res.table.add(0x1100, 0x20, "next_fn");
	res.table.finalize();
	auto d = recording({{0x1040, 10}, {0x1080, 6}});
	Report rep = build_report(d, res);

	EXPECT_EQ(row(rep, "entry_SYSCALL_64_after_hwframe"), nullptr);
	ASSERT_NE(row(rep, "entry_SYSCALL_64"), nullptr);
	EXPECT_DOUBLE_EQ(row(rep, "entry_SYSCALL_64")->hits, 16.0);
	EXPECT_EQ(res.table.find(0x1080)->name, "entry_SYSCALL_64")
		<< "an address inside a sized function is that function";
}

TEST(RecordAttribution, SizelessSymbolsSharingABucketAreOneRow)
{
	// kallsyms has no sizes: each symbol runs to the next, and a bucket
	// over two of them is one row naming both (which ran is not known),
	// marked; no share is guessed for either.
	TableResolver res;
	res.table.add(0x1000, 0, "a");
	res.table.add(0x1004, 0, "b");
	res.table.add(0x1010, 0, "c");
	res.table.finalize();
	auto d = recording({{0x1000, 8}});
	Report rep = build_report(d, res);
	EXPECT_EQ(row(rep, "a"), nullptr);
	EXPECT_EQ(row(rep, "b"), nullptr);
	ASSERT_NE(row(rep, "a | b"), nullptr);
	EXPECT_DOUBLE_EQ(row(rep, "a | b")->hits, 8.0);
	EXPECT_TRUE(row(rep, "a | b")->ambiguous);
	EXPECT_EQ(row(rep, "c"), nullptr);
}

TEST(RecordAttribution, ZeroRowsAreNotReported)
{
	// A 4 KiB bucket over one big function and 40 tiny ones: split by
	// bytes, the tiny ones got under 0.05 hits each, which would print
	// as "0.00%  0.0".  Not split, it is one row, its name cut short.
	TableResolver res;
	res.table.add(0x1000, 0xf00, "big");
	for (int i = 0; i < 40; i++)
		res.table.add(0x1f00 + 4 * i, 4, "tiny" + std::to_string(i));
	res.table.finalize();
	auto d = recording({{0x1000, 3}}, 12);
	Report rep = build_report(d, res);
	for (const auto &r : rep.rows)
		EXPECT_GE(r.hits, 0.05) << r.symbol << " would print as zero";
	const Row *all = row(rep, "big | tiny0 | tiny1 | 38 more");
	ASSERT_NE(all, nullptr);
	EXPECT_DOUBLE_EQ(all->hits, 3.0);
	EXPECT_EQ(rep.hidden_rows, 0U);
}

TEST(RecordAttribution, BucketPastTheLastSegmentStillResolves)
{
	// -b 12: one 4 KiB bucket covers the whole .text, but the file's text
	// segment ends at 0x1200, so the bucket's last byte does not translate.
	TableResolver res(0x1200);
	add_mt_symbols(res.table);
	auto d = recording({{0x1000, 30}}, 12);
	Report rep = build_report(d, res);
	EXPECT_EQ(row(rep, "mt+0x1000"), nullptr) << "not left as object+offset";
	double named = 0;
	for (const auto &r : rep.rows)
		if (r.resolved)
			named += r.hits;
	EXPECT_NEAR(named, 30.0, 1e-9);
	EXPECT_EQ(row(rep, "frame_dummy"), nullptr);
}

TEST(RecordAttribution, InterruptsInTheOtherModeAreSaidNotCounted)
{
	// --user with a counter source: an overflow taken as the program
	// entered the kernel interrupts in kernel mode; the user catch-all
	// counts it as wrong_mode, not as a hit.  The report says how many,
	// so the interrupts add up (the NMI line grows by hits + these).
	TableResolver res;
	add_mt_symbols(res.table);
	auto d = recording({{0x1150, 40}});
	d.ranges.back().wrong_mode = 3;
	Report rep = build_report(d, res);
	ASSERT_EQ(rep.sources.size(), 1U);
	EXPECT_EQ(rep.sources[0].total, 40U) << "not hits";
	EXPECT_EQ(rep.sources[0].other_mode, 3U);
	const std::string table = render_table(d, rep);
	EXPECT_NE(table.find("; 3 more interrupted the other mode"), std::string::npos) << table;
	EXPECT_EQ(report_json(d, rep)["sources"][0]["other_mode"], 3U);
	// None: nothing said.
	d.ranges.back().wrong_mode = 0;
	rep = build_report(d, res);
	EXPECT_EQ(render_table(d, rep).find("other mode"), std::string::npos);
}
