// SPDX-License-Identifier: GPL-2.0
// folded_stacks.h - Brendan Gregg's folded stacks ("a;b;c N" a line), the
// one writer of report --format folded for both kinds of recording: the
// bucket rows (report_export.h) and the sample stream's call stacks
// (sample_export.h) each give it (stack, weight) pairs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kprofile::record {

class FoldedStacks {
public:
	// @merge: identical stacks add up, and the lines come sorted by
	// stack (samples); otherwise one line per add(), in order (rows).
	explicit FoldedStacks(bool merge) : merge_(merge) {}

	// One stack, root first, and its weight; a weight of 0 is left out.
	// ';' and newlines inside a frame become ':'.
	void add(const std::vector<std::string> &frames, std::uint64_t weight);

	// The lines, each "frame;frame;... weight\n".
	std::string text() const;

private:
	bool merge_;
	std::vector<std::pair<std::string, std::uint64_t>> lines_;
	std::map<std::string, std::uint64_t> merged_;
};

} // namespace kprofile::record
