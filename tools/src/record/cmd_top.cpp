// SPDX-License-Identifier: GPL-2.0
// cmd_top.cpp - `kprofile top`: the hottest symbols, refreshed from the
// live bucket buffers while the target runs (ncurses, or text batches).
#include <unistd.h>

#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <curses.h>
#include <fmt/format.h>

#include "record/commands.h"
#include "record/report_render.h"
#include "record/resolver.h"

namespace kprofile::record {

namespace {

// initscr()/endwin() as a scope.
class Screen {
public:
	Screen()
	{
		initscr();
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		curs_set(0);
	}
	~Screen() { endwin(); }
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
};

} // namespace

void TopCommand::setup(CLI::App &app)
{
	add_target_options(app, target);
	app.add_flag("--batch", batch, "print refreshes as text (the default when not a terminal)");
	app.add_option("-n,--iterations", iterations, "stop after N refreshes");
	app.add_option("-d,--delay", delay, "seconds between refreshes (default 1)")
		->check(CLI::PositiveNumber);
	app.add_option("--rows", rows, "symbols shown (default 20)");
}

int TopCommand::run()
{
	try {
		const bool text = batch || !isatty(STDOUT_FILENO);
		Run r(target);
		r.start();
		FileResolver resolver;
		std::unique_ptr<Screen> screen;
		if (!text)
			screen = std::make_unique<Screen>();
		std::size_t shown = 0;

		auto frame = [&]() {
			ProfileData d = r.data();
			Report rep = build_report(d, resolver);
			return fmt::format("kprofile top: {} profiles, {:.1f} s\n", d.ranges.size(),
					   d.duration_ns / 1e9) +
			       render_table(d, rep, rows);
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
		return 0;
	} catch (const std::exception &e) {
		return report_error("top", e);
	}
}

} // namespace kprofile::record
