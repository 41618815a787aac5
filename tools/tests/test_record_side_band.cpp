// SPDX-License-Identifier: GPL-2.0
// The kernel's mmap records for record (side_band.h): the perf ring
// reader over synthetic rings, applying a mapping, the maps book fed by
// them, and the real side band of this process where the kernel allows.
#include <gtest/gtest.h>

#include <linux/perf_event.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "maps_book.h"
#include "side_band.h"
#include "record_test_util.h"
#include "unique_fd.h"

using namespace kprofile::record;

namespace {

constexpr std::size_t kPage = 4096;

// A perf ring in memory: the control page and @data bytes of data.
struct FakeRing {
	explicit FakeRing(std::size_t data) : mem(kPage + data), size(data) {}

	perf_event_mmap_page *page() { return reinterpret_cast<perf_event_mmap_page *>(mem.data()); }
	// Write @rec at data_head (wrapping) and move data_head on.
	void put(const std::vector<unsigned char> &rec)
	{
		for (std::size_t i = 0; i < rec.size(); i++)
			mem[kPage + ((page()->data_head + i) & (size - 1))] = rec[i];
		page()->data_head += rec.size();
	}
	std::vector<unsigned char> mem;
	std::size_t size;
};

template <typename T> void append(std::vector<unsigned char> &v, T x)
{
	const auto *p = reinterpret_cast<const unsigned char *>(&x);
	v.insert(v.end(), p, p + sizeof(x));
}

void finish(std::vector<unsigned char> &v, std::uint32_t type, std::uint16_t misc, std::uint32_t pid,
	    std::uint64_t time)
{
	// sample_id: TID, TIME.
	append<std::uint32_t>(v, pid);
	append<std::uint32_t>(v, pid);
	append<std::uint64_t>(v, time);
	std::memcpy(v.data(), &type, 4);
	std::memcpy(v.data() + 4, &misc, 2);
	const auto size = static_cast<std::uint16_t>(v.size());
	std::memcpy(v.data() + 6, &size, 2);
}

std::vector<unsigned char> mmap2(std::uint32_t pid, std::uint64_t addr, std::uint64_t len,
				 std::uint64_t pgoff, std::uint32_t prot, const std::string &path,
				 std::uint64_t time)
{
	std::vector<unsigned char> v(8);
	append<std::uint32_t>(v, pid);
	append<std::uint32_t>(v, pid);
	append(v, addr);
	append(v, len);
	append(v, pgoff);
	v.resize(v.size() + 24);	// maj, min, ino, ino_generation
	append<std::uint32_t>(v, prot);
	append<std::uint32_t>(v, MAP_PRIVATE);
	v.insert(v.end(), path.begin(), path.end());
	v.resize((v.size() + 1 + 7) / 8 * 8);	// NUL, padded to 8
	finish(v, PERF_RECORD_MMAP2, 0, pid, time);
	return v;
}

std::vector<unsigned char> comm(std::uint32_t pid, const std::string &name, bool exec,
				std::uint64_t time)
{
	std::vector<unsigned char> v(8);
	append<std::uint32_t>(v, pid);
	append<std::uint32_t>(v, pid);
	v.insert(v.end(), name.begin(), name.end());
	v.resize((v.size() + 1 + 7) / 8 * 8);
	finish(v, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, pid, time);
	return v;
}

std::vector<unsigned char> lost(std::uint64_t n)
{
	std::vector<unsigned char> v(8);
	append<std::uint64_t>(v, 1);	// id
	append<std::uint64_t>(v, n);
	finish(v, PERF_RECORD_LOST, 0, 0, 0);
	return v;
}

std::vector<MapRecord> drain(PerfRingReader &r)
{
	std::vector<MapRecord> out;
	r.drain([&](MapRecord &&m) { out.push_back(std::move(m)); });
	return out;
}

} // namespace

TEST(SideBand, ExecutableMappingsAndExecsAreTold)
{
	FakeRing ring(4096);
	ring.put(mmap2(42, 0x7f0000001000, 0x3000, 0x1000, PROT_READ | PROT_EXEC, "/lib/libkpspin.so", 500));
	ring.put(mmap2(42, 0x7f0000010000, 0x1000, 0, PROT_READ | PROT_WRITE, "/lib/libkpspin.so", 501));
	ring.put(comm(42, "renamed", false, 502));
	ring.put(comm(42, "spin-lib", true, 503));
	ring.put(mmap2(42, 0x7f0000020000, 0x1000, 0, PROT_READ | PROT_EXEC, "//anon", 504));
	PerfRingReader r(ring.mem.data(), kPage, ring.size);

	const auto got = drain(r);
	ASSERT_EQ(got.size(), 3U) << "data mappings and a prctl rename are no news";
	EXPECT_EQ(got[0].pid, 42);
	EXPECT_EQ(got[0].time, 500U);
	EXPECT_FALSE(got[0].exec);
	EXPECT_EQ(got[0].mapping.start, 0x7f0000001000U);
	EXPECT_EQ(got[0].mapping.end, 0x7f0000004000U);
	EXPECT_EQ(got[0].mapping.offset, 0x1000U);
	EXPECT_EQ(got[0].mapping.path, "/lib/libkpspin.so");
	EXPECT_TRUE(got[0].mapping.executable());
	EXPECT_TRUE(got[1].exec);
	EXPECT_EQ(got[1].mapping.path, "spin-lib");
	EXPECT_EQ(got[1].time, 503U);
	EXPECT_EQ(got[2].mapping.path, "") << "anonymous, as /proc/PID/maps shows it";
	EXPECT_EQ(ring.page()->data_tail, ring.page()->data_head) << "the space is freed";
	EXPECT_TRUE(drain(r).empty());
	EXPECT_FALSE(r.broken());
	EXPECT_EQ(r.lost(), 0U);
}

TEST(SideBand, ARecordAcrossTheRingsEndIsPutTogether)
{
	FakeRing ring(128);
	PerfRingReader r(ring.mem.data(), kPage, ring.size);
	const auto first = mmap2(1, 0x1000, 0x1000, 0, PROT_EXEC, "/bin/a", 10);
	const auto second = mmap2(1, 0x9000, 0x2000, 0x4000, PROT_READ | PROT_EXEC,
				  "/usr/lib/libwrapped.so.1", 20);

	ring.put(first);
	ASSERT_EQ(drain(r).size(), 1U);
	// The next one starts near the end of the 128 bytes and wraps.
	ASSERT_GT(first.size() + second.size(), ring.size) << "the second record wraps";
	ASSERT_LE(second.size(), ring.size);
	ring.put(second);
	const auto got = drain(r);
	ASSERT_EQ(got.size(), 1U);
	EXPECT_EQ(got[0].mapping.path, "/usr/lib/libwrapped.so.1");
	EXPECT_EQ(got[0].mapping.start, 0x9000U);
	EXPECT_EQ(got[0].mapping.end, 0xb000U);
	EXPECT_EQ(got[0].mapping.offset, 0x4000U);
	EXPECT_EQ(got[0].time, 20U);
}

TEST(SideBand, LostRecordsAreCountedAndABadRecordStopsTheRing)
{
	FakeRing ring(4096);
	ring.put(lost(7));
	ring.put(mmap2(3, 0x1000, 0x1000, 0, PROT_EXEC, "/bin/x", 1));
	std::vector<unsigned char> bad(16, 0);
	const std::uint16_t size = 12;	// not a multiple of 8
	std::memcpy(bad.data() + 6, &size, 2);
	ring.put(bad);
	ring.put(mmap2(3, 0x2000, 0x1000, 0, PROT_EXEC, "/bin/y", 2));
	PerfRingReader r(ring.mem.data(), kPage, ring.size);

	const auto got = drain(r);
	ASSERT_EQ(got.size(), 1U) << "the records before the bad one, none after";
	EXPECT_EQ(r.lost(), 7U);
	EXPECT_TRUE(r.broken());
	EXPECT_TRUE(drain(r).empty());
}

TEST(SideBand, AMappingReplacesWhatItCovers)
{
	std::vector<Mapping> maps = {{0x1000, 0x5000, "r-xp", 0, "/lib/old.so"},
				     {0x8000, 0x9000, "r-xp", 0, "/bin/prog"}};

	apply_mapping(maps, {0x2000, 0x3000, "r-xp", 0x40000, "/lib/new.so"});
	ASSERT_EQ(maps.size(), 4U);
	EXPECT_EQ(maps[0].path, "/lib/old.so");
	EXPECT_EQ(maps[0].end, 0x2000U);
	EXPECT_EQ(maps[1].path, "/lib/new.so");
	EXPECT_EQ(maps[1].offset, 0x40000U);
	EXPECT_EQ(maps[2].path, "/lib/old.so");
	EXPECT_EQ(maps[2].start, 0x3000U);
	EXPECT_EQ(maps[2].offset, 0x2000U) << "the tail's file offset moved with its start";
	EXPECT_EQ(maps[3].path, "/bin/prog");
	// Over several: both gone.
	apply_mapping(maps, {0x0, 0x10000, "r-xp", 0, "/bin/new"});
	ASSERT_EQ(maps.size(), 1U);
	EXPECT_EQ(maps[0].path, "/bin/new");
}

TEST(SideBand, AFedBookReadsNoProcAndFollowsForksExecsAndLoads)
{
	test::FakeProc fp;
	fp.maps[7] = {{0x400000, 0x401000, "r-xp", 0, "/bin/prog"}};
	MapsBook book(fp.reader());

	book.fed(true);
	ASSERT_TRUE(book.read(7));
	book.feed(7);
	const std::size_t reads = book.reads();
	// The loader maps a library: told, not read (proc is not updated:
	// a read would not find it).
	MapRecord lib;
	lib.pid = 7;
	lib.time = 2000;
	lib.mapping = {0x7f00000000, 0x7f00010000, "r-xp", 0, "/lib/libkpspin.so"};
	book.map(lib);
	book.need(7, 0x7f00000800, 2100);
	book.need(7, 0x12345000, 2100);	// in no mapping (JIT, a bad frame)
	EXPECT_EQ(book.reads(), reads) << "a fed process is never read again";
	ASSERT_FALSE(book.snapshots().empty());
	const auto &last = book.snapshots().back();
	ASSERT_EQ(last.paths.size(), 2U);
	EXPECT_EQ(last.paths[1], "/lib/libkpspin.so");
	// A fork: the child's first snapshot is its parent's, at the fork.
	book.fork(8, 7, 3000);
	EXPECT_EQ(book.reads(), reads) << "the child is not read either";
	EXPECT_EQ(book.snapshots().back().snap.pid, 8);
	EXPECT_EQ(book.snapshots().back().snap.time, 3000U);
	EXPECT_EQ(book.snapshots().back().paths.size(), 2U);
	// It execs: the new program's mapping comes first, then the EXEC.
	MapRecord exe;
	exe.pid = 8;
	exe.time = 4000;
	exe.mapping = {0x400000, 0x402000, "r-xp", 0, "/bin/other"};
	book.map(exe);
	book.exec(8, 4100, "other");
	const auto &after = book.snapshots().back();
	EXPECT_EQ(after.snap.pid, 8);
	EXPECT_GT(after.snap.time, 4100U) << "the new program's generation";
	EXPECT_EQ(after.snap.comm, "other");
	EXPECT_EQ(after.paths[0], "/bin/other");
	EXPECT_EQ(book.reads(), reads);

	// Records lost: the book reads again where a sample misses.
	book.fed(false);
	fp.maps[7].push_back({0x900000, 0x901000, "r-xp", 0, "/lib/late.so"});
	book.need(7, 0x900800, fp.now + 100);
	EXPECT_EQ(book.reads(), reads + 1);
}

TEST(SideBand, ThisProcessesMappingIsToldByTheKernel)
{
	std::string why;
	auto sb = SideBand::open(getpid(), true, &why);
	if (!sb)
		GTEST_SKIP() << "the kernel refused the side band: " << why;
	kprofile::UniqueFd fd(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
	ASSERT_TRUE(fd);
	void *p = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd.get(), 0);
	ASSERT_NE(p, MAP_FAILED);
	const auto addr = reinterpret_cast<std::uint64_t>(p);
	bool found = false;
	sb->drain([&](MapRecord &&m) {
		if (m.mapping.start == addr && m.pid == getpid()) {
			found = true;
			EXPECT_EQ(m.mapping.end, addr + 4096);
			EXPECT_NE(m.mapping.path.find("test_record"), std::string::npos) << m.mapping.path;
			EXPECT_GT(m.time, 0U);
		}
	});
	munmap(p, 4096);
	EXPECT_TRUE(found) << "an MMAP2 record of the new mapping";
	EXPECT_TRUE(sb->complete());
}

TEST(SideBand, AThreadRunningBeforeItOpenedIsToldToo)
{
	// -p of a running process: a thread it had already (one not started
	// by the thread the events were opened on) dlopens a library.
	std::mutex mu;
	std::condition_variable cv;
	bool go = false, done = false;
	std::uint64_t addr = 0;
	pid_t tid = 0;
	kprofile::UniqueFd fd(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
	ASSERT_TRUE(fd);
	std::thread t([&] {
		std::unique_lock<std::mutex> l(mu);
		tid = static_cast<pid_t>(syscall(SYS_gettid));
		cv.notify_all();
		cv.wait(l, [&] { return go; });
		void *p = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd.get(), 0);
		addr = p == MAP_FAILED ? 0 : reinterpret_cast<std::uint64_t>(p);
		done = true;
		cv.notify_all();
	});
	{
		std::unique_lock<std::mutex> l(mu);
		cv.wait(l, [&] { return tid != 0; });
	}
	std::string why;
	auto sb = SideBand::open(getpid(), true, &why);
	{
		std::unique_lock<std::mutex> l(mu);
		go = true;
		cv.notify_all();
		cv.wait(l, [&] { return done; });
	}
	t.join();
	if (!sb)
		GTEST_SKIP() << "the kernel refused the side band: " << why;
	ASSERT_NE(addr, 0U);
	bool found = false;
	sb->drain([&](MapRecord &&m) {
		if (m.mapping.start == addr) {
			found = true;
			EXPECT_EQ(m.pid, getpid());
			EXPECT_EQ(m.tid, tid);
		}
	});
	munmap(reinterpret_cast<void *>(addr), 4096);
	EXPECT_TRUE(found) << "the MMAP2 record of a thread older than the side band";
}
