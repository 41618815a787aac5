// SPDX-License-Identifier: GPL-2.0
// folded_stacks.cpp - folded stacks from (stack, weight) (folded_stacks.h).
#include "folded_stacks.h"

#include <fmt/format.h>

namespace kprofile::record {

void FoldedStacks::add(const std::vector<std::string> &frames, std::uint64_t weight)
{
	if (!weight)
		return;
	std::string stack;
	for (std::size_t i = 0; i < frames.size(); i++) {
		if (i)
			stack += ';';
		for (char c : frames[i])
			stack += c == ';' || c == '\n' ? ':' : c;
	}
	if (merge_)
		merged_[stack] += weight;
	else
		lines_.emplace_back(std::move(stack), weight);
}

std::string FoldedStacks::text() const
{
	std::string out;

	for (const auto &[stack, n] : lines_)
		out += fmt::format("{} {}\n", stack, n);
	for (const auto &[stack, n] : merged_)
		out += fmt::format("{} {}\n", stack, n);
	return out;
}

} // namespace kprofile::record
