// SPDX-License-Identifier: GPL-2.0
// SOURCE arguments: every accepted spelling, the errors and suggestions.
#include <algorithm>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "source_parse.h"

using namespace kprofile;

namespace {

std::uint32_t value_of(std::string_view text, Interface iface)
{
	auto r = parse_source(text, iface);

	EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message());
	return r.ok() ? r.value().value : 0xFFFFFFFF;
}

// The whole message of a parse failure (what and hints).
std::string failure(std::string_view text, Interface iface)
{
	auto r = parse_source(text, iface);

	EXPECT_FALSE(r.ok()) << text;
	if (r.ok())
		return {};
	EXPECT_EQ(r.error().code, ExitCode::Usage);
	return r.error().message();
}

} // namespace

TEST(SourceParse, FullNameShortNameAnyCase)
{
	for (const char *s : {"ProfileTotalIssues", "TotalIssues", "totalissues", "TOTALISSUES",
			      "profiletotalissues", "tOtAlIsSuEs"})
		EXPECT_EQ(value_of(s, Interface::Emon), 0x02u) << s;
	auto r = parse_source("totalissues", Interface::Amd64);
	ASSERT_TRUE(r.ok());
	EXPECT_EQ(r.value().name, "ProfileTotalIssues");
}

TEST(SourceParse, HexAndDecimal)
{
	EXPECT_EQ(value_of("0x1D", Interface::Emon), 0x1Du);
	EXPECT_EQ(value_of("0x1d", Interface::Emon), 0x1Du);
	EXPECT_EQ(value_of("0X1D", Interface::Emon), 0x1Du);
	EXPECT_EQ(value_of("29", Interface::Emon), 0x1Du);
	EXPECT_EQ(value_of("0", Interface::None), 0x00u);
	EXPECT_EQ(value_of("0x00", Interface::None), 0x00u);
	EXPECT_EQ(value_of("191", Interface::Amd64), 0xBFu);
	EXPECT_EQ(parse_source("0x1D", Interface::Emon).value().name, "ProfileLLCMisses");
}

TEST(SourceParse, SpecificValuesDependOnTheInterface)
{
	EXPECT_EQ(parse_source("0x1D", Interface::Amd64).value().name,
		  "ProfileFPDispatchedFPUOpsAddJunk");
	EXPECT_EQ(parse_source("0x1D", Interface::Emon).value().name, "ProfileLLCMisses");
	EXPECT_FALSE(parse_source("0x1D", Interface::None).ok());
}

TEST(SourceParse, NamesStartingWithDigits)
{
	EXPECT_EQ(value_of("2Issue", Interface::Emon), 0x0Fu);
	EXPECT_EQ(value_of("Profile4Issue", Interface::Amd64), 0x11u);
}

TEST(SourceParse, GenericSourcesAreKnownEverywhere)
{
	// Known (the module answers a query) even where unsupported.
	EXPECT_EQ(value_of("PipelineDry", Interface::Emon), 0x03u);
	EXPECT_EQ(value_of("ProfileMaximum", Interface::None), 0x18u);
	EXPECT_EQ(value_of("ProfileTime", Interface::None), 0x00u);
}

TEST(SourceParse, TyposKeptInNames)
{
	EXPECT_EQ(parse_source("frfpuexcpetionsx87reclassmicrofaults", Interface::Amd64).value().name,
		  "ProfileFRFPUExcpetionsx87ReclassMicroFaults");
	EXPECT_EQ(parse_source("NBHyperTransportBus2BandwidthNopSen", Interface::Amd64).value().name,
		  "ProfileNBHyperTransportBus2BandwidthNopSen");
}

TEST(SourceParse, NumbersOutOfRange)
{
	EXPECT_NE(failure("0x100000000", Interface::Amd64).find("out of range"), std::string::npos);
	EXPECT_NE(failure("4294967296", Interface::Amd64).find("out of range"), std::string::npos);
	EXPECT_NE(failure("-1", Interface::Amd64).find("negative"), std::string::npos);
	EXPECT_NE(failure("0x", Interface::Amd64).find("hexadecimal"), std::string::npos);
	EXPECT_NE(failure("0xZZ", Interface::Amd64).find("hexadecimal"), std::string::npos);
	// In range for the ABI, but no such source.
	auto m = failure("0xC0", Interface::Amd64);
	EXPECT_NE(m.find("no source 0xC0 on the Amd64"), std::string::npos) << m;
	EXPECT_NE(m.find("0x00-0xBF"), std::string::npos) << m;
	EXPECT_NE(failure("4294967295", Interface::Emon).find("no source"), std::string::npos);
}

TEST(SourceParse, ValueOfTheOtherInterfaceIsNamed)
{
	auto m = failure("0x19", Interface::None);

	EXPECT_NE(m.find("0x19 is ProfileUnhaltedCoreCycles on the Emon interface"),
		  std::string::npos) << m;
	EXPECT_NE(m.find("0x19 is ProfileFPDispatchedFPUOps on the Amd64 interface"),
		  std::string::npos) << m;
	m = failure("0x30", Interface::Emon);

	EXPECT_NE(m.find("ProfileLSRetiredCPUID on the Amd64 interface"), std::string::npos) << m;
	EXPECT_NE(m.find("0x00-0x1F"), std::string::npos) << m;
}

TEST(SourceParse, NameOfTheOtherInterfaceIsNamed)
{
	auto m = failure("LLCMisses", Interface::Amd64);

	EXPECT_NE(m.find("ProfileLLCMisses (0x1D) is a source of the Emon interface, not of Amd64"),
		  std::string::npos) << m;
	m = failure("UnhaltedCoreCycles", Interface::None);
	EXPECT_NE(m.find("Emon"), std::string::npos) << m;
	EXPECT_NE(m.find("kprofile info"), std::string::npos) << m;
}

TEST(SourceParse, SuggestsTheClosestName)
{
	auto m = failure("TotalIsues", Interface::Emon);
	EXPECT_NE(m.find("Did you mean TotalIssues?"), std::string::npos) << m;

	m = failure("ProfileTotalIsues", Interface::Emon);
	EXPECT_NE(m.find("Did you mean ProfileTotalIssues?"), std::string::npos) << m;

	m = failure("BranchMispredictsRetierd", Interface::Emon);
	EXPECT_NE(m.find("BranchMispredictsRetired"), std::string::npos) << m;
}

TEST(SourceParse, SuggestsNamesContainingAFragment)
{
	auto s = suggest_sources("llc", Interface::Emon);

	ASSERT_GE(s.size(), 2u);
	EXPECT_NE(std::find(s.begin(), s.end(), "LLCReference"), s.end());
	EXPECT_NE(std::find(s.begin(), s.end(), "LLCMisses"), s.end());
	for (const auto &name : suggest_sources("DCRefill", Interface::Amd64))
		EXPECT_NE(name.find("DCRefill"), std::string::npos) << name;
}

TEST(SourceParse, NoSuggestionForNonsense)
{
	auto m = failure("xyzzyplugh", Interface::Amd64);

	EXPECT_EQ(m.find("Did you mean"), std::string::npos) << m;
	EXPECT_NE(m.find("unknown profile source 'xyzzyplugh' on the Amd64 interface"),
		  std::string::npos) << m;
	EXPECT_NE(m.find("kprofile sources --all"), std::string::npos) << m;
}

TEST(SourceParse, EditDistance)
{
	EXPECT_EQ(edit_distance("abc", "abc"), 0u);
	EXPECT_EQ(edit_distance("ab", "ba"), 1u);	// a transposition
	EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
	EXPECT_EQ(edit_distance("", "abc"), 3u);
	EXPECT_EQ(closest("infoo", {"info", "sources", "interval"}, 1),
		  std::vector<std::string>{"info"});
}

TEST(SourceParse, ParseNumber)
{
	EXPECT_FALSE(parse_number("abc", 100, "n").has_value());
	EXPECT_EQ(parse_number("100", 100, "n")->value(), 100u);
	EXPECT_FALSE(parse_number("101", 100, "n")->ok());
	EXPECT_EQ(parse_number("0xff", 255, "n")->value(), 255u);
	EXPECT_EQ(parse_number("18446744073709551615", UINT64_MAX, "n")->value(), UINT64_MAX);
	EXPECT_FALSE(parse_number("18446744073709551616", UINT64_MAX, "n")->ok());
}

TEST(SourceParse, PerfAndXperfAliases)
{
	const std::pair<const char *, std::uint32_t> cases[] = {
		{"time", 0x00}, {"timer", 0x00}, {"Timer", 0x00}, {"TIME", 0x00},
		{"cpu-clock", 0x00}, {"cycles", 0x13}, {"cpu-cycles", 0x13},
		{"instructions", 0x02}, {"TotalIssues", 0x02},
		{"branches", 0x06}, {"branch-misses", 0x0B}, {"branch_misses", 0x0B},
		{"Branch-Misses", 0x0B}, {"cache-misses", 0x0A},
	};
	for (Interface iface : {Interface::None, Interface::Emon, Interface::Amd64})
		for (const auto &[text, value] : cases)
			EXPECT_EQ(value_of(text, iface), value) << text << " on " << interface_name(iface);
	// The table's name is what the caller gets, not the alias.
	EXPECT_EQ(parse_source("cycles", Interface::Emon).value().name, "ProfileTotalCycles");
	EXPECT_EQ(parse_source("Timer", Interface::None).value().name, "ProfileTime");
}

TEST(SourceParse, AliasesAreListedPerSource)
{
	auto t = aliases_of(0x00);
	EXPECT_NE(std::find(t.begin(), t.end(), "timer"), t.end());
	auto c = aliases_of(0x13);
	EXPECT_NE(std::find(c.begin(), c.end(), "cycles"), c.end());
	EXPECT_TRUE(aliases_of(0x01).empty());
	for (const auto &a : source_aliases())
		EXPECT_LT(a.value, first_specific) << a.alias << " must name a generic source";
}

TEST(SourceParse, MisspelledAliasesGetADidYouMean)
{
	EXPECT_NE(failure("cyles", Interface::None).find("cycles"), std::string::npos);
	EXPECT_NE(failure("branch-mises", Interface::Emon).find("branch-misses"),
		  std::string::npos);
	EXPECT_NE(failure("Tme", Interface::None).find("Did you mean"), std::string::npos);
}

TEST(SourceParse, CounterSpecTakesPerfsPrivilegeModifiers)
{
	auto u = parse_counter_spec("TotalIssues:u").value();
	EXPECT_EQ(u.source, "TotalIssues");
	EXPECT_EQ(u.mode, KPROFILE_MODE_USER);
	EXPECT_EQ(u.suffix, ":u");
	auto k = parse_counter_spec("ProfileTotalCycles:k").value();
	EXPECT_EQ(k.source, "ProfileTotalCycles");
	EXPECT_EQ(k.mode, KPROFILE_MODE_KERNEL);
	EXPECT_EQ(k.suffix, ":k");
	for (const char *both : {"instructions:uk", "instructions:ku"}) {
		auto b = parse_counter_spec(both).value();
		EXPECT_EQ(b.source, "instructions") << both;
		EXPECT_EQ(b.mode, KPROFILE_MODE_BOTH) << both;
		EXPECT_EQ(b.suffix, "") << both;
	}
	auto plain = parse_counter_spec("0x02").value();
	EXPECT_EQ(plain.source, "0x02");
	EXPECT_EQ(plain.mode, KPROFILE_MODE_TABLE);
	auto bad = parse_counter_spec("TotalIssues:x");
	ASSERT_FALSE(bad);
	EXPECT_NE(bad.error().what.find("unknown modifier \"x\""), std::string::npos);
}
