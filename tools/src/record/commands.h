// SPDX-License-Identifier: GPL-2.0
// commands.h - `kprofile record`, `kprofile report`, `kprofile top`:
// each sets up its CLI11 subcommand and runs from the parsed options.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "record/runner.h"

namespace CLI {
class App;
}

namespace kprofile::record {

struct RecordCommand {
	TargetArgs target;
	std::string output = "kprofile.data";

	void setup(CLI::App &app);
	int run();
};

struct ReportCommand {
	std::string input = "kprofile.data";
	std::string sort = "overhead";
	std::vector<std::string> sources;
	bool raw = false;
	bool json = false;
	std::size_t limit = 0;

	void setup(CLI::App &app);
	int run();
};

struct TopCommand {
	TargetArgs target;
	bool batch = false;
	std::size_t iterations = 0;	// 0: until the target is done
	double delay = 1.0;
	std::size_t rows = 20;

	void setup(CLI::App &app);
	int run();
};

// Print "kprofile CMD: error: ..." and the advice; the exit code for it.
int report_error(const char *cmd, const std::exception &e);

} // namespace kprofile::record
