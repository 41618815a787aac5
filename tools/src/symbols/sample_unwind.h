// SPDX-License-Identifier: GPL-2.0
// sample_unwind.h - record --call-graph dwarf at report time: the user
// frames of a sample that carries its user registers and stack copy
// (KPROFILE_SAMPLE_STACK), unwound (dwarf_unwind.h) over the executable
// mappings its process had then (the maps snapshots record read), with the
// vDSO image the file keeps.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dwarf_unwind.h"
#include "profile_file.h"

namespace kprofile::record {

class SampleUnwinder {
public:
	// @symfs: report --symfs (objects and debug files looked up there).
	SampleUnwinder(const ProfileData &data, std::string symfs);

	// The user frames of @s (ip first), from the mappings of snapshots
	// @snaps of data.samples.maps (the first that maps an address wins:
	// the snapshot of the sample's time, then later and earlier ones of
	// the same program).  @s must have regs.
	UnwindResult unwind(const SampleRecord &s, const std::vector<std::size_t> &snaps);
	std::vector<std::string> warnings() const;

private:
	const ProfileData &data_;
	UnwindOptions opts_;
	std::map<std::vector<std::size_t>, std::unique_ptr<UnwindSpace>> spaces_;
};

} // namespace kprofile::record
