// SPDX-License-Identifier: GPL-2.0
// `kprofile report --json` schema stability: the documented keys, exactly.
#include <set>

#include <gtest/gtest.h>

#include "record_test_util.h"

#include "report_render.h"

using namespace kprofile::record;
using nlohmann::json;

namespace {

class OneSymbol : public RangeResolver {
public:
	OneSymbol()
	{
		table.add(0x0, 0x200, "hot_loop");
		table.finalize();
	}
	View view(const ProfileData &, const RangeRecord &r) override
	{
		View v;
		v.table = &table;
		v.translate = [&r](std::uint64_t a) {
			return std::optional<std::uint64_t>(a - r.base);
		};
		return v;
	}
	SymbolTable table;
};

ProfileData data()
{
	ProfileData d;
	d.target = "command";
	d.command = {"./spin"};
	d.sources = {{0, "ProfileTime", 10000, true}};
	d.objects = {{"/bin/spin", "ab"}};
	RangeRecord r;
	r.base = 0x1000;
	r.size = 0x200;
	r.bucket_shift = 4;
	r.object = 0;
	r.buckets.assign(0x20, 0);
	r.buckets[1] = 5;
	r.buckets[0x18] = 2;
	const RangeRecord all = test::catch_all(10);
	d.ranges = {r, all};
	return d;
}

std::set<std::string> keys(const json &j)
{
	std::set<std::string> k;
	for (auto it = j.begin(); it != j.end(); ++it)
		k.insert(it.key());
	return k;
}

} // namespace

TEST(RecordJson, ReportKeysAreStable)
{
	OneSymbol r;
	const ProfileData d = data();
	json doc = json::parse(report_json(d, build_report(d, r)).dump());

	EXPECT_EQ(keys(doc), (std::set<std::string>{"version", "machine", "target", "pid",
						    "command", "duration_ns", "sources", "rows",
						    "warnings", "hidden_rows", "hidden_hits",
						    "objects"}));
	EXPECT_EQ(doc["version"], kReportJsonVersion);
	ASSERT_EQ(doc["sources"].size(), 1U);
	EXPECT_EQ(keys(doc["sources"][0]),
		  (std::set<std::string>{"value", "name", "interval", "timer", "total",
					 "attributed", "unattributed", "has_catchall", "other_mode"}));
	EXPECT_EQ(doc["sources"][0]["total"], 10);
	ASSERT_GE(doc["rows"].size(), 2U);
	for (const auto &row : doc["rows"])
		EXPECT_EQ(keys(row), (std::set<std::string>{"overhead", "hits", "exact_hits",
							    "source", "source_value", "object",
							    "object_path", "symbol", "resolved",
							    "ambiguous", "address", "comm", "pid",
							    "srcline"}));
	EXPECT_EQ(doc["rows"][0]["symbol"], "hot_loop");
	EXPECT_EQ(doc["rows"][0]["address"], "0x1010") << "addresses are hex strings";
	EXPECT_EQ(doc["rows"][1]["object"], "[unattributed]");
	EXPECT_TRUE(doc["rows"][1]["address"].is_null());
}

TEST(RecordJson, RawKeysAreStable)
{
	OneSymbol r;
	const ProfileData d = data();
	json doc = raw_json(d, raw_buckets(d, r));
	EXPECT_EQ(keys(doc), (std::set<std::string>{"version", "machine", "buckets"}));
	ASSERT_EQ(doc["buckets"].size(), 3U);
	for (const auto &b : doc["buckets"])
		EXPECT_EQ(keys(b), (std::set<std::string>{"address", "bytes", "hits", "source",
							  "source_value", "object", "symbol"}));
	EXPECT_EQ(doc["buckets"][0]["symbol"], "hot_loop+0x10");
}

// C13: `record -a -- CMD` is system-wide; its header said "# Command:".
TEST(RecordJson, TableHeaderNamesTheTarget)
{
	OneSymbol r;
	ProfileData d = data();
	EXPECT_NE(render_table(d, build_report(d, r)).find("# Command: ./spin\n"), std::string::npos);
	d.target = "system";
	const std::string t = render_table(d, build_report(d, r));
	EXPECT_NE(t.find("# System-wide, while running: ./spin\n"), std::string::npos) << t;
	EXPECT_EQ(t.find("# Command:"), std::string::npos) << t;
	d.command.clear();
	EXPECT_NE(render_table(d, build_report(d, r)).find("# System-wide\n"), std::string::npos);
}

TEST(RecordJson, TableNamesColumnsAndTheHottestSymbolFirst)
{
	OneSymbol r;
	const ProfileData d = data();
	const std::string t = render_table(d, build_report(d, r));
	for (const char *col : {"Overhead", "Hits", "Source", "Object", "Symbol"})
		EXPECT_NE(t.find(col), std::string::npos) << col;
	const auto hot = t.find("hot_loop");
	ASSERT_NE(hot, std::string::npos);
	EXPECT_LT(hot, t.find("[unattributed]", t.find("Symbol")));
	EXPECT_NE(t.find("70.00%"), std::string::npos);
	EXPECT_NE(t.find("3 unattributed (30.0%)"), std::string::npos);
}
