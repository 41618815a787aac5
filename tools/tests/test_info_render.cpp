// SPDX-License-Identifier: GPL-2.0
// `kprofile info` output.
#include <cstring>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "info_render.h"

using namespace kprofile;

namespace {

kprofile_info emon_info()
{
	kprofile_info i{};

	i.abi_version = KPROFILE_ABI_VERSION;
	i.interface = KPROFILE_INTERFACE_EMON;
	i.perfmon_version = 4;
	i.num_counters = 8;
	i.counter_width = 48;
	i.ebx_mask = 1U << 4;
	i.ebx_length = 7;
	i.num_cpus = 4;
	i.num_possible_cpus = 8;
	i.family = 6;
	i.model = 0x5e;
	i.flags = KPROFILE_INFO_HYPERVISOR;
	std::strcpy(i.vendor, "GenuineIntel");
	return i;
}

kprofile_info none_info()
{
	kprofile_info i{};

	i.abi_version = KPROFILE_ABI_VERSION;
	i.interface = KPROFILE_INTERFACE_NONE;
	std::strcpy(i.vendor, "AuthenticAMD");
	std::strcpy(i.reason, "PMU not available due to virtualization");
	return i;
}

} // namespace

TEST(InfoRender, UnavailableEventsFollowEbx)
{
	auto i = emon_info();

	EXPECT_EQ(unavailable_events(i), std::vector<std::string>{"ProfileLLCMisses"});
	i.ebx_mask = 0;
	EXPECT_TRUE(unavailable_events(i).empty());
	// Bits beyond the meaningful length are not reported as set bits.
	i.ebx_mask = 1U << 5;
	i.ebx_length = 2;
	EXPECT_TRUE(unavailable_events(i).empty());
	EXPECT_TRUE(unavailable_events(none_info()).empty());
}

TEST(InfoRender, TextNamesTheInterfaceAndTheMachine)
{
	auto out = render_info(emon_info());

	for (const char *s : {"interface:", "Emon", "GenuineIntel", "8 x 48 bits", "0x00000010",
			      "7 meaningful bits", "unavailable: ProfileLLCMisses", "4 online, 8 possible",
			      "hypervisor", "perfmon version:"})
		EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
}

TEST(InfoRender, TextOfNoneGivesTheReason)
{
	auto out = render_info(none_info());

	EXPECT_NE(out.find("None: PMU not available due to virtualization"), std::string::npos) << out;
}

TEST(InfoRender, JsonKeysAreStable)
{
	const std::set<std::string> want = {
		"abi_version",	   "tool_abi_version", "interface",	     "interface_reason",
		"vendor",	   "family",	       "model",		     "perfmon_version",
		"num_counters",	   "counter_width",    "ebx_mask",	     "ebx_length",
		"unavailable_events", "num_cpus",      "num_possible_cpus", "flags",
		"pmu_state",	   "pmu_state_reason", "busy_mask",	     "usable_counter_mask",
		"amd_family",	   "hybrid",
	};
	const kprofile_info_ex ex{};
	for (const auto *x : {&ex, static_cast<const kprofile_info_ex *>(nullptr)})
	for (const auto &info : {emon_info(), none_info()}) {
		auto j = info_json(info, x);
		std::set<std::string> got;

		for (const auto &[k, v] : j.items())
			got.insert(k);
		EXPECT_EQ(got, want);
		EXPECT_EQ(j["flags"].size(), 3u);
	}
}

TEST(InfoRender, JsonValues)
{
	auto j = info_json(emon_info());

	EXPECT_EQ(j["interface"], "Emon");
	EXPECT_TRUE(j["interface_reason"].is_null());
	EXPECT_EQ(j["ebx_mask"], 16);
	EXPECT_EQ(j["flags"]["hypervisor"], true);
	EXPECT_EQ(j["flags"]["x2apic"], false);
	EXPECT_EQ(j["unavailable_events"][0], "ProfileLLCMisses");

	j = info_json(none_info());
	EXPECT_EQ(j["interface"], "None");
	EXPECT_EQ(j["interface_reason"], "PMU not available due to virtualization");
	EXPECT_EQ(j["vendor"], "AuthenticAMD");
}

TEST(InfoRender, BusyIsNotNone)
{
	kprofile_info i = emon_info();
	kprofile_info_ex x{};

	i.interface = KPROFILE_INTERFACE_AMD64;
	std::strcpy(i.vendor, "AuthenticAMD");
	x.pmu_state = KPROFILE_PMU_BUSY;
	x.busy_mask = 1;
	x.counter_mask = 0xff;
	std::strcpy(x.state_reason, "counter 0 is counting (select 0x530076): perf (the NMI "
				    "watchdog?) holds the PMU");
	std::strcpy(x.amd_family_name, "zen3");

	auto out = render_info(i, &x);
	EXPECT_NE(out.find("Amd64"), std::string::npos) << out;
	EXPECT_EQ(out.find("None"), std::string::npos) << out;
	EXPECT_NE(out.find("busy: counter 0 is counting"), std::string::npos) << out;
	EXPECT_NE(out.find("--family zen3"), std::string::npos) << out;

	auto j = info_json(i, &x);
	EXPECT_EQ(j["interface"], "Amd64");
	EXPECT_EQ(j["pmu_state"], "busy");
	EXPECT_EQ(j["busy_mask"], 1);
	EXPECT_EQ(j["amd_family"], "zen3");
	EXPECT_NE(j["pmu_state_reason"].get<std::string>().find("NMI watchdog"), std::string::npos);

	x.pmu_state = KPROFILE_PMU_AVAILABLE;
	j = info_json(i, &x);
	EXPECT_EQ(j["pmu_state"], "available");
	EXPECT_TRUE(j["pmu_state_reason"].is_null());
	// An older module: the keys are there, null.
	j = info_json(i, nullptr);
	EXPECT_TRUE(j["pmu_state"].is_null());
	EXPECT_NE(render_info(i, nullptr).find("unknown"), std::string::npos);
}

TEST(InfoRender, FlagsText)
{
	EXPECT_EQ(flags_text(0), "none");
	EXPECT_EQ(flags_text(KPROFILE_INFO_X2APIC | KPROFILE_INFO_AMD_PERFMON_V2),
		  "amd-perfmon-v2, x2apic");
	EXPECT_EQ(flags_text(1U << 9), "0x200");
}
