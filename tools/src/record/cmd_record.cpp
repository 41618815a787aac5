// SPDX-License-Identifier: GPL-2.0
// cmd_record.cpp - `kprofile record`: profile a command, a process or the
// system into a record file.
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "record/commands.h"
#include "record/symbolize.h"

namespace kprofile::record {

int report_error(const char *cmd, const std::exception &e)
{
	std::cerr << "kprofile " << cmd << ": error: " << e.what() << "\n";
	if (const auto *re = dynamic_cast<const RecordError *>(&e)) {
		if (!re->advice().empty())
			std::cerr << "  " << re->advice() << "\n";
		switch (re->error()) {
		case ENOENT:
		case ENODEV:
		case ENXIO:
			return 3;	// no module
		case EPERM:
		case EACCES:
			return 4;	// no permission
		case EOPNOTSUPP:
			return 5;	// unsupported here
		case EBUSY:
			return 6;	// counters busy
		case EINVAL:
			return 2;	// usage
		default:
			return 1;
		}
	}
	if (dynamic_cast<const FormatError *>(&e))
		return 1;
	return 1;
}

void RecordCommand::setup(CLI::App &app)
{
	add_target_options(app, target);
	app.add_option("-o,--output", output, "the record file (default kprofile.data)");
}

int RecordCommand::run()
{
	try {
		Run r(target);
		r.start();
		r.loop(nullptr, std::chrono::milliseconds(1000));
		r.stop();
		ProfileData d = r.data();
		bool kernel = false;
		for (const auto &rg : d.ranges)
			kernel |= rg.kind == RangeKind::Kernel;
		if (kernel)
			d.kernel_symbols = kernel_symbols_for(d, read_kallsyms());
		write_file(output, d);

		std::uint64_t hits = 0;
		for (const auto &rg : d.ranges)
			if (rg.kind == RangeKind::CatchAll)
				for (auto b : rg.buckets)
					hits += b;
		std::cerr << fmt::format("[ kprofile record: {} hits in {} profiles over {:.3f} s, "
					 "written to {} ]\n",
					 hits, d.ranges.size(), d.duration_ns / 1e9, output);
		if (r.command_exit() && *r.command_exit())
			std::cerr << fmt::format("[ kprofile record: the command exited with status {} ]\n",
						 *r.command_exit());
		return 0;
	} catch (const std::exception &e) {
		return report_error("record", e);
	}
}

} // namespace kprofile::record
