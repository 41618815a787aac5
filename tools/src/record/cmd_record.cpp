// SPDX-License-Identifier: GPL-2.0
// cmd_record.cpp - `kprofile record`: profile a command, a process or the
// system into a record file (docs/record-format.md).
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.h"
#include "errors.h"
#include "record/commands.h"
#include "record/runner.h"
#include "record/symbolize.h"

namespace kprofile {

namespace record {

void fail(const std::exception &e)
{
	Error err;

	err.what = e.what();
	if (const auto *re = dynamic_cast<const RecordError *>(&e)) {
		err.err = re->error();
		switch (re->kind()) {
		case RecordError::Kind::Device:
			err.code = ExitCode::Device;
			break;
		case RecordError::Kind::Usage:
			err.code = ExitCode::Usage;
			break;
		case RecordError::Kind::Refused:
			err.code = ExitCode::Refused;
			break;
		case RecordError::Kind::Internal:
			err.code = ExitCode::Internal;
			break;
		}
		if (!re->advice().empty())
			err.hints.push_back(re->advice());
	} else if (dynamic_cast<const FormatError *>(&e)) {
		err.code = ExitCode::Usage;
	} else if (dynamic_cast<const std::invalid_argument *>(&e)) {
		err.code = ExitCode::Usage;
	}
	throw Failure(std::move(err));
}

namespace {

struct RecordOptions {
	TargetArgs target;
	std::string output = "kprofile.data";
};

void run_record(const RecordOptions &opts, const Context &ctx)
{
	try {
		Run r(opts.target, ctx.device);
		r.start();
		r.loop(nullptr, std::chrono::milliseconds(1000));
		r.stop();
		ProfileData d = r.data();
		bool kernel = false;
		for (const auto &rg : d.ranges)
			kernel |= rg.kind == RangeKind::Kernel;
		if (kernel)
			d.kernel_symbols = kernel_symbols_for(d, r.session().kallsyms());
		write_file(opts.output, d);

		std::uint64_t hits = 0;
		for (const auto &rg : d.ranges)
			if (rg.kind == RangeKind::CatchAll)
				for (auto b : rg.buckets)
					hits += b;
		print_err(fmt::format("[ kprofile record: {} hits in {} profiles over {:.3f} s, "
				      "written to {} ]\n",
				      hits, d.ranges.size(), d.duration_ns / 1e9, opts.output));
		if (r.command_exit() && *r.command_exit())
			print_err(fmt::format("[ kprofile record: the command exited with status {} ]\n",
					      *r.command_exit()));
	} catch (const Failure &) {
		throw;
	} catch (const std::exception &e) {
		fail(e);
	}
}

} // namespace
} // namespace record

void setup_record(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<record::RecordOptions>();

	record::add_target_options(cmd, opts->target);
	cmd.add_option("-o,--output", opts->output, "The record file (default kprofile.data)");
	cmd.footer("Stops when the command exits, on Ctrl-C, or after --duration.\n"
		   "Examples: kprofile record -- ./prog args;  kprofile record -p PID --duration 5;\n"
		   "          sudo kprofile record -a --duration 5.  Then: kprofile report.");
	cmd.callback([opts, &ctx] { record::run_record(*opts, ctx); });
}

} // namespace kprofile
