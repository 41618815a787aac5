// SPDX-License-Identifier: GPL-2.0
// cmd_sources.cpp - `kprofile sources`: the profile sources, like
// `xperf -pmcsources` (KPROFILE_IOC_LIST_SOURCES), or an interface's
// built-in table without the module.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "amd_family.h"
#include "command.h"
#include "conflicts_render.h"
#include "source_model.h"
#include "source_parse.h"
#include "sources_render.h"

namespace kprofile {

namespace {

struct SourcesOptions {
	SourcesRenderOptions view;
	bool json = false;
	std::string interface;
	std::string family;		// AMD family for the Amd64 table
	std::vector<std::string> names;	// only these sources
	bool conflicts = false;		// can the named sources run together?
	bool names_only = false;	// one name a line (shell completion)
};

struct Listing {
	Interface iface;
	std::vector<SourceEntry> sources;
};

Listing module_sources(const Context &ctx)
{
	Session s = open_session(ctx);
	Listing out{static_cast<Interface>(s.info.interface), {}};

	for (const auto &info : s.device.list_sources().value())
		out.sources.push_back(from_module(info));
	return out;
}

std::string family_names()
{
	std::string out;

	for (const auto &f : amd_families())
		out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", f.name, f.label);
	return out;
}

Listing table_sources(const SourcesOptions &opts)
{
	auto iface = parse_interface(opts.interface.empty() ? "amd64" : opts.interface);
	const AmdFamily *family = nullptr;

	if (!iface || *iface == Interface::None)
		throw Failure(usage_error(
			fmt::format("unknown profile interface '{}'", opts.interface),
			{"Tables exist for: emon (Intel), amd64 (AMD, Hygon)."}));
	if (!opts.family.empty()) {
		if (*iface != Interface::Amd64)
			throw Failure(usage_error("--family selects an AMD family: it applies to "
						  "the amd64 table only"));
		family = parse_amd_family(opts.family);
		if (!family)
			throw Failure(usage_error(
				fmt::format("unknown AMD family '{}'", opts.family),
				{fmt::format("Families: {}.", family_names()),
				 "`kprofile info` names the running one."}));
	}
	return {*iface, from_table(*iface, opts.view.all || !opts.names.empty(), family)};
}

// Every SOURCE argument parsed on @iface, and the errors of the bad ones:
// one bad name does not hide the others (the UX review's B1).
struct ParsedNames {
	std::vector<ParsedSource> good;
	std::vector<Error> bad;
};

ParsedNames parse_names(const std::vector<std::string> &names, Interface iface)
{
	ParsedNames out;

	for (const auto &name : names) {
		auto r = parse_source(name, iface);

		if (r)
			out.good.push_back(r.value());
		else
			out.bad.push_back(r.error());
	}
	return out;
}

// Report every bad SOURCE: all but the last on stderr now, the last as
// the Failure (exit 1).  Nothing when there is none.
void fail_on_bad_names(const ParsedNames &p)
{
	if (p.bad.empty())
		return;
	std::fflush(stdout);	// what was shown first, then the errors
	for (std::size_t i = 0; i + 1 < p.bad.size(); i++)
		print_err(p.bad[i].message());
	Error last = p.bad.back();
	if (p.bad.size() > 1)
		last.hints.push_back(fmt::format("({} of the SOURCE arguments are unknown.)",
						 p.bad.size()));
	throw Failure(std::move(last));
}

// The sources named on the command line, in that order.
std::vector<SourceEntry> only(const Listing &l, const std::vector<ParsedSource> &asked)
{
	std::vector<SourceEntry> out;

	for (const auto &src : asked)
		for (const auto &e : l.sources)
			if (e.value == src.value)
				out.push_back(e);
	return out;
}

void run_conflicts(const SourcesOptions &opts, const Context &ctx)
{
	if (!opts.interface.empty() || !opts.family.empty())
		throw Failure(usage_error("--conflicts asks the running module; it cannot be "
					  "combined with --interface or --family"));
	if (opts.names.empty() || opts.names.size() > KPROFILE_MAX_COUNTERS)
		throw Failure(usage_error(
			fmt::format("--conflicts needs 1 to {} SOURCE arguments", KPROFILE_MAX_COUNTERS),
			{"Example: kprofile sources --conflicts TotalIssues CacheMisses"}));

	Session s = open_session(ctx);
	const auto iface = static_cast<Interface>(s.info.interface);
	const ParsedNames parsed = parse_names(opts.names, iface);
	std::vector<std::uint32_t> values;

	fail_on_bad_names(parsed);
	for (const auto &p : parsed.good)
		values.push_back(p.value);
	const Conflicts c = conflicts_from(s.device.schedule(values).value(), parsed.good);

	if (opts.json)
		print_json(conflicts_json(c));
	else
		print_out(render_conflicts(c));
	// The answer is the exit status too, as grep's: 3 (the module would
	// refuse them now), so a script need not parse the JSON's "fits".
	if (!c.fits) {
		std::fflush(stdout);
		std::exit(static_cast<int>(ExitCode::Refused));
	}
}

void run_sources(const SourcesOptions &opts, const Context &ctx)
{
	if (opts.conflicts) {
		run_conflicts(opts, ctx);
		return;
	}

	const bool from_header = !opts.interface.empty() || !opts.family.empty();
	Listing listing = from_header ? table_sources(opts) : module_sources(ctx);
	SourcesRenderOptions view = opts.view;

	view.counters = !opts.family.empty();

	ParsedNames parsed;
	if (!opts.names.empty()) {
		// Show the good ones, then fail naming every bad one.
		parsed = parse_names(opts.names, listing.iface);
		listing.sources = only(listing, parsed.good);
		view.all = true;	// a source asked for by name is shown
		if (listing.sources.empty())
			fail_on_bad_names(parsed);
	}
	if (opts.names_only) {
		// The names, then the perf and xperf aliases of those listed
		// (time, cycles, ...): what completion offers.
		std::string aliases;
		for (const auto &e : select_sources(listing.sources, view)) {
			print_out(e.name + "\n");
			for (std::string_view a : aliases_of(e.value))
				aliases += std::string(a) + "\n";
		}
		print_out(aliases);
		fail_on_bad_names(parsed);
		return;
	}
	if (opts.json) {
		print_json(sources_json(listing.sources, view));
		fail_on_bad_names(parsed);
		return;
	}
	print_out(render_sources(listing.sources, view));
	fail_on_bad_names(parsed);
	if (!from_header && !view.all) {
		std::size_t hidden = listing.sources.size() - select_sources(listing.sources, view).size();

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
		       "(needs neither the module nor a PMU); intel is emon, amd is amd64")
		->type_name("emon|amd64");	// also intel (= emon), amd (= amd64)
	cmd.add_option("-f,--family", opts->family,
		       "List the amd64 table as this AMD family supports it, with the counters "
		       "each event may use and why the others are unsupported (needs neither "
		       "the module nor a PMU)")
		->type_name("k8|fam10h|fam15h|zen1..zen5|hygon|other");
	cmd.add_flag("-v,--verbose", opts->view.verbose,
		     "Add the Select (event select MSR value) and EBX (Emon bit) columns");
	cmd.add_flag("--json", opts->json,
		     "Print a JSON array of sources (keys: tools/README.md)");
	cmd.add_flag("--names", opts->names_only,
		     "Print only the names, one a line, then their perf and xperf aliases "
		     "(what shell completion offers)");
	cmd.add_flag("--conflicts", opts->conflicts,
		     "Say whether the SOURCEs can be armed together now, on which counters, "
		     "and what holds the others; exit 3 when they cannot");
	cmd.add_option("SOURCE", opts->names,
		       "Show only these sources (names or numbers, as for `interval`), "
		       "supported or not");
	cmd.footer("Intervals are machine-wide: ProfileTime's in 100 ns units, counter sources'\n"
		   "in events per interrupt.  With --interface, Interval is the default and every\n"
		   "table row counts as supported: without a processor there is no CPUID EBX mask.\n"
		   "With --family, an amd64 row is supported when its event still means the same\n"
		   "on that family (kprofile_amd_families.h cites where from), and Counters says\n"
		   "which of the four counters it may use (family 15h constrains many events).");
	cmd.callback([opts, &ctx] { run_sources(*opts, ctx); });
}

} // namespace kprofile
