// SPDX-License-Identifier: GPL-2.0
// table.cpp - aligned text tables.
#include "table.h"

#include <algorithm>
#include <stdexcept>

namespace kprofile {

void Table::add_row(std::vector<std::string> cells)
{
	if (cells.size() != columns_.size())
		throw std::logic_error("Table::add_row: wrong number of cells");
	rows_.push_back(std::move(cells));
}

std::string Table::render() const
{
	std::vector<std::size_t> width(columns_.size());
	std::string out;

	for (std::size_t c = 0; c < columns_.size(); c++) {
		width[c] = columns_[c].header.size();
		for (const auto &row : rows_)
			width[c] = std::max(width[c], row[c].size());
	}

	auto line = [&](const std::vector<std::string> &cells) {
		std::string s;

		for (std::size_t c = 0; c < cells.size(); c++) {
			const std::size_t pad = width[c] - cells[c].size();

			if (c)
				s += "  ";
			if (columns_[c].align == Align::Right)
				s.append(pad, ' ');
			s += cells[c];
			if (columns_[c].align == Align::Left)
				s.append(pad, ' ');
		}
		s.erase(s.find_last_not_of(' ') + 1);
		return s + "\n";
	};

	std::vector<std::string> header;
	for (const auto &col : columns_)
		header.push_back(col.header);
	out += line(header);
	for (const auto &row : rows_)
		out += line(row);
	return out;
}

} // namespace kprofile
