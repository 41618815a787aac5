// SPDX-License-Identifier: GPL-2.0
// /proc/PID/maps parsing and following of new executable mappings.
#include <gtest/gtest.h>

#include "maps.h"

using namespace kprofile::record;

TEST(RecordMaps, ParsesFileAnonymousAndSpacedPaths)
{
	auto m = parse_maps_line("55d0c1a00000-55d0c1a21000 r-xp 00002000 08:01 1234   /usr/bin/my prog");
	ASSERT_TRUE(m);
	EXPECT_EQ(m->start, 0x55d0c1a00000ULL);
	EXPECT_EQ(m->end, 0x55d0c1a21000ULL);
	EXPECT_EQ(m->offset, 0x2000U);
	EXPECT_TRUE(m->executable());
	EXPECT_EQ(m->path, "/usr/bin/my prog");

	auto anon = parse_maps_line("7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ");
	ASSERT_TRUE(anon);
	EXPECT_FALSE(anon->executable());
	EXPECT_EQ(anon->path, "");

	EXPECT_FALSE(parse_maps_line("garbage"));
	EXPECT_FALSE(parse_maps_line("2000-1000 r-xp 0 00:00 0"));
	EXPECT_FALSE(parse_maps_line("zz-1000 r-xp 0 00:00 0"));
}

TEST(RecordMaps, ExecutableMappingsSkipVsyscall)
{
	const std::string text =
		"400000-401000 r--p 00000000 08:01 1 /bin/x\n"
		"401000-402000 r-xp 00001000 08:01 1 /bin/x\n"
		"7fff0000-7fff2000 r-xp 00000000 00:00 0 [vdso]\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";
	auto ex = executable_mappings(parse_maps(text));
	ASSERT_EQ(ex.size(), 2U);
	EXPECT_EQ(ex[0].path, "/bin/x");
	EXPECT_EQ(ex[1].path, "[vdso]");
}

TEST(RecordMaps, FollowerReportsOnlyNewMappings)
{
	MapsFollower f;
	auto first = parse_maps("401000-402000 r-xp 00001000 08:01 1 /bin/x\n");
	EXPECT_EQ(f.update(first).size(), 1U);
	EXPECT_TRUE(f.update(first).empty()) << "a known mapping is not new again";
	auto later = parse_maps("401000-402000 r-xp 00001000 08:01 1 /bin/x\n"
				"7f0000001000-7f0000009000 r-xp 00001000 08:01 2 /lib/libfoo.so\n");
	auto fresh = f.update(later);
	ASSERT_EQ(fresh.size(), 1U);
	EXPECT_EQ(fresh[0].path, "/lib/libfoo.so");
	EXPECT_EQ(f.known().size(), 2U);
}

// After exec (or dlclose) the old mappings are gone: their profiles must
// stop, and a new program at the same addresses gets profiles of its own.
TEST(RecordMaps, FollowerReportsGoneMappingsAndReusedRanges)
{
	MapsFollower f;
	f.update(parse_maps("401000-402000 r-xp 00001000 08:01 1 /bin/sh\n"
			    "7f0000001000-7f0000009000 r-xp 00001000 08:01 2 /lib/libc.so\n"));
	EXPECT_TRUE(f.gone().empty());
	auto fresh = f.update(parse_maps("401000-402000 r-xp 00001000 08:01 3 /usr/bin/prog\n"));
	ASSERT_EQ(fresh.size(), 1U) << "the new program at sh's addresses is new";
	EXPECT_EQ(fresh[0].path, "/usr/bin/prog");
	ASSERT_EQ(f.gone().size(), 2U);
	EXPECT_EQ(f.gone()[0].path, "/bin/sh");
	EXPECT_EQ(f.gone()[1].path, "/lib/libc.so");
	EXPECT_EQ(f.known().size(), 1U);
	f.update(parse_maps("401000-402000 r-xp 00001000 08:01 3 /usr/bin/prog\n"));
	EXPECT_TRUE(f.gone().empty()) << "gone() is what the last update found unmapped";
}

TEST(RecordMaps, ReadsOwnMaps)
{
	auto maps = read_maps(getpid()).value();
	bool found = false;
	const auto self = reinterpret_cast<std::uint64_t>(&parse_maps_line);
	for (const auto &m : executable_mappings(maps))
		found |= self >= m.start && self < m.end;
	EXPECT_TRUE(found) << "our own code is in an executable mapping";
	EXPECT_FALSE(read_maps(-5).has_value());
}
