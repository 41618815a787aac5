// SPDX-License-Identifier: GPL-2.0
// errno -> what happened and what to do.
#include <cerrno>
#include <string>

#include <gtest/gtest.h>

#include "errors.h"

using namespace kprofile;

namespace {

bool has(const Error &e, const std::string &s)
{
	return e.message().find(s) != std::string::npos;
}

const ErrorContext ctx = {.device = "/dev/kprofile", .source = "ProfileLLCMisses (0x1D)"};

} // namespace

TEST(Errors, ModuleNotLoaded)
{
	for (int err : {ENOENT, ENODEV, ENXIO}) {
		Error e = explain(Op::Open, err, ctx);

		EXPECT_EQ(e.code, ExitCode::Device);
		EXPECT_TRUE(has(e, "cannot open /dev/kprofile")) << e.message();
		EXPECT_TRUE(has(e, "not loaded")) << e.message();
		EXPECT_TRUE(has(e, "sudo make load"));
		// `make module` links build/kprofile.ko (kmod/ has no .ko).
		EXPECT_TRUE(has(e, "sudo insmod build/kprofile.ko")) << e.message();
		EXPECT_FALSE(has(e, "kmod/kprofile.ko")) << e.message();
		EXPECT_TRUE(has(e, "sudo modprobe kprofile"));
	}
	EXPECT_TRUE(has(explain(Op::Open, ENOENT, ctx), "No such file or directory (ENOENT)"));
}

// G3: the advice named kptr_restrict alone, and came back after
// kptr_restrict=0 because perf_event_paranoid 3 hides kallsyms too.
TEST(Errors, KallsymsAdviceNamesBothSysctls)
{
	const std::string debian = kallsyms_advice(1, 3);
	EXPECT_NE(debian.find("kernel.kptr_restrict=1"), std::string::npos) << debian;
	EXPECT_NE(debian.find("kernel.perf_event_paranoid=3"), std::string::npos) << debian;
	EXPECT_NE(debian.find("sudo sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1"),
		  std::string::npos) << debian;

	const std::string after = kallsyms_advice(0, 3);	// the review's second try
	EXPECT_NE(after.find("sudo sysctl kernel.perf_event_paranoid=1"), std::string::npos) << after;
	EXPECT_EQ(after.find("kptr_restrict=0 "), std::string::npos) << "already 0: " << after;

	EXPECT_EQ(kallsyms_advice(0, 1).find("sudo sysctl"), std::string::npos)
		<< "nothing to change: only root helps";
	EXPECT_NE(kallsyms_advice(std::nullopt, std::nullopt).find("kptr_restrict=?"),
		  std::string::npos);
}

TEST(Errors, NoPermission)
{
	for (int err : {EACCES, EPERM}) {
		Error e = explain(Op::Open, err, ctx);

		EXPECT_EQ(e.code, ExitCode::Device);
		EXPECT_TRUE(has(e, "0600")) << e.message();
		EXPECT_TRUE(has(e, "run as root") || has(e, "Run as root")) << e.message();
		EXPECT_TRUE(has(e, "KERNEL==\"kprofile\"")) << e.message();
		EXPECT_TRUE(has(e, "/etc/udev/rules.d/")) << e.message();
		// The rule make install installs, by the same name.
		EXPECT_TRUE(has(e, "sudo make install")) << e.message();
		EXPECT_TRUE(has(e, "60-kprofile.rules")) << e.message();
	}
}

// S3: the machine-wide requests are refused for want of CAP_PERFMON, not
// for the device's mode: the advice says so, and how to get it.
TEST(Errors, MachineWideNeedsPerfmon)
{
	for (Op op : {Op::SetInterval, Op::SetHwConfig, Op::ThreadEnable}) {
		Error e = explain(op, EPERM, ctx);

		EXPECT_TRUE(has(e, "CAP_PERFMON")) << e.message();
		EXPECT_TRUE(has(e, "setcap cap_perfmon+ep")) << e.message();
		EXPECT_FALSE(has(e, "0600")) << e.message();
	}
	EXPECT_TRUE(has(explain(Op::SetInterval, EPERM, ctx), "every profile"));
	EXPECT_TRUE(has(explain(Op::ThreadEnable, EPERM, ctx), "thread-profiling client"));
}

// Issue 23 (5): a failed interval change named no source ("setting the
// interval of failed") when the caller gave none; the device names it.
TEST(Errors, IntervalErrorsNameTheSource)
{
	const ErrorContext bare = {.device = "/dev/kprofile"};

	for (Op op : {Op::SetInterval, Op::GetInterval, Op::QuerySource}) {
		for (int err : {EPERM, EINVAL, ENOTTY}) {
			Error e = explain(op, err, bare);

			EXPECT_FALSE(has(e, " of failed")) << e.message();
			EXPECT_FALSE(has(e, " of)")) << e.message();
			EXPECT_FALSE(has(e, "querying failed")) << e.message();
		}
	}
	EXPECT_EQ(explain(Op::SetInterval, EPERM, ctx).what,
		  "setting the interval of ProfileLLCMisses (0x1D) failed: "
		  "Operation not permitted (EPERM)");
}

TEST(Errors, CountersBusy)
{
	Error e = explain(Op::Other, EBUSY, ctx);

	EXPECT_EQ(e.code, ExitCode::Refused);
	EXPECT_TRUE(has(e, "sysctl kernel.nmi_watchdog=0")) << e.message();
	EXPECT_TRUE(has(e, "perf")) << e.message();
}

TEST(Errors, UnsupportedSourceGivesTheModulesReason)
{
	ErrorContext c = ctx;

	c.reason = "CPUID 0xA: EBX bit 4 is set: the processor lacks this event";
	Error e = explain(Op::SetInterval, EOPNOTSUPP, c);
	EXPECT_EQ(e.code, ExitCode::Refused);
	EXPECT_EQ(e.what, "ProfileLLCMisses (0x1D) is not supported on this machine");
	EXPECT_TRUE(has(e, "Reason: CPUID 0xA: EBX bit 4 is set")) << e.message();
	EXPECT_TRUE(has(e, "kprofile sources --all")) << e.message();
	EXPECT_FALSE(has(e, "virtual machine")) << e.message();

	c.hypervisor = true;
	EXPECT_TRUE(has(explain(Op::SetInterval, EOPNOTSUPP, c), "virtual machine"));
}

TEST(Errors, AbiMismatch)
{
	ErrorContext c = ctx;

	c.module_abi = 99;
	Error e = explain(Op::Info, ENOTTY, c);
	EXPECT_EQ(e.code, ExitCode::Device);
	EXPECT_TRUE(has(e, "different versions")) << e.message();
	EXPECT_TRUE(has(e, "Module ABI 99")) << e.message();

	e = abi_mismatch(7, "/dev/kprofile");
	EXPECT_EQ(e.code, ExitCode::Device);
	EXPECT_TRUE(has(e, "ABI 7")) << e.message();
	EXPECT_TRUE(has(e, "sudo make unload load")) << e.message();
}

TEST(Errors, UnknownSourceFromTheModule)
{
	Error e = explain(Op::GetInterval, EINVAL, ctx);

	EXPECT_EQ(e.code, ExitCode::Refused);
	EXPECT_TRUE(has(e, "reading the interval of ProfileLLCMisses (0x1D) failed")) << e.message();
	EXPECT_TRUE(has(e, "EINVAL")) << e.message();
}

TEST(Errors, MessageLayout)
{
	Error e = usage_error("bad thing", {"do this", "then that"});

	EXPECT_EQ(e.code, ExitCode::Usage);
	EXPECT_EQ(e.message(), "kprofile: bad thing\n  do this\n  then that\n");
}

TEST(Errors, ExitCodesAreDocumentedValues)
{
	EXPECT_EQ(static_cast<int>(ExitCode::Ok), 0);
	EXPECT_EQ(static_cast<int>(ExitCode::Usage), 1);
	EXPECT_EQ(static_cast<int>(ExitCode::Device), 2);
	EXPECT_EQ(static_cast<int>(ExitCode::Refused), 3);
	EXPECT_EQ(static_cast<int>(ExitCode::Internal), 4);
}

// One errno -> exit code mapping for every command (record used its own).
TEST(Errors, OneErrnoToExitCodeMapping)
{
	EXPECT_EQ(exit_code_for(ENOTTY), ExitCode::Device);
	EXPECT_EQ(exit_code_for(ENOENT), ExitCode::Device);
	for (int err : {EPERM, EACCES, EOPNOTSUPP, EBUSY, ESRCH, EINVAL, ENOSPC, ENOMEM})
		EXPECT_EQ(exit_code_for(err), ExitCode::Refused) << err;
	EXPECT_EQ(exit_code_for(EIO), ExitCode::Internal);

	Error e = errno_error(EBUSY, "cannot start a profile", {"", "free the counters"});
	EXPECT_EQ(e.code, ExitCode::Refused);
	EXPECT_EQ(e.err, EBUSY);
	EXPECT_EQ(e.message(), "kprofile: cannot start a profile: Device or resource busy (EBUSY)\n"
			       "  free the counters\n")
		<< "empty hints are dropped, the errno is named as in every other command";
	EXPECT_EQ(errno_error(0, "plain").message(), "kprofile: plain\n");
}
