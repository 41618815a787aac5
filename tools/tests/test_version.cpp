// SPDX-License-Identifier: GPL-2.0
// `kprofile --version`: the tool's version is the file VERSION's, and the
// module line says what the device answered.
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <linux/kprofile.h>

#include "version.h"

using namespace kprofile;

namespace {

bool has(const std::string &text, const std::string &needle)
{
	return text.find(needle) != std::string::npos;
}

} // namespace

TEST(Version, ToolVersionIsTheVersionFile)
{
	std::ifstream f(KP_SOURCE_ROOT "/VERSION");
	std::string line;

	ASSERT_TRUE(std::getline(f, line)) << "cannot read " KP_SOURCE_ROOT "/VERSION";
	EXPECT_EQ(tool_version(), line);
}

TEST(Version, NoDeviceNoModuleLine)
{
	auto m = query_module_version("/nonexistent/kprofile");
	auto text = render_version("1.2.3", m, "/nonexistent/kprofile");

	EXPECT_EQ(m.state, ModuleVersion::State::Absent);
	EXPECT_EQ(text, "kprofile 1.2.3 (ABI " + std::to_string(KPROFILE_ABI_VERSION) + ")\n");
}

TEST(Version, DeviceThatIsNotKprofileIsUnreadable)
{
	auto m = query_module_version("/dev/null");
	auto text = render_version("1.2.3", m, "/dev/null");

	EXPECT_EQ(m.state, ModuleVersion::State::Unreadable);
	EXPECT_TRUE(has(text, "module: version unknown: /dev/null: not a kprofile device")) << text;
}

TEST(Version, LoadedModuleShowsItsVersion)
{
	ModuleVersion m{.state = ModuleVersion::State::Known, .abi = KPROFILE_ABI_VERSION,
			.version = "1.2.3"};
	auto text = render_version("1.2.3", m, "/dev/kprofile");

	EXPECT_TRUE(has(text, "module: 1.2.3 (ABI " + std::to_string(KPROFILE_ABI_VERSION) +
				"), /dev/kprofile\n")) << text;
	EXPECT_FALSE(has(text, "note:")) << text;
	EXPECT_FALSE(has(text, "warning:")) << text;
}

TEST(Version, DifferentReleasesAreNoted)
{
	ModuleVersion m{.state = ModuleVersion::State::Known, .abi = KPROFILE_ABI_VERSION,
			.version = "1.2.2"};
	auto text = render_version("1.2.3", m, "/dev/kprofile");

	EXPECT_TRUE(has(text, "note: the module (1.2.2) and the tool (1.2.3) are different releases"))
		<< text;
}

TEST(Version, AbiMismatchIsAWarning)
{
	ModuleVersion m{.state = ModuleVersion::State::Unversioned, .abi = KPROFILE_ABI_VERSION + 1};
	auto text = render_version("1.2.3", m, "/dev/kprofile");

	EXPECT_TRUE(has(text, "predates KPROFILE_IOC_VERSION")) << text;
	EXPECT_TRUE(has(text, "warning: the module's ABI")) << text;
}
