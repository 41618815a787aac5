// SPDX-License-Identifier: GPL-2.0
// report_select.h - what `kprofile report` shows of a Report: perf's sort
// keys (which also group rows), filters, --percent-limit, and kernrate's
// per-object summary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report_model.h"

namespace kprofile::record {

// The columns a row can be grouped by, as --sort names them.  "dso" is
// "object" and "sym" is "symbol" (perf's names); "comm" and "pid" need a
// recording that followed processes; "srcline" needs --srcline.
enum class Dim { Source, Comm, Pid, Object, Symbol, Srcline };

struct SortSpec {
	std::vector<Dim> dims;		// group by these (empty: the default rows)
	std::vector<std::string> order;	// sort_rows() keys, overhead first
};

// Parse --sort: overhead, hits, source, comm, pid, dso/object, sym/symbol,
// srcline, cpu.  Throws std::invalid_argument naming the valid keys (with
// "did you mean"); `cpu` says why a bucket histogram has no CPU.
SortSpec parse_sort(const std::string &spec);

// Merge the rows that agree on @dims, the perf way: `--sort dso` gives one
// row per object.  Hits, exact hits and overhead add up; a merged row is
// ambiguous when any part was; a field outside @dims is kept only when
// all merged rows agree on it (else it is emptied).
std::vector<Row> group_rows(const std::vector<Row> &rows, const std::vector<Dim> &dims);

// The default grouping and columns, perf's comm,dso,sym: Source, Command
// when rows come from several commands, Object, Symbol, and Srcline when
// rows have one.  Processes of one command are merged (--sort pid splits
// them; --pid picks one).
std::vector<Dim> default_dims(const Report &report);

// That grouping for @commands distinct commands, with Srcline when
// @srcline (default_dims(), and sample_default_dims() for samples).
std::vector<Dim> default_dims(std::size_t commands, bool srcline);

// What `report` and `top` show without --sort: @report's rows grouped by
// default_dims(), hottest first.
void default_grouping(Report &report);

struct RowFilter {
	std::vector<std::string> dsos;		// object name or path, [kernel]
	std::vector<std::string> symbols;	// names or shell globs
	std::vector<std::string> comms;		// names or shell globs
	std::vector<std::int64_t> pids;
	double percent_limit = 0;		// drop rows under this overhead
	bool empty() const
	{
		return dsos.empty() && symbols.empty() && comms.empty() && pids.empty() &&
		       percent_limit <= 0;
	}
};

// Keep the rows every given filter matches (overheads stay percentages of
// the source's whole total, as perf's).  Returns how many were dropped.
std::size_t filter_rows(std::vector<Row> &rows, const RowFilter &filter);

// The same filters on a --raw dump (kernrate -z: the zoomed module's
// buckets only): --dso on the bucket's object, --symbol on any symbol in
// it, --comm on its process; --percent-limit does not apply.  Returns how
// many were dropped.
std::size_t filter_raw(std::vector<RawBucket> &buckets, const RowFilter &filter);

// kernrate's module list from @report's rows: one line per source and
// object, busiest first (build_report() fills Report::objects with it).
std::vector<ObjectTotal> object_totals(const Report &report);
std::string render_objects(const std::vector<ObjectTotal> &objects);

// "Object", "Symbol", ... for table headers.
const char *dim_title(Dim d);

} // namespace kprofile::record
