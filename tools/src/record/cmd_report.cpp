// SPDX-License-Identifier: GPL-2.0
// cmd_report.cpp - `kprofile report`: where the hits of a record file went.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "errors.h"
#include "record/commands.h"
#include "record/process_view.h"
#include "record/report_export.h"
#include "record/report_render.h"
#include "record/resolver.h"

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
};

const char *const formats[] = {"table", "json", "raw", "folded", "csv", "pprof"};

std::string chosen_format(const ReportOptions &opts)
{
	std::string f = opts.format;

	if (f.empty())
		f = opts.raw ? "raw" : opts.json ? "json" : "table";
	else if (opts.raw && f != "raw" && f != "json")
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
	if (opts.output.empty() || opts.output == "-") {
		if (binary && ::isatty(STDOUT_FILENO))
			throw Failure(usage_error("a pprof profile is binary: not printed to a terminal",
						  {"Redirect it (> prof.pb.gz) or give -o FILE; then "
						   "`go tool pprof -top prof.pb.gz`."}));
		print_out(bytes);
		return;
	}
	std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
	if (out)
		out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
	if (!out || !out.flush())
		throw Failure(errno_error(errno, "cannot write " + opts.output,
					  {"choose another -o FILE or directory"}));
}

void run_report(const ReportOptions &opts)
{
	try {
		const std::string format = chosen_format(opts);
		const std::vector<std::string> keys = parse_sort_keys(opts.sort);
		ProfileData d = read_file(opts.input);
		const std::vector<std::string> sources = resolve_source_filter(d, opts.sources);
		FileResolver resolver;

		if (opts.pid)
			d = only_process(d, opts.pid);
		if (opts.processes && format == "table")
			print_out(render_processes(d) + "\n");

		if (opts.raw || format == "raw") {
			auto buckets = raw_buckets(d, resolver, sources);
			if (format == "json")
				emit(opts, raw_json(d, buckets).dump(2) + "\n", false);
			else
				emit(opts, render_raw(buckets), false);
			return;
		}
		Report rep = build_report(d, resolver, sources);
		sort_rows(rep.rows, keys);
		if (opts.limit && rep.rows.size() > opts.limit && format != "table")
			rep.rows.resize(opts.limit);
		if (format == "json")
			emit(opts, report_json(d, rep).dump(2) + "\n", false);
		else if (format == "folded")
			emit(opts, render_folded(rep), false);
		else if (format == "csv")
			emit(opts, render_csv(rep), false);
		else if (format == "pprof")
			emit(opts, render_pprof(d, rep), true);
		else
			emit(opts, render_table(d, rep, opts.limit), false);
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

	cmd.add_option("-i,--input", opts->input, "The record file (default kprofile.data)");
	cmd.add_option("-o,--output", opts->output, "Write the report to FILE instead of stdout");
	cmd.add_option("--format", opts->format,
		       "table (default), json, raw, folded (flamegraph.pl, speedscope), csv, "
		       "pprof (gzipped profile.proto for go tool pprof, Pyroscope, Parca)")
		->type_name("FORMAT");
	cmd.add_option("--sort", opts->sort,
		       "Sort keys, comma-separated: overhead, hits, source, object, symbol");
	cmd.add_option("--source", opts->sources,
		       "Only these sources (names, aliases or values, as `kprofile sources`)")
		->delimiter(',');
	cmd.add_flag("--raw", opts->raw,
		     "Dump every non-zero bucket with its address (kernrate style)");
	cmd.add_flag("--json", opts->json, "Print one JSON document (keys: docs/record-format.md)");
	cmd.add_option("-n,--limit", opts->limit, "Print at most N rows");
	cmd.add_option("--pid", opts->pid, "Only the profiles of this process (record follows children)");
	cmd.add_flag("--processes", opts->processes, "Print the per-process table (pid, comm, hits) first");
	cmd.footer("Rows marked * got hits from buckets shared with another symbol, split by\n"
		   "the bytes of the sized functions in them.  [unattributed] is what the\n"
		   "catch-all profile saw outside every profiled range.\n"
		   "Flame graph: kprofile report --format folded | flamegraph.pl > prof.svg");
	cmd.callback([opts] { record::run_report(*opts); });
}

} // namespace kprofile
