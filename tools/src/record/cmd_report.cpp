// SPDX-License-Identifier: GPL-2.0
// cmd_report.cpp - `kprofile report`: where the hits of a record file went.
#include <iostream>

#include <CLI/CLI.hpp>

#include "record/commands.h"
#include "record/report_render.h"
#include "record/resolver.h"

namespace kprofile::record {

void ReportCommand::setup(CLI::App &app)
{
	app.add_option("-i,--input", input, "the record file (default kprofile.data)");
	app.add_option("--sort", sort, "sort keys: overhead, hits, source, object, symbol "
		       "(comma-separated)");
	app.add_option("--source", sources, "only these sources (names or values)")
		->delimiter(',');
	app.add_flag("--raw", raw, "dump every non-zero bucket with its address (kernrate style)");
	app.add_flag("--json", json, "print one JSON document");
	app.add_option("-n,--limit", limit, "print at most N rows");
}

int ReportCommand::run()
{
	try {
		const std::vector<std::string> keys = parse_sort_keys(sort);
		ProfileData d = read_file(input);
		FileResolver resolver;

		if (raw) {
			auto buckets = raw_buckets(d, resolver, sources);
			if (json)
				std::cout << raw_json(d, buckets).dump(2) << "\n";
			else
				std::cout << render_raw(buckets);
			return 0;
		}
		Report rep = build_report(d, resolver, sources);
		sort_rows(rep.rows, keys);
		if (limit && rep.rows.size() > limit && json)
			rep.rows.resize(limit);
		if (json)
			std::cout << report_json(d, rep).dump(2) << "\n";
		else
			std::cout << render_table(d, rep, limit);
		return 0;
	} catch (const std::invalid_argument &e) {
		std::cerr << "kprofile report: error: " << e.what() << "\n";
		return 2;
	} catch (const std::exception &e) {
		return report_error("report", e);
	}
}

} // namespace kprofile::record
