// SPDX-License-Identifier: GPL-2.0
// The record file: round trip, and refusal of damaged or newer files.
#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crc32.h"
#include "profile_file.h"

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

// A file cut inside its bucket data yields its whole ranges, with a
// warning that says what is missing; it was refused whole before (issue
// 23, item 7).
TEST(RecordFormat, TruncatedBucketDataYieldsTheWholeRanges)
{
	ProfileData d = sample();
	d.ranges[2].hits = 11;
	std::string bytes = serialize(d);
	bytes.resize(bytes.size() - 4);
	const ProfileData e = parse(bytes);
	ASSERT_EQ(e.ranges.size(), 2U);
	EXPECT_EQ(e.ranges[0].buckets, d.ranges[0].buckets);
	EXPECT_EQ(e.ranges[1].buckets[0xaaaa], 99U);
	EXPECT_NE(e.damage.find("truncated: the last 4 bytes of its "), std::string::npos)
		<< e.damage;
	EXPECT_NE(e.damage.find("1 of its 3 bucket ranges (11 hits) are left out"),
		  std::string::npos) << e.damage;
	EXPECT_TRUE(parse(serialize(d)).damage.empty());
}

namespace {

std::string message_of(const std::string &bytes)
{
	try {
		parse(bytes);
	} catch (const FormatError &e) {
		return e.what();
	}
	return "(read)";
}

} // namespace

// A damaged file is said to be corrupted, not "truncated" (before,
// 64 random bytes written into a file read "record file is truncated
// (sample data)"); a file cut inside its header says so.
TEST(RecordFormat, CorruptionIsNotCalledTruncation)
{
	const std::string good = serialize(sample());
	const std::size_t header_len = static_cast<unsigned char>(good[16]) |
				       static_cast<unsigned char>(good[17]) << 8;
	const std::size_t data = 24 + header_len;

	// A byte of the first range's (dense) buckets changed.
	std::string bad = good;
	bad[data + 5] ^= 0x40;
	std::string m = message_of(bad);
	EXPECT_NE(m.find("corrupted: the bucket data of range 0 (/usr/bin/spin) does not match "
			 "its checksum"), std::string::npos) << m;
	EXPECT_EQ(m.find("truncated"), std::string::npos) << m;
	// Random bytes inside the header.
	bad = good;
	for (int i = 0; i < 16; i++)
		bad[40 + i] = static_cast<char>(0x80 + i * 7);
	m = message_of(bad);
	EXPECT_NE(m.find("corrupted: its header is not valid JSON"), std::string::npos) << m;
	// A header whose layout does not add up.
	bad = good;
	const auto at = bad.find("\"data_offset\":0,");
	ASSERT_NE(at, std::string::npos);
	bad[at + 14] = '8';
	m = message_of(bad);
	EXPECT_NE(m.find("corrupted: range 0's bucket data is said to start at byte 8"),
		  std::string::npos) << m;
	// Cut inside the header, and inside the preamble.
	m = message_of(good.substr(0, data - 10));
	EXPECT_NE(m.find("truncated inside its header"), std::string::npos) << m;
	m = message_of(good.substr(0, 12));
	EXPECT_NE(m.find("truncated: it ends after 12 bytes"), std::string::npos) << m;
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

// A directory, an empty file and someone else's file say so; they all
// read "not a kprofile record file (bad magic)" or "run `kprofile
// record` first" before.
TEST(RecordFormat, DirectoryEmptyAndUnreadableFilesSaySo)
{
	auto message = [](const std::string &path) {
		try {
			read_file(path);
		} catch (const FormatError &e) {
			return std::string(e.what());
		}
		return std::string("(read)");
	};
	const std::string dir = ::testing::TempDir();
	EXPECT_NE(message(dir).find("is a directory"), std::string::npos) << message(dir);
	const std::string empty = dir + "/kprofile-format-empty.data";
	std::ofstream(empty).close();
	EXPECT_NE(message(empty).find("is empty (0 bytes)"), std::string::npos) << message(empty);
	std::remove(empty.c_str());

	// Someone else's private file: read by another user (as root, a
	// child that became nobody).
	const std::string mine = dir + "/kprofile-format-private.data";
	write_file(mine, sample());
	ASSERT_EQ(::chmod(mine.c_str(), 0600), 0);
	std::string m;
	if (::geteuid() != 0) {
		ASSERT_EQ(::chmod(mine.c_str(), 0), 0);
		m = message(mine);
	} else {
		int fds[2];
		ASSERT_EQ(::pipe(fds), 0);
		const pid_t child = ::fork();
		ASSERT_GE(child, 0);
		if (child == 0) {
			::close(fds[0]);
			if (::setgid(65534) || ::setuid(65534))
				_exit(2);
			const std::string text = message(mine);
			_exit(::write(fds[1], text.data(), text.size()) < 0);
		}
		::close(fds[1]);
		char buf[512];
		ssize_t n;
		while ((n = ::read(fds[0], buf, sizeof(buf))) > 0)
			m.append(buf, static_cast<std::size_t>(n));
		::close(fds[0]);
		int status = 0;
		::waitpid(child, &status, 0);
	}
	std::remove(mine.c_str());
	EXPECT_NE(m.find("Permission denied: it is "), std::string::npos) << m;
	EXPECT_EQ(m.find("kprofile record` first"), std::string::npos) << m;
}

// Version 2 stores a mostly-zero range as (index, count) pairs: the
// sample's 65 536-bucket catch-all with one hit no longer takes 256 KiB,
// while a range with many hits stays dense (never larger than version 1).
TEST(RecordFormat, SparseRangesShrinkTheFileAndReadBackDense)
{
	ProfileData d = sample();
	const std::string bytes = serialize(d);

	EXPECT_LT(bytes.size(), 8192U) << "a 256 KiB catch-all of zeros is not stored";
	const ProfileData e = parse(bytes);
	ASSERT_EQ(e.ranges[1].buckets.size(), 1U << 16);
	EXPECT_EQ(e.ranges[1].buckets[0xaaaa], 99U);
	EXPECT_EQ(e.ranges[1].buckets[0xaaab], 0U);

	ProfileData full = sample();
	for (auto &b : full.ranges[0].buckets)
		b = 3;
	const ProfileData f = parse(serialize(full));
	EXPECT_EQ(f.ranges[0].buckets, full.ranges[0].buckets);
	EXPECT_NE(serialize(full).find("\"encoding\":\"dense\""), std::string::npos);
}

TEST(RecordFormat, RejectsDamagedSparseData)
{
	ProfileData d = sample();
	std::string bytes = serialize(d);

	// The catch-all's only (index, count) pair: (0xaaaa, 99).
	const std::string pair = std::string("\xaa\xaa\x00\x00\x63\x00\x00\x00", 8);
	const auto at = bytes.rfind(pair);
	ASSERT_NE(at, std::string::npos);
	std::string bad = bytes;
	bad[at + 2] = 0x01;	// index 0x1aaaa >= 65536 buckets
	EXPECT_THROW(parse(bad), FormatError);
	// Cut inside the catch-all's pair: the ranges before it are read.
	bad = bytes;
	bad.resize(at + 4);
	const ProfileData cut = parse(bad);
	ASSERT_EQ(cut.ranges.size(), 1U);
	EXPECT_NE(cut.damage.find("2 of its 3 bucket ranges"), std::string::npos) << cut.damage;
}

// A file written by kprofile 1.x (format version 1, every bucket stored):
// tests/fixtures/record-v1.kprofile.data was written by the version-1
// writer of main at 7fd3761, and is read by today's reader unchanged.
TEST(RecordFormat, ReadsVersion1Files)
{
	const ProfileData d = read_file(KP_FIXTURE_V1);

	EXPECT_EQ(d.version, 1U);
	EXPECT_EQ(d.machine.kernel_release, "6.1.0-56-amd64");
	EXPECT_EQ(d.command, (std::vector<std::string>{"./wl", "1", "1000"}));
	ASSERT_EQ(d.objects.size(), 2U);
	EXPECT_EQ(d.objects[0].path, "/kp/bench/bin/wl");
	ASSERT_EQ(d.ranges.size(), 4U);
	EXPECT_EQ(d.ranges[0].kind, RangeKind::CatchAll);
	EXPECT_EQ(d.ranges[0].buckets, (std::vector<std::uint32_t>{990, 0, 0, 10}));
	EXPECT_EQ(d.ranges[1].kind, RangeKind::Object);
	ASSERT_EQ(d.ranges[1].buckets.size(), 0x20U);
	EXPECT_EQ(d.ranges[1].buckets[3], 900U);
	EXPECT_EQ(d.ranges[1].buckets[4], 90U);
	EXPECT_EQ(d.ranges[1].file_offset, 0x1000U);
	EXPECT_EQ(d.ranges[3].kind, RangeKind::Kernel);
	EXPECT_EQ(d.ranges[3].buckets[7], 4U);
	EXPECT_EQ(d.ranges[3].wrong_mode, 993U);
	ASSERT_EQ(d.kernel_symbols.size(), 2U);
	EXPECT_EQ(d.kernel_symbols[1].name, "other_thing");
	// Written again, it becomes a version-2 file with the same content.
	const ProfileData e = parse(serialize(d));
	EXPECT_EQ(e.version, kFileVersion);
	for (std::size_t i = 0; i < d.ranges.size(); i++)
		EXPECT_EQ(e.ranges[i].buckets, d.ranges[i].buckets);
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

// The section checksums: the CRC-32 of IEEE 802.3 (the one files were
// always written with), here computed bit by bit apart from the writer's,
// for every length and alignment, and continued across pieces as the
// sample section's is (one piece per stack copy).
TEST(RecordFormat, Crc32IsIeeesForEveryLengthAndSplit)
{
	auto bitwise = [](const char *p, std::size_t n) {
		std::uint32_t c = 0xffffffffU;

		for (std::size_t i = 0; i < n; i++) {
			c ^= static_cast<unsigned char>(p[i]);
			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xedb88320U & (0U - (c & 1)));
		}
		return c ^ 0xffffffffU;
	};
	EXPECT_EQ(bitwise("123456789", 9), 0xcbf43926U) << "the reference itself";
	EXPECT_EQ(crc32(0, "123456789", 9), 0xcbf43926U) << "the CRC-32 check value";
	EXPECT_EQ(crc32(0, "", 0), 0U);
	std::string data(3000, '\0');
	std::uint64_t x = 88172645463325252ULL;
	for (char &c : data) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		c = static_cast<char>(x);
	}
	for (std::size_t off = 0; off < 16; off++)
		for (std::size_t len = 0; len + off <= 1200; len += len < 200 ? 1 : 37)
			ASSERT_EQ(crc32(0, data.data() + off, len), bitwise(data.data() + off, len))
				<< "offset " << off << ", " << len << " bytes";
	const std::uint32_t whole = bitwise(data.data(), data.size());
	EXPECT_EQ(crc32(0, data.data(), data.size()), whole);
	for (std::size_t cut : {1UL, 15UL, 64UL, 100UL, 1000UL, 2999UL})
		EXPECT_EQ(crc32(crc32(0, data.data(), cut), data.data() + cut, data.size() - cut),
			  whole) << "cut at " << cut;
}
