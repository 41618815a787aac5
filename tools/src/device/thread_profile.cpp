// SPDX-License-Identifier: GPL-2.0
// thread_profile.cpp - see thread_profile.h.
#include "thread_profile.h"

#include <cerrno>
#include <cstring>
#include <sys/ioctl.h>

#include <fmt/format.h>

#include <linux/kprofile.h>

namespace kprofile {

namespace {

int call(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ::ioctl(fd, request, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

std::string text(const char *s, std::size_t n)
{
	return std::string(s, strnlen(s, n));
}

} // namespace

Result<HwConfig> HwConfig::set(const Device &dev, const std::vector<std::uint32_t> &sources,
			       std::string *reason, const std::vector<std::uint32_t> &modes)
{
	kprofile_hw_config_set cs{};

	if (sources.size() > KPROFILE_MAX_COUNTERS)
		return usage_error(fmt::format("{} counter sources: at most {}", sources.size(),
					       KPROFILE_MAX_COUNTERS));
	cs.config.count = static_cast<std::uint32_t>(sources.size());
	for (std::size_t i = 0; i < sources.size(); i++) {
		cs.config.counters[i].type = KPROFILE_HW_COUNTER_PMC;
		cs.config.counters[i].source = sources[i];
		cs.config.counters[i].mode = i < modes.size() ? modes[i] : KPROFILE_MODE_TABLE;
	}
	int ret = call(dev.fd(), KPROFILE_IOC_SET_HW_CONFIG_EX, &cs);
	if (ret < 0) {
		ErrorContext ctx{.device = dev.path(),
				 .reason = text(cs.reason, sizeof(cs.reason))};
		if (reason)
			*reason = ctx.reason;
		Error e = explain(Op::SetHwConfig, -ret, ctx);
		e.what = fmt::format("setting the hardware-counter configuration failed: {}",
				     errno_text(-ret));
		if (!ctx.reason.empty() && -ret == EBUSY)
			e.hints.insert(e.hints.begin(), "Reason: " + ctx.reason + ".");
		return e;
	}
	std::vector<std::uint32_t> counters;
	for (std::size_t i = 0; i < sources.size(); i++)
		counters.push_back(cs.config.counters[i].index);
	return HwConfig(dev.fd(), std::move(counters));
}

HwConfig::HwConfig(HwConfig &&other) noexcept
	: fd_(std::exchange(other.fd_, -1)), counters_(std::move(other.counters_))
{
}

HwConfig::~HwConfig()
{
	kprofile_hw_config empty{};

	if (fd_ >= 0)
		call(fd_, KPROFILE_IOC_SET_HW_CONFIG, &empty);
}

Result<ThreadProfile> ThreadProfile::enable(const Device &dev, pid_t pid, bool inherit,
					    bool start_on_exec)
{
	kprofile_thread_enable te{};

	te.pid = pid;
	te.flags = (inherit ? KPROFILE_THREAD_INHERIT : 0) |
		   (start_on_exec ? KPROFILE_THREAD_START_ON_EXEC : 0);
	te.counter_mask = (1U << KPROFILE_MAX_COUNTERS) - 1;
	int ret = call(dev.fd(), KPROFILE_IOC_THREAD_ENABLE, &te);
	if (ret >= 0)
		return ThreadProfile(UniqueFd(ret), dev.path());

	Error e = explain(Op::ThreadEnable, -ret, {.device = dev.path()});
	e.what = fmt::format("enabling thread profiling failed: {}", errno_text(-ret));
	if (-ret == EBUSY)
		e.hints = {"Another program is profiling threads (the module allows one client at "
			   "a time,",
			   "as Windows does). Wait for it to finish, or end it."};
	else if (-ret == EOPNOTSUPP)
		e.hints = {"The kernel lacks the scheduler tracepoints thread profiling hooks "
			   "(CONFIG_TRACEPOINTS)."};
	return e;
}

Result<ThreadTotals> ThreadProfile::read() const
{
	kprofile_thread_data d{};
	ThreadTotals t;

	int ret = call(fd_.get(), KPROFILE_IOC_THREAD_READ, &d);
	if (ret < 0)
		return explain(Op::Other, -ret, {.device = device_});
	t.context_switches = d.context_switches;
	t.cycle_time = d.cycle_time;
	t.threads = d.threads;
	t.counters_valid = d.flags & KPROFILE_THREAD_COUNTERS_VALID;
	for (std::uint32_t i = 0; i < d.hw_counter_count && i < KPROFILE_MAX_COUNTERS; i++)
		t.counters.push_back(d.hw_counters[i]);
	t.reason = text(d.reason, sizeof(d.reason));
	return t;
}

Result<std::vector<ThreadRow>> ThreadProfile::threads(std::size_t entries) const
{
	std::vector<kprofile_thread_entry> buf(64);

	for (;;) {
		kprofile_thread_list lst{};

		lst.count = static_cast<std::uint32_t>(buf.size());
		lst.entries = reinterpret_cast<std::uintptr_t>(buf.data());
		int ret = call(fd_.get(), KPROFILE_IOC_THREAD_LIST, &lst);
		if (ret == -ENOSPC && lst.count > buf.size()) {
			buf.resize(lst.count + 16);
			continue;
		}
		if (ret < 0)
			return explain(Op::Other, -ret, {.device = device_});
		std::vector<ThreadRow> rows;
		for (std::uint32_t i = 0; i < lst.count; i++) {
			const kprofile_thread_entry &e = buf[i];
			ThreadRow r;

			r.tid = e.tid;
			r.pid = e.tgid;
			r.comm = text(e.comm, sizeof(e.comm));
			r.exited = e.flags & KPROFILE_THREAD_EXITED;
			r.context_switches = e.context_switches;
			r.cycle_time = e.cycle_time;
			for (std::size_t j = 0; j < entries && j < KPROFILE_MAX_COUNTERS; j++)
				r.counters.push_back(e.hw_counters[j]);
			rows.push_back(std::move(r));
		}
		return rows;
	}
}

} // namespace kprofile
