// SPDX-License-Identifier: GPL-2.0
// cmd_report.cpp - `kprofile report`: where the hits of a record file went.
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "errors.h"
#include "record/commands.h"
#include "record/process_view.h"
#include "record/report_render.h"
#include "record/resolver.h"

namespace kprofile {

namespace record {
namespace {

struct ReportOptions {
	std::string input = "kprofile.data";
	std::string sort = "overhead";
	std::vector<std::string> sources;
	bool raw = false;
	bool json = false;
	std::size_t limit = 0;
	std::int64_t pid = 0;		// only this process's profiles
	bool processes = false;		// the per-process table first
};

void run_report(const ReportOptions &opts)
{
	try {
		const std::vector<std::string> keys = parse_sort_keys(opts.sort);
		ProfileData d = read_file(opts.input);
		FileResolver resolver;

		if (opts.pid)
			d = only_process(d, opts.pid);
		if (opts.processes && !opts.json)
			print_out(render_processes(d) + "\n");

		if (opts.raw) {
			auto buckets = raw_buckets(d, resolver, opts.sources);
			if (opts.json)
				print_json(raw_json(d, buckets));
			else
				print_out(render_raw(buckets));
			return;
		}
		Report rep = build_report(d, resolver, opts.sources);
		sort_rows(rep.rows, keys);
		if (opts.limit && rep.rows.size() > opts.limit && opts.json)
			rep.rows.resize(opts.limit);
		if (opts.json)
			print_json(report_json(d, rep));
		else
			print_out(render_table(d, rep, opts.limit));
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
	cmd.add_option("--sort", opts->sort,
		       "Sort keys, comma-separated: overhead, hits, source, object, symbol");
	cmd.add_option("--source", opts->sources, "Only these sources (names or values)")
		->delimiter(',');
	cmd.add_flag("--raw", opts->raw,
		     "Dump every non-zero bucket with its address (kernrate style)");
	cmd.add_flag("--json", opts->json, "Print one JSON document (keys: docs/record-format.md)");
	cmd.add_option("-n,--limit", opts->limit, "Print at most N rows");
	cmd.add_option("--pid", opts->pid, "Only the profiles of this process (record follows children)");
	cmd.add_flag("--processes", opts->processes, "Print the per-process table (pid, comm, hits) first");
	cmd.footer("Rows marked * got hits from buckets shared with another symbol, split by\n"
		   "bytes of overlap.  [unattributed] is what the catch-all profile saw outside\n"
		   "every profiled range.");
	cmd.callback([opts] { record::run_report(*opts); });
}

} // namespace kprofile
