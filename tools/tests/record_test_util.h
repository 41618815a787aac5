// SPDX-License-Identifier: GPL-2.0
// record_test_util.h - small builders and look-ups shared by the record
// tests: a catch-all range, and a report row by symbol.
#ifndef KPROFILE_TESTS_RECORD_TEST_UTIL_H
#define KPROFILE_TESTS_RECORD_TEST_UTIL_H

#include <cstdint>
#include <string_view>

#include "record/profile_file.h"
#include "record/report_model.h"

namespace kprofile::record::test {

// A user-mode catch-all (the whole 47-bit space in one bucket) holding
// @hits, as record writes one per source.
inline RangeRecord catch_all(std::uint32_t hits)
{
	RangeRecord all;

	all.kind = RangeKind::CatchAll;
	all.size = 1ULL << 47;
	all.bucket_shift = 31;
	all.buckets = {hits};
	return all;
}

// The report row of symbol @sym, or nullptr.
inline const Row *row(const Report &rep, std::string_view sym)
{
	for (const auto &r : rep.rows)
		if (r.symbol == sym)
			return &r;
	return nullptr;
}

} // namespace kprofile::record::test

#endif
