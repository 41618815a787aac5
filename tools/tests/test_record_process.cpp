// SPDX-License-Identifier: GPL-2.0
// What record follows: the children of the command (found in /proc, no
// ptrace), the busy processes under -a, and module text ranges.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "record/kernel_modules.h"
#include "record/process_tree.h"
#include "record/process_view.h"
#include "record/session.h"

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

TEST(RecordProcess, PidLists)
{
	EXPECT_EQ(parse_pid_list("12 34 \n"), (std::vector<pid_t>{12, 34}));
	EXPECT_TRUE(parse_pid_list("").empty());
}

// A shell's two background children are found, with their names.
TEST(RecordProcess, FindsChildrenOfAShell)
{
	const pid_t sh = fork();
	ASSERT_GE(sh, 0);
	if (sh == 0) {
		execlp("sh", "sh", "-c", "sleep 3 & sleep 3 & wait", (char *)nullptr);
		_exit(127);
	}
	std::vector<pid_t> kids;
	for (int i = 0; i < 200 && kids.size() < 2; i++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
		kids = children_of(sh);
	}
	ASSERT_EQ(kids.size(), 2U) << "sh -c 'sleep & sleep & wait' has two children";
	for (pid_t k : kids) {
		for (int i = 0; i < 200 && read_comm(k) != "sleep"; i++)
			std::this_thread::sleep_for(std::chrono::milliseconds(10));
		EXPECT_EQ(read_comm(k), "sleep");
		auto st = read_proc_stat(k);
		ASSERT_TRUE(st);
		EXPECT_EQ(st->ppid, sh);
	}
	kill(sh, SIGKILL);
	for (pid_t k : kids)
		kill(k, SIGKILL);
	waitpid(sh, nullptr, 0);
	EXPECT_TRUE(children_of(sh).empty()) << "a reaped process has no children";
}

// -a profiles the processes that burn CPU: a spinning child is among them
// after two scans, a sleeping one is not.
TEST(RecordProcess, BusyScanFindsTheSpinner)
{
	const pid_t spin = fork();
	ASSERT_GE(spin, 0);
	if (spin == 0)
		for (;;)
			__asm__ volatile("" ::: "memory");
	const pid_t idle = fork();
	ASSERT_GE(idle, 0);
	if (idle == 0) {
		pause();
		_exit(0);
	}
	BusyScan scan;
	EXPECT_TRUE(scan.scan(getpid()).empty()) << "the first scan only takes the counts";
	std::vector<pid_t> busy;
	for (int i = 0; i < 50 && std::find(busy.begin(), busy.end(), spin) == busy.end(); i++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(100));
		busy = scan.scan(getpid());
	}
	EXPECT_NE(std::find(busy.begin(), busy.end(), spin), busy.end());
	EXPECT_EQ(std::find(busy.begin(), busy.end(), idle), busy.end());
	EXPECT_EQ(std::find(busy.begin(), busy.end(), getpid()), busy.end()) << "self is left out";
	kill(spin, SIGKILL);
	kill(idle, SIGKILL);
	waitpid(spin, nullptr, 0);
	waitpid(idle, nullptr, 0);
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

// make's compiler runs: the kernel ranges of exited processes with the
// same comm are summed into one; catch-alls, objects and other comms not.
TEST(RecordProcess, ExitedKernelRangesMergePerComm)
{
	auto range = [](RangeKind kind, std::int64_t pid, std::uint32_t hits) {
		RangeRecord r;
		r.kind = kind;
		r.pid = pid;
		r.base = 0xffffffff81000000ULL;
		r.size = 64;
		r.bucket_shift = 4;
		r.hits = hits;
		r.buckets = {hits, 0, 1, 0};
		return r;
	};
	std::map<std::int64_t, std::string> comm = {{1, "cc1"}, {2, "cc1"}, {3, "as"}};
	std::vector<RangeRecord> kept;
	for (std::int64_t pid : {1, 2, 3}) {
		auto same = [&](std::int64_t other) { return comm[other] == comm[pid]; };
		keep_exited_range(kept, range(RangeKind::Kernel, pid, 10 * pid), same);
		auto kernel_all = range(RangeKind::CatchAll, pid, 10 * pid + 1);
		kernel_all.base = kKernelBase;
		keep_exited_range(kept, kernel_all, same);
		auto user_all = range(RangeKind::CatchAll, pid, 5);
		user_all.base = 0;
		keep_exited_range(kept, user_all, same);
	}
	ASSERT_EQ(kept.size(), 7U)
		<< "cc1 x2 kernel and kernel catch-all merged; as's; three user catch-alls";
	EXPECT_EQ(kept[0].pid, 1);
	EXPECT_EQ(kept[0].buckets[0], 30U) << "10 + 20";
	EXPECT_EQ(kept[0].buckets[2], 2U);
	EXPECT_EQ(kept[0].hits, 30U);
	EXPECT_EQ(kept[1].pid, 1);
	EXPECT_EQ(kept[1].buckets[0], 32U) << "the kernel catch-alls go with the kernel text";

	// So no process shows more attributed hits than it counted (a
	// short-lived child's row read Hits 51, Attributed 255).
	ProfileData d;
	d.processes = {{1, 0, "cc1"}, {2, 0, "cc1"}, {3, 0, "as"}};
	d.ranges = kept;
	for (const auto &t : process_totals(d))
		EXPECT_GE(t.total, t.attributed) << t.process.pid;
	EXPECT_EQ(kept[4].pid, 3);
	EXPECT_EQ(kept[4].kind, RangeKind::Kernel);

	// The first spin exited while record created its kernel text: it
	// kept a kernel catch-all only.  The next one's kernel text goes to
	// the same process as the catch-alls, not to a row of its own (which
	// then attributed 289 hits while counting 74).
	std::map<std::int64_t, std::string> spins = {{4, "spin"}, {5, "spin"}, {6, "spin"}};
	std::vector<RangeRecord> k2;
	auto same4 = [&](std::int64_t other) { return spins.count(other) != 0; };
	auto kall = range(RangeKind::CatchAll, 4, 3);
	kall.base = kKernelBase;
	keep_exited_range(k2, kall, same4);
	for (std::int64_t pid : {5, 6}) {
		auto c = range(RangeKind::CatchAll, pid, 20);
		c.base = kKernelBase;
		keep_exited_range(k2, c, same4);
		keep_exited_range(k2, range(RangeKind::Kernel, pid, 18), same4);
	}
	ASSERT_EQ(k2.size(), 2U);
	EXPECT_EQ(k2[1].kind, RangeKind::Kernel);
	EXPECT_EQ(k2[1].pid, 4) << "the group's one process";
	EXPECT_EQ(k2[1].buckets[0], 36U);
	ProfileData d2;
	d2.processes = {{4, 0, "spin"}, {5, 0, "spin"}, {6, 0, "spin"}};
	d2.ranges = k2;
	for (const auto &t : process_totals(d2))
		EXPECT_GE(t.total, t.attributed) << t.process.pid;
}

// A maps file that cannot be read for a moment is not an exit: only a
// process that is gone or a zombie is retired.
TEST(RecordProcess, StillRunningUntilReaped)
{
	EXPECT_TRUE(still_running(getpid()));
	const pid_t child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	bool zombie = false;
	for (int i = 0; i < 200 && !zombie; i++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
		zombie = !still_running(child);
	}
	EXPECT_TRUE(zombie) << "an exited, unreaped child is a zombie: not running";
	waitpid(child, nullptr, 0);
	EXPECT_FALSE(still_running(child)) << "a reaped child is gone";
}
