// SPDX-License-Identifier: GPL-2.0
// The device wrapper without the module: open failures, a device that is
// not kprofile, descriptor ownership.
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>

#include <gtest/gtest.h>

#include "device.h"

using namespace kprofile;

TEST(Device, MissingDeviceMeansModuleNotLoaded)
{
	auto dev = Device::open("/nonexistent/kprofile");

	ASSERT_FALSE(dev.ok());
	EXPECT_EQ(dev.error().err, ENOENT);
	EXPECT_EQ(dev.error().code, ExitCode::Device);
	EXPECT_NE(dev.error().message().find("not loaded"), std::string::npos);
	EXPECT_THROW(dev.value(), Failure);
}

TEST(Device, AnotherDeviceAnswersEnotty)
{
	// /dev/null is no kprofile: every ioctl is ENOTTY, which the tool
	// explains as a module/tool mismatch.
	auto dev = Device::open("/dev/null");

	ASSERT_TRUE(dev.ok()) << dev.error().message();
	auto info = dev.value().info();
	ASSERT_FALSE(info.ok());
	EXPECT_EQ(info.error().err, ENOTTY);
	EXPECT_EQ(info.error().code, ExitCode::Device);
	EXPECT_NE(info.error().message().find("different versions"), std::string::npos);

	auto list = dev.value().list_sources();
	ASSERT_FALSE(list.ok());
	EXPECT_EQ(list.error().err, ENOTTY);
	EXPECT_FALSE(dev.value().set_interval(0, 5000).ok());
}

// Issue 23 (5): "setting the interval of failed" named no source.
TEST(Device, IntervalErrorsNameTheSource)
{
	auto dev = Device::open("/dev/null");

	ASSERT_TRUE(dev.ok()) << dev.error().message();
	auto set = dev.value().set_interval(KPROFILE_SOURCE_TIME, 5000);
	ASSERT_FALSE(set.ok());
	EXPECT_NE(set.error().message().find("setting the interval of ProfileTime (0x00)"),
		  std::string::npos) << set.error().message();
	auto get = dev.value().get_interval(0x1D);
	ASSERT_FALSE(get.ok());
	EXPECT_NE(get.error().message().find("reading the interval of source 0x1D"),
		  std::string::npos) << get.error().message();
	auto query = dev.value().query_source(KPROFILE_SOURCE_TIME);
	ASSERT_FALSE(query.ok());
	EXPECT_NE(query.error().message().find("querying ProfileTime (0x00)"), std::string::npos)
		<< query.error().message();
}

TEST(Device, FailureCarriesTheError)
{
	auto dev = Device::open("/nonexistent/kprofile");

	try {
		(void)dev.value();
		FAIL() << "no throw";
	} catch (const Failure &f) {
		EXPECT_EQ(f.error().err, ENOENT);
		EXPECT_EQ(f.error().code, ExitCode::Device);
	}
}

TEST(Device, ClosesItsDescriptor)
{
	int fd;
	{
		auto dev = Device::open("/dev/null");

		ASSERT_TRUE(dev.ok());
		fd = dev.value().fd();
		ASSERT_GE(fd, 0);
		EXPECT_EQ(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	}
	errno = 0;
	EXPECT_EQ(fcntl(fd, F_GETFD), -1);
	EXPECT_EQ(errno, EBADF);
}

TEST(Device, UniqueFdMoves)
{
	UniqueFd a(open("/dev/null", O_RDONLY | O_CLOEXEC));
	const int fd = a.get();

	ASSERT_GE(fd, 0);
	UniqueFd b(std::move(a));
	EXPECT_EQ(a.get(), -1);
	EXPECT_EQ(b.get(), fd);
	b.reset();
	EXPECT_EQ(fcntl(fd, F_GETFD), -1);
}

TEST(Device, DefaultPathHonoursTheEnvironment)
{
	ASSERT_EQ(setenv("KPROFILE_DEVICE", "/tmp/kp-test-device", 1), 0);
	EXPECT_EQ(Device::default_path(), "/tmp/kp-test-device");
	ASSERT_EQ(unsetenv("KPROFILE_DEVICE"), 0);
	EXPECT_EQ(Device::default_path(), "/dev/kprofile");
}
