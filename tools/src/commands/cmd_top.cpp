// SPDX-License-Identifier: GPL-2.0
// cmd_top.cpp - `kprofile top`: the hottest symbols, refreshed from the
// live bucket buffers while the target runs (ncurses, or text batches).
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <curses.h>
#include <fmt/format.h>

#include "command.h"
#include "errors.h"
#include "report_render.h"
#include "report_select.h"
#include "resolver.h"
#include "runner.h"

namespace kprofile {

namespace record {
namespace {

struct TopOptions {
	TargetArgs target;
	bool batch = false;
	std::size_t iterations = 0;	// 0: until the target is done
	double delay = 1.0;
	std::size_t rows = 20;
	bool delta = false;	// each refresh: the hits since the previous one
};

// newterm()/endwin() as a scope.  newterm(), not initscr(): initscr()
// exits the process when the terminal has no terminfo entry (the guest
// console's TERM=linux: "Error opening terminal"), which left the
// command top had started running, unprofiled.
class Screen {
public:
	// The screen, or nullptr when ncurses cannot drive this terminal.
	static std::unique_ptr<Screen> open()
	{
		SCREEN *s = newterm(nullptr, stdout, stdin);

		return s ? std::unique_ptr<Screen>(new Screen(s)) : nullptr;
	}
	~Screen()
	{
		endwin();
		delscreen(screen_);
	}
	Screen(const Screen &) = delete;
	Screen &operator=(const Screen &) = delete;

	// Draw @text; false when the user pressed q.
	bool show(const std::string &text)
	{
		std::istringstream in(text);
		std::string line;
		int y = 0;

		erase();
		while (std::getline(in, line) && y < LINES - 1)
			mvaddnstr(y++, 0, line.c_str(), COLS - 1);
		mvaddstr(LINES - 1, 0, "q: quit");
		refresh();
		int c;
		while ((c = getch()) != ERR)
			if (c == 'q' || c == 'Q')
				return false;
		return true;
	}

private:
	explicit Screen(SCREEN *s) : screen_(s)
	{
		set_term(s);
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		curs_set(0);
	}

	SCREEN *screen_;
};

void run_top(const TopOptions &opts, const Context &ctx)
{
	const bool batch = opts.batch;
	const std::size_t iterations = opts.iterations;
	const double delay = opts.delay;
	const std::size_t rows = opts.rows;

	try {
		bool text = batch || !isatty(STDOUT_FILENO);
		Run r(opts.target, ctx.device);
		r.start();
		FileResolver resolver;
		std::unique_ptr<Screen> screen;
		if (!text && !(screen = Screen::open())) {
			const char *term = std::getenv("TERM");
			print_err(fmt::format("kprofile top: cannot drive this terminal (TERM={}: no "
					      "terminfo entry?); printing --batch refreshes instead\n",
					      term ? term : "unset"));
			text = true;
		}
		std::size_t shown = 0;
		std::optional<ProfileData> previous;	// --delta: the last frame's counts
		bool kernel_symbols = false;

		auto frame = [&]() {
			ProfileData d = r.data();
			if (!kernel_symbols) {
				// The kallsyms record read before the profiles started:
				// top reading /proc/kallsyms while they run showed up in
				// its own -a profile (kallsyms_expand_symbol, the review's
				// E2).  All of them, as the resolver would have read them
				// (not kernel_symbols_for()'s hit ones): it builds its
				// table from the first frame's and keeps it.
				d.kernel_symbols = r.session().kallsyms();
				kernel_symbols = true;
			}
			const double total = d.duration_ns / 1e9;
			std::string head = fmt::format("kprofile top: {:.1f} s", total);
			if (opts.delta) {
				ProfileData now = d;
				if (previous) {
					d = delta_since(now, *previous);
					head += fmt::format(", the hits of the last {:.1f} s (--delta)",
							    d.duration_ns / 1e9);
				}
				previous = std::move(now);
			}
			Report rep = build_report(d, resolver);
			default_grouping(rep);	// one row per command, object, symbol
			return head + "\n" + render_table(d, rep, rows);
		};
		auto tick = [&]() {
			std::string f = frame();
			shown++;
			if (screen) {
				if (!screen->show(f))
					return false;
			} else {
				std::cout << fmt::format("--- refresh {} ---\n", shown) << f << std::flush;
			}
			return !iterations || shown < iterations;
		};
		r.loop(tick, std::chrono::milliseconds(static_cast<long>(delay * 1000)));
		r.stop();
		screen.reset();
		if (!shown || (text && (!iterations || shown < iterations))) {
			// The target ended between refreshes: show the final state.
			std::cout << fmt::format("--- final ---\n") << frame() << std::flush;
		}
	} catch (const Failure &) {
		throw;
	} catch (const std::exception &e) {
		fail(e);
	}
}

} // namespace
} // namespace record

void setup_top(CLI::App &cmd, Context &ctx)
{
	auto opts = std::make_shared<record::TopOptions>();

	record::add_target_options(cmd, opts->target);
	cmd.add_flag("--batch", opts->batch,
		     "Print refreshes as text (the default when not a terminal)");
	cmd.add_option("-n,--iterations", opts->iterations, "Stop after N refreshes");
	cmd.add_option("-d,--delay", opts->delay, "Seconds between refreshes (default 1)")
		->check(CLI::PositiveNumber);
	cmd.add_option("--rows", opts->rows, "Symbols shown (default 20)");
	cmd.add_flag("--delta", opts->delta,
		     "Each refresh shows the hits since the previous one, not since the start "
		     "(what is hot now, as perf top's decay)");
	cmd.footer("Reads the live bucket buffers while the target runs; q quits.  Without\n"
		   "--delta the counts are cumulative from the start.");
	cmd.callback([opts, &ctx] { record::run_top(*opts, ctx); });
}

} // namespace kprofile
