// SPDX-License-Identifier: GPL-2.0
// The folded-stacks writer of report --format folded (folded_stacks.h).
#include <gtest/gtest.h>

#include "folded_stacks.h"

using namespace kprofile::record;

TEST(RecordFolded, RowsKeepTheirOrderAndAreNotMerged)
{
	FoldedStacks f(false);
	f.add({"prog", "b"}, 2);
	f.add({"prog", "a"}, 3);
	f.add({"prog", "b"}, 1);
	EXPECT_EQ(f.text(), "prog;b 2\nprog;a 3\nprog;b 1\n");
}

TEST(RecordFolded, SamplesMergeAndSortByStack)
{
	FoldedStacks f(true);
	f.add({"prog", "main", "b"}, 1);
	f.add({"prog", "main", "a"}, 1);
	f.add({"prog", "main", "b"}, 1);
	EXPECT_EQ(f.text(), "prog;main;a 1\nprog;main;b 2\n");
}

TEST(RecordFolded, SeparatorsInsideAFrameBecomeColons)
{
	FoldedStacks f(false);
	f.add({"a;b", "c\nd"}, 1);
	EXPECT_EQ(f.text(), "a:b;c:d 1\n");
}

TEST(RecordFolded, AnEmptyFrameKeepsItsPlaceAndZeroWeightIsLeftOut)
{
	FoldedStacks f(false);
	f.add({"", "sym"}, 4);
	f.add({"other"}, 0);
	EXPECT_EQ(f.text(), ";sym 4\n");
}
