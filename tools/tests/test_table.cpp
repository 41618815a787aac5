// SPDX-License-Identifier: GPL-2.0
// Aligned tables.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "table.h"

using namespace kprofile;

namespace {

std::vector<std::string> lines(const std::string &s)
{
	std::vector<std::string> out;
	std::istringstream in(s);

	for (std::string l; std::getline(in, l);)
		out.push_back(l);
	return out;
}

} // namespace

TEST(Table, AlignsColumns)
{
	Table t({{"Id", Table::Align::Left}, {"Count", Table::Align::Right}, {"Name", Table::Align::Left}});

	t.add_row({"0x00", "7", "short"});
	t.add_row({"0x1F", "123456", "a-much-longer-name"});
	auto l = lines(t.render());

	ASSERT_EQ(l.size(), 3u);
	EXPECT_EQ(l[0], "Id     Count  Name");
	EXPECT_EQ(l[1], "0x00       7  short");
	EXPECT_EQ(l[2], "0x1F  123456  a-much-longer-name");
}

TEST(Table, NoTrailingBlanks)
{
	Table t({{"A", Table::Align::Left}, {"Long header", Table::Align::Left}});

	t.add_row({"x", ""});
	t.add_row({"y", "z"});
	for (const auto &l : lines(t.render()))
		EXPECT_NE(l.back(), ' ') << "'" << l << "'";
}

TEST(Table, RejectsRowsOfTheWrongWidth)
{
	Table t({{"A", Table::Align::Left}, {"B", Table::Align::Left}});

	EXPECT_THROW(t.add_row({"only one"}), std::logic_error);
	EXPECT_EQ(t.rows(), 0u);
}
