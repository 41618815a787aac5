// SPDX-License-Identifier: GPL-2.0
// record_test_util.h - small builders and look-ups shared by the record
// tests: a catch-all range, a report row by symbol, and a fake /proc.
#ifndef KPROFILE_TESTS_RECORD_TEST_UTIL_H
#define KPROFILE_TESTS_RECORD_TEST_UTIL_H

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "maps_book.h"
#include "profile_file.h"
#include "report_model.h"

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

// A /proc of its own for a MapsBook: @maps is what /proc/PID/maps
// holds (a pid not in it is gone), every process is named @comm, and the
// clock advances 10 ns at each read of it from @now.
struct FakeProc {
	std::map<pid_t, std::vector<Mapping>> maps;
	std::string comm = "prog";
	std::uint64_t now = 1000;

	ProcReader reader()
	{
		ProcReader rd;

		rd.maps = [this](pid_t pid) -> std::optional<std::vector<Mapping>> {
			auto it = maps.find(pid);
			if (it == maps.end())
				return std::nullopt;
			return it->second;
		};
		rd.comm = [this](pid_t) { return comm; };
		rd.now = [this] { return now += 10; };
		return rd;
	}
};

} // namespace kprofile::record::test

#endif
