// SPDX-License-Identifier: GPL-2.0
// sample_export.h - `kprofile report --format folded|pprof` over the
// samples of record -g: real call stacks, for flamegraph.pl, speedscope,
// go tool pprof, Pyroscope and Parca.
#pragma once

#include <string>
#include <vector>

#include "sample_symbols.h"

namespace kprofile::record {

// Folded stacks, one line per distinct stack with its number of samples:
// "comm;main;caller_a;leaf 42", root first ("source;comm;..." when the
// samples come from several sources).  Kernel frames end in "_[k]"
// (flamegraph.pl colours them as kernel).  ';' inside a name becomes ':'.
std::string render_sample_folded(const ProfileData &data, const SampleSymbols &syms,
				 const std::vector<NamedSample> &samples);

// A pprof profile (profile.proto), gzipped: one sample per distinct stack
// and process, its location_id list leaf first (one location per address,
// in a mapping per object, with a function per symbol); a count per
// source and, for ProfileTime, "cpu"/"nanoseconds"; labels "comm", "pid".
std::string render_sample_pprof(const ProfileData &data, const SampleSymbols &syms,
				const std::vector<NamedSample> &samples);

} // namespace kprofile::record
