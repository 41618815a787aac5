// SPDX-License-Identifier: GPL-2.0
// report --symfs (objects looked up under another root) and --srcline
// (DWARF line tables through libdw), over the fixture libraries.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "record_test_util.h"

#include "resolver.h"
#include "srcline.h"

using namespace kprofile::record;
using kprofile::record::test::row;
namespace fs = std::filesystem;

namespace {

// A recording of @recorded_path (a copy of @so) with @hits on @sym.
ProfileData recording(const std::string &so, const std::string &recorded_path,
		      const std::string &sym, std::uint32_t hits)
{
	auto obj = ElfObject::load(so);
	EXPECT_TRUE(obj);
	const Symbol *s = obj ? obj->symbols().named(sym) : nullptr;
	EXPECT_NE(s, nullptr) << sym;
	ProfileData d;
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{recorded_path, obj ? obj->build_id() : ""}};
	RangeRecord r;
	r.kind = RangeKind::Object;
	r.base = 0x7f0000000000;
	r.size = 0x10000;
	r.bucket_shift = 2;
	r.object = 0;
	r.buckets.assign(r.size >> 2, 0);
	// A shared library's text: file offset == ELF address.
	if (s)
		r.buckets[(s->start + s->end) / 2 >> 2] = hits;
	d.ranges = {r};
	return d;
}

class TempDir {
public:
	TempDir()
	{
		char tmpl[] = "/tmp/kp-symfs-XXXXXX";
		path_ = ::mkdtemp(tmpl);
	}
	~TempDir() { fs::remove_all(path_); }
	const std::string &path() const { return path_; }

private:
	std::string path_;
};

} // namespace

TEST(RecordSymfs, ObjectsAreFoundUnderSymfsByPathOrBasename)
{
	const std::string recorded = "/srv/other-host/lib/libkp_record_fixture.so";
	ProfileData d = recording(KP_FIXTURE_SO, recorded, "kp_fixture_c_function", 9);

	FileResolver plain;
	Report without = build_report(d, plain);
	EXPECT_EQ(row(without, "kp_fixture_c_function"), nullptr);
	ASSERT_FALSE(without.warnings.empty());
	EXPECT_NE(without.warnings[0].find("--symfs"), std::string::npos) << without.warnings[0];

	TempDir root;
	fs::create_directories(root.path() + "/srv/other-host/lib");
	fs::copy_file(KP_FIXTURE_SO, root.path() + recorded);
	FileResolver tree({root.path(), false});
	const Row *r = row(build_report(d, tree), "kp_fixture_c_function");
	ASSERT_NE(r, nullptr) << "DIR + recorded path";
	EXPECT_DOUBLE_EQ(r->hits, 9.0);

	TempDir flat;
	fs::copy_file(KP_FIXTURE_SO, flat.path() + "/libkp_record_fixture.so");
	FileResolver flat_res({flat.path(), false});
	EXPECT_NE(row(build_report(d, flat_res), "kp_fixture_c_function"), nullptr)
		<< "DIR + basename";
}

// --symfs DIR holding only some objects: the others are this machine's
// own when their build-id is the recorded one (before, with
// the program in DIR, libc, libm and libz were "No such file").
TEST(RecordSymfs, ObjectsNotUnderSymfsFallBackToTheSameBuildHere)
{
	ProfileData d = recording(KP_FIXTURE_SO, KP_FIXTURE_SO, "kp_fixture_c_function", 5);
	TempDir empty;
	FileResolver res({empty.path(), false});
	const Row *r = row(build_report(d, res), "kp_fixture_c_function");
	ASSERT_NE(r, nullptr) << "the same build-id at the recorded path";
	EXPECT_DOUBLE_EQ(r->hits, 5.0);

	d.objects[0].build_id = "00112233445566778899aabbccddeeff00112233";	// another build
	FileResolver other({empty.path(), false});
	EXPECT_EQ(row(build_report(d, other), "kp_fixture_c_function"), nullptr)
		<< "a file of another build is not taken";
}

TEST(RecordSymfs, SrclineComesFromTheDwarfLineTables)
{
	auto lt = LineTable::open(KP_FIXTURE_SO_G);
	ASSERT_TRUE(lt) << "the -g fixture has line tables";
	auto obj = ElfObject::load(KP_FIXTURE_SO_G);
	ASSERT_TRUE(obj);
	const Symbol *f = obj->symbols().named("kp_fixture_c_function");
	ASSERT_NE(f, nullptr);
	const std::string at = lt->lookup(f->start);
	ASSERT_EQ(at.rfind("record_fixture_c.c:", 0), 0U) << at;
	const int line = std::atoi(at.c_str() + at.find(':') + 1);
	EXPECT_GE(line, 8) << "kp_fixture_c_function spans lines 8-15 of the fixture";
	EXPECT_LE(line, 15);
	EXPECT_EQ(lt->lookup(0x10), "") << "no line for an address outside the text";

	EXPECT_FALSE(LineTable::open(KP_FIXTURE_SO)) << "built with -g0: no line tables";

	ProfileData d = recording(KP_FIXTURE_SO_G, KP_FIXTURE_SO_G, "kp_fixture_c_function", 4);
	FileResolver res({"", true});
	Report rep = build_report(d, res, {}, true);
	const Row *r = row(rep, "kp_fixture_c_function");
	ASSERT_NE(r, nullptr);
	EXPECT_EQ(r->srcline.rfind("record_fixture_c.c:", 0), 0U) << r->srcline;

	ProfileData nodbg = recording(KP_FIXTURE_SO, KP_FIXTURE_SO, "kp_fixture_c_function", 4);
	FileResolver res2({"", true});
	Report rep2 = build_report(nodbg, res2, {}, true);
	ASSERT_NE(row(rep2, "kp_fixture_c_function"), nullptr);
	EXPECT_EQ(row(rep2, "kp_fixture_c_function")->srcline, "");
	bool warned = false;
	for (const auto &w : rep2.warnings)
		warned |= w.find("no line tables") != std::string::npos;
	EXPECT_TRUE(warned) << "says why there is no srcline";
}
