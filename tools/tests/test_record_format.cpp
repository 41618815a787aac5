// SPDX-License-Identifier: GPL-2.0
// The record file: round trip, and refusal of damaged or newer files.
#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "record/profile_file.h"

using namespace kprofile::record;

namespace {

ProfileData sample()
{
	ProfileData d;

	d.machine.interface = "emon";
	d.machine.vendor = "GenuineIntel";
	d.machine.num_cpus = 2;
	d.machine.kernel_release = "6.1.0-test";
	d.target = "command";
	d.pid = 4242;
	d.command = {"./spin", "3"};
	d.start_time = 1700000000;
	d.duration_ns = 123456789;
	d.sources = {{0, "ProfileTime", 10000, true}, {2, "ProfileTotalIssues", 65536, false}};
	d.objects = {{"/usr/bin/spin", "00112233aabbccdd"}, {"/lib/libc.so.6", ""}};
	RangeRecord a;
	a.kind = RangeKind::Object;
	a.source = 0;
	a.base = 0x555555554000ULL;
	a.size = 0x1000;
	a.bucket_shift = 4;
	a.mode = 1;
	a.object = 0;
	a.file_offset = 0x1000;
	a.hits = 7;
	a.outside = 3;
	a.buckets.assign(0x100, 0);
	a.buckets[0] = 1;
	a.buckets[0xff] = 0xffffffffU;
	RangeRecord all;
	all.kind = RangeKind::CatchAll;
	all.source = 0;
	all.base = 0;
	all.size = 1ULL << 47;
	all.bucket_shift = 31;
	all.buckets.assign(1 << 16, 0);
	all.buckets[0xaaaa] = 99;
	RangeRecord k;
	k.kind = RangeKind::Kernel;
	k.source = 2;
	k.base = 0xffffffff81000000ULL;
	k.size = 0x40;
	k.bucket_shift = 2;
	k.buckets = {5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6};
	d.ranges = {a, all, k};
	d.kernel_symbols = {{0xffffffff81000000ULL, 0x40, "do_thing", ""},
			    {0xffffffffc0000000ULL, 0, "mod_fn", "kprofile"}};
	return d;
}

} // namespace

TEST(RecordFormat, RoundTripKeepsEverything)
{
	const ProfileData d = sample();
	const ProfileData e = parse(serialize(d));

	EXPECT_EQ(e.version, kFileVersion);
	EXPECT_EQ(e.machine.interface, "emon");
	EXPECT_EQ(e.machine.kernel_release, "6.1.0-test");
	EXPECT_EQ(e.command, d.command);
	EXPECT_EQ(e.pid, 4242);
	EXPECT_EQ(e.duration_ns, d.duration_ns);
	ASSERT_EQ(e.sources.size(), 2U);
	EXPECT_EQ(e.sources[1].name, "ProfileTotalIssues");
	EXPECT_EQ(e.sources[1].interval, 65536U);
	EXPECT_TRUE(e.sources[0].timer);
	ASSERT_EQ(e.objects.size(), 2U);
	EXPECT_EQ(e.objects[0].build_id, "00112233aabbccdd");
	ASSERT_EQ(e.ranges.size(), 3U);
	for (std::size_t i = 0; i < 3; i++) {
		EXPECT_EQ(e.ranges[i].kind, d.ranges[i].kind);
		EXPECT_EQ(e.ranges[i].base, d.ranges[i].base);
		EXPECT_EQ(e.ranges[i].size, d.ranges[i].size);
		EXPECT_EQ(e.ranges[i].bucket_shift, d.ranges[i].bucket_shift);
		EXPECT_EQ(e.ranges[i].object, d.ranges[i].object);
		EXPECT_EQ(e.ranges[i].file_offset, d.ranges[i].file_offset);
		EXPECT_EQ(e.ranges[i].buckets, d.ranges[i].buckets);
	}
	EXPECT_EQ(e.ranges[0].outside, 3U);
	EXPECT_EQ(e.ranges[0].buckets[0xff], 0xffffffffU) << "full 32-bit counts survive";
	ASSERT_EQ(e.kernel_symbols.size(), 2U);
	EXPECT_EQ(e.kernel_symbols[1].module, "kprofile");
	EXPECT_EQ(serialize(e), serialize(d)) << "serialization is deterministic";
}

TEST(RecordFormat, RejectsWrongMagic)
{
	std::string bytes = serialize(sample());
	bytes[0] = 'X';
	EXPECT_THROW(parse(bytes), FormatError);
	EXPECT_THROW(parse("short"), FormatError);
}

TEST(RecordFormat, RejectsNewerVersionWithAdvice)
{
	std::string bytes = serialize(sample());
	bytes[8] = static_cast<char>(kFileVersion + 1);
	try {
		parse(bytes);
		FAIL() << "a newer file version was accepted";
	} catch (const FormatError &e) {
		EXPECT_NE(std::string(e.what()).find("upgrade"), std::string::npos);
	}
}

TEST(RecordFormat, RejectsTruncatedBucketData)
{
	std::string bytes = serialize(sample());
	bytes.resize(bytes.size() - 4);
	EXPECT_THROW(parse(bytes), FormatError);
}

TEST(RecordFormat, RejectsBadBucketShiftAndDanglingObject)
{
	ProfileData d = sample();
	d.ranges[0].object = 7;
	EXPECT_THROW(parse(serialize(d)), FormatError);
	d = sample();
	d.ranges[2].bucket_shift = 40;
	EXPECT_THROW(parse(serialize(d)), FormatError);
}

// S5: a file with kernel addresses (the KASLR base) is 0600 whatever the
// umask; one without them follows the umask; a symlink planted where the
// old tool put its temporary file (FILE.tmp) is neither followed nor
// touched.
TEST(RecordFormat, FileModeAndNoSymlinkFollowing)
{
	const std::string dir = ::testing::TempDir();
	const std::string path = dir + "/kprofile-mode-test.data";
	const std::string victim = dir + "/kprofile-mode-test.victim";
	struct stat st {};
	const mode_t old = ::umask(022);

	std::remove(path.c_str());
	std::remove((path + ".tmp").c_str());
	{
		std::ofstream v(victim);
		v << "precious";
	}
	ASSERT_EQ(::symlink(victim.c_str(), (path + ".tmp").c_str()), 0);

	ProfileData with = sample();
	ASSERT_TRUE(holds_kernel_addresses(with));
	write_file(path, with);
	ASSERT_EQ(::lstat(path.c_str(), &st), 0);
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(st.st_mode & 07777, 0600U);
	std::ifstream v(victim);
	std::string content;
	v >> content;
	EXPECT_EQ(content, "precious");

	ProfileData without = sample();
	without.ranges.pop_back();	// the kernel range
	without.kernel_symbols.clear();
	ASSERT_FALSE(holds_kernel_addresses(without));
	write_file(path, without);
	ASSERT_EQ(::stat(path.c_str(), &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0644U);

	::umask(old);
	std::remove(path.c_str());
	std::remove((path + ".tmp").c_str());
	std::remove(victim.c_str());
}

TEST(RecordFormat, FileRoundTripAndMissingFileAdvice)
{
	const std::string path = ::testing::TempDir() + "/kprofile-format-test.data";
	write_file(path, sample());
	EXPECT_EQ(read_file(path).ranges[1].buckets[0xaaaa], 99U);
	std::remove(path.c_str());
	try {
		read_file(path);
		FAIL();
	} catch (const FormatError &e) {
		EXPECT_NE(std::string(e.what()).find("kprofile record"), std::string::npos);
	}
}

// record -- CMD follows children: each range says which process it
// counted, and the file names the processes; a file without these keys
// (older kprofile) still reads, with no pids.
TEST(RecordFormat, ProcessesAndRangePidsRoundTripAndAreOptional)
{
	ProfileData d = sample();
	d.ranges[0].pid = 4243;
	d.processes = {{4242, 0, "sh"}, {4243, 4242, "spin"}};
	const ProfileData e = parse(serialize(d));

	ASSERT_EQ(e.processes.size(), 2U);
	EXPECT_EQ(e.processes[1].ppid, 4242);
	EXPECT_EQ(process_comm(e, 4243), "spin");
	EXPECT_EQ(process_comm(e, 1), "");
	EXPECT_EQ(e.ranges[0].pid, 4243);
	EXPECT_EQ(e.ranges[1].pid, 0);

	const ProfileData old = parse(serialize(sample()));
	EXPECT_TRUE(old.processes.empty());
	EXPECT_EQ(serialize(old).find("\"processes\""), std::string::npos)
		<< "a recording of one process keeps the version-1 header as it was";
	EXPECT_EQ(serialize(old).find("\"pid\":4243"), std::string::npos);
}

TEST(RecordFormat, VersionZeroIsDamageNotNewer)
{
	std::string bytes = serialize(sample());
	bytes[8] = 0;
	try {
		parse(bytes);
		FAIL() << "version 0 was accepted";
	} catch (const FormatError &e) {
		const std::string what = e.what();
		EXPECT_EQ(what.find("newer"), std::string::npos) << "UX review D8: " << what;
		EXPECT_NE(what.find("version 0"), std::string::npos) << what;
	}
}
