// SPDX-License-Identifier: GPL-2.0
// runner.cpp - option handling and the follow loop of record and top.
#include "record/runner.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "record/follow_pacer.h"

namespace kprofile::record {

namespace {

volatile sig_atomic_t g_stop_signal = 0;

void on_signal(int sig)
{
	g_stop_signal = sig;
}

void install_handlers()
{
	struct sigaction sa {};

	g_stop_signal = 0;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
}

void restore_handlers()
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

} // namespace

void add_target_options(CLI::App &app, TargetArgs &a)
{
	app.add_option("-s,--source", a.sources,
		       "profile source(s), by name or value (default ProfileTime); "
		       "several give one profile set each")
		->delimiter(',');
	app.add_option("-i,--interval", a.interval,
		       "set the sources' interval (machine-wide; 100 ns units for ProfileTime)");
	app.add_option("-b,--bucket", a.bucket_shift, "log2 of the bucket size in bytes (2..31)")
		->check(CLI::Range(2, 31));
	app.add_option("--kernel-bucket", a.kernel_bucket_shift,
		       "log2 of the kernel text's bucket size (2..31, default 6: 64 bytes)")
		->check(CLI::Range(2, 31));
	auto *pid = app.add_option("-p,--pid", a.pid, "profile a running process");
	auto *all = app.add_flag("-a,--all-cpus", a.system,
				 "system-wide: every task and the kernel (needs CAP_PERFMON)");
	pid->excludes(all);
	app.add_option("-C,--cpu", a.cpus, "only these CPUs, e.g. 0-3,6");
	auto *u = app.add_flag("--user", a.user_only, "user space only");
	auto *k = app.add_flag("--kernel", a.kernel_only, "kernel only (needs CAP_PERFMON)");
	u->excludes(k);
	app.add_option("--duration", a.duration, "stop after SECS seconds")
		->check(CLI::PositiveNumber);
	app.add_option("command", a.command, "-- CMD ARGS...: run and profile a command");
}

Run::Run(const TargetArgs &args, const std::string &device) : args_(args), dev_(device)
{
	if (args_.command.empty() && !args_.pid && !args_.system)
		throw RecordError(RecordError::Kind::Usage, 0, "nothing to profile",
				  "give -- CMD ARGS..., -p PID, or -a for the whole system");
	if (args_.pid && !args_.command.empty())
		throw RecordError(RecordError::Kind::Usage, 0, "-p and a command exclude each other",
				  "use either -p PID or -- CMD ARGS...");
	info_ = dev_.info();
}

Run::~Run()
{
	restore_handlers();
}

void Run::start()
{
	SessionOptions so;
	auto known = dev_.sources();
	std::vector<std::string> names = args_.sources;

	if (names.empty())
		names.push_back("ProfileTime");
	for (const auto &n : names) {
		const std::uint32_t v = parse_source(n, known);
		bool dup = false;
		for (const auto &s : so.sources)
			dup |= s.value == v;
		if (dup)
			continue;
		SourceDesc d = dev_.source(v);
		if (!d.supported)
			throw RecordError(EOPNOTSUPP, d.name + " is not supported on this machine",
					  d.reason.empty() ? "`kprofile sources` shows what is supported" :
					  d.reason);
		if (args_.interval)
			d.interval = dev_.set_interval(v, *args_.interval);
		so.sources.push_back(d);
	}
	dev_.check_schedule(so.sources);
	so.bucket_shift = args_.bucket_shift;
	so.kernel_bucket_shift = args_.kernel_bucket_shift;
	so.user = !args_.kernel_only;
	so.kernel = !args_.user_only;
	so.kernel_required = args_.kernel_only;
	if (!args_.cpus.empty()) {
		try {
			so.cpus = parse_cpu_list(args_.cpus);
		} catch (const std::invalid_argument &e) {
			throw RecordError(RecordError::Kind::Usage, 0, e.what());
		}
	}
	if (!args_.command.empty())
		cmd_ = std::make_unique<Command>(args_.command);
	if (args_.system) {
		so.target = KPROFILE_TARGET_SYSTEM;
	} else {
		so.target = KPROFILE_TARGET_PID;
		so.pid = cmd_ ? cmd_->pid() : args_.pid;
	}
	install_handlers();
	session_ = std::make_unique<Session>(dev_, so);
	session_->start_base();
	if (cmd_) {
		cmd_->exec();
		session_->follow();
		session_->start_pending();
		cmd_->resume();
	} else if (!session_->follow()) {
		throw RecordError(ESRCH, fmt::format("cannot read /proc/{}/maps", args_.pid),
				  "the process does not exist, or you may not read its maps: "
				  "profile your own processes or run as root");
	} else {
		session_->start_pending();
	}
	for (const auto &n : session_->notes())
		std::cerr << "kprofile: " << n << "\n";
}

bool Run::interrupted() const
{
	return g_stop_signal != 0;
}

void Run::loop(const std::function<bool()> &tick, std::chrono::milliseconds every)
{
	using clock = std::chrono::steady_clock;
	using std::chrono::milliseconds;
	const auto begin = clock::now();
	auto next_tick = begin + every;
	// Maps are re-read on the pacer's schedule (1 ms after a change,
	// doubling to 1 s while nothing changes), and at once after an exec;
	// the loop itself wakes every 20 ms at most.
	FollowPacer pacer;
	std::optional<ExecWatch> exec;
	auto next_read = begin;

	if (!args_.system)
		exec.emplace(cmd_ ? cmd_->pid() : args_.pid);
	for (;;) {
		if (g_stop_signal)
			break;
		if (args_.duration &&
		    clock::now() - begin >= std::chrono::duration<double>(*args_.duration))
			break;
		if (cmd_) {
			if (auto st = cmd_->poll()) {
				command_exit_ = Command::exit_code(*st);
				break;
			}
		}
		const bool execd = exec && exec->changed();
		if (execd || clock::now() >= next_read) {
			const std::size_t before = session_->profile_count();

			if (!session_->follow() && !cmd_ && !args_.system)
				break;	// -p PID has exited
			if (execd)
				pacer.reset();
			next_read = clock::now() +
				    pacer.after_read(session_->profile_count() != before);
		}
		if (tick && clock::now() >= next_tick) {
			if (!tick())
				break;
			next_tick = clock::now() + every;
		}
		const auto wait = std::chrono::duration_cast<milliseconds>(next_read - clock::now());
		std::this_thread::sleep_for(std::clamp(wait, milliseconds(1), milliseconds(20)));
	}
}

void Run::stop()
{
	if (session_) {
		session_->stop();
		for (const auto &n : session_->stop_notes())
			std::cerr << "kprofile: " << n << "\n";
	}
	if (cmd_ && !command_exit_) {
		if (auto st = cmd_->poll())
			command_exit_ = Command::exit_code(*st);
		else
			cmd_->terminate();
	}
}

ProfileData Run::data() const
{
	ProfileData d = session_->snapshot();

	d.machine = machine_record(info_);
	d.start_time = static_cast<std::uint64_t>(std::time(nullptr)) - d.duration_ns / 1000000000ULL;
	if (!args_.command.empty()) {
		d.target = args_.system ? "system" : "command";
		d.command = args_.command;
	}
	return d;
}

} // namespace kprofile::record
