// SPDX-License-Identifier: GPL-2.0
// `kprofile sources` / `interval` output: the table and the JSON shape.
#include <cstring>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources_render.h"

using namespace kprofile;
using nlohmann::json;

namespace {

std::set<std::string> keys(const json &j)
{
	std::set<std::string> out;

	for (const auto &[k, v] : j.items())
		out.insert(k);
	return out;
}

// The module's answer for an unsupported and a supported source.
kprofile_source_info module_info(std::uint32_t source, bool supported)
{
	kprofile_source_info i{};

	i.source = source;
	i.flags = (supported ? KPROFILE_SOURCE_SUPPORTED : 0) |
		  (source < 0x19 ? KPROFILE_SOURCE_GENERIC : 0) |
		  (source == 0 ? KPROFILE_SOURCE_TIMER : 0) | KPROFILE_SOURCE_IN_TABLE;
	i.interval = supported ? 5000 : 0;
	i.default_interval = 65536;
	i.min_interval = 4096;
	i.max_interval = 2147483647;
	i.select = 0x0003412E;
	i.ebx_bit = supported ? -1 : 4;
	std::strcpy(i.name, supported ? "ProfileTime" : "ProfileLLCMisses");
	if (!supported)
		std::strcpy(i.reason, "CPUID 0xA: EBX bit 4 is set: the processor lacks this event");
	return i;
}

std::vector<std::string> lines(const std::string &s)
{
	std::vector<std::string> out;
	std::istringstream in(s);

	for (std::string l; std::getline(in, l);)
		out.push_back(l);
	return out;
}

const std::set<std::string> source_keys = {
	"value",	"name",	 "select",    "ebx_bit", "interval", "default_interval",
	"min_interval", "max_interval", "units", "supported", "reason", "generic", "timer",
	"counters",	"citation", "aliases",
};

} // namespace

TEST(SourcesRender, JsonKeysAreStable)
{
	for (const auto &s : from_table(Interface::Emon, true))
		EXPECT_EQ(keys(source_json(s)), source_keys) << s.name;
	EXPECT_EQ(keys(source_json(from_module(module_info(0x1D, false)))), source_keys);
}

TEST(SourcesRender, JsonOfTheEmonTable)
{
	json j = sources_json(from_table(Interface::Emon, false), {});

	ASSERT_TRUE(j.is_array());
	ASSERT_EQ(j.size(), 13u);
	EXPECT_EQ(j[0]["name"], "ProfileTime");
	EXPECT_TRUE(j[0]["ebx_bit"].is_null());
	EXPECT_EQ(j[0]["select"], 0x0003003C);
	EXPECT_EQ(j[0]["interval"], 10000);
	EXPECT_EQ(j[0]["units"], "100ns");
	EXPECT_EQ(j[0]["timer"], true);
	EXPECT_EQ(j[12]["value"], 0x1F);
	EXPECT_EQ(j[12]["ebx_bit"], 6);
	EXPECT_EQ(j[12]["interval"], 65536);
	EXPECT_EQ(j[12]["generic"], false);
	for (const auto &e : j) {
		EXPECT_EQ(e["supported"], true);
		EXPECT_TRUE(e["reason"].is_null());
	}
}

TEST(SourcesRender, JsonOfAnUnsupportedSource)
{
	json j = source_json(from_module(module_info(0x1D, false)));

	EXPECT_EQ(j["supported"], false);
	EXPECT_TRUE(j["interval"].is_null());
	EXPECT_EQ(j["reason"], "CPUID 0xA: EBX bit 4 is set: the processor lacks this event");
	EXPECT_EQ(j["ebx_bit"], 4);
	EXPECT_EQ(j["select"], 0x0003412E);
}

TEST(SourcesRender, JsonSelectIsNullOutsideTheTable)
{
	auto info = module_info(0x03, false);

	info.flags &= ~KPROFILE_SOURCE_IN_TABLE;
	info.select = 0;
	EXPECT_TRUE(source_json(from_module(info))["select"].is_null());
}

TEST(SourcesRender, DefaultHidesUnsupportedAndHasNoReasonColumn)
{
	std::vector<SourceEntry> s = {from_module(module_info(0x00, true)),
				      from_module(module_info(0x1D, false))};
	auto out = render_sources(s, {});

	EXPECT_NE(out.find("ProfileTime"), std::string::npos);
	EXPECT_EQ(out.find("ProfileLLCMisses"), std::string::npos);
	EXPECT_EQ(out.find("Reason"), std::string::npos);
	EXPECT_EQ(sources_json(s, {}).size(), 1u);
}

TEST(SourcesRender, AllShowsUnsupportedWithTheReason)
{
	std::vector<SourceEntry> s = {from_module(module_info(0x00, true)),
				      from_module(module_info(0x1D, false))};
	auto l = lines(render_sources(s, {.all = true}));

	ASSERT_EQ(l.size(), 3u);
	EXPECT_EQ(l[0].rfind("Id", 0), 0u);
	for (const char *h : {"Name", "Interval", "Min", "Max", "Supported", "Reason"})
		EXPECT_NE(l[0].find(h), std::string::npos) << h;
	EXPECT_NE(l[2].find("no"), std::string::npos);
	EXPECT_NE(l[2].find("EBX bit 4 is set"), std::string::npos);
	// Columns line up: every row's Supported cell starts under the header.
	const auto col = l[0].find("Supported");
	EXPECT_EQ(l[1].substr(col, 3), "yes");
	EXPECT_EQ(l[2].substr(col, 2), "no");
	EXPECT_EQ(sources_json(s, {.all = true}).size(), 2u);
}

TEST(SourcesRender, AReasonSharedByRowsIsPrintedOnceAsAFootnote)
{
	// No PMU: every counter source has the same long reason (the UX
	// review's B5: 24 rows repeated it).
	std::vector<SourceEntry> s = {from_module(module_info(0x00, true))};
	for (std::uint32_t v : {0x02u, 0x13u, 0x1Du}) {
		auto info = module_info(v, false);
		std::strcpy(info.reason, "no profile interface: CPUID leaf 0xA reports no PMU");
		s.push_back(from_module(info));
	}
	auto unique = module_info(0x1E, false);
	std::strcpy(unique.reason, "only this one");
	s.push_back(from_module(unique));
	const std::string out = render_sources(s, {.all = true});
	auto l = lines(out);

	const std::string why = "no profile interface: CPUID leaf 0xA reports no PMU";
	EXPECT_EQ(out.find(why), out.rfind(why)) << "the shared reason once:\n" << out;
	ASSERT_EQ(l.size(), 1u + 5u + 1u + 1u) << out;	// header, rows, blank, note
	EXPECT_EQ(l.back(), "[1] " + why);
	for (std::size_t i = 2; i <= 4; i++)
		EXPECT_TRUE(l[i].ends_with(" [1]") && l[i].find(" no ") != std::string::npos) << l[i];
	EXPECT_TRUE(l[5].ends_with("only this one")) << "a reason of one row stays in it";
	EXPECT_EQ(sources_json(s, {.all = true})[1]["reason"], why) << "JSON keeps it per source";
}

TEST(SourcesRender, VerboseAddsSelectAndEbx)
{
	auto l = lines(render_sources(from_table(Interface::Emon, false), {.verbose = true}));

	ASSERT_EQ(l.size(), 14u);
	EXPECT_NE(l[0].find("Select"), std::string::npos);
	EXPECT_NE(l[0].find("EBX"), std::string::npos);
	EXPECT_NE(l.back().find("0x000300C5"), std::string::npos);
	EXPECT_EQ(l.back().rfind("0x1F  ProfileBranchMispredictsRetired", 0), 0u) << l.back();
}

TEST(SourcesRender, InterfaceTableWithAllAddsMissingGenerics)
{
	auto s = from_table(Interface::Emon, true);

	ASSERT_EQ(s.size(), 25u + 7u);
	for (std::size_t i = 1; i < s.size(); i++)
		EXPECT_LT(s[i - 1].value, s[i].value);
	EXPECT_TRUE(s[0].supported);	// ProfileTime
	EXPECT_EQ(s[1].name, "ProfileAlignmentFixup");
	EXPECT_FALSE(s[1].supported);
	EXPECT_NE(s[1].reason.find("Emon"), std::string::npos);
	EXPECT_FALSE(s[0x18].supported);
	EXPECT_NE(s[0x18].reason.find("ProfileMaximum"), std::string::npos);
}

TEST(SourcesRender, IntervalSetAndClamped)
{
	IntervalOutcome o{from_module(module_info(0x00, true)), 4096, 10};
	json j = interval_json(o);

	EXPECT_EQ(keys(j), (std::set<std::string>{"value", "name", "interval", "requested", "clamped",
						  "default_interval", "min_interval",
						  "max_interval", "units"}));
	EXPECT_EQ(j["interval"], 4096);
	EXPECT_EQ(j["requested"], 10);
	EXPECT_EQ(j["clamped"], true);
	EXPECT_NE(render_interval(o).find("requested 10, clamped to the minimum 4096"),
		  std::string::npos);

	o.requested = 5000;
	o.interval = 5000;
	EXPECT_EQ(interval_json(o)["clamped"], false);
	EXPECT_NE(render_interval(o).find("interval 5000"), std::string::npos);
	EXPECT_EQ(render_interval(o).find("clamped"), std::string::npos);
}

TEST(SourcesRender, IntervalGet)
{
	IntervalOutcome o{from_module(module_info(0x00, true)), 10000, std::nullopt};
	json j = interval_json(o);

	EXPECT_TRUE(j["requested"].is_null());
	EXPECT_EQ(j["clamped"], false);
	EXPECT_NE(render_interval(o).find("ProfileTime (0x00): interval 10000 x 100 ns (1 ms)"),
		  std::string::npos) << render_interval(o);
	o.interval = 1221;
	EXPECT_NE(render_interval(o).find("interval 1221 x 100 ns (122.1 us)"), std::string::npos)
		<< render_interval(o);
}
