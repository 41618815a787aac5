// SPDX-License-Identifier: GPL-2.0
// profile_device.cpp - profile objects and the record side of the device.
#include "profile_device.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "memlock.h"

namespace kprofile::record {

namespace {

const char *kCapAdvice =
	"system-wide and kernel-address profiling, and counter sources (they sample every "
	"CPU), need CAP_PERFMON (or CAP_SYS_ADMIN): "
	"run as root, or `sudo setcap cap_perfmon+ep $(command -v kprofile)`";

const char *kWatchdogAdvice =
	"the performance counters are held by someone else; the NMI watchdog holds one by "
	"default: `sudo sysctl kernel.nmi_watchdog=0` frees it (perf sessions hold them too)";

// Start the profile of profile fd @fd: KPROFILE_IOC_START_EX, or
// KPROFILE_IOC_START on a module without it (ENOTTY).  0, or the errno
// with the module's reason in @reason (empty when it gave none).
int start_profile(int fd, std::string &reason)
{
	kprofile_start_result res{};
	int err = ioctl_errno(fd, KPROFILE_IOC_START_EX, &res);

	if (err == ENOTTY) {
		res = kprofile_start_result{};
		err = ioctl_errno(fd, KPROFILE_IOC_START, nullptr);
	}
	reason = err ? std::string(res.reason, strnlen(res.reason, sizeof(res.reason))) : "";
	return err;
}

} // namespace

BucketBuffer::BucketBuffer(std::size_t buckets) : count_(buckets)
{
	const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

	map_bytes_ = std::max<std::size_t>((buckets * 4 + page - 1) / page * page, page);
	// A mapping of its own (shared anonymous memory: a tmpfs object per
	// buffer, which never merges with a neighbour).  Private anonymous
	// buffers were neighbours in one merged mapping, and when a followed
	// child exited, unmapping its buffers split that mapping; Linux
	// announces such a split (vma_adjust_trans_huge(), whether or not a
	// huge page is there) as a clear of the 2 MiB around the split
	// point, which the module cannot tell from an unmap: every live
	// profile whose buffer lay within it was marked BUFFER_LOST and
	// counted its later hits as unavailable (multi-process
	// recordings whose totals did not add up).  A whole mapping is
	// unmapped without a split.
	void *p = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		throw Failure(errno_error(errno, fmt::format("cannot allocate {} bytes of buckets",
							     buckets * 4),
					  {"use larger buckets (-b) to need less memory"}));
	data_ = static_cast<std::uint32_t *>(p);
}

BucketBuffer::~BucketBuffer()
{
	if (data_)
		munmap(data_, map_bytes_);
}

std::vector<std::uint32_t> BucketBuffer::snapshot() const
{
	std::vector<std::uint32_t> out(count_);

	for (std::size_t i = 0; i < count_; i++)
		out[i] = __atomic_load_n(&data_[i], __ATOMIC_RELAXED);
	return out;
}

void Profile::start()
{
	std::string reason;

	if (int err = start_profile(fd_.get(), reason))
		throw Failure(errno_error(err, reason.empty() ? std::string("cannot start a profile") :
					  "cannot start a profile (" + reason + ")",
					  {err == EBUSY ? kWatchdogAdvice :
					   err == ENOMEM ? memlock_advice(memlock_limit()) : ""}));
	started_ = true;
}

void Profile::stop()
{
	if (!started_)
		return;
	started_ = false;
	// The process may have exited; counts stay in the buffer either way.
	(void)ioctl_errno(fd_.get(), KPROFILE_IOC_STOP, nullptr);
}

kprofile_profile_stats Profile::stats() const
{
	kprofile_profile_stats st{};

	if (ioctl_errno(fd_.get(), KPROFILE_IOC_PROFILE_STATS, &st))
		st = kprofile_profile_stats{};
	return st;
}

kprofile_profile_stats_ex Profile::stats_ex() const
{
	kprofile_profile_stats_ex st{};

	if (ioctl_errno(fd_.get(), KPROFILE_IOC_PROFILE_STATS_EX, &st))
		st = kprofile_profile_stats_ex{};
	return st;
}

SourceDesc source_desc(const kprofile_source_info &si)
{
	SourceDesc d;

	d.value = si.source;
	d.name = std::string(si.name, strnlen(si.name, sizeof(si.name)));
	d.interval = si.interval;
	d.supported = si.flags & KPROFILE_SOURCE_SUPPORTED;
	d.timer = si.flags & KPROFILE_SOURCE_TIMER;
	d.reason = std::string(si.reason, strnlen(si.reason, sizeof(si.reason)));
	return d;
}

void check_schedule(const Device &dev, const std::vector<SourceDesc> &sources)
{
	std::vector<std::uint32_t> values;
	std::vector<std::string> names;

	for (const auto &d : sources) {
		if (d.timer)
			continue;
		values.push_back(d.value);
		names.push_back(d.name);
	}
	if (values.empty())
		return;
	if (values.size() > KPROFILE_MAX_COUNTERS)
		throw Failure(usage_error("too many counter sources",
					  {fmt::format("at most {} at once", KPROFILE_MAX_COUNTERS)}));
	const kprofile_schedule s = dev.schedule(values).value();
	if (!(s.flags & KPROFILE_SCHED_FITS))
		throw Failure(schedule_error(names, s));
}

Error schedule_error(const std::vector<std::string> &names, const kprofile_schedule &s)
{
	std::string fit, nofit;
	for (std::size_t i = 0; i < names.size() && i < KPROFILE_MAX_COUNTERS; i++) {
		std::string &list = s.counters[i] == KPROFILE_NO_COUNTER ? nofit : fit;
		list += (list.empty() ? "" : ", ") + names[i];
	}
	const std::string reason(s.reason, strnlen(s.reason, sizeof(s.reason)));
	std::string advice = fit.empty() ?
		"none of these sources can be armed now" :
		"these fit together: " + fit + "; record the others (" + nofit + ") in another run";
	if (s.busy_mask)
		advice += std::string("; ") + kWatchdogAdvice;
	return errno_error(EBUSY, fmt::format("sources {} do not fit on the {} counters{}", nofit,
					      s.num_counters, reason.empty() ? "" : " (" + reason + ")"),
			   {advice});
}

std::string profile_advice(int err, const ProfileRequest &req)
{
	switch (err) {
	case EPERM:	// the module: system-wide or kernel addresses
		return kCapAdvice;
	case EACCES: {	// the module: perf_event_paranoid, or no ptrace-read access
		std::string paranoid = paranoid_advice(req.mode != KPROFILE_MODE_USER);
		if (!paranoid.empty())
			return paranoid;
		return fmt::format("profiling process {} needs ptrace-read access to it, as perf: "
				   "be its user, in its user namespace, with every capability it "
				   "holds (and security modules must allow it), or run as root / "
				   "with CAP_PERFMON or CAP_SYS_PTRACE", req.pid);
	}
	case ESRCH:
		return fmt::format("process {} does not exist (it may have exited)", req.pid);
	case EOPNOTSUPP:
		return "`kprofile sources` shows which sources this machine supports, and why not";
	case EBUSY:
		return kWatchdogAdvice;
	case ENOMEM:
		return "the bucket buffer is too large: use larger buckets (-b)";
	case ENOTTY:
		return "the module does not support profile objects: update the kprofile module";
	default:
		return "";
	}
}

std::string profile_label(bool catch_all, bool kernel, const std::string &object_path, pid_t pid)
{
	std::string what;

	if (catch_all)
		what = kernel ? "the kernel catch-all" : "the user-space catch-all";
	else if (kernel)
		what = object_path.empty() ? "the kernel text" : "module " + object_path;
	else
		what = object_path.empty() ? "an anonymous executable mapping" : object_path;
	return what + (pid ? fmt::format(" of process {}", pid) : std::string(" (system-wide)"));
}

std::unique_ptr<Profile> create_profile(const Device &dev, const ProfileRequest &req)
{
	const std::uint64_t buckets = (req.size + (1ULL << req.bucket_shift) - 1) >> req.bucket_shift;
	auto buffer = std::make_unique<BucketBuffer>(buckets);
	kprofile_create_profile cp{};

	cp.target = req.target;
	cp.pid = req.pid;
	cp.base = req.base;
	cp.size = req.size;
	cp.buffer = reinterpret_cast<std::uint64_t>(buffer->data());
	cp.buffer_size = buffer->bytes();
	cp.bucket_shift = req.bucket_shift;
	cp.source = req.source;
	cp.mode = req.mode;
	cp.cpus = req.cpus.empty() ? 0 : reinterpret_cast<std::uint64_t>(req.cpus.data());
	cp.cpus_size = static_cast<std::uint32_t>(req.cpus.size());
	auto fd = dev.create_profile(cp);
	if (!fd.ok()) {
		const int err = fd.error().err;
		std::string advice = profile_advice(err, req);
		if (err == EOPNOTSUPP) {
			auto si = dev.query_source(req.source);
			if (si.ok()) {
				const SourceDesc d = source_desc(si.value());
				advice = d.name + " is not supported here: " + d.reason;
			}
		}
		throw Failure(errno_error(err, req.what.empty() ?
					  fmt::format("cannot create a profile of {:#x}..{:#x}",
						      req.base, req.base + req.size) :
					  "cannot profile " + req.what,
					  {advice}));
	}
	if (req.own_interval && req.source == KPROFILE_SOURCE_TIME)
		set_own_interval(fd.value().get(), req.own_interval,
				 req.what.empty() ? "a profile" : req.what);
	return std::make_unique<Profile>(std::move(fd).value(), std::move(buffer));
}

void set_own_interval(int fd, std::uint32_t interval, const std::string &what)
{
	kprofile_interval iv{};

	iv.source = KPROFILE_SOURCE_TIME;
	iv.interval = interval;
	const int err = ioctl_errno(fd, KPROFILE_IOC_SET_INTERVAL, &iv);
	if (!err)
		return;
	throw Failure(errno_error(err, "cannot give " + what + " its own ProfileTime interval",
				  {err == ENOTTY || err == EOPNOTSUPP ?
				   "the loaded kprofile module has no per-recording interval: "
				   "update it, record without -F/-i (at the machine-wide interval), "
				   "or as root (CAP_PERFMON sets the machine-wide interval)" :
				   "this is a bug if the module and the tool are the same version"}));
}

std::vector<std::uint8_t> parse_cpu_list(const std::string &text)
{
	std::vector<std::uint8_t> map;
	std::size_t pos = 0;

	while (pos < text.size()) {
		auto comma = text.find(',', pos);
		std::string part = text.substr(pos, comma == std::string::npos ? std::string::npos
									  : comma - pos);
		auto dash = part.find('-');
		unsigned long lo, hi;
		try {
			std::size_t used = 0;
			lo = std::stoul(part.substr(0, dash), &used);
			if (used != (dash == std::string::npos ? part.size() : dash))
				throw std::invalid_argument("x");
			hi = lo;
			if (dash != std::string::npos) {
				hi = std::stoul(part.substr(dash + 1), &used);
				if (used != part.size() - dash - 1)
					throw std::invalid_argument("x");
			}
		} catch (const std::exception &) {
			throw std::invalid_argument("bad CPU list '" + text + "': use e.g. 0-3,6");
		}
		if (hi < lo || hi >= 8192)
			throw std::invalid_argument("bad CPU range '" + part + "' in '" + text + "'");
		for (unsigned long c = lo; c <= hi; c++) {
			if (map.size() <= c / 8)
				map.resize((c / 64 + 1) * 8, 0);
			map[c / 8] |= static_cast<std::uint8_t>(1u << (c % 8));
		}
		if (comma == std::string::npos)
			break;
		pos = comma + 1;
	}
	if (map.empty())
		throw std::invalid_argument("empty CPU list");
	return map;
}

} // namespace kprofile::record
