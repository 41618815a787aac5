// SPDX-License-Identifier: GPL-2.0
// cmd_sources.cpp - `kprofile sources`: the profile sources, like
// `xperf -pmcsources` (KPROFILE_IOC_LIST_SOURCES), or an interface's
// built-in table without the module.
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "source_model.h"
#include "sources_view.h"

namespace kprofile {

namespace {

struct SourcesOptions {
	SourcesViewOptions view;
	bool json = false;
	std::string interface;
};

std::vector<SourceEntry> module_sources(const Context &ctx)
{
	Session s = open_session(ctx);
	std::vector<SourceEntry> out;

	for (const auto &info : s.device.list_sources().value())
		out.push_back(from_module(info));
	return out;
}

std::vector<SourceEntry> table_sources(const SourcesOptions &opts)
{
	auto iface = parse_interface(opts.interface);

	if (!iface || *iface == Interface::None)
		throw Failure(usage_error(
			fmt::format("unknown profile interface '{}'", opts.interface),
			{"Tables exist for: emon (Intel), amd64 (AMD, Hygon)."}));
	return from_table(*iface, opts.view.all);
}

void run_sources(const SourcesOptions &opts, const Context &ctx)
{
	const bool from_header = !opts.interface.empty();
	const auto sources = from_header ? table_sources(opts) : module_sources(ctx);

	if (opts.json) {
		print_json(sources_json(sources, opts.view));
		return;
	}
	print_out(render_sources(sources, opts.view));
	if (!from_header && !opts.view.all) {
		std::size_t hidden = sources.size() - select_sources(sources, opts.view).size();

		if (hidden)
			print_err(fmt::format("({} unsupported source{} not shown; --all lists "
					      "them with the reason)\n",
					      hidden, hidden == 1 ? "" : "s"));
	}
}

} // namespace

void setup_sources(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<SourcesOptions>();

	cmd.add_flag("-a,--all", opts->view.all,
		     "Also list the sources not supported here, with the reason");
	cmd.add_option("-i,--interface", opts->interface,
		       "List this interface's built-in table instead of asking the module "
		       "(needs neither the module nor a PMU)")
		->type_name("emon|amd64");
	cmd.add_flag("-v,--verbose", opts->view.verbose,
		     "Add the Select (event select MSR value) and EBX (Emon bit) columns");
	cmd.add_flag("--json", opts->json,
		     "Print a JSON array of sources (keys: tools/README.md)");
	cmd.footer("Intervals are machine-wide: ProfileTime's in 100 ns units, counter sources'\n"
		   "in events per interrupt.  With --interface, Interval is the default and every\n"
		   "table row counts as supported: without a processor there is no CPUID EBX mask.");
	cmd.callback([opts, &ctx] { run_sources(*opts, ctx); });
}

} // namespace kprofile
