// SPDX-License-Identifier: GPL-2.0
// The children's hits counted from the stream's samples (SampledRanges),
// and the helpers that place a sample in a process's mappings.
#include <gtest/gtest.h>

#include <unistd.h>

#include "report_processes.h"
#include "sample_recorder.h"
#include "sampled_ranges.h"
#include "session.h"

using namespace kprofile::record;

namespace {

RangeRecord meta(RangeKind kind, std::uint64_t base, std::uint64_t size, std::uint32_t shift,
		 std::int64_t pid)
{
	RangeRecord r;
	r.kind = kind;
	r.base = base;
	r.size = size;
	r.bucket_shift = shift;
	r.pid = pid;
	r.file_offset = kind == RangeKind::Object ? 0x1000 : 0;
	return r;
}

} // namespace

TEST(RecordTasks, SampledRangesKeepEveryHitInPiecesOverTheirHits)
{
	SampledRanges s;
	const RangeRecord all = meta(RangeKind::CatchAll, 0, kUserTop, kCatchAllShift, 42);
	const RangeRecord obj = meta(RangeKind::Object, 0x555500000000ULL, 0x10000, 4, 42);

	s.hit(all, 0x555500001234ULL);
	s.hit(all, 0x7f0000000010ULL);
	s.hit(obj, 0x555500001234ULL);
	s.hit(obj, 0x555500001238ULL);	// same 16-byte bucket
	s.hit(obj, 0x555500001260ULL);	// 3 buckets on: the same piece
	s.hit(obj, 0x555500002000ULL);	// 221 buckets on: a piece of its own
	EXPECT_EQ(s.hits(), 6U);
	const auto recs = s.records();
	ASSERT_EQ(recs.size(), 4U);

	// The catch-all: a bucket each, not 65,536 counters.
	EXPECT_EQ(recs[0].kind, RangeKind::CatchAll);
	EXPECT_EQ(recs[0].base, 0x555500001234ULL >> 31 << 31);
	EXPECT_EQ(recs[0].buckets, std::vector<std::uint32_t>{1});
	EXPECT_EQ(recs[1].base, 0x7f0000000010ULL >> 31 << 31);
	EXPECT_EQ(recs[1].buckets, std::vector<std::uint32_t>{1});
	EXPECT_EQ(recs[1].hits, 1U);
	EXPECT_LE(recs[1].base + recs[1].size, kUserTop);

	// The object's pieces: base and file offset moved with them, so each
	// address still names the same byte of the file.
	const RangeRecord &o = recs[2];
	EXPECT_EQ(o.kind, RangeKind::Object);
	EXPECT_EQ(o.base, 0x555500001230ULL);
	EXPECT_EQ(o.size, 4U * 16);
	EXPECT_EQ(o.file_offset, 0x1000U + 0x1230U);
	EXPECT_EQ(o.buckets, (std::vector<std::uint32_t>{2, 0, 0, 1}));
	EXPECT_EQ(o.hits, 3U);
	EXPECT_EQ(o.pid, 42);
	const RangeRecord &o2 = recs[3];
	EXPECT_EQ(o2.base, 0x555500002000ULL);
	EXPECT_EQ(o2.file_offset, 0x1000U + 0x2000U);
	EXPECT_EQ(o2.buckets, std::vector<std::uint32_t>{1});
	EXPECT_LE(o2.base + o2.size, obj.base + obj.size);
}

// The kernel text's hits of a child spread over 14 MB cost a bucket or so
// each, not the 220,000 counters from the first to the last (a thousand
// children ran a recording out of memory).
TEST(RecordTasks, SampledKernelHitsFarApartStaySmall)
{
	SampledRanges s;
	const RangeRecord text = meta(RangeKind::Kernel, 0xffffffff81000000ULL, 14 << 20, 6, 7);

	s.hit(text, 0xffffffff81000040ULL);
	s.hit(text, 0xffffffff81d00000ULL);
	std::size_t counters = 0;
	for (const auto &r : s.records())
		counters += r.buckets.size();
	EXPECT_EQ(counters, 2U);
}

TEST(RecordTasks, SampledRangesKeepSourcesAndProcessesApart)
{
	SampledRanges s;
	RangeRecord a = meta(RangeKind::Kernel, 0xffffffff81000000ULL, 0x1000000, 6, 7);
	RangeRecord b = a;
	b.source = 3;

	s.hit(a, 0xffffffff81000040ULL);
	s.hit(b, 0xffffffff81000040ULL);
	s.hit(b, 0xffffffff81000fffULL);
	const auto recs = s.records();
	ASSERT_EQ(recs.size(), 2U);
	EXPECT_EQ(recs[0].source, 0U);
	EXPECT_EQ(recs[0].buckets, std::vector<std::uint32_t>{1});
	EXPECT_EQ(recs[1].source, 3U);
	EXPECT_EQ(recs[1].buckets.size(), (0xfffU >> 6) - (0x40U >> 6) + 1);
	EXPECT_EQ(recs[1].hits, 2U);
}

// A child's ranges are what process_totals() and --pid read: its Hits
// and Attributed come out as counted.
TEST(RecordTasks, SampledChildIsAProcessOfTheFile)
{
	SampledRanges s;
	ProfileData d;

	d.processes.push_back({42, 1, "child"});
	d.objects.push_back({"/bin/child", ""});
	RangeRecord all = meta(RangeKind::CatchAll, 0, kUserTop, kCatchAllShift, 42);
	RangeRecord obj = meta(RangeKind::Object, 0x400000, 0x1000, 4, 42);
	obj.object = 0;
	for (int i = 0; i < 3; i++) {
		s.hit(all, 0x400100 + i);
		s.hit(obj, 0x400100 + i);
	}
	s.hit(all, 0x7f0000000000ULL);	// in no known mapping
	d.ranges = s.records();
	const auto totals = process_totals(d);
	ASSERT_EQ(totals.size(), 1U);
	EXPECT_EQ(totals[0].total, 4U);
	EXPECT_EQ(totals[0].attributed, 3U);
}

TEST(RecordTasks, MappingAtFindsTheMappingOfAnAddress)
{
	std::vector<Mapping> maps = {{0x1000, 0x2000, "r-xp", 0, "/a"},
				     {0x5000, 0x6000, "r-xp", 0, "/b"}};

	EXPECT_EQ(mapping_at(maps, 0xfff), nullptr);
	ASSERT_NE(mapping_at(maps, 0x1000), nullptr);
	EXPECT_EQ(mapping_at(maps, 0x1fff)->path, "/a");
	EXPECT_EQ(mapping_at(maps, 0x2000), nullptr) << "the end is exclusive";
	EXPECT_EQ(mapping_at(maps, 0x5800)->path, "/b");
	EXPECT_EQ(mapping_at(maps, 0x9000), nullptr);
	EXPECT_EQ(mapping_at({}, 0x1000), nullptr);
}

TEST(RecordTasks, ReadExecMapsOfThisProcess)
{
	std::uint64_t t = 0;
	auto maps = read_exec_maps(getpid(), &t);

	ASSERT_TRUE(maps.has_value());
	EXPECT_GT(t, 0U);
	ASSERT_FALSE(maps->empty());
	for (std::size_t i = 1; i < maps->size(); i++)
		EXPECT_LT((*maps)[i - 1].start, (*maps)[i].start) << "sorted by address";
	const auto *m = mapping_at(*maps, reinterpret_cast<std::uintptr_t>(&mapping_at));
	ASSERT_NE(m, nullptr) << "this program's text is an executable mapping";
	EXPECT_FALSE(read_exec_maps(-1, &t).has_value());
}

// A drain passes on the records stamped up to the time it began, that
// time included: on a guest whose clock ticks in 4 ms steps, the EXEC
// that woke poll() has the drain's very time, and was held back until the
// next wake-up, the program's exit, when its maps could no longer be read
// (debugvm 50-record: `sh -c 'spin 1'` all "outside the profiled
// objects").  Later ones wait, in time order across the rings.
TEST(RecordTasks, ARecordOfTheDrainsOwnTimeIsDue)
{
	auto task = [](TaskKind k, std::uint64_t t, std::int32_t pid) {
		TaskRecord r;
		r.kind = k;
		r.time = t;
		r.pid = pid;
		return StreamRecord(r);
	};
	auto sample = [](std::uint64_t t, std::int32_t pid) {
		SampleRecord s;
		s.time = t;
		s.pid = pid;
		return StreamRecord(s);
	};
	// Ring 0 first, then ring 1.
	std::vector<StreamRecord> held = {sample(4000, 7), task(TaskKind::Exit, 8000, 7),
					  task(TaskKind::Fork, 2000, 7), task(TaskKind::Exec, 4000, 7),
					  sample(8001, 7)};

	ASSERT_EQ(order_due_records(held, 4000), 3U);
	auto time_of = [](const StreamRecord &r) {
		return std::visit([](const auto &x) { return x.time; }, r);
	};
	EXPECT_EQ(time_of(held[0]), 2000U);
	// Records of the same time keep the order they were read in.
	EXPECT_EQ(std::get<SampleRecord>(held[1]).time, 4000U);
	ASSERT_TRUE(std::holds_alternative<TaskRecord>(held[2]));
	EXPECT_EQ(std::get<TaskRecord>(held[2]).kind, TaskKind::Exec);
	EXPECT_EQ(time_of(held[3]), 8000U);
	EXPECT_EQ(time_of(held[4]), 8001U);
	held.erase(held.begin(), held.begin() + 3);
	EXPECT_EQ(order_due_records(held, 7999), 0U);
	EXPECT_EQ(order_due_records(held, ~0ULL), 2U);
}
