// SPDX-License-Identifier: GPL-2.0
// main.cpp - `kprofile`: the command registry and dispatch, global
// options, and the mapping of failures to exit codes.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.h"
#include "source_parse.h"
#include "version.h"

using namespace kprofile;

namespace {

// Every command: one line here, one cmd_NAME.cpp.
constexpr CommandSpec commands[] = {
	{"info", "Show the profile interface the module chose and the PMU it found", setup_info},
	{"sources", "List the profile sources (like xperf -pmcsources)", setup_sources},
	{"interval", "Get or set a source's machine-wide interval", setup_interval},
	{"record", "Profile a command, a process or the system into a file (like perf record)", setup_record},
	{"report", "Show where a recording's hits went, by symbol (like perf report)", setup_report},
	{"script", "Dump a recording's samples with their call stacks (like perf script)", setup_script},
	{"top", "Show the hottest symbols live while a target runs", setup_top},
	{"stat", "Run a command and count its threads' switches, cycles and counters", setup_stat},
};

constexpr const char *exit_codes =
	"Exit status: 0 success; 1 usage error (bad option, unknown SOURCE);\n"
	"2 /dev/kprofile unusable (module not loaded, no permission, ABI mismatch);\n"
	"3 the module refused (source unsupported here, counters busy, invalid);\n"
	"4 internal error.  Environment: KPROFILE_DEVICE overrides /dev/kprofile.\n"
	"`kprofile help COMMAND` is `kprofile COMMAND --help`; man kprofile-COMMAND says more.";

// The command word of argv, if any ("--device X info" -> "info").
std::optional<std::string_view> command_word(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		std::string_view arg = argv[i];

		if (arg == "--")
			return std::nullopt;
		if (arg == "--device") {
			i++;
			continue;
		}
		if (!arg.starts_with("-"))
			return arg;
	}
	return std::nullopt;
}

// `kprofile help [CMD]` (as `perf help`, `git help`): the same as
// `kprofile [CMD] --help`.  Rewrites @args in place.
void rewrite_help(std::vector<char *> &args)
{
	static char help_flag[] = "--help";
	auto word = command_word(static_cast<int>(args.size()), args.data());

	if (!word || *word != "help")
		return;
	auto it = std::find_if(args.begin() + 1, args.end(),
			       [&](const char *a) { return a == *word; });
	std::vector<char *> out(args.begin(), it);
	if (it + 1 != args.end() && std::string_view(*(it + 1)) != "--")
		out.push_back(*(it + 1));
	out.push_back(help_flag);
	args = std::move(out);
}

// "kprofile: unknown command 'infoo'" with a suggestion, or nullopt.
std::optional<Error> unknown_command(int argc, char **argv)
{
	auto word = command_word(argc, argv);
	std::vector<std::string> names;

	if (!word)
		return std::nullopt;
	for (const auto &c : commands) {
		if (*word == c.name)
			return std::nullopt;
		names.emplace_back(c.name);
	}
	std::vector<std::string> hints;
	auto near = closest(*word, names, 1);
	if (!near.empty())
		hints.push_back(fmt::format("Did you mean '{}'?", near[0]));
	hints.push_back(fmt::format("Commands: {}.  kprofile --help says more.", fmt::join(names, ", ")));
	return usage_error(fmt::format("unknown command '{}'", *word), std::move(hints));
}

// "interval " when a command was given, for its --help.
std::string help_for(CLI::App &app)
{
	const auto subs = app.get_subcommands();

	return subs.empty() ? std::string() : fmt::format("{} ", subs.front()->get_name());
}

int fail(const Error &e)
{
	print_err(e.message());
	return static_cast<int>(e.code);
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{"kprofile: Windows-style profile sources on Linux, over /dev/kprofile.",
		     "kprofile"};
	Context ctx{Device::default_path()};

	app.require_subcommand(1);
	app.fallthrough();
	app.add_option("--device", ctx.device, "The kprofile device")
		->type_name("PATH")
		->capture_default_str();
	app.set_version_flag("--version", [&ctx] {
		const std::string text =
			render_version(tool_version(), query_module_version(ctx.device), ctx.device);

		return text.substr(0, text.size() - 1);	// CLI11 adds the newline
	}, "Print the tool's, the ABI's and the loaded module's versions and exit");
	app.footer(exit_codes);
	for (const auto &c : commands) {
		CLI::App *sub = app.add_subcommand(c.name, c.summary);

		c.setup(*sub, ctx);
	}

	if (argc == 1) {	// as perf and git: the usage and the commands
		print_out(app.help());
		return static_cast<int>(ExitCode::Usage);
	}
	std::vector<char *> args(argv, argv + argc);
	rewrite_help(args);
	argc = static_cast<int>(args.size());
	args.push_back(nullptr);
	argv = args.data();
	if (auto e = unknown_command(argc, argv))
		return fail(*e);
	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		if (e.get_exit_code() == 0)	// --help, --version
			return app.exit(e);
		return fail(usage_error(e.what(), {fmt::format("kprofile {}--help says more.",
							       help_for(app))}));
	} catch (const Failure &f) {
		return fail(f.error());
	} catch (const std::exception &e) {
		return fail({.code = ExitCode::Internal, .what = fmt::format("internal error: {}", e.what())});
	}
	if (std::fflush(stdout) != 0 || std::ferror(stdout))
		return fail({.code = ExitCode::Internal,
			     .what = fmt::format("cannot write the output: {}", errno_text(errno))});
	return 0;
}
