// SPDX-License-Identifier: GPL-2.0
// RLIMIT_MEMLOCK: the limit the tool reads is the one the kernel charges
// (so a user on a kernel older than 5.16, whose default is 64 KiB, is told
// the real number and how to raise it).
#include <sys/mman.h>
#include <sys/resource.h>

#include <gtest/gtest.h>

#include "memlock.h"

using namespace kprofile::record;

namespace {

// Lowers the soft limit for one test, restoring it after.
class SoftMemlock {
public:
	explicit SoftMemlock(rlim_t bytes)
	{
		getrlimit(RLIMIT_MEMLOCK, &saved_);
		struct rlimit rl = saved_;
		rl.rlim_cur = bytes;
		ok_ = setrlimit(RLIMIT_MEMLOCK, &rl) == 0;
	}
	~SoftMemlock() { setrlimit(RLIMIT_MEMLOCK, &saved_); }
	bool ok() const { return ok_; }

private:
	struct rlimit saved_ {};
	bool ok_ = false;
};

bool has_ipc_lock_cap()
{
	// memlock_limit() ignores the limit then; probe it the kernel's way:
	// locking more than a zero limit succeeds only with the capability.
	SoftMemlock zero(0);
	static char page[4096] __attribute__((aligned(4096)));
	const bool locked = mlock(page, sizeof(page)) == 0;
	if (locked)
		munlock(page, sizeof(page));
	return locked;
}

} // namespace

TEST(RecordMemlock, ReadsTheSoftLimitTheKernelCharges)
{
	SoftMemlock limit(64 * 1024);
	ASSERT_TRUE(limit.ok());
	if (has_ipc_lock_cap()) {
		EXPECT_FALSE(memlock_limit().has_value()) << "CAP_IPC_LOCK: the limit does not bind";
		return;
	}
	ASSERT_TRUE(memlock_limit().has_value());
	EXPECT_EQ(*memlock_limit(), 64u * 1024);
}

TEST(RecordMemlock, AdviceForTheOldDefaultNamesItAndTheFix)
{
	const std::string a = memlock_advice(64 * 1024);
	EXPECT_NE(a.find("RLIMIT_MEMLOCK is 64 KiB"), std::string::npos) << a;
	EXPECT_NE(a.find("ulimit -l 8192"), std::string::npos) << a;
	EXPECT_NE(a.find("-b"), std::string::npos) << a;
	EXPECT_NE(a.find("CAP_IPC_LOCK"), std::string::npos) << a;
}

TEST(RecordMemlock, AdviceForALargeLimitSaysBucketsFirst)
{
	const std::string a = memlock_advice(64ULL * 1024 * 1024);
	EXPECT_NE(a.find("65536 KiB"), std::string::npos) << a;
	EXPECT_NE(a.find("larger buckets (-b)"), std::string::npos) << a;
	EXPECT_EQ(a.find("5.16"), std::string::npos) << "not the old-kernel default: " << a;
}

TEST(RecordMemlock, WithoutALimitOnlyMemoryIsShort)
{
	const std::string a = memlock_advice(std::nullopt);
	EXPECT_EQ(a.find("RLIMIT_MEMLOCK"), std::string::npos) << a;
	EXPECT_NE(a.find("-b"), std::string::npos) << a;
}
