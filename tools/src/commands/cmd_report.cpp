// SPDX-License-Identifier: GPL-2.0
// cmd_report.cpp - `kprofile report`: where the hits of a record file went.
#include <unistd.h>

#include <cstring>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "errors.h"
#include "report_processes.h"
#include "report_export.h"
#include "report_render.h"
#include "report_select.h"
#include "resolver.h"
#include "sample_export.h"
#include "sample_render.h"
#include "sample_report.h"
#include "source_ratios.h"

namespace kprofile {

namespace record {
namespace {

struct ReportOptions {
	std::string input = "kprofile.data";
	std::string output;	// -o: write there instead of stdout
	std::string sort = "overhead";
	std::string format;	// table, json, raw, folded, csv, pprof
	std::vector<std::string> sources;
	bool raw = false;
	bool json = false;
	std::size_t limit = 0;
	std::int64_t pid = 0;		// only this process's profiles
	bool processes = false;		// the per-process table first
	RowFilter filter;		// --dso, --symbol, --comm, --percent-limit
	bool objects = false;		// kernrate's per-object summary first
	bool srcline = false;
	std::string symfs;
	// Samples (record -g): Children and Self, call graphs; --buckets
	// reports the bucket profiles instead.
	bool children = false, no_children = false, buckets = false, caller_graph = false;
	std::string call_graph;		// caller, callee, none
};

const char *const formats[] = {"table", "json", "raw", "folded", "csv", "pprof"};

std::string chosen_format(const ReportOptions &opts)
{
	std::string f = opts.format;

	// --raw picks the buckets, --json or --format json their encoding.
	if (f.empty())
		f = opts.json ? "json" : opts.raw ? "raw" : "table";
	else if (f == "raw" && opts.json)
		f = "json";
	if (opts.raw && f != "raw" && f != "json")
		throw Failure(usage_error("--raw dumps buckets: it takes --json, not --format " + f));
	for (const char *known : formats)
		if (f == known)
			return f;
	std::string list;
	for (const char *known : formats)
		list += (list.empty() ? "" : ", ") + std::string(known);
	throw Failure(usage_error("unknown report format '" + opts.format + "'",
				  {"Formats: " + list + "."}));
}

void emit(const ReportOptions &opts, const std::string &bytes, bool binary)
{
	if ((opts.output.empty() || opts.output == "-") && binary && ::isatty(STDOUT_FILENO))
		throw Failure(usage_error("a pprof profile is binary: not printed to a terminal",
					  {"Redirect it (> prof.pb.gz) or give -o FILE; then "
					   "`go tool pprof -top prof.pb.gz`."}));
	write_output(opts.output, bytes);
}

// --objects: the per-object table first (tables only), and @sides, the
// sources side by side, when there are several; --limit: the rows kept (a
// table cuts its own rows).
void objects_and_limit(const ReportOptions &opts, const std::string &format, Report &rep,
		       const std::string &sides = "")
{
	if (opts.objects && format == "table")
		print_out(render_objects(rep.objects) + "\n" + sides);
	if (opts.limit && rep.rows.size() > opts.limit && format != "table")
		rep.rows.resize(opts.limit);
}

CallGraph chosen_graph(const ReportOptions &opts)
{
	if (opts.caller_graph)
		return CallGraph::Caller;
	if (opts.call_graph.empty() || opts.call_graph == "none")
		return CallGraph::None;
	if (opts.call_graph == "caller")
		return CallGraph::Caller;
	if (opts.call_graph == "callee")
		return CallGraph::Callee;
	throw Failure(usage_error("unknown call graph '" + opts.call_graph + "'",
				  {"--call-graph takes caller (what a row calls), callee (who "
				   "calls it) or none"}));
}

// Whether a frame of @n matches --dso/--symbol (folded and pprof keep the
// stacks that pass through what the filters name).
bool stack_matches(const SampleSymbols &syms, const NamedSample &n, const RowFilter &f)
{
	for (int id : n.frames) {
		const FrameSym &fs = syms.frame(id);
		std::vector<Row> one(1);
		one[0].object = fs.object;
		one[0].object_path = fs.object_path;
		one[0].symbol = fs.symbol;
		one[0].overhead = 100;
		RowFilter only{.dsos = f.dsos, .symbols = f.symbols};
		filter_rows(one, only);
		if (!one.empty())
			return true;
	}
	return false;
}

// `report` over the samples of record -g.
void report_samples(const ReportOptions &opts, const std::string &format, const SortSpec &sort,
		    const ProfileData &d, FileResolver &resolver,
		    const std::vector<std::string> &sources)
{
	const bool children = !opts.no_children;
	SampleSymbols syms(d, resolver, opts.srcline, opts.symfs);
	std::vector<NamedSample> named =
		select_samples(d, syms, {.sources = sources, .pid = opts.pid,
					 .comms = opts.filter.comms});

	if (format == "folded" || format == "pprof") {
		if (!opts.filter.dsos.empty() || !opts.filter.symbols.empty())
			std::erase_if(named, [&](const NamedSample &n) {
				return !stack_matches(syms, n, opts.filter);
			});
		if (format == "folded")
			emit(opts, render_sample_folded(d, syms, named), false);
		else
			emit(opts, render_sample_pprof(d, syms, named), true);
		return;
	}
	const std::vector<Dim> dims = sort.dims.empty() ? sample_default_dims(syms, named) : sort.dims;
	SampleView view(d, syms, std::move(named), dims);
	Report rep = view.report(children);
	filter_rows(rep.rows, RowFilter{.dsos = opts.filter.dsos, .symbols = opts.filter.symbols});
	std::erase_if(rep.rows, [&](const Row &r) {
		return (children ? r.children_overhead : r.overhead) < opts.filter.percent_limit;
	});
	std::vector<std::string> order = sort.order;
	if (children)
		order.insert(order.begin(), "children");
	sort_rows(rep.rows, order);
	objects_and_limit(opts, format, rep);
	if (format == "json")
		emit(opts, report_json(d, rep).dump(2) + "\n", false);
	else if (format == "csv")
		emit(opts, render_csv(rep), false);
	else
		emit(opts, render_sample_table(d, rep, view,
					       {.children = children, .graph = chosen_graph(opts),
						.limit = opts.limit, .dims = dims}),
		     false);
}

void run_report(const ReportOptions &opts)
{
	try {
		const std::string format = chosen_format(opts);
		const SortSpec sort = parse_sort(opts.sort);
		ProfileData d = read_file(opts.input);
		if (!d.damage.empty())
			print_err("kprofile: warning: " + opts.input + ": " + d.damage + "\n");
		const std::vector<std::string> sources = resolve_source_filter(d, opts.sources);
		FileResolver resolver({opts.symfs, opts.srcline});
		const bool raw = opts.raw || opts.format == "raw";
		const bool samples = d.samples.present && !opts.buckets && !raw;
		const CallGraph graph = chosen_graph(opts);

		if (!samples && (opts.children || opts.no_children || graph != CallGraph::None))
			throw Failure(usage_error(
				d.samples.present ?
				"--children, --no-children and call graphs are views of the samples, "
				"not of --buckets or --raw" :
				"--children, --no-children and call graphs need samples with call "
				"stacks: " + opts.input + " has none",
				{"record them with `kprofile record -g -- CMD`"}));
		if (opts.pid)
			d = only_process(d, opts.pid);
		if (opts.processes && format == "table")
			print_out(render_processes(d) + "\n");
		if (samples) {
			report_samples(opts, format, sort, d, resolver, sources);
			return;
		}

		if (raw) {
			auto buckets = raw_buckets(d, resolver, sources);
			// kernrate -z X: X's buckets only.
			filter_raw(buckets, opts.filter);
			if (format == "json")
				emit(opts, raw_json(d, buckets).dump(2) + "\n", false);
			else
				emit(opts, render_raw(buckets), false);
			return;
		}
		Report rep = build_report(d, resolver, sources, opts.srcline);
		// Filters select symbols (and processes) first; the percent
		// limit applies to what is shown, after grouping.
		RowFilter select = opts.filter;
		select.percent_limit = 0;
		filter_rows(rep.rows, select);
		// kernrate's side-by-side sources, from the rows of each
		// source before they are grouped.
		std::string sides;
		if (opts.objects && format == "table" && rep.sources.size() > 1)
			for (bool symbols : {false, true})
				sides += render_side_by_side(side_by_side(rep, symbols), opts.limit) +
					 "\n";
		const std::vector<Dim> dims = sort.dims.empty() ? default_dims(rep) : sort.dims;
		rep.rows = group_rows(rep.rows, dims);
		filter_rows(rep.rows, RowFilter{.percent_limit = opts.filter.percent_limit});
		std::vector<std::string> order = sort.order;
		for (Dim dim : dims)
			order.push_back(dim == Dim::Object ? "object" : dim == Dim::Symbol ? "symbol"
								    : "source");
		sort_rows(rep.rows, order);
		objects_and_limit(opts, format, rep, sides);
		if (format == "json")
			emit(opts, report_json(d, rep).dump(2) + "\n", false);
		else if (format == "folded")
			emit(opts, render_folded(rep), false);
		else if (format == "csv")
			emit(opts, render_csv(rep), false);
		else if (format == "pprof")
			emit(opts, render_pprof(d, rep), true);
		else
			emit(opts, render_table(d, rep, opts.limit, dims), false);
	} catch (const Failure &) {
		throw;
	} catch (const std::exception &e) {
		fail(e);
	}
}

} // namespace
} // namespace record

void setup_report(CLI::App &cmd, Context &)
{
	auto opts = std::make_shared<record::ReportOptions>();

	add_input_option(cmd, opts->input);
	cmd.add_option("-o,--output", opts->output, "Write the report to FILE instead of stdout")
		->type_name("FILE");
	cmd.add_option("--format", opts->format,
		       "table (default), json, raw, folded (flamegraph.pl, speedscope), csv, "
		       "pprof (gzipped profile.proto for go tool pprof, Pyroscope, Parca)")
		->type_name("FORMAT");
	cmd.add_option("-s,--sort", opts->sort,
		       "Group and sort by these keys, comma-separated, as perf: dso (object), sym "
		       "(symbol), comm, pid, source, srcline; overhead or hits to order only")
		->type_name("KEYS");
	cmd.add_option("--dso,--dsos,--object", opts->filter.dsos,
		       "Only these objects (name, path, 'kernel', a module name, or a glob)")
		->delimiter(',')
		->type_name("LIST");
	cmd.add_option("--symbol,--symbols", opts->filter.symbols,
		       "Only these symbols (names or shell globs: 'worker_*')")
		->delimiter(',')
		->type_name("LIST");
	cmd.add_option("--comm", opts->filter.comms, "Only these processes, by command name or glob")
		->delimiter(',')
		->type_name("LIST");
	cmd.add_option("--percent-limit", opts->filter.percent_limit,
		       "Hide rows under this overhead (percent)")
		->type_name("PERCENT")
		->check([](const std::string &v) -> std::string {
			try {
				std::size_t used = 0;
				const double p = std::stod(v, &used);
				if (used == v.size() && p >= 0 && p <= 100)
					return "";
			} catch (const std::exception &) {
			}
			return "--percent-limit takes a percentage from 0 to 100, e.g. 0.5";
		});
	cmd.add_flag("--objects", opts->objects,
		     "Print the per-object summary first (kernrate's module list: hits, "
		     "overhead, time, rate, symbols per object), and with several sources "
		     "their hits and ratios side by side per object and symbol (CPI)");
	cmd.add_flag("--srcline", opts->srcline,
		     "Split rows per source line (file:line from the objects' DWARF line "
		     "tables, or their debug files)");
	cmd.add_option("--symfs", opts->symfs,
		       "Look for the recorded objects under DIR first (a copy of the recording "
		       "host's root, or a flat directory of its binaries)")
		->type_name("DIR");
	cmd.add_option("--source", opts->sources,
		       "Only these sources (names, aliases or values, as `kprofile sources`)")
		->delimiter(',')
		->type_name("LIST");
	cmd.add_flag("--raw", opts->raw,
		     "Dump every non-zero bucket with its address (kernrate style)");
	cmd.add_flag("--json", opts->json, "Print one JSON document (keys: docs/record-format.md)");
	cmd.add_option("-n,--limit", opts->limit, "Print at most N rows (0: all)")
		->type_name("N")
		->check([](const std::string &v) -> std::string {
			return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos
				       ? ""
				       : "-n takes a number of rows (0: all)";
		});
	cmd.add_option("--pid", opts->pid, "Only the profiles of this process (record follows children)")
		->type_name("PID");
	cmd.add_flag("--processes", opts->processes, "Print the per-process table (pid, comm, hits) first");
	auto *ch = cmd.add_flag("--children", opts->children,
				"Samples (record -g): Children (samples whose call stack holds the "
				"row) and Self columns, sorted by Children (the default)");
	auto *noch = cmd.add_flag("--no-children", opts->no_children,
				  "Samples: Self only (the samples that landed in each row)");
	ch->excludes(noch);
	auto *g = cmd.add_flag("-G", opts->caller_graph,
			       "Samples: each row's call graph, what it calls (--call-graph caller)");
	cmd.add_option("--call-graph", opts->call_graph,
		       "Samples: each row's call graph: caller (what it calls), callee (who calls "
		       "it) or none (default)")
		->type_name("MODE")
		->excludes(g);
	cmd.add_flag("--buckets", opts->buckets,
		     "Report the bucket profiles even when the file has samples (record -g)");
	cmd.footer("Rows marked * got hits from buckets shared with another symbol, split by\n"
		   "the bytes of the sized functions in them.  [unattributed] rows are hits\n"
		   "only the catch-all profiles counted: [user space, unattributed] (-a:\n"
		   "processes without profiles of their own), [user space, outside the\n"
		   "profiled objects], [kernel, outside the kernel and module text].\n"
		   "A recording with samples (record -g) is reported from them: Children/Self,\n"
		   "call graphs (-G, --call-graph callee), real stacks in folded and pprof.\n"
		   "Flame graph: kprofile report --format folded | flamegraph.pl > prof.svg");
	cmd.callback([opts] { record::run_report(*opts); });
}

} // namespace kprofile
