// SPDX-License-Identifier: GPL-2.0
// cmd_info.cpp - `kprofile info`: the profile interface the module chose
// and the PMU it found (KPROFILE_IOC_INFO).
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "info_render.h"

namespace kprofile {

namespace {

struct InfoOptions {
	bool json = false;
};

void run_info(const InfoOptions &opts, const Context &ctx)
{
	Device dev = open_device(ctx);
	kprofile_info info = dev.info().value();
	std::optional<kprofile_info_ex> ex;

	if (info.abi_version == KPROFILE_ABI_VERSION)
		ex = dev.info_ex().value();
	if (opts.json)
		print_json(info_json(info, ex ? &*ex : nullptr));
	else
		print_out(render_info(info, ex ? &*ex : nullptr));
	// Shown, but flagged: every other command refuses to go on.
	if (info.abi_version != KPROFILE_ABI_VERSION)
		print_err(abi_mismatch(info.abi_version, ctx.device).message());
}

} // namespace

void setup_info(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<InfoOptions>();

	cmd.add_flag("--json", opts->json, "Print one JSON object (keys: tools/README.md)");
	cmd.footer("Interface None means only ProfileTime (a timer) can be profiled; the line\n"
		   "says why (no architectural perfmon, counters hidden by a hypervisor, ...).\n"
		   "PMU state busy means the interface is there but someone else (perf: the NMI\n"
		   "watchdog) holds the counters now; it becomes available when they let go.");
	cmd.callback([opts, &ctx] { run_info(*opts, ctx); });
}

} // namespace kprofile
