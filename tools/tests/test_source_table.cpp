// SPDX-License-Identifier: GPL-2.0
// The tables the tool embeds: shape and the seeds' first and last rows.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "source_table.h"

using namespace kprofile;

namespace {

constexpr std::uint32_t usr_os = (1U << 16) | (1U << 17);
constexpr std::uint32_t en_int = (1U << 22) | (1U << 20);

} // namespace

TEST(SourceTable, GenericSourcesAreTheWdmEnumeration)
{
	auto names = generic_names();

	ASSERT_EQ(names.size(), 25u);
	EXPECT_EQ(names[0x00], "ProfileTime");
	EXPECT_EQ(names[0x02], "ProfileTotalIssues");
	EXPECT_EQ(names[0x13], "ProfileTotalCycles");
	EXPECT_EQ(names[0x18], "ProfileMaximum");
	EXPECT_FALSE(generic_name(0x19).has_value());
}

TEST(SourceTable, EmonHas13RowsFromSeed000)
{
	auto t = source_table(Interface::Emon);

	ASSERT_EQ(t.size(), 13u);
	EXPECT_EQ(t.front().value, 0x00u);
	EXPECT_EQ(t.front().name, "ProfileTime");
	EXPECT_FALSE(t.front().ebx_bit.has_value());
	EXPECT_EQ(t.front().select, 0x0003003Cu);
	EXPECT_EQ(t.back().value, 0x1Fu);
	EXPECT_EQ(t.back().name, "ProfileBranchMispredictsRetired");
	EXPECT_EQ(t.back().ebx_bit, 6);
	EXPECT_EQ(t.back().select, 0x000300C5u);
	// The two that exist only above 0x18.
	ASSERT_NE(find_row(Interface::Emon, 0x1C), nullptr);
	EXPECT_EQ(find_row(Interface::Emon, 0x1C)->name, "ProfileLLCReference");
	EXPECT_EQ(find_row(Interface::Emon, 0x1C)->ebx_bit, 3);
}

TEST(SourceTable, Amd64Has176RowsFromSeed001)
{
	auto t = source_table(Interface::Amd64);

	ASSERT_EQ(t.size(), 176u);
	EXPECT_EQ(t.front().value, 0x00u);
	EXPECT_EQ(t.front().name, "ProfileTime");
	EXPECT_EQ(t.front().select, 0x00030076u);
	EXPECT_EQ(t.back().value, 0xBFu);
	EXPECT_EQ(t.back().name, "ProfileBUSharedToDirty");
	EXPECT_EQ(t.back().select, 0x00032063u);
	for (const auto &row : t)
		EXPECT_FALSE(row.ebx_bit.has_value()) << row.name;
}

TEST(SourceTable, NamesKeepWindowsTypos)
{
	std::set<std::string_view> amd;

	for (const auto &row : source_table(Interface::Amd64))
		amd.insert(row.name);
	EXPECT_TRUE(amd.count("ProfileFRFPUExcpetionsx87ReclassMicroFaults"));
	EXPECT_TRUE(amd.count("ProfileNBHyperTransportBus2BandwidthNopSen"));
}

TEST(SourceTable, SelectsHaveUsrOsAndNotEnInt)
{
	for (Interface iface : {Interface::Emon, Interface::Amd64}) {
		for (const auto &row : source_table(iface)) {
			EXPECT_EQ(row.select & usr_os, usr_os) << row.name;
			EXPECT_EQ(row.select & en_int, 0u) << row.name;
		}
	}
}

TEST(SourceTable, SpecificValuesAreContiguousAndAscending)
{
	struct Case {
		Interface iface;
		std::uint32_t last;
	};
	for (auto c : {Case{Interface::Emon, 0x1F}, Case{Interface::Amd64, 0xBF}}) {
		std::uint32_t prev = 0, next_specific = first_specific;
		bool first = true;

		for (const auto &row : source_table(c.iface)) {
			if (!first) {
				EXPECT_GT(row.value, prev) << row.name;
			}
			first = false;
			prev = row.value;
			if (row.value >= first_specific) {
				EXPECT_EQ(row.value, next_specific++) << row.name;
			} else {
				EXPECT_EQ(row.name, *generic_name(row.value));
			}
		}
		EXPECT_EQ(prev, c.last);
	}
}

TEST(SourceTable, KnownSourcesAreGenericPlusSpecific)
{
	EXPECT_EQ(known_sources(Interface::None).size(), 25u);
	EXPECT_EQ(known_sources(Interface::Emon).size(), 25u + 7u);
	EXPECT_EQ(known_sources(Interface::Amd64).size(), 25u + 0xBFu - 0x19u + 1u);
	EXPECT_EQ(source_name(Interface::Amd64, 0x30), "ProfileLSRetiredCPUID");
	EXPECT_FALSE(source_name(Interface::Emon, 0x30).has_value());
	EXPECT_EQ(source_name(Interface::Emon, 0x03), "ProfilePipelineDry");
}

TEST(SourceTable, NamesAreUniqueIgnoringCaseAndPrefix)
{
	for (Interface iface : {Interface::None, Interface::Emon, Interface::Amd64}) {
		std::set<std::string> seen;

		for (const auto &k : known_sources(iface)) {
			std::string n(k.name.substr(7));	// without "Profile"

			for (auto &c : n)
				c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
			EXPECT_TRUE(seen.insert(n).second) << k.name;
		}
	}
}

TEST(SourceTable, IntervalRangesAreSpec23)
{
	auto t = interval_range(0x00);
	auto c = interval_range(0x02);

	EXPECT_EQ(t.default_interval, 10000u);
	EXPECT_EQ(t.min_interval, 1221u);
	EXPECT_EQ(t.max_interval, 1000000u);
	EXPECT_EQ(c.default_interval, 65536u);
	EXPECT_EQ(c.min_interval, 4096u);
	EXPECT_EQ(c.max_interval, 2147483647u);
	EXPECT_EQ(interval_units(0x00), "100ns");
	EXPECT_EQ(interval_units(0x19), "events");
}

TEST(SourceTable, InterfaceNames)
{
	EXPECT_EQ(parse_interface("emon"), Interface::Emon);
	EXPECT_EQ(parse_interface("EMON"), Interface::Emon);
	EXPECT_EQ(parse_interface("Amd64"), Interface::Amd64);
	EXPECT_EQ(parse_interface("amd"), Interface::Amd64);
	EXPECT_FALSE(parse_interface("arm").has_value());
	EXPECT_EQ(interface_name(Interface::Emon), "Emon");
	EXPECT_EQ(interface_name(Interface::Amd64), "Amd64");
	EXPECT_EQ(interface_name(Interface::None), "None");
	EXPECT_EQ(interface_name(static_cast<Interface>(7)), "Unknown(7)");
}
