// SPDX-License-Identifier: GPL-2.0
// errors.cpp - errno to advice.
#include "errors.h"

#include <cerrno>
#include <cstring>
#include <string.h>

#include <fmt/format.h>
#include <linux/kprofile.h>

#include "proc_read.h"

namespace kprofile {

std::string Error::message() const
{
	std::string out = fmt::format("kprofile: {}\n", what);

	for (const auto &hint : hints)
		out += fmt::format("  {}\n", hint);
	return out;
}

std::string errno_text(int err)
{
	const char *name = strerrorname_np(err);

	return fmt::format("{} ({})", std::strerror(err), name ? name : std::to_string(err));
}

std::vector<std::string> load_module_hints()
{
	return {
		"The kprofile module is not loaded. Load it with one of:",
		"  sudo make load                 (in the kprofile source tree)",
		"  sudo insmod build/kprofile.ko  (after make, in the source tree)",
		"  sudo modprobe kprofile         (after sudo make install)",
		"Then check: ls -l /dev/kprofile; dmesg | grep kprofile",
	};
}

std::vector<std::string> permission_hints(const std::string &device)
{
	return {
		fmt::format("The module creates {} mode 0600, owned by root. Run as root", device),
		"(sudo kprofile ...), or let group kprofile use it: `sudo make install`",
		"installs the udev rule (60-kprofile.rules) and creates the group; by hand:",
		"  echo 'KERNEL==\"kprofile\", SUBSYSTEM==\"misc\", GROUP=\"kprofile\", MODE=\"0660\"' |",
		"    sudo tee /etc/udev/rules.d/60-kprofile.rules",
		"  sudo groupadd -f kprofile && sudo udevadm trigger /dev/kprofile",
		"Then: sudo usermod -aG kprofile $USER, and log in again.",
	};
}

static std::vector<std::string> abi_hints()
{
	return {
		"The kprofile module and this tool come from different versions.",
		"Rebuild both and reload the module: make && sudo make unload load",
	};
}

Error abi_mismatch(std::uint32_t module_abi, const std::string &device)
{
	Error e;

	e.code = ExitCode::Device;
	e.op = Op::Info;
	e.what = fmt::format("{} speaks kprofile ABI {}, this tool ABI {}", device,
			     module_abi, KPROFILE_ABI_VERSION);
	e.hints = abi_hints();
	return e;
}

ExitCode exit_code_for(int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case ENOTTY:
		return ExitCode::Device;
	case EPERM:
	case EACCES:
	case EOPNOTSUPP:
	case EBUSY:
	case ESRCH:
	case EINVAL:
	case ENOSPC:
	case ENOMEM:
	case E2BIG:
	case ERANGE:
		return ExitCode::Refused;
	default:
		return ExitCode::Internal;
	}
}

Error errno_error(int err, std::string what, std::vector<std::string> hints)
{
	Error e;

	e.err = err;
	e.code = err ? exit_code_for(err) : ExitCode::Internal;
	e.what = err ? fmt::format("{}: {}", what, errno_text(err)) : std::move(what);
	for (auto &h : hints)
		if (!h.empty())
			e.hints.push_back(std::move(h));
	return e;
}

Error usage_error(std::string what, std::vector<std::string> hints)
{
	Error e;

	e.code = ExitCode::Usage;
	e.what = std::move(what);
	e.hints = std::move(hints);
	return e;
}

// What @op was doing, naming @source where the operation has one: never
// "setting the interval of" with nothing after it.
static std::string op_text(Op op, const std::string &source = {})
{
	switch (op) {
	case Op::Open:
		return "open";
	case Op::Info:
		return "reading the module's information";
	case Op::QuerySource:
		return source.empty() ? "querying a profile source" : "querying " + source;
	case Op::ListSources:
		return "listing the profile sources";
	case Op::SetInterval:
		return source.empty() ? "setting a source's interval" :
					"setting the interval of " + source;
	case Op::GetInterval:
		return source.empty() ? "reading a source's interval" :
					"reading the interval of " + source;
	case Op::SetHwConfig:
		return "setting the hardware-counter configuration";
	case Op::ThreadEnable:
		return "enabling thread profiling";
	case Op::Other:
		break;
	}
	return "talking to the module";
}

std::optional<int> perf_event_paranoid()
{
	return record::read_sysctl("/proc/sys/kernel/perf_event_paranoid");
}

std::string paranoid_advice(bool kernel_mode)
{
	const auto level = perf_event_paranoid();

	if (!level || *level <= 1 || (*level == 2 && !kernel_mode))
		return "";
	return fmt::format("kernel.perf_event_paranoid is {}: without CAP_PERFMON {} (as for "
			   "perf). Run as root, give the tool the capability (`sudo setcap "
			   "cap_perfmon+ep $(command -v kprofile)`), or allow it: `sudo sysctl "
			   "kernel.perf_event_paranoid={}`",
			   *level, *level > 2 ? "profiling is off" : "kernel-mode events are not counted",
			   *level > 2 && !kernel_mode ? 2 : 1);
}

std::string kallsyms_advice(std::optional<int> kptr_restrict, std::optional<int> paranoid)
{
	// The kernel's kallsyms_show_value(): CAP_SYSLOG, or kptr_restrict 0
	// with perf_event_paranoid <= 1 (kallsyms_for_perf()).  A kernel
	// profile then needs paranoid <= 1 or CAP_PERFMON again (the
	// module's rule, as perf's), so one sysctl alone does not do.
	auto text = [](std::optional<int> v) { return v ? std::to_string(*v) : std::string("?"); };
	std::string fix;

	if (!kptr_restrict || *kptr_restrict != 0)
		fix += " kernel.kptr_restrict=0";
	if (!paranoid || *paranoid > 1)
		fix += " kernel.perf_event_paranoid=1";
	return fmt::format("kernel addresses are hidden (kernel.kptr_restrict={}, "
			   "kernel.perf_event_paranoid={}): /proc/kallsyms shows them to root "
			   "(CAP_SYSLOG), or when kptr_restrict is 0 and perf_event_paranoid at "
			   "most 1, which kernel profiles need too without CAP_PERFMON.  Run as "
			   "root{}",
			   text(kptr_restrict), text(paranoid),
			   fix.empty() ? "" : ", or: sudo sysctl" + fix);
}

std::string kallsyms_advice()
{
	return kallsyms_advice(record::read_sysctl("/proc/sys/kernel/kptr_restrict"),
			       perf_event_paranoid());
}

// What needs CAP_PERFMON because it changes the whole machine.
static std::vector<std::string> machine_wide_hints(Op op)
{
	const char *what = op == Op::SetInterval ?
		"A source's interval applies to every profile of it on the machine" :
		op == Op::SetHwConfig ?
		"The hardware-counter configuration takes counters machine-wide, from perf too" :
		"There is one thread-profiling client for the machine";
	return {
		fmt::format("{}: it needs CAP_PERFMON (or CAP_SYS_ADMIN), as perf's", what),
		"machine-wide events do. Run as root, or give the tool the capability:",
		"  sudo setcap cap_perfmon+ep $(command -v kprofile)",
	};
}

static bool names_source(Op op)
{
	return op == Op::QuerySource || op == Op::SetInterval || op == Op::GetInterval;
}

static Error explain_open(int err, const ErrorContext &ctx)
{
	Error e;

	e.op = Op::Open;
	e.err = err;
	e.code = ExitCode::Device;
	e.what = fmt::format("cannot open {}: {}", ctx.device, errno_text(err));
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		e.hints = load_module_hints();
		break;
	case EACCES:
	case EPERM:
		e.hints = permission_hints(ctx.device);
		break;
	case EROFS:
	case ENOTDIR:
		e.hints = {fmt::format("Is {} really the kprofile device? Try --device /dev/kprofile.",
				       ctx.device)};
		break;
	default:
		e.hints = {"Check dmesg for messages from the kprofile module."};
		break;
	}
	return e;
}

Error explain(Op op, int err, const ErrorContext &ctx)
{
	Error e;
	std::string subject;

	if (op == Op::Open)
		return explain_open(err, ctx);

	e.op = op;
	e.err = err;
	e.code = exit_code_for(err) == ExitCode::Internal ? ExitCode::Refused : exit_code_for(err);
	subject = op_text(op, ctx.source);
	e.what = fmt::format("{} failed: {}", subject, errno_text(err));

	switch (err) {
	case ENOTTY:
		e.code = ExitCode::Device;
		e.what = fmt::format("{} does not understand the request ({}): {}", ctx.device,
				     op_text(op, ctx.source), errno_text(err));
		e.hints = abi_hints();
		if (ctx.module_abi)
			e.hints.insert(e.hints.begin(),
				       fmt::format("Module ABI {}, tool ABI {}.", *ctx.module_abi,
						   KPROFILE_ABI_VERSION));
		break;
	case EOPNOTSUPP:
		e.what = fmt::format("{} is not supported on this machine",
				     ctx.source.empty() ? "the request" : ctx.source);
		if (!ctx.reason.empty())
			e.hints.push_back(fmt::format("Reason: {}.", ctx.reason));
		e.hints.push_back("ProfileTime (a timer) works everywhere. `kprofile sources` lists what");
		e.hints.push_back("works here; `kprofile sources --all` says why the rest does not.");
		if (ctx.hypervisor)
			e.hints.push_back("This is a virtual machine: its hypervisor may hide the PMU. Give "
					  "the guest one (KVM: -cpu host) or use bare metal.");
		break;
	case EBUSY:
		e.hints = {
			"The performance counters are held by perf or the NMI watchdog",
			"(perf's first hardware event reserves every counter). Free them:",
			"  sudo sysctl kernel.nmi_watchdog=0",
			"and end any running perf session (perf record/stat/top).",
		};
		break;
	case EINVAL:
		if (names_source(op))
			e.hints = {"The module does not know this source on its profile interface.",
				   "List the sources it knows: kprofile sources --all"};
		else
			e.hints = {"The module rejected the request's parameters; this is a bug in the "
				   "tool if the module and tool are the same version."};
		break;
	case EACCES:
	case EPERM:
		if (op == Op::SetInterval || op == Op::SetHwConfig || op == Op::ThreadEnable) {
			e.hints = machine_wide_hints(op);
			break;
		}
		e.code = ExitCode::Device;
		e.hints = permission_hints(ctx.device);
		break;
	case ENODEV:
	case ENXIO:
		e.code = ExitCode::Device;
		e.hints = {"The module is going away (being unloaded?). Load it again:",
			   "  sudo make load   or   sudo modprobe kprofile"};
		break;
	default:
		e.hints = {"Check dmesg for messages from the kprofile module."};
		break;
	}
	return e;
}

} // namespace kprofile
