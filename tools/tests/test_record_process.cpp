// SPDX-License-Identifier: GPL-2.0
// What record reads of processes in /proc (their stat, whether they still
// run), module text ranges, and the per-process views of a record file.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "kernel_modules.h"
#include "process_tree.h"
#include "report_processes.h"
#include "session.h"

using namespace kprofile::record;

TEST(RecordProcess, ParsesStatWithAwkwardComm)
{
	auto st = parse_proc_stat("1234 (a) b (c)) R 99 1234 1234 0 -1 4194304 10 0 0 0 "
				  "250 7 0 0 20 0 1 0 100 0 0");
	ASSERT_TRUE(st);
	EXPECT_EQ(st->pid, 1234);
	EXPECT_EQ(st->comm, "a) b (c)");
	EXPECT_EQ(st->state, 'R');
	EXPECT_EQ(st->ppid, 99);
	EXPECT_EQ(st->utime, 250U);
	EXPECT_EQ(st->stime, 7U);
	EXPECT_FALSE(parse_proc_stat("1234 (x"));
	EXPECT_FALSE(parse_proc_stat("1234 (x) R 1"));
}

TEST(RecordProcess, ModuleTextRanges)
{
	const std::string modules =
		"kprofile 102400 0 - Live 0xffffffffc0a00000 (O)\n"
		"virtio_ring 45056 2 virtio_net, Live 0xffffffffc0900000\n"
		"hidden 4096 0 - Live 0x0000000000000000\n"
		"big 2097152 0 - Live 0xffffffffc0800000\n"
		"garbage line\n";
	std::vector<KernelSymbolRecord> syms = {
		{0xffffffffc09ff000ULL, 0, "early_fn", "kprofile"},
		{0xffffffffc0a00010ULL, 0, "kp_ioctl", "kprofile"},
	};
	auto m = parse_modules(modules, syms);
	ASSERT_EQ(m.size(), 3U) << "the hidden module (address 0) is left out";
	EXPECT_EQ(m[0].name, "big");
	EXPECT_EQ(m[0].size, 0x100000U) << "cut at virtio_ring's base";
	EXPECT_EQ(m[1].name, "virtio_ring");
	EXPECT_EQ(m[1].size, 45056U) << "short of kprofile: kept whole";
	EXPECT_EQ(m[2].name, "kprofile");
	EXPECT_EQ(m[2].base, 0xffffffffc09ff000ULL) << "lowered to its first text symbol";
	EXPECT_EQ(m[2].size, 102400U + 0x1000U);
}

// report --pid / --processes: each child's hits are its own.
TEST(RecordProcess, ViewsOfOneProcess)
{
	ProfileData d;
	d.pid = 10;
	d.processes = {{10, 0, "sh"}, {11, 10, "spin"}, {12, 10, "spin"}};
	auto range = [](RangeKind kind, std::int64_t pid, std::uint32_t hits) {
		RangeRecord r;
		r.kind = kind;
		r.pid = pid;
		r.bucket_shift = 4;
		r.size = 16;
		r.buckets = {hits};
		return r;
	};
	d.ranges = {range(RangeKind::CatchAll, 10, 2), range(RangeKind::CatchAll, 11, 50),
		    range(RangeKind::Object, 11, 45), range(RangeKind::CatchAll, 12, 70),
		    range(RangeKind::Object, 12, 66)};
	auto t = process_totals(d);
	ASSERT_EQ(t.size(), 3U);
	EXPECT_EQ(t[0].process.pid, 12) << "busiest first";
	EXPECT_EQ(t[0].total, 70U);
	EXPECT_EQ(t[0].attributed, 66U);
	EXPECT_EQ(t[2].process.comm, "sh");
	const std::string table = render_processes(d);
	EXPECT_NE(table.find("spin"), std::string::npos) << table;
	// -a: a busy process has object profiles but no catch-all: its Hits
	// is not 0 (below its Attributed), it is not known.
	d.processes.push_back({13, 0, "busy"});
	d.ranges.push_back(range(RangeKind::Object, 13, 7));
	// A child gone before record made its first profile has no ranges:
	// 0 hits, not "-".
	d.processes.push_back({14, 10, "gone"});
	const std::string all = render_processes(d);
	EXPECT_NE(all.find("busy                      -          7"), std::string::npos) << all;
	EXPECT_NE(all.find("gone                      0          0"), std::string::npos) << all;

	ProfileData one = only_process(d, 11);
	ASSERT_EQ(one.ranges.size(), 2U);
	EXPECT_EQ(one.ranges[1].buckets[0], 45U);
	EXPECT_EQ(one.pid, 11);
	ProfileData old;
	old.pid = 5;
	old.ranges = {range(RangeKind::CatchAll, 0, 9)};
	EXPECT_EQ(only_process(old, 5).ranges.size(), 1U) << "a file without pids is its pid's";
}

// A maps file that cannot be read for a moment is not an exit: only a
// process that is gone or a zombie is retired.
TEST(RecordProcess, StillRunningUntilReaped)
{
	EXPECT_TRUE(process_alive(getpid()));
	const pid_t child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	bool zombie = false;
	for (int i = 0; i < 200 && !zombie; i++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
		zombie = !process_alive(child);
	}
	EXPECT_TRUE(zombie) << "an exited, unreaped child is a zombie: not running";
	waitpid(child, nullptr, 0);
	EXPECT_FALSE(process_alive(child)) << "a reaped child is gone";
}
