// SPDX-License-Identifier: GPL-2.0
// cmd_stat.cpp - `kprofile stat [-s SOURCES] [--per-thread] [--json] --
// CMD`: run a command and count, over all its threads and the processes
// it starts, context switches, TSC cycles while they ran, and counter
// sources, through thread profiling (KeSetHardwareCounterConfiguration +
// EnableThreadProfiling).  Without CAP_PERFMON (thread profiling is one
// client for the machine, counters are claimed machine-wide) it counts
// one's own processes from the kernel's task accounting instead
// (stat_usage.h): context switches and task-clock, as perf stat at
// perf_event_paranoid 2.  Like perf stat, the results go to stderr (or
// -o FILE) and the exit status is the command's.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <fcntl.h>
#include <memory>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "process_tree.h"
#include "source_parse.h"
#include "stat_usage.h"
#include "stat_render.h"
#include "thread_profile.h"

namespace kprofile {

namespace {

struct StatOptions {
	std::vector<std::string> sources;
	bool per_thread = false;
	bool json = false;
	std::string output;
	std::string separator;		// -x SEP: perf stat's CSV-like lines
	pid_t pid = 0;			// -p PID: attach instead of running a command
	std::vector<std::string> command;
};

// A forked command that waits, before exec, until release(): profiling is
// enabled for its pid first, so it is counted from its first instruction.
class HeldCommand {
public:
	explicit HeldCommand(const std::vector<std::string> &argv) : name_(argv.at(0))
	{
		int go[2], status[2];

		if (::pipe2(go, O_CLOEXEC) || ::pipe2(status, O_CLOEXEC))
			throw Failure({.what = fmt::format("pipe: {}", errno_text(errno))});
		go_read_ = UniqueFd(go[0]);
		go_ = UniqueFd(go[1]);
		status_ = UniqueFd(status[0]);
		UniqueFd status_write(status[1]);
		std::vector<char *> args;
		for (const auto &a : argv)
			args.push_back(const_cast<char *>(a.c_str()));
		args.push_back(nullptr);

		pid_ = ::fork();
		if (pid_ < 0)
			throw Failure({.what = fmt::format("fork: {}", errno_text(errno))});
		if (pid_ == 0) {
			char byte;
			int err;

			go_.reset();
			if (::read(go_read_.get(), &byte, 1) != 1)
				::_exit(127);
			::execvp(args[0], args.data());
			err = errno;
			(void)!::write(status_write.get(), &err, sizeof(err));
			::_exit(127);
		}
		go_read_.reset();
	}
	~HeldCommand()
	{
		if (pid_ > 0 && !reaped_) {
			::kill(pid_, SIGKILL);
			::waitpid(pid_, nullptr, 0);
		}
	}
	HeldCommand(const HeldCommand &) = delete;
	HeldCommand &operator=(const HeldCommand &) = delete;

	pid_t pid() const { return pid_; }

	// Let it exec; throws Failure when exec fails.
	void release()
	{
		int err = 0;

		if (::write(go_.get(), "g", 1) != 1)
			throw Failure({.what = fmt::format("starting {}: {}", name_, errno_text(errno))});
		go_.reset();
		if (::read(status_.get(), &err, sizeof(err)) == sizeof(err)) {
			::waitpid(pid_, nullptr, 0);
			reaped_ = true;
			throw Failure({.code = ExitCode::Usage,
				       .what = fmt::format("cannot run {}: {}", name_, errno_text(err)),
				       .hints = {"Check the command's name and PATH."}});
		}
	}
	// Wait for it with wait4(): a shell-like status, and in @ru the
	// resources it and the children it waited for used.
	int wait_usage(struct rusage *ru, int *raw)
	{
		int status = 0;

		while (::wait4(pid_, &status, 0, ru) < 0 && errno == EINTR)
			;
		reaped_ = true;
		*raw = status;
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		return WEXITSTATUS(status);
	}
	// Wait for it; a shell-like status (code, or 128 + signal).
	int wait()
	{
		int status = 0;

		while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR)
			;
		reaped_ = true;
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		return WEXITSTATUS(status);
	}

private:
	pid_t pid_ = -1;
	bool reaped_ = false;
	UniqueFd go_read_, go_, status_;
	std::string name_;
};

// SIGINT and SIGQUIT go to the command, not to us, while it runs (as in
// perf stat and time): ^C ends the command and the counts are printed.
class IgnoreInterrupts {
public:
	IgnoreInterrupts()
	{
		old_int_ = std::signal(SIGINT, SIG_IGN);
		old_quit_ = std::signal(SIGQUIT, SIG_IGN);
	}
	~IgnoreInterrupts()
	{
		std::signal(SIGINT, old_int_);
		std::signal(SIGQUIT, old_quit_);
	}
	IgnoreInterrupts(const IgnoreInterrupts &) = delete;
	IgnoreInterrupts &operator=(const IgnoreInterrupts &) = delete;

private:
	void (*old_int_)(int);
	void (*old_quit_)(int);
};

// stat -p: SIGINT/SIGTERM end the counting (not the process), as perf
// stat -p's Ctrl-C does.
volatile sig_atomic_t g_stop = 0;

class StopOnInterrupt {
public:
	StopOnInterrupt()
	{
		struct sigaction sa {};

		g_stop = 0;
		sa.sa_handler = [](int) { g_stop = 1; };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int_);
		sigaction(SIGTERM, &sa, &old_term_);
	}
	~StopOnInterrupt()
	{
		sigaction(SIGINT, &old_int_, nullptr);
		sigaction(SIGTERM, &old_term_, nullptr);
	}
	StopOnInterrupt(const StopOnInterrupt &) = delete;
	StopOnInterrupt &operator=(const StopOnInterrupt &) = delete;

private:
	struct sigaction old_int_ {}, old_term_ {};
};

// Counted by default, as perf stat counts instructions, cycles and
// branches: those the running interface supports.
constexpr std::uint32_t default_sources[] = {
	KPROFILE_SOURCE_TOTAL_ISSUES,
	KPROFILE_SOURCE_TOTAL_CYCLES,
	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS,
	KPROFILE_SOURCE_BRANCH_MISPREDICTIONS,
};

std::vector<StatCounter> resolve_sources(const Session &s, const StatOptions &opts)
{
	auto iface = static_cast<Interface>(s.info.interface);
	std::vector<StatCounter> out;

	auto add = [&](std::uint32_t value, std::uint32_t mode = KPROFILE_MODE_TABLE,
		       std::string_view suffix = "") {
		kprofile_source_info q = s.device.query_source(value).value();
		StatCounter c;

		c.source = value;
		c.name = std::string(q.name) + std::string(suffix);
		c.mode = mode;
		if (q.flags & KPROFILE_SOURCE_SUPPORTED) {
			c.state = StatCounter::State::Counted;
		} else {
			c.state = StatCounter::State::NotSupported;
			c.reason = q.reason;
		}
		out.push_back(std::move(c));
	};

	for (const auto &list : opts.sources) {
		std::size_t pos = 0;

		while (pos <= list.size()) {
			std::size_t comma = list.find(',', pos);
			std::string item = list.substr(pos, comma == std::string::npos ? comma : comma - pos);

			pos = comma == std::string::npos ? list.size() + 1 : comma + 1;
			if (item.empty())
				continue;
			CounterSpec spec = parse_counter_spec(item).value();
			ParsedSource p = parse_source(spec.source, iface).value();
			if (p.value == KPROFILE_SOURCE_TIME)
				throw Failure(usage_error(
					"ProfileTime is a timer, not a counter source",
					{"stat counts context switches and cycle time anyway; -s takes "
					 "counter sources (kprofile sources)."}));
			add(p.value, spec.mode, spec.suffix);
		}
	}
	if (!opts.sources.empty())
		return out;

	for (auto v : default_sources) {
		kprofile_source_info q = s.device.query_source(v).value();
		if ((q.flags & KPROFILE_SOURCE_SUPPORTED) && out.size() < s.info.num_counters)
			add(v);
	}
	if (out.empty() && s.info.interface == KPROFILE_INTERFACE_NONE) {
		// Say what would have been counted, and why it is not.
		for (auto v : {KPROFILE_SOURCE_TOTAL_ISSUES, KPROFILE_SOURCE_BRANCH_INSTRUCTIONS,
			       KPROFILE_SOURCE_BRANCH_MISPREDICTIONS})
			add(v);
	}
	return out;
}

void write_output(const std::string &text, const std::string &path)
{
	if (path.empty()) {
		print_err(text);
		return;
	}
	std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path.c_str(), "we"), &std::fclose);
	if (!f || std::fwrite(text.data(), 1, text.size(), f.get()) != text.size() ||
	    std::fflush(f.get()) != 0)
		throw Failure({.code = ExitCode::Internal,
			       .what = fmt::format("cannot write {}: {}", path, errno_text(errno))});
}

void print_result(const StatResult &r, const StatOptions &opts)
{
	write_output(opts.json ? stat_json(r).dump(2) + "\n" :
		     !opts.separator.empty() ? render_stat_csv(r, opts.separator) : render_stat(r),
		     opts.output);
}

// Without CAP_PERFMON (thread profiling refused: EPERM): the kernel's task
// accounting of one's own processes (stat_usage.h), as perf stat's
// software events at perf_event_paranoid 2.  @cmd: the held command, or
// null for -p.
int run_unprivileged(const StatOptions &opts, StatResult &r, HeldCommand *cmd = nullptr)
{
	const auto t0 = std::chrono::steady_clock::now();
	TaskUsage used;
	int status = 0;

	if (opts.per_thread)
		throw Failure(errno_error(EPERM, "--per-thread needs thread profiling",
					  {"Thread profiling needs CAP_PERFMON (one client for the "
					   "machine): run as root, or without --per-thread for the "
					   "totals."}));
	r.unprivileged = true;
	if (cmd) {
		IgnoreInterrupts quiet;
		struct rusage ru {};
		int st = 0;

		cmd->release();
		status = cmd->wait_usage(&ru, &st);
		used = usage_from_rusage(ru);
		used.threads = 0;
	} else {
		if (int err = may_inspect(opts.pid))
			throw Failure(inspect_refused(opts.pid, err));
		auto first = read_process_usage(opts.pid);
		if (!first)
			throw Failure(inspect_refused(opts.pid, ESRCH));
		auto last = first;
		StopOnInterrupt stop;

		// Until it exits: the last reading (at most 50 ms old).
		while (!g_stop) {
			auto now = read_process_usage(opts.pid);
			if (!now)
				break;
			last = now;
			::usleep(50000);
		}
		used.context_switches = last->context_switches - std::min(last->context_switches,
									   first->context_switches);
		used.cpu_seconds = std::max(0.0, last->cpu_seconds - first->cpu_seconds);
		used.threads = last->threads;
	}
	r.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	r.exit_status = status;
	r.totals.context_switches = used.context_switches;
	r.totals.threads = used.threads;
	r.task_clock_seconds = used.cpu_seconds;
	std::fprintf(stderr, "kprofile: note: %s\n", unprivileged_note().c_str());
	print_result(r, opts);
	return status;
}

int run_stat(const StatOptions &opts, const Context &ctx)
{
	Session s = open_session(ctx);
	StatResult r;
	std::vector<std::uint32_t> config, modes;
	std::string reason;

	r.command = opts.command;
	r.per_thread = opts.per_thread;
	r.counters = resolve_sources(s, opts);
	for (auto &c : r.counters) {
		if (c.state == StatCounter::State::Counted) {
			c.entry = config.size();
			config.push_back(c.source);
			modes.push_back(c.mode);
		}
	}

	std::optional<HwConfig> hw;
	if (!config.empty()) {
		auto set = HwConfig::set(s.device, config, &reason, modes);
		if (set) {
			hw.emplace(std::move(set).value());
		} else if (set.error().err == EPERM || set.error().err == EACCES) {
			// Machine-wide: named counters are refused, the defaults
			// are left out (stat_usage.h).
			if (!opts.sources.empty())
				throw Failure(counters_need_perfmon(set.error().err, true));
			for (auto &c : r.counters) {
				if (c.state != StatCounter::State::Counted)
					continue;
				c.state = StatCounter::State::NotCounted;
				c.reason = "needs CAP_PERFMON (a counter is claimed machine-wide)";
			}
			config.clear();
			modes.clear();
		} else if (set.error().err == EBUSY || set.error().err == EOPNOTSUPP) {
			for (auto &c : r.counters) {
				if (c.state != StatCounter::State::Counted)
					continue;
				c.state = set.error().err == EBUSY ? StatCounter::State::NotCounted
								   : StatCounter::State::NotSupported;
				c.reason = reason;
			}
		} else {
			set.value();	// throws
		}
	}

	int status = 0;
	std::optional<ThreadProfile> tp;
	auto t0 = std::chrono::steady_clock::now();
	if (opts.pid) {
		// The thread PID and what it starts from now on (the module
		// follows one task: its other threads running already are not
		// counted, tools/README.md says so).
		r.pid = opts.pid;
		auto enabled = ThreadProfile::enable(s.device, opts.pid, true);
		if (!enabled && enabled.error().err == ESRCH)
			throw Failure(errno_error(ESRCH, fmt::format("process {} does not exist",
								     opts.pid)));
		if (!enabled && enabled.error().err == EPERM)
			return run_unprivileged(opts, r);
		tp.emplace(std::move(enabled).value());
		t0 = std::chrono::steady_clock::now();
		StopOnInterrupt stop;
		while (!g_stop && record::process_alive(opts.pid))
			::usleep(50000);
	} else {
		// Counted from its exec on, as perf stat's enable_on_exec:
		// not our code in the child, nor the exec's start.
		HeldCommand cmd(opts.command);
		auto enabled = ThreadProfile::enable(s.device, cmd.pid(), true, true);
		if (!enabled && enabled.error().err == EPERM)
			return run_unprivileged(opts, r, &cmd);
		tp.emplace(std::move(enabled).value());
		t0 = std::chrono::steady_clock::now();
		IgnoreInterrupts quiet;

		cmd.release();
		status = cmd.wait();
	}
	r.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	r.exit_status = status;
	r.totals = tp->read().value();
	if (opts.per_thread)
		r.threads = tp->threads(config.size()).value();
	for (auto &c : r.counters) {
		if (c.state != StatCounter::State::Counted)
			continue;
		if (!r.totals.counters_valid) {
			c.state = StatCounter::State::NotSupported;
			c.reason = r.totals.reason;
		} else if (c.entry < r.totals.counters.size()) {
			c.value = r.totals.counters[c.entry];
		}
	}

	print_result(r, opts);
	return status;
}

} // namespace

void setup_stat(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<StatOptions>();

	cmd.add_option("-s,--sources,--source", opts->sources,
		       "Counter sources to count, comma-separated (names as `kprofile sources` "
		       "shows them, with or without \"Profile\", or numbers), each with :u "
		       "(user mode only) or :k (kernel mode only) if wanted; default: "
		       "instructions, cycles and branches where supported, in both modes")
		->type_name("SOURCES")
		->allow_extra_args(false);
	// perf's spelling, as record's -e (the review: "The following argument
	// was not expected: -e").
	cmd.add_option("-e,--event", opts->sources, "The same as -s (perf's spelling)")
		->allow_extra_args(false)
		->group("");
	cmd.add_flag("--per-thread", opts->per_thread, "Also show each thread's counts");
	auto *json = cmd.add_flag("--json", opts->json,
				  "One JSON object instead of text (keys: tools/README.md)");
	cmd.add_option("-x,--field-separator", opts->separator,
		       "Print one line per count, VALUE SEP UNIT SEP EVENT, as perf stat -x "
		       "(e.g. -x ,)")
		->type_name("SEP")
		->excludes(json);
	auto *pid = cmd.add_option("-p,--pid", opts->pid,
				   "Count a running process (its thread PID and the threads and "
				   "processes it starts from now on) until it exits or Ctrl-C")
		->type_name("PID")
		->check(CLI::PositiveNumber);
	cmd.add_option("-o,--output", opts->output, "Write the results to FILE, not stderr")
		->type_name("FILE");
	cmd.add_option("command", opts->command, "The command and its arguments (-- first "
		       "when they start with a dash)")
		->excludes(pid);
	cmd.positionals_at_end();
	cmd.footer("Counts the command's threads and the processes it starts, while they run:\n"
		   "context switches, TSC cycles, and each counter source (<not supported>, with\n"
		   "the reason, where there is no PMU).  Results go to stderr; the exit status is\n"
		   "the command's (1 when it cannot be run).  One thread-profiling user at a\n"
		   "time: a second gets EBUSY.  Without CAP_PERFMON: context switches and\n"
		   "task-clock of your own processes (as perf stat at perf_event_paranoid 2),\n"
		   "no cycle-time or counter sources.  Not (yet) as in perf stat: -a (the module\n"
		   "follows one task tree), -r and -I; tools/README.md says why and what\n"
		   "to use instead.");
	cmd.callback([opts, &ctx] {
		if (opts->command.empty() && !opts->pid)
			throw Failure(usage_error("nothing to count",
						  {"give -- CMD ARGS... or -p PID"}));
		int status = run_stat(*opts, ctx);

		if (status) {
			std::fflush(stdout);
			std::exit(status);
		}
	});
}

} // namespace kprofile
