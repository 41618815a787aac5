// SPDX-License-Identifier: GPL-2.0
// cmd_record.cpp - `kprofile record`: profile a command, a process or the
// system into a record file (docs/record-format.md).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <tuple>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.h"
#include "errors.h"
#include "args_check.h"
#include "report_processes.h"
#include "runner.h"
#include "sample_recorder.h"
#include "symbolize.h"

namespace kprofile {

namespace record {

namespace {

// The intervals used and, when record followed several processes, the
// busiest of them: "[ kprofile record: ProfileTime every 1 ms; 3
// processes: spin 1235 (1180 hits), ... ]".
std::string record_summary_extra(const ProfileData &d)
{
	std::string out = "[ kprofile record: ";

	for (std::size_t i = 0; i < d.sources.size(); i++) {
		const auto &s = d.sources[i];
		out += (i ? ", " : "") + s.name + " every " +
		       (s.timer ? fmt::format("{:g} ms", s.interval / 10000.0) :
			fmt::format("{} events", s.interval));
	}
	if (d.processes.size() > 1) {
		const auto totals = process_totals(d);
		out += fmt::format("; {} processes:", totals.size());
		for (std::size_t i = 0; i < totals.size() && i < 4; i++)
			out += fmt::format("{} {} {} ({} hits)", i ? "," : "", totals[i].process.comm,
					   totals[i].process.pid,
					   std::max(totals[i].total, totals[i].attributed));
		if (totals.size() > 4)
			out += ", ...";
		out += " (report --processes, --pid PID)";
	}
	return out + " ]\n";
}

// The kernel symbols of the sampled kernel frames, added to those of the
// kernel buckets (sorted by address, no duplicates).
void add_sampled_kernel_symbols(ProfileData &d, const std::vector<KernelSymbolRecord> &all)
{
	auto more = kernel_symbols_for_samples(d.samples.samples, all);
	if (more.empty())
		return;
	auto &ks = d.kernel_symbols;
	ks.insert(ks.end(), more.begin(), more.end());
	std::stable_sort(ks.begin(), ks.end(), [](const auto &a, const auto &b) {
		return std::tie(a.addr, a.name) < std::tie(b.addr, b.name);
	});
	ks.erase(std::unique(ks.begin(), ks.end(),
			     [](const auto &a, const auto &b) {
				     return a.addr == b.addr && a.name == b.name;
			     }),
		 ks.end());
}

// "[ kprofile record: 2890 samples with call stacks, 3 task records, 0
// lost ]", and a loud warning with the remedy when records were lost.
std::string sample_summary(const SampleData &s)
{
	std::size_t stacks = 0;
	for (const auto &x : s.samples)
		stacks += !x.frames.empty();
	std::string out = fmt::format("[ kprofile record: {} samples ({} with call stacks), {} "
				      "task records, {} lost ]\n", s.samples.size(), stacks,
				      s.tasks.size(), s.lost);
	if (s.lost)
		out += fmt::format("kprofile: WARNING: {} sample records were LOST: the rings "
				   "({} pages per CPU) were full before record read them.\n"
				   "  Use larger rings (-m/--mmap-pages {}) or a lower rate "
				   "(-F 250, or -i with a longer interval).\n",
				   s.lost, s.ring_pages,
				   std::min<std::uint32_t>(KPROFILE_STREAM_MAX_PAGES,
							   std::max<std::uint32_t>(s.ring_pages, 16) * 4));
	if (s.filtered)
		out += fmt::format("[ kprofile record: {} samples of CPUs outside -C left out ]\n",
				   s.filtered);
	return out;
}

// An existing FILE becomes FILE.old (as perf.data.old), so a second
// record does not silently replace the first.
void keep_previous(const std::string &path)
{
	struct stat st {};

	if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
	    ::rename(path.c_str(), (path + ".old").c_str()) != 0)
		print_err(fmt::format("kprofile: warning: could not keep the previous {} as {}.old: {}\n",
				      path, path, errno_text(errno)));
}

struct RecordOptions {
	TargetArgs target;
	std::string output = "kprofile.data";
};

void run_record(const RecordOptions &opts, const Context &ctx)
{
	try {
		check_output_path(opts.output);
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
		if (d.samples.present)
			add_sampled_kernel_symbols(d, r.session().kallsyms());
		keep_previous(opts.output);
		write_file(opts.output, d);

		std::uint64_t hits = 0;
		for (const auto &rg : d.ranges)
			if (rg.kind == RangeKind::CatchAll)
				for (auto b : rg.buckets)
					hits += b;
		// perf's "Captured and wrote 0.123 MB perf.data (598 samples)";
		// the number of profile objects was jargon (the review's C12).
		// "N hits in" stays first: testing/bench/guest.py reads it.
		struct stat st {};
		const double mb = ::stat(opts.output.c_str(), &st) == 0 ? st.st_size / 1e6 : 0.0;
		print_err(fmt::format("[ kprofile record: {} hits in {:.3f} s; wrote {:.3f} MB to {} ]\n",
				      hits, d.duration_ns / 1e9, mb, opts.output));
		print_err(record_summary_extra(d));
		if (d.samples.present)
			print_err(sample_summary(d.samples));
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

	record::add_target_options(cmd, opts->target, true);
	cmd.add_option("-o,--output", opts->output, "The record file (default kprofile.data)");
	cmd.footer("Stops when the command exits, on Ctrl-C, or after --duration.\n"
		   "Examples: kprofile record -- ./prog args;  kprofile record -p PID --duration 5;\n"
		   "          sudo kprofile record -a --duration 5;  kprofile record -g -- ./prog\n"
		   "          (call stacks: report --children, report --format folded, script).\n"
		   "Then: kprofile report.");
	cmd.callback([opts, &ctx] { record::run_record(*opts, ctx); });
}

} // namespace kprofile
