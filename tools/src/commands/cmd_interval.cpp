// SPDX-License-Identifier: GPL-2.0
// cmd_interval.cpp - `kprofile interval SOURCE [N]`: get or set a
// source's machine-wide interval (NtQueryIntervalProfile,
// NtSetIntervalProfile).
#include <limits>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "interval_parse.h"
#include "source_parse.h"
#include "sources_render.h"

namespace kprofile {

namespace {

struct IntervalOptions {
	std::string source;
	std::string interval;	// empty: get
	bool json = false;
};

// N: a number in the source's units (decimal or 0x hex, as before), or
// for ProfileTime a time as record's -i takes it (1ms, 250us: the one
// parser, interval_parse.h).  Its syntax is checked before the device is
// opened; whether a unit fits the source, once the source is known.
// "default" is the source's default interval (@def); 0 is refused: it
// used to be clamped to the minimum, machine-wide, without a word.
std::optional<std::uint32_t> requested_interval(const IntervalOptions &opts, bool timer,
						std::uint32_t def = 0)
{
	if (opts.interval.empty())
		return std::nullopt;
	if (opts.interval == "default")
		return def;
	if (auto n = parse_number(opts.interval, std::numeric_limits<std::uint32_t>::max(),
				  "interval")) {
		if (n->value() == 0)
			throw Failure(usage_error(
				"interval 0: an interval is a positive number",
				{"`kprofile interval SOURCE default` restores the source's default; "
				 "the smallest interval is the source's minimum (kprofile interval "
				 "SOURCE prints it)"}));
		return static_cast<std::uint32_t>(n->value());
	}
	try {
		return parse_interval(opts.interval, timer);
	} catch (const Failure &f) {
		if (f.error().what.find("positive number") == std::string::npos)
			throw;
		throw Failure(usage_error(
			fmt::format("interval '{}' is not a number", opts.interval),
			{"Give it in the source's units, decimal or hex (0x...): 100 ns units for "
			 "ProfileTime, events for counter sources; or ProfileTime's as a time: "
			 "1ms, 250us, 0.5ms, 100000ns, 1s."}));
	}
}

void run_interval(const IntervalOptions &opts, const Context &ctx)
{
	(void)requested_interval(opts, true);	// the syntax, before the device
	Session s = open_session(ctx);
	const auto iface = static_cast<Interface>(s.info.interface);
	const ParsedSource src = parse_source(opts.source, iface).value();
	ErrorContext ectx{.device = ctx.device, .source = source_label(src.value, src.name),
			  .reason = {}, .module_abi = s.info.abi_version,
			  .hypervisor = (s.info.flags & KPROFILE_INFO_HYPERVISOR) != 0};

	auto query = s.device.query_source(src.value);
	if (!query)
		throw Failure(explain(Op::QuerySource, query.error().err, ectx));
	const auto requested = requested_interval(opts, src.value == KPROFILE_SOURCE_TIME,
						  query.value().default_interval);
	const Op op = requested ? Op::SetInterval : Op::GetInterval;
	IntervalOutcome outcome{from_module(query.value()), 0, requested};
	ectx.reason = outcome.source.reason;

	auto result = requested ? s.device.set_interval(src.value, *requested) :
				  s.device.get_interval(src.value);
	if (!result)
		throw Failure(explain(op, result.error().err, ectx));
	outcome.interval = result.value();
	outcome.source.interval = outcome.interval;

	if (opts.json)
		print_json(interval_json(outcome));
	else
		print_out(render_interval(outcome));
}

} // namespace

void setup_interval(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<IntervalOptions>();

	cmd.add_option("SOURCE", opts->source,
		       "A profile source: ProfileTotalIssues, TotalIssues, totalissues, 0x02 or 2")
		->required();
	cmd.add_option("N", opts->interval,
		       "Set the interval to N (decimal or 0x hex, the source's units), or for "
		       "ProfileTime to a time: 1ms, 250us, 0.5ms (as record -i); omitted: print it");
	cmd.add_flag("--json", opts->json, "Print one JSON object (keys: tools/README.md)");
	const IntervalRange t = interval_range(KPROFILE_SOURCE_TIME);
	const IntervalRange c = interval_range(KPROFILE_SOURCE_TOTAL_ISSUES);

	cmd.footer(fmt::format(
		"The interval is machine-wide and lasts until the module is unloaded.\n"
		"ProfileTime counts in 100 ns units ({}..{}, default {});\n"
		"counter sources in events per interrupt ({}..{}, default {}).\n"
		"A value outside the range is clamped, and the output says so; 0 is refused;\n"
		"`kprofile interval SOURCE default` restores the default.",
		t.min_interval, t.max_interval, t.default_interval, c.min_interval, c.max_interval,
		c.default_interval));
	cmd.callback([opts, &ctx] { run_interval(*opts, ctx); });
}

} // namespace kprofile
