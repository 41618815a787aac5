// SPDX-License-Identifier: GPL-2.0
// source_model.h - one profile source as the tool shows it, from the
// running module (KPROFILE_IOC_QUERY_SOURCE / LIST_SOURCES) or from an
// interface's built-in table (kprofile sources --interface).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <linux/kprofile.h>

#include "amd_family.h"
#include "source_table.h"

namespace kprofile {

struct SourceEntry {
	std::uint32_t value = 0;
	std::string name;
	std::optional<std::uint32_t> select;	// nullopt: not in the table
	std::optional<int> ebx_bit;		// nullopt: none
	std::optional<std::uint32_t> interval;	// nullopt: unsupported
	std::uint32_t default_interval = 0;
	std::uint32_t min_interval = 0;
	std::uint32_t max_interval = 0;
	bool supported = false;
	bool generic = false;
	bool timer = false;
	std::string reason;			// empty when supported
	std::optional<std::uint32_t> counters;	// --family: the counters it may use
	std::string citation;			// --family: its meaning there, and source
};

// From the module's answer.
SourceEntry from_module(const kprofile_source_info &info);

// @iface's built-in table, in table order.  Without a machine there is no
// EBX mask, so every row is shown as supported, at its default interval.
// With @all, the generic sources the table lacks are added (unsupported,
// with the module's reason), and everything is sorted by value.
// With @amd_family (Amd64 only), each row is supported or not, and on
// which counters, as the module decides on that family
// (<linux/kprofile_amd_families.h>).
std::vector<SourceEntry> from_table(Interface iface, bool all,
				    const AmdFamily *amd_family = nullptr);

} // namespace kprofile
