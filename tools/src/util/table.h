// SPDX-License-Identifier: GPL-2.0
// table.h - aligned text tables, as perf and xperf print them.
#pragma once

#include <string>
#include <vector>

namespace kprofile {

class Table {
public:
	enum class Align { Left, Right };
	struct Column {
		std::string header;
		Align align = Align::Left;
	};

	explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

	// A row of exactly as many cells as there are columns.
	void add_row(std::vector<std::string> cells);
	std::size_t rows() const { return rows_.size(); }

	// Header, then rows; columns separated by two spaces, right-aligned
	// columns padded on the left, no trailing blanks.
	std::string render() const;

private:
	std::vector<Column> columns_;
	std::vector<std::vector<std::string>> rows_;
};

} // namespace kprofile
