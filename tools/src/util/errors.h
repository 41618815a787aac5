// SPDX-License-Identifier: GPL-2.0
// errors.h - what went wrong and what to do about it.
//
// Every failure the tool reports is an Error: one line saying what
// happened (with the errno's meaning), then lines telling the user what
// to do, and the exit code the tool ends with.  explain() maps an errno
// from /dev/kprofile to that advice, in the spirit of rr's and perf's
// perf_event_paranoid messages.
//
// The error policy, layer by layer (tools/README.md, "Source layout"):
//
// - Where something may be missing for a reason that is no error (a
//   process that exited, a file /proc will not show, an ELF without
//   symbols), the function says so in its value: std::optional, an
//   errno, an empty list, a warning for the report.  Nothing throws for
//   it: util/ (proc_read, maps, process_tree), symbols/.
// - Each ioctl of /dev/kprofile, and each parse of a SOURCE, returns
//   Result<T> (result.h): device/device.h, thread_profile.h,
//   sources/source_parse.h.  The caller decides whether to go on
//   without it (sources, info) or to stop: Result::value() throws the
//   Error as a Failure.
// - What ends the command is thrown, by the layer that knows the advice:
//   Failure, holding the Error (the profile operations of
//   device/profile_device.h, capture/'s rings and launch, interval
//   arguments), FormatError for a record file that cannot be read
//   (format/), std::invalid_argument for a bad report argument.
// - Only commands/ catch: record, report, script and top turn anything
//   else into a Failure with its exit code (command.h: fail()), and
//   main() prints a Failure's message and exits with its code.  No layer
//   below prints an error or exits.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kprofile {

// The tool's exit codes (documented in tools/README.md).
enum class ExitCode : int {
	Ok = 0,
	Usage = 1,	// bad command line, unknown SOURCE
	Device = 2,	// /dev/kprofile unusable: not loaded, no access, ABI
	Refused = 3,	// the module refused: unsupported, busy, invalid
	Internal = 4,	// anything else (e.g. cannot write the output)
};

// What the tool was doing when the errno came back.
enum class Op {
	Open,
	Info,
	QuerySource,
	ListSources,
	SetInterval,
	GetInterval,
	SetHwConfig,	// the machine-wide hardware-counter configuration
	ThreadEnable,	// the machine's one thread-profiling client
	Other,
};

// What explain() may use to make its advice specific.
struct ErrorContext {
	std::string device;		// e.g. "/dev/kprofile"
	std::string source;		// display name, e.g. "ProfileLLCMisses (0x1d)"
	std::string reason;		// the module's reason, when it gave one
	std::optional<std::uint32_t> module_abi;	// from KPROFILE_IOC_INFO
	bool hypervisor = false;	// KPROFILE_INFO_HYPERVISOR: running in a VM
};

struct Error {
	ExitCode code = ExitCode::Internal;
	Op op = Op::Other;
	int err = 0;			// errno, 0 when not a system error
	std::string what;		// one line: what happened
	std::vector<std::string> hints;	// what to do, one line each

	// "kprofile: <what>\n" then each hint indented by two spaces.
	std::string message() const;
};

// An Error thrown through the command callbacks to main().
class Failure : public std::runtime_error {
public:
	explicit Failure(Error e) : std::runtime_error(e.what), error_(std::move(e)) {}
	const Error &error() const { return error_; }

private:
	Error error_;
};

// The errno of @op, explained.
// kernel.perf_event_paranoid, when /proc/sys can be read.
std::optional<int> perf_event_paranoid();

// Advice when kernel.perf_event_paranoid is why an unprivileged profile
// was refused (EACCES), as perf_event_open() refuses it; empty when the
// level does not explain it.  @kernel_mode: the request counted kernel mode.
std::string paranoid_advice(bool kernel_mode);

// Why /proc/kallsyms hides kernel addresses from this user, and the
// settings that would show them and allow kernel profiles (the review's
// G3: kptr_restrict=0 alone does not, perf_event_paranoid counts too).
// With the values given, or (no arguments) the running kernel's.
std::string kallsyms_advice(std::optional<int> kptr_restrict, std::optional<int> paranoid);
std::string kallsyms_advice();

Error explain(Op op, int err, const ErrorContext &ctx);

// The exit code of an errno, the one mapping of the tool: the device is
// unusable (ENOENT, ENODEV, ENXIO, ENOTTY), the module or the kernel
// refused (EPERM, EACCES, EOPNOTSUPP, EBUSY, ESRCH, EINVAL, ENOSPC,
// ENOMEM, E2BIG, ERANGE), or anything else (Internal).
ExitCode exit_code_for(int err);

// A failed system call: "<what>: <errno_text>", the exit code of @err
// (exit_code_for()), @hints.  @err 0 gives just @what and Internal.
Error errno_error(int err, std::string what, std::vector<std::string> hints = {});

// A command-line mistake (exit code Usage).
Error usage_error(std::string what, std::vector<std::string> hints = {});

// The module speaks another ABI version than the tool was built for.
Error abi_mismatch(std::uint32_t module_abi, const std::string &device);

// "No such file or directory (ENOENT)".
std::string errno_text(int err);

// Lines telling how to load the module / open up /dev/kprofile.
std::vector<std::string> load_module_hints();
std::vector<std::string> permission_hints(const std::string &device);

} // namespace kprofile
