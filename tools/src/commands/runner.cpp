// SPDX-License-Identifier: GPL-2.0
// runner.cpp - option handling and the follow loop of record and top.
#include "runner.h"
#include "args_check.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <ctime>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.h"
#include "stream.h"
#include "source_parse.h"

namespace kprofile::record {

Error target_gone_error(pid_t pid, double seconds)
{
	return errno_error(ESRCH,
			   fmt::format("process {} exited while record was setting up its profiles "
				       "({:.1f} s in): nothing was recorded and no file was written",
				       pid, seconds),
			   {"setting up takes a moment (pinning the kernel text's buckets; seconds "
			    "under emulation): profile a short program from its start with "
			    "`kprofile record -- CMD ARGS...`, or attach to one that runs longer"});
}

namespace {

// "-F 100000: ProfileTime's interval is clamped to its minimum, 1221 x
// 100 ns (0.1221 ms, 8190 Hz); the recording runs at that rate".
std::string clamp_note(const std::string &what, const SourceDesc &d, std::uint32_t want)
{
	const char *end = want < d.interval ? "minimum" : "maximum";

	if (d.timer)
		return fmt::format("{}: {}'s interval is clamped to its {}, {} x 100 ns ({:g} ms, "
				   "{:.0f} Hz per CPU); the recording runs at that rate",
				   what, d.name, end, d.interval, d.interval / 10000.0,
				   1e7 / d.interval);
	return fmt::format("{}: {}'s interval is clamped to its {}, {} events per interrupt",
			   what, d.name, end, d.interval);
}

volatile sig_atomic_t g_stop_signal = 0;
// The self-pipe: a signal handler writes a byte, waking the loop's poll()
// (a signal between the loop's checks and poll() is not missed).
int g_wake_pipe[2] = {-1, -1};

void wake_loop()
{
	const int saved = errno;
	const char c = 0;

	if (g_wake_pipe[1] >= 0 && write(g_wake_pipe[1], &c, 1) < 0) {
		// full: the loop is woken already
	}
	errno = saved;
}

void on_signal(int sig)
{
	g_stop_signal = sig;
	wake_loop();
}

void on_child(int)
{
	wake_loop();
}

void install_handlers()
{
	struct sigaction sa {};

	g_stop_signal = 0;
	if (g_wake_pipe[0] < 0 && pipe2(g_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		g_wake_pipe[0] = g_wake_pipe[1] = -1;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
}

// The command's exit wakes the loop (installed once the command runs).
void install_child_handler()
{
	struct sigaction sa {};

	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, nullptr);
}

void restore_handlers()
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
}

void empty_wake_pipe()
{
	char buf[64];

	while (g_wake_pipe[0] >= 0 && read(g_wake_pipe[0], buf, sizeof(buf)) > 0) {
	}
}

} // namespace

void add_target_options(CLI::App &app, TargetArgs &a, bool samples)
{
	// perf's habits: -e is -s; -g records call stacks (record) or gets a
	// plain answer (top, check_target_args()).
	// One value per -s/-e (repeat it, or use commas): a greedy list ate
	// the command after `-s time ./prog`.
	app.add_option("-e,--event", a.sources, "the same as -s (perf's spelling)")
		->delimiter(',')->allow_extra_args(false)->group("");
	a.samples_allowed = samples;
	if (!samples) {
		app.add_flag("-g,--call-graph", a.call_graph, "")->group("");
	} else {
		app.add_flag("-g,--samples", a.call_graph,
			     "also record every interrupt with its call stack (the sample "
			     "stream): report --children, -G, --format folded, script");
		app.add_option_function<std::string>(
			   "--call-graph",
			   [&a](const std::string &v) {
				   a.call_graph = true;
				   a.stack_bytes = parse_call_graph(v, nullptr).value_or(0);
			   },
			   "-g, and how user stacks are walked: fp (frame pointers, the "
			   "default: cheap, but needs -fno-omit-frame-pointer) or dwarf[,SIZE] "
			   "(each sample copies SIZE bytes of user stack, default 8192, "
			   "unwound by report from the programs' unwind tables)")
			->type_name("fp|dwarf[,SIZE]")
			->check(CLI::Validator(
				[](std::string &v) {
					std::string err;
					return parse_call_graph(v, &err) ? std::string() : err;
				}, "fp|dwarf[,SIZE]"));
		app.add_option("-m,--mmap-pages", a.mmap_pages,
			       "data pages per CPU ring of the sample stream: a power of two "
			       "up to 1024, default 16 with -g, 32 without; larger when records are lost")
			->type_name("PAGES")
			->check(CLI::Validator(
				[](std::string &v) -> std::string {
					char *end = nullptr;
					const unsigned long n = std::strtoul(v.c_str(), &end, 10);
					if (end == v.c_str() || *end || n == 0 || n > 0xffffffffUL)
						return "--mmap-pages takes a number of pages, a power "
						       "of two up to 1024";
					return check_ring_pages(static_cast<std::uint32_t>(n));
				}, "PAGES"));
	}
	app.add_option("-s,--source", a.sources,
		       "profile source(s), by name or value (default ProfileTime); "
		       "several (-s A,B or -s A -s B) give one profile set each")
		->delimiter(',')->allow_extra_args(false)->type_name("SOURCE");
	auto *iv = app.add_option("-i,--interval", a.interval,
				  "the sources' interval while recording (machine-wide, restored at "
				  "the end): ProfileTime takes 250us, 1ms, ... (a plain number is 100 ns "
				  "units); a counter source, events");
	app.add_option("-F,--freq", a.frequency,
		       "ProfileTime interrupts per second per CPU (sets its interval, as -i)")
		->excludes(iv);
	app.add_option("-b,--bucket", a.bucket_shift, "log2 of the bucket size in bytes (2..31)")
		->check(CLI::Range(2, 31));
	app.add_option("--kernel-bucket", a.kernel_bucket_shift,
		       "log2 of the kernel text's bucket size (2..31, default 6: 64 bytes)")
		->check(CLI::Range(2, 31));
	auto *pid = app.add_option("-p,--pid", a.pid, "profile a running process")
		->check(CLI::Validator(
			[](std::string &v) {
				char *end = nullptr;
				const long p = std::strtol(v.c_str(), &end, 10);
				return end != v.c_str() && !*end && p > 0 ? std::string() :
				       "'" + v + "' is not a process id (a number above 0)";
			}, "PID"));
	auto *all = app.add_flag("-a,--all-cpus", a.system,
				 "system-wide: every task and the kernel (needs CAP_PERFMON)");
	pid->excludes(all);
	app.add_option("-C,--cpu", a.cpus, "only these CPUs, e.g. 0-3,6");
	auto *u = app.add_flag("--user", a.user_only, "user space only");
	auto *k = app.add_flag("--kernel", a.kernel_only, "kernel only (needs CAP_PERFMON)");
	u->excludes(k);
	app.add_option("--duration", a.duration, "stop after SECS seconds")
		->check(CLI::Validator(
			[](std::string &v) {
				char *end = nullptr;
				const double d = std::strtod(v.c_str(), &end);
				return end != v.c_str() && !*end && d > 0 ? std::string() :
				       "'" + v + "' is not a number of seconds above 0 (e.g. 5 or 0.5)";
			}, "SECS"));
	app.add_flag("--no-inherit", a.no_inherit,
		     "profile only the command (or -p PID), not the processes it starts");
	app.add_option("command", a.command,
		       "CMD ARGS... (or -- CMD ARGS...): run and profile a command; everything "
		       "after CMD is its own, as for perf record");
	// `record ls -la`: from the first positional on, every argument is the
	// command's, dashes included.
	app.positionals_at_end();
}

Run::Run(const TargetArgs &args, const std::string &device)
	: args_(check_target_args(args)), dev_(Device::open(device).value())
{
	info_ = dev_.checked_info().value();
	if (!args_.cpus.empty())
		cpus_ = check_cpu_list(args_.cpus, info_.num_cpus);
}

const TargetArgs &check_target_args(const TargetArgs &args)
{
	if (args.call_graph && !args.samples_allowed)
		throw Failure(usage_error("no call graphs here: top shows the live bucket profiles, "
					  "which count interrupts in address buckets, without stacks",
					  {"record call stacks with `kprofile record -g -- CMD`, then "
					   "`kprofile report` (or report --format folded)"}));
	if (args.command.empty() && !args.pid && !args.system)
		throw Failure(usage_error("nothing to profile",
					  {"give -- CMD ARGS..., -p PID, or -a for the whole system"}));
	if (args.pid && !args.command.empty())
		throw Failure(usage_error("-p and a command exclude each other",
					  {"use either -p PID or -- CMD ARGS..."}));
	if (args.frequency)
		(void)frequency_interval(*args.frequency);
	if (args.interval)
		(void)parse_interval(*args.interval, true);	// the syntax; units per source later
	return args;
}

Run::~Run()
{
	restore_intervals();
	restore_handlers();
}

void Run::restore_intervals()
{
	for (const auto &[source, interval] : saved_intervals_) {
		auto r = dev_.set_interval(source, interval);
		if (!r.ok())
			std::cerr << "kprofile: could not restore the interval of source " << source
				  << " to " << interval << ": " << r.error().what << "\n";
	}
	saved_intervals_.clear();
}

void Run::start()
{
	SessionOptions so;
	std::vector<std::string> names = args_.sources;

	// Before -i changes an interval: Ctrl-C during setup must not kill us
	// before the destructor puts it back (it ends the loop at once).
	install_handlers();

	if (names.empty())
		names.push_back("ProfileTime");
	for (const auto &n : names) {
		// The one SOURCE parser (aliases, did-you-mean), as stat/interval.
		const std::uint32_t v =
			kprofile::parse_source(n, static_cast<Interface>(info_.interface)).value().value;
		bool dup = false;
		for (const auto &s : so.sources)
			dup |= s.value == v;
		if (dup)
			continue;
		SourceDesc d = source_desc(dev_.query_source(v).value());
		if (!d.supported)	// the advice every command gives (VM hint too)
			throw Failure(explain(Op::QuerySource, EOPNOTSUPP,
					      {.device = dev_.path(),
					       .source = source_label(d.value, d.name),
					       .reason = d.reason,
					       .module_abi = info_.abi_version,
					       .hypervisor = (info_.flags & KPROFILE_INFO_HYPERVISOR) != 0}));
		std::optional<std::uint32_t> want;
		if (args_.frequency) {
			if (!d.timer)
				throw Failure(usage_error(fmt::format("-F applies to ProfileTime, not {}",
								      d.name),
							  {"give a counter source's interval in events "
							   "with -i N"}));
			want = frequency_interval(*args_.frequency);
		} else if (args_.interval) {
			want = parse_interval(*args_.interval, d.timer);
		}
		if (want) {
			const ErrorContext ectx{.device = dev_.path(),
						.source = source_label(d.value, d.name),
						.reason = d.reason,
						.module_abi = info_.abi_version,
						.hypervisor = (info_.flags &
							       KPROFILE_INFO_HYPERVISOR) != 0};
			auto got = dev_.get_interval(v);
			if (!got)
				throw Failure(explain(Op::GetInterval, got.error().err, ectx));
			auto set = dev_.set_interval(v, *want);
			if (!set && set.error().err == EPERM && d.timer) {
				// No CAP_PERFMON: this recording's own rate,
				// on its profiles and stream (as perf -F).
				d.interval = own_time_interval(d, *want, got.value());
				so.own_time_interval = d.interval;
			} else if (!set) {	// "setting the interval of ProfileTime (0x00) failed"
				throw Failure(explain(Op::SetInterval, set.error().err, ectx));
			} else {
				d.interval = set.value();
				saved_intervals_.push_back({v, got.value()});
			}
			if (d.interval != *want)	// perf too says when it throttles -F
				std::cerr << "kprofile: warning: "
					  << clamp_note(args_.frequency ?
							fmt::format("-F {:g}", *args_.frequency) :
							"-i " + *args_.interval, d, *want)
					  << "\n";
		}
		so.sources.push_back(d);
	}
	check_schedule(dev_, so.sources);
	so.bucket_shift = args_.bucket_shift;
	so.kernel_bucket_shift = args_.kernel_bucket_shift;
	so.user = !args_.kernel_only;
	so.kernel = !args_.user_only;
	so.kernel_required = args_.kernel_only;
	so.inherit = !args_.no_inherit;
	so.cpus = cpus_;
	if (!args_.command.empty())
		cmd_ = std::make_unique<Command>(args_.command);
	if (args_.system) {
		so.target = KPROFILE_TARGET_SYSTEM;
	} else {
		so.target = KPROFILE_TARGET_PID;
		so.pid = cmd_ ? cmd_->pid() : args_.pid;
	}
	if (args_.pid && !process_alive(args_.pid))
		throw Failure(errno_error(ESRCH, fmt::format("process {} does not exist", args_.pid),
					  {"`ps` lists the running processes"}));
	const auto setup_began = std::chrono::steady_clock::now();
	auto gone = [&] {
		return target_gone_error(args_.pid, std::chrono::duration<double>(
			std::chrono::steady_clock::now() - setup_began).count());
	};
	session_ = std::make_unique<Session>(dev_, so);
	try {
		session_->start_base();
		// The stream after the profiles have started: a refused start
		// says why (START_EX), whichever of them is the larger.
		auto start_stream = [&](pid_t root) {
			samples_ = std::make_unique<SampleRecorder>(dev_, sample_options(so));
			Session *s = session_.get();
			SampleRecorder *rec = samples_.get();
			samples_->observe({[s](const TaskRecord &t) { s->task(t); },
					   [s](const SampleRecord &r) { s->sample(r); },
					   [s] { s->end_batch(); },
					   [s](const MapRecord &m) { s->map(m); }});
			// Every thread of the target is in the side band from
			// here on; its maps are read below, after it opened.
			s->side_band([rec] { return rec->side_band_complete(); }, root > 0);
			samples_->start(args_.call_graph ? root : 0, root > 0);
			// An exec of the target before the stream started has no
			// EXEC record (a command not held by ptrace runs on):
			// read its maps and name again.
			if (root)
				session_->follow_root();
		};
		if (cmd_) {
			cmd_->exec();
			session_->follow_root();
			session_->start_pending();
			start_stream(cmd_->pid());
			cmd_->resume();
		} else if (!session_->follow_root() && !args_.system) {
			if (!process_alive(args_.pid))
				throw Failure(gone());
			throw Failure(errno_error(EACCES, fmt::format("cannot read /proc/{}/maps", args_.pid),
						  {"you may not read its maps: profile your own processes "
						   "or run as root"}));
		} else {
			session_->start_pending();
			start_stream(args_.system ? 0 : args_.pid);
			// From here its exit is an EXIT record; one before it is
			// seen here, or the loop would wait for a record never
			// written.
			if (!args_.system && !process_alive(args_.pid))
				throw Failure(gone());
		}
	} catch (const Failure &f) {
		// -p: a target that exits during setup makes a profile request
		// fail (ESRCH): say what happened, not which range failed.
		if (!cmd_ && !args_.system && !process_alive(args_.pid) &&
		    f.error().what.find("exited while") == std::string::npos)
			throw Failure(gone());
		throw;
	}
	for (const auto &n : session_->notes())
		std::cerr << "kprofile: " << n << "\n";
	for (const auto &n : samples_->notes())
		std::cerr << "kprofile: " << n << "\n";
	install_child_handler();
}

std::optional<std::uint32_t> parse_call_graph(const std::string &v, std::string *error)
{
	if (v == "fp")
		return 0;
	if (v == "dwarf")
		return KPROFILE_STREAM_DEFAULT_STACK;
	if (v.rfind("dwarf,", 0) == 0) {
		const std::string n = v.substr(6);
		char *end = nullptr;
		const unsigned long long size = std::strtoull(n.c_str(), &end, 0);
		if (!n.empty() && *end == '\0' && size > 0 && size <= KPROFILE_STREAM_MAX_STACK)
			return static_cast<std::uint32_t>((size + 7) / 8 * 8);
		if (error)
			*error = fmt::format("--call-graph {}: the stack size is a number of bytes "
					     "from 1 to {}", v, KPROFILE_STREAM_MAX_STACK);
		return std::nullopt;
	}
	if (error)
		*error = "--call-graph " + v + ": fp (frame pointers) or dwarf[,SIZE] (a copy of "
			 "the user stack, unwound from the unwind tables); lbr is perf's";
	return std::nullopt;
}

std::uint32_t Run::own_time_interval(const SourceDesc &d, std::uint32_t want,
				       std::uint32_t machine) const
{
	auto si = dev_.query_source(d.value);
	const std::uint32_t got = si.ok() ? std::clamp(want, si.value().min_interval,
						       si.value().max_interval) : want;

	std::cerr << fmt::format("kprofile: {} every {:g} ms ({:.0f} Hz) for this recording only: "
				 "its own interval; the machine-wide one stays {:g} ms (setting it "
				 "needs CAP_PERFMON)\n",
				 d.name, got / 10000.0, 1e7 / got, machine / 10000.0);
	return got;
}

SampleOptions Run::sample_options(const SessionOptions &so) const
{
	SampleOptions o;

	o.target = so.target;
	o.pid = so.pid;
	o.inherit = so.inherit;
	o.user = so.user;
	o.kernel = so.kernel;
	o.kernel_required = so.kernel_required;
	o.own_time_interval = so.own_time_interval;
	for (const auto &s : so.sources)
		o.sources.push_back(s.value);
	o.ring_pages = args_.mmap_pages;
	// Without call stacks a sample is 48 bytes: 32 pages a CPU hold 2,730,
	// the reader woken every 680 of them (kprofile_stream.h).
	if (!o.ring_pages && !args_.call_graph)
		o.ring_pages = 32;
	o.stack_bytes = args_.stack_bytes;
	// 8 KiB a sample fills the default 16 pages in a few samples: give
	// dwarf rings room for the samples of a drain or two.
	if (o.stack_bytes && !o.ring_pages)
		o.ring_pages = kDwarfRingPages;
	o.cpus = so.cpus;
	o.callchain = args_.call_graph;
	return o;
}

void Run::loop(const std::function<bool()> &tick, std::chrono::milliseconds every)
{
	using clock = std::chrono::steady_clock;
	using std::chrono::milliseconds;
	const auto begin = clock::now();
	auto next_tick = begin + every;
	std::optional<clock::time_point> end;

	if (args_.duration)
		end = begin + std::chrono::duration_cast<clock::duration>(
			std::chrono::duration<double>(*args_.duration));
	// Sleep in poll() until the stream has records (its watermark, or an
	// exec or exit: kprofile_stream.h), a signal (Ctrl-C, the command's
	// exit) or the duration or top's refresh is due: no timer of ours.
	for (;;) {
		empty_wake_pipe();
		if (g_stop_signal)
			break;
		if (end && clock::now() >= *end)
			break;
		if (cmd_) {
			if (auto st = cmd_->poll()) {
				command_exit_ = Command::exit_code(*st);
				break;
			}
		}
		samples_->drain();
		if (!cmd_ && !session_->alive())
			break;	// -p PID and its children have exited
		if (tick && clock::now() >= next_tick) {
			if (!tick())
				break;
			next_tick = clock::now() + every;
		}
		std::optional<clock::time_point> due = end;
		if (tick && (!due || next_tick < *due))
			due = next_tick;
		int timeout = -1;
		if (due)
			timeout = static_cast<int>(std::clamp<long long>(
				std::chrono::ceil<milliseconds>(*due - clock::now()).count(), 0,
				24 * 3600 * 1000));
		if (!samples_->pollable())	// a module without poll(): not woken
			timeout = timeout < 0 ? 20 : std::min(timeout, 20);
		std::vector<struct pollfd> fds = {{samples_->fd(), POLLIN, 0}};
		if (g_wake_pipe[0] >= 0)
			fds.push_back({g_wake_pipe[0], POLLIN, 0});
		for (int fd : samples_->side_band_fds())
			fds.push_back({fd, POLLIN, 0});
		poll(fds.data(), fds.size(), timeout);
	}
}

void Run::stop()
{
	if (samples_) {
		// The last records (the children's last hits) are counted here.
		const std::size_t notes = samples_->notes().size();
		samples_->stop();
		for (std::size_t i = notes; i < samples_->notes().size(); i++)
			std::cerr << "kprofile: " << samples_->notes()[i] << "\n";
	}
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
	restore_intervals();
}

ProfileData Run::data()
{
	ProfileData d = session_->snapshot();

	d.machine = machine_record(info_);
	d.start_time = static_cast<std::uint64_t>(std::time(nullptr)) - d.duration_ns / 1000000000ULL;
	if (!args_.command.empty()) {
		d.target = args_.system ? "system" : "command";
		d.command = args_.command;
	}
	if (samples_)
		d.samples = samples_->take_data([&d](const std::string &path) { return object_index(d, path); });
	return d;
}

} // namespace kprofile::record
