// SPDX-License-Identifier: GPL-2.0
// `kprofile report` options: --source through the one SOURCE parser, perf's
// sort keys (grouping), --dso/--symbol/--comm/--pid/--percent-limit, the
// per-object summary and the default columns.
#include <gtest/gtest.h>

#include "errors.h"
#include "report_model.h"
#include "report_select.h"
#include "source_ratios.h"

using namespace kprofile;
using namespace kprofile::record;

namespace {

ProfileData two_sources()
{
	ProfileData d;
	d.machine.interface = "emon";
	d.sources = {{0x00, "ProfileTime", 10000, true}, {0x13, "ProfileTotalCycles", 65536, false}};
	return d;
}

// The message and hints of the Failure @f throws.
template <typename F>
std::string failure_of(F f)
{
	try {
		f();
	} catch (const Failure &e) {
		EXPECT_EQ(e.error().code, ExitCode::Usage);
		return e.error().message();
	}
	ADD_FAILURE() << "no Failure";
	return {};
}

} // namespace

TEST(RecordFilters, SourceFilterTakesNamesAliasesAndNumbers)
{
	const ProfileData d = two_sources();
	for (const char *s : {"time", "Timer", "timer", "ProfileTime", "Time", "0", "0x00",
			      "cpu-clock"})
		EXPECT_EQ(resolve_source_filter(d, {s}), std::vector<std::string>{"ProfileTime"}) << s;
	EXPECT_EQ(resolve_source_filter(d, {"cycles"}),
		  std::vector<std::string>{"ProfileTotalCycles"});
	EXPECT_TRUE(resolve_source_filter(d, {}).empty()) << "no filter: every source";
}

TEST(RecordFilters, SourceFilterRefusesWhatTheRecordingLacks)
{
	const ProfileData d = two_sources();
	std::string msg = failure_of([&] { resolve_source_filter(d, {"TotalIssues"}); });
	EXPECT_NE(msg.find("the recording has no ProfileTotalIssues"), std::string::npos) << msg;
	EXPECT_NE(msg.find("ProfileTime (0x00)"), std::string::npos) << "names what it has: " << msg;

	msg = failure_of([&] { resolve_source_filter(d, {"Tme"}); });
	EXPECT_NE(msg.find("Did you mean"), std::string::npos) << msg;
}

namespace {

Row make_row(const char *obj, const char *sym, double hits, std::int64_t pid = 0,
	     const char *comm = "")
{
	Row r;
	r.source_name = "ProfileTime";
	r.object = obj;
	r.object_path = std::string("/usr/bin/") + obj;
	r.symbol = sym;
	r.hits = hits;
	r.exact_hits = static_cast<std::uint64_t>(hits);
	r.overhead = hits;	// of 100 hits
	r.pid = pid;
	r.comm = comm;
	r.resolved = true;
	return r;
}

std::vector<Row> sample_rows()
{
	return {make_row("hotcold", "hot", 40, 101, "hotcold"),
		make_row("hotcold", "cold", 10, 101, "hotcold"),
		make_row("hotcold", "hot", 35, 102, "hotcold"),
		make_row("libc.so.6", "memcpy", 10, 102, "hotcold"),
		make_row("sh", "main", 5, 100, "sh")};
}

} // namespace

TEST(RecordFilters, PerfSortKeysGroupRows)
{
	SortSpec s = parse_sort("dso");
	ASSERT_EQ(s.dims, std::vector<Dim>{Dim::Object});
	auto by_dso = group_rows(sample_rows(), s.dims);
	sort_rows(by_dso, s.order);
	ASSERT_EQ(by_dso.size(), 3U) << "one row per object";
	EXPECT_EQ(by_dso[0].object, "hotcold");
	EXPECT_DOUBLE_EQ(by_dso[0].hits, 85.0);
	EXPECT_TRUE(by_dso[0].symbol.empty()) << "not a column of this view";

	auto by_sym = group_rows(sample_rows(), parse_sort("sym").dims);
	ASSERT_EQ(by_sym.size(), 4U) << "hot merges across processes";
	auto by_comm = group_rows(sample_rows(), parse_sort("comm").dims);
	ASSERT_EQ(by_comm.size(), 2U);
	auto by_pid = group_rows(sample_rows(), parse_sort("pid,dso").dims);
	EXPECT_EQ(by_pid.size(), 4U);
	EXPECT_EQ(parse_sort("object,symbol").dims, (std::vector<Dim>{Dim::Object, Dim::Symbol}));
	EXPECT_EQ(parse_sort("overhead").dims, std::vector<Dim>{});
}

TEST(RecordFilters, SortKeyErrorsSayWhatToDo)
{
	try {
		parse_sort("dos");
		ADD_FAILURE();
	} catch (const std::invalid_argument &e) {
		EXPECT_NE(std::string(e.what()).find("did you mean dso"), std::string::npos) << e.what();
	}
	try {
		parse_sort("cpu");
		ADD_FAILURE();
	} catch (const std::invalid_argument &e) {
		EXPECT_NE(std::string(e.what()).find("-C N"), std::string::npos) << e.what();
	}
}

TEST(RecordFilters, DsoSymbolCommPidAndPercentLimit)
{
	auto rows = sample_rows();
	EXPECT_EQ(filter_rows(rows, {.dsos = {"libc.so.6"}}), 4U);
	ASSERT_EQ(rows.size(), 1U);
	EXPECT_EQ(rows[0].symbol, "memcpy");

	rows = sample_rows();
	filter_rows(rows, {.dsos = {"/usr/bin/hotcold"}, .symbols = {"h*"}});
	EXPECT_EQ(rows.size(), 2U) << "path and glob";

	rows = sample_rows();
	filter_rows(rows, {.comms = {"sh"}});
	ASSERT_EQ(rows.size(), 1U);
	EXPECT_EQ(rows[0].pid, 100);

	rows = sample_rows();
	filter_rows(rows, {.pids = {102}});
	EXPECT_EQ(rows.size(), 2U);

	rows = sample_rows();
	filter_rows(rows, {.percent_limit = 10});
	EXPECT_EQ(rows.size(), 4U) << "5% is under the limit, 10% is not";

	Row k = make_row("[kernel]", "schedule", 1);
	k.object_path = "[kernel]";
	rows = {k};
	filter_rows(rows, {.dsos = {"kernel"}});
	EXPECT_EQ(rows.size(), 1U) << "'kernel' names [kernel]";
}

TEST(RecordFilters, ObjectSummaryLikeKernratesModuleList)
{
	Report rep;
	rep.sources = {{0, "ProfileTime", 10000, true, 100, 100, 0, true}};
	rep.rows = sample_rows();
	auto objs = object_totals(rep);
	ASSERT_EQ(objs.size(), 3U);
	EXPECT_EQ(objs[0].object, "hotcold");
	EXPECT_DOUBLE_EQ(objs[0].hits, 85.0);
	EXPECT_EQ(objs[0].symbols, 3U);
	EXPECT_EQ(objs[0].time_ns, 85U * 1000000U) << "85 hits of 1 ms";
	const std::string text = render_objects(objs);
	EXPECT_NE(text.find("libc.so.6"), std::string::npos);
	EXPECT_NE(text.find("0.085 s"), std::string::npos) << text;
	EXPECT_EQ(text.find("/s "), std::string::npos) << "no rate without a duration: " << text;

	// A rate column, hits per second of the recording (kernrate's
	// rate): 85 hits in 0.5 s.
	rep.duration_ns = 500000000;
	objs = object_totals(rep);
	EXPECT_DOUBLE_EQ(objs[0].rate, 170.0);
	EXPECT_NE(render_objects(objs).find("170.0/s"), std::string::npos) << render_objects(objs);
}

// kernrate's sources side by side: each later source over the first, CPI
// where cycles and instructions are both recorded.
TEST(RecordFilters, SourcesSideBySideWithCpi)
{
	Report rep;
	rep.sources = {{0x13, "ProfileTotalCycles", 1000, false, 0, 0, 0, false},
		       {0x02, "ProfileTotalIssues", 500, false, 0, 0, 0, false}};
	auto row = [](std::uint32_t source, const char *obj, const char *sym, double hits) {
		Row r = make_row(obj, sym, hits);
		r.source = source;
		return r;
	};
	rep.rows = {row(0x13, "a", "f", 30), row(0x02, "a", "f", 10), row(0x13, "a", "g", 10),
		    row(0x02, "a", "g", 40), row(0x13, "b", "h", 5)};
	auto cols = ratio_columns(rep);
	ASSERT_EQ(cols.size(), 1U) << "cycles over instructions is the one ratio";
	EXPECT_EQ(cols[0].label, "CPI");
	SideBySide objs = side_by_side(rep, false);
	ASSERT_EQ(objs.rows.size(), 2U);
	EXPECT_EQ(objs.rows[0].object, "a");
	EXPECT_EQ(objs.rows[0].hits, (std::vector<double>{40, 50}));
	EXPECT_DOUBLE_EQ(objs.rows[0].ratios[0], 40.0 * 1000 / (50 * 500));
	EXPECT_LT(objs.rows[1].ratios[0], 0) << "b has no instructions: no CPI";
	SideBySide syms = side_by_side(rep, true);
	ASSERT_EQ(syms.rows.size(), 3U);
	EXPECT_EQ(syms.rows[0].symbol, "f");
	EXPECT_DOUBLE_EQ(syms.rows[0].ratios[0], 6.0);
	const std::string text = render_side_by_side(syms, 2);
	EXPECT_NE(text.find("per symbol"), std::string::npos) << text;
	EXPECT_NE(text.find("6.000"), std::string::npos) << text;
	EXPECT_EQ(text.find("  b  "), std::string::npos) << "-n 2 keeps two rows: " << text;

	// A module's rows are [kernel] objects: the table names the module.
	Row mod = row(0x13, "x", "mod_fn", 3);
	mod.object = "[kernel]";
	mod.object_path = "[kprofile]";
	rep.rows.push_back(mod);
	objs = side_by_side(rep, false);
	ASSERT_EQ(objs.rows.size(), 3U);
	EXPECT_EQ(objs.rows[2].object, "[kprofile]");

	// Time first: the counters per second.
	rep.sources.insert(rep.sources.begin(), {0, "ProfileTime", 10000, true, 0, 0, 0, true});
	cols = ratio_columns(rep);
	ASSERT_EQ(cols.size(), 3U);
	EXPECT_EQ(cols[0].label, "CPI");
	EXPECT_EQ(cols[1].label, "TotalCycles/s");
	EXPECT_EQ(cols[2].label, "TotalIssues/s");
	rep.sources.resize(1);
	EXPECT_EQ(render_side_by_side(side_by_side(rep, false), 0), "") << "one source: no table";
}

TEST(RecordFilters, DefaultColumnsAddCommForSeveralCommands)
{
	Report one;
	one.rows = {make_row("a", "f", 1, 7, "a")};
	EXPECT_EQ(default_dims(one), (std::vector<Dim>{Dim::Source, Dim::Object, Dim::Symbol}));
	Report many;
	many.rows = sample_rows();
	EXPECT_EQ(default_dims(many),
		  (std::vector<Dim>{Dim::Source, Dim::Comm, Dim::Object, Dim::Symbol}));
}

TEST(RecordFilters, DefaultViewMergesProcessesOfOneCommandAsPerf)
{
	Report rep;
	rep.rows = sample_rows();
	default_grouping(rep);
	// perf's default comm,dso,sym: hotcold's two pids merge.
	ASSERT_EQ(rep.rows.size(), 4U);
	EXPECT_EQ(rep.rows[0].symbol, "hot");
	EXPECT_DOUBLE_EQ(rep.rows[0].hits, 75.0);
	EXPECT_EQ(rep.rows[0].comm, "hotcold");
	EXPECT_EQ(rep.rows[0].pid, 0) << "two pids: no single one to show";

	Report one;
	one.rows = {make_row("a", "f", 1, 7, "a"), make_row("a", "f", 2, 7, "a")};
	default_grouping(one);
	ASSERT_EQ(one.rows.size(), 1U);
	EXPECT_EQ(one.rows[0].pid, 7) << "one process: its pid stays";
	EXPECT_EQ(default_dims(one), (std::vector<Dim>{Dim::Source, Dim::Object, Dim::Symbol}));

	auto by_pid = group_rows(sample_rows(), parse_sort("pid,sym").dims);
	EXPECT_EQ(by_pid.size(), 5U) << "--sort pid,sym splits them again";
}
