// SPDX-License-Identifier: GPL-2.0
// record's maps back-off (FollowPacer) and exec detection (ExecWatch).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "record/follow_pacer.h"

using namespace kprofile::record;
using ms = std::chrono::milliseconds;

TEST(FollowPacer, FastWhileTheLoaderWorksThenBacksOffToTheMaximum)
{
	FollowPacer p;
	ms elapsed{0};
	int reads = 0;

	EXPECT_EQ(p.delay(), ms(1));
	EXPECT_EQ(p.after_read(true), ms(1)) << "new mappings: read again soon";
	EXPECT_EQ(p.after_read(true), ms(1));
	// Quiet reads double the delay: 2, 4, ... 512, then 1000 ms.
	EXPECT_EQ(p.after_read(false), ms(2));
	EXPECT_EQ(p.after_read(false), ms(4));
	p.reset();
	while (elapsed < ms(1000)) {
		elapsed += p.after_read(false);
		reads++;
	}
	EXPECT_LE(reads, 10) << "a settled program's maps are read about 10 times in its first "
				"second (every 1..20 ms read them about 100 times)";
	for (int i = 0; i < 20; i++)
		p.after_read(false);
	EXPECT_EQ(p.delay(), ms(1000)) << "then once a second";
}

TEST(FollowPacer, NewMappingsOrAResetStartOver)
{
	FollowPacer p;

	for (int i = 0; i < 100; i++)
		p.after_read(false);
	ASSERT_EQ(p.delay(), ms(1000));
	EXPECT_EQ(p.after_read(true), ms(1)) << "a dlopen() makes it fast again";
	for (int i = 0; i < 100; i++)
		p.after_read(false);
	p.reset();
	EXPECT_EQ(p.delay(), ms(1));
}

TEST(ExecWatch, SeesAnExecAndAnExitButNotAnUnchangedProcess)
{
	int go[2];

	ASSERT_EQ(::pipe(go), 0);
	const pid_t child = ::fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		char c;

		::close(go[1]);
		if (::read(go[0], &c, 1) == 1)
			::execl("/bin/sleep", "sleep", "10", static_cast<char *>(nullptr));
		::_exit(127);
	}
	::close(go[0]);
	ExecWatch w(child);
	EXPECT_FALSE(w.changed()) << "the first look only remembers the program";
	EXPECT_FALSE(w.changed()) << "nothing happened";
	ASSERT_EQ(::write(go[1], "x", 1), 1);
	bool seen = false;
	for (int i = 0; i < 500 && !seen; i++) {
		seen = w.changed();
		if (!seen)
			std::this_thread::sleep_for(ms(10));
	}
	EXPECT_TRUE(seen) << "the exec of /bin/sleep was not noticed";
	EXPECT_FALSE(w.changed());
	::kill(child, SIGKILL);
	::waitpid(child, nullptr, 0);
	::close(go[1]);
	EXPECT_TRUE(w.changed()) << "a process that is gone counts as changed";
}
