// SPDX-License-Identifier: GPL-2.0
// report_export.h - `kprofile report --format folded|csv|pprof`: a report's
// rows for flamegraph.pl/speedscope, spreadsheets, and go tool pprof /
// Pyroscope / Parca.
#pragma once

#include <string>

#include "report_model.h"

namespace kprofile::record {

// Brendan Gregg's folded stacks, one line per row: "object;symbol N"
// ("source;object;symbol N" when the report has several sources; with
// --sort comm/pid the process comes first: "comm;object;symbol N").  N is
// the row's hits rounded to an integer (speedscope wants integers); rows
// that round to 0 are left out.  ';' inside a name becomes ':'.
std::string render_folded(const Report &report);

// RFC 4180 CSV with a header line.  Columns (stable, new ones are added
// at the end): overhead, hits, exact_hits, source, source_value, object,
// object_path, symbol, resolved, ambiguous, address, comm, pid, srcline,
// children (samples of record -g only; hits is then Self).
std::string render_csv(const Report &report);

// A pprof profile (profile.proto, perftools.profiles), gzipped.  One
// sample per row with one location (the row's address, its mapping and a
// function named after the symbol); one sample type per source, named
// after it ("ProfileTime", unit "count"), plus "cpu"/"nanoseconds" for
// ProfileTime.  Labels "comm" and "pid" when known.
std::string render_pprof(const ProfileData &data, const Report &report);

} // namespace kprofile::record
