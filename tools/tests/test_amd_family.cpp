// SPDX-License-Identifier: GPL-2.0
// test_amd_family.cpp - the per-family Amd64 rules as the tool applies
// them (`kprofile sources --family`), which are the module's rules.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <nlohmann/json.hpp>

#include "amd_family.h"
#include "source_model.h"
#include "source_table.h"
#include "sources_render.h"

using namespace kprofile;

namespace {

const SourceEntry &entry(const std::vector<SourceEntry> &v, std::uint32_t value)
{
	for (const auto &e : v)
		if (e.value == value)
			return e;
	throw std::runtime_error("no such source");
}

constexpr std::uint32_t dc_miss = 0x32;		// ProfileDCMiss, event 0x41
constexpr std::uint32_t fpu_ops = 0x19;		// ProfileFPDispatchedFPUOps, 0x00
constexpr std::uint32_t ret_instr = 0x68;	// ProfileFRRetiredx86Instructions, 0xC0
constexpr std::uint32_t ic_fetch = 0x5E;	// ProfileICFetch, 0x80
constexpr std::uint32_t nb_page = 0x93;		// ProfileNBMemoryControllerPageAccessEvent

} // namespace

TEST(AmdFamily, NamesParseCaseInsensitively)
{
	ASSERT_NE(parse_amd_family("ZEN3"), nullptr);
	EXPECT_EQ(parse_amd_family("zen3")->label, "Zen 3 (family 19h)");
	EXPECT_EQ(parse_amd_family("sparc"), nullptr);
	for (const auto &f : amd_families())
		EXPECT_EQ(parse_amd_family(f.name), &f) << f.name;
}

TEST(AmdFamily, K8SupportsTheWholeTable)
{
	for (const auto &e : from_table(Interface::Amd64, false, parse_amd_family("k8"))) {
		EXPECT_TRUE(e.supported) << e.name;
		// ProfileTime is a timer: no counter.
		EXPECT_EQ(e.counters.value_or(0), e.timer ? 0u : 0xfu) << e.name;
	}
}

TEST(AmdFamily, ZenRefusesRenumberedEventsWithTheReason)
{
	const auto zen1 = from_table(Interface::Amd64, false, parse_amd_family("zen1"));
	const auto &miss = entry(zen1, dc_miss);

	EXPECT_FALSE(miss.supported);
	EXPECT_NE(miss.reason.find("Zen 1 (family 17h)"), std::string::npos) << miss.reason;
	EXPECT_NE(miss.reason.find("event 0x41"), std::string::npos) << miss.reason;
	EXPECT_NE(miss.reason.find("ls_mab_alloc"), std::string::npos) << miss.reason;
	EXPECT_FALSE(entry(zen1, fpu_ops).supported);
	EXPECT_FALSE(entry(zen1, nb_page).supported);
	EXPECT_TRUE(entry(zen1, ret_instr).supported);
	EXPECT_TRUE(entry(zen1, ic_fetch).supported);
	EXPECT_TRUE(entry(zen1, KPROFILE_SOURCE_TIME).supported);
}

TEST(AmdFamily, Zen4LostTheIcFetchEvent)
{
	const auto zen4 = from_table(Interface::Amd64, false, parse_amd_family("zen4"));

	EXPECT_FALSE(entry(zen4, ic_fetch).supported);
	EXPECT_NE(entry(zen4, ic_fetch).reason.find("0x18E"), std::string::npos);
	EXPECT_TRUE(entry(zen4, ret_instr).supported);
}

TEST(AmdFamily, Fam15hConstrainsCounters)
{
	const auto f15 = from_table(Interface::Amd64, false, parse_amd_family("fam15h"));

	// 0x76 (CU group) and 0x80 (IC/DE) only on PERF_CTL[2:0]; 0xC0 anywhere.
	EXPECT_EQ(entry(f15, KPROFILE_SOURCE_TIME).supported, true);
	EXPECT_EQ(entry(f15, ic_fetch).counters.value_or(0), 0x7u);
	EXPECT_EQ(entry(f15, ret_instr).counters.value_or(0), 0xfu);
	EXPECT_FALSE(entry(f15, nb_page).supported);
	EXPECT_NE(entry(f15, nb_page).reason.find("NB"), std::string::npos);
}

TEST(AmdFamily, OtherFamiliesKeepOnlyWhatPerfMapsEverywhere)
{
	const auto other = from_table(Interface::Amd64, false, parse_amd_family("other"));
	unsigned supported = 0;

	for (const auto &e : other)
		supported += e.supported && !e.timer;
	EXPECT_TRUE(entry(other, ret_instr).supported);
	EXPECT_FALSE(entry(other, dc_miss).supported);
	EXPECT_LE(supported, 6u);
}

// Every supported row cites what its own event counts on that family: the
// citation names the event code ("0x4B ..."), and two rows with different
// event codes never share a citation.  A blanket line ("the table is the
// K8 BKDG event list") fails both.
TEST(AmdFamily, EverySupportedRowCitesItsMeaning)
{
	for (const auto &f : amd_families()) {
		std::map<std::string, std::uint32_t> event_of;

		for (const auto &e : from_table(Interface::Amd64, false, &f)) {
			if (e.timer)
				continue;
			if (!e.supported) {
				EXPECT_FALSE(e.reason.empty()) << f.name << " " << e.name;
				continue;
			}
			ASSERT_TRUE(e.select.has_value()) << e.name;
			const std::uint32_t ev = *e.select & 0xff;
			const std::string code = fmt::format("0x{:02x}", ev);

			EXPECT_NE(ascii_lower(e.citation).find(code), std::string::npos)
				<< f.name << " " << e.name << ": \"" << e.citation
				<< "\" does not name event " << code;
			const auto [it, fresh] = event_of.emplace(e.citation, ev);
			EXPECT_TRUE(fresh || it->second == ev)
				<< f.name << ": events " << fmt::format("0x{:02x}", it->second)
				<< " and " << code << " share the citation \"" << e.citation << "\"";
		}
	}
}

TEST(AmdFamily, CountersTextAndJson)
{
	EXPECT_EQ(counters_text(0xf), "0-3");
	EXPECT_EQ(counters_text(0x7), "0-2");
	EXPECT_EQ(counters_text(0x8), "3");
	EXPECT_EQ(counters_text(0x5), "0,2");
	EXPECT_EQ(counters_text(0), "-");

	const auto f15 = from_table(Interface::Amd64, false, parse_amd_family("fam15h"));
	const nlohmann::json j = source_json(entry(f15, ic_fetch));

	EXPECT_EQ(j["counters"], nlohmann::json::array({0, 1, 2}));
	EXPECT_TRUE(j["citation"].is_string());
	EXPECT_TRUE(source_json(entry(from_table(Interface::Amd64, false), ic_fetch))["counters"]
			    .is_null());
}
