// SPDX-License-Identifier: GPL-2.0
// cmd_script.cpp - `kprofile script`: dump a recording's samples with
// their call stacks (record -g), as perf script does, or as JSON.
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.h"
#include "errors.h"
#include "resolver.h"
#include "script_render.h"

namespace kprofile {

namespace record {
namespace {

struct ScriptArgs {
	std::string input = "kprofile.data";
	std::string output;
	std::string symfs;
	bool json = false;
	ScriptOptions view;
};

void run_script(const ScriptArgs &a)
{
	try {
		const ProfileData d = read_file(a.input);
		if (!d.damage.empty())
			print_err("kprofile: warning: " + a.input + ": " + d.damage + "\n");
		if (!d.samples.present)
			throw Failure(usage_error(a.input + " has no samples: it was recorded without -g",
						  {"record them with `kprofile record -g -- CMD`; "
						   "`kprofile report` shows the bucket profiles"}));
		FileResolver resolver({a.symfs, false});
		SampleSymbols syms(d, resolver, false, a.symfs);
		if (a.json)
			write_output(a.output, script_json(d, syms, a.view).dump(2) + "\n");
		else
			write_output(a.output, render_script(d, syms, a.view));
		if (d.samples.lost)
			print_err(fmt::format("kprofile script: {} sample records were lost while "
					      "recording (record with a larger -m/--mmap-pages or a "
					      "lower rate)\n", d.samples.lost));
	} catch (const Failure &) {
		throw;
	} catch (const std::exception &e) {
		fail(e);
	}
}

} // namespace
} // namespace record

void setup_script(CLI::App &cmd, Context &)
{
	auto a = std::make_shared<record::ScriptArgs>();

	add_input_option(cmd, a->input);
	cmd.add_option("-o,--output", a->output, "Write to FILE instead of stdout")->type_name("FILE");
	cmd.add_flag("--json", a->json,
		     "Print one JSON document: samples with frames, task records, lost "
		     "(keys: docs/record-format.md)");
	cmd.add_flag("--show-task-events", a->view.task_events,
		     "Also print the fork, exec and exit records (text; JSON always has them)");
	cmd.add_option("--pid", a->view.pid, "Only this process's samples")->type_name("PID");
	cmd.add_option("--symfs", a->symfs,
		       "Look for the recorded objects under DIR first (as report --symfs)")
		->type_name("DIR");
	cmd.footer("Each sample: comm pid/tid [cpu] time: source: ip symbol+offset (object),\n"
		   "then its call stack, innermost first.  Record with: kprofile record -g -- CMD");
	cmd.callback([a] { record::run_script(*a); });
}

} // namespace kprofile
