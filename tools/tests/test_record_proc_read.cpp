// SPDX-License-Identifier: GPL-2.0
// read_all(): a /proc file read whole, from reads shorter than asked
// (a seq_file's page at a time), through EINTR, and up to a failing read.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

#include "proc_read.h"

using namespace kprofile::record;

namespace {

// Bytes no two positions of which repeat within 251.
std::string pattern(std::size_t n)
{
	std::string s(n, '\0');
	for (std::size_t i = 0; i < n; i++)
		s[i] = static_cast<char>('!' + i % 251 % 90);
	return s;
}

} // namespace

TEST(RecordProcRead, ShortReadsAddUpToTheWholeFile)
{
	// 300 KB through a pipe in 4000-byte writes: the reader sees many
	// short reads, as from /proc/kallsyms, and must keep every byte once
	// and in order.
	const std::string want = pattern(300000);
	int p[2];
	ASSERT_EQ(::pipe(p), 0);
	std::thread writer([&] {
		for (std::size_t off = 0; off < want.size(); off += 4000) {
			const std::size_t n = std::min<std::size_t>(4000, want.size() - off);
			ASSERT_EQ(::write(p[1], want.data() + off, n), static_cast<ssize_t>(n));
		}
		::close(p[1]);
	});
	std::string got = "kept:";
	EXPECT_EQ(read_all(p[0], got), 0);
	writer.join();
	::close(p[0]);
	ASSERT_EQ(got.size(), 5 + want.size());
	EXPECT_EQ(got.substr(0, 5), "kept:");
	EXPECT_TRUE(got.substr(5) == want) << "the bytes differ from what was written";
}

TEST(RecordProcRead, ReadsAProcFileWhole)
{
	const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	std::string text;
	EXPECT_EQ(read_all(fd, text), 0);
	::close(fd);
	// Every line complete: the file ends with its last line's newline.
	ASSERT_FALSE(text.empty());
	EXPECT_EQ(text.back(), '\n');
	EXPECT_NE(text.find("[stack]"), std::string::npos);
}

TEST(RecordProcRead, AReadThatFailsReturnsItsErrno)
{
	const int fd = ::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	std::string text = "before";
	EXPECT_EQ(read_all(fd, text), EISDIR);
	EXPECT_EQ(text, "before");
	::close(fd);
	EXPECT_EQ(read_all(-1, text), EBADF);
}

TEST(RecordProcRead, AnInterruptedReadIsRetried)
{
	// A signal with a handler (no SA_RESTART) interrupts the blocked
	// read with EINTR; the data written after it is still read.
	struct sigaction sa {}, old {};
	sa.sa_handler = [](int) {};
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
	int p[2];
	ASSERT_EQ(::pipe(p), 0);
	const pthread_t reader = ::pthread_self();
	std::thread writer([&] {
		::usleep(100000);
		::pthread_kill(reader, SIGUSR1);
		::usleep(100000);
		ASSERT_EQ(::write(p[1], "after", 5), 5);
		::close(p[1]);
	});
	std::string got;
	EXPECT_EQ(read_all(p[0], got), 0);
	writer.join();
	::close(p[0]);
	::sigaction(SIGUSR1, &old, nullptr);
	EXPECT_EQ(got, "after");
}

TEST(RecordProcRead, APathIsOpenedAndReadWhole)
{
	std::string text;
	EXPECT_EQ(read_path("/proc/self/status", text), 0);
	EXPECT_NE(text.find("\nPid:"), std::string::npos);
	EXPECT_EQ(text.back(), '\n');

	std::string kept = "kept";
	EXPECT_EQ(read_path("/proc/self/no-such-file", kept), ENOENT);
	EXPECT_EQ(kept, "kept");
	EXPECT_EQ(read_path("/proc/self", kept), EISDIR);
	EXPECT_EQ(kept, "kept");
}
