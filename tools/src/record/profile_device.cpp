// SPDX-License-Identifier: GPL-2.0
// profile_device.cpp - /dev/kprofile calls for record, report and top.
#include "record/profile_device.h"
#include "errors.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "record/memlock.h"

namespace kprofile::record {

namespace {

std::string errno_text(int err)
{
	return fmt::format("{} ({})", std::strerror(err), err);
}

const char *kCapAdvice =
	"system-wide and kernel-address profiling, and counter sources (they sample every "
	"CPU), need CAP_PERFMON (or CAP_SYS_ADMIN): "
	"run as root, or `sudo setcap cap_perfmon+ep $(command -v kprofile)`";

const char *kWatchdogAdvice =
	"the performance counters are held by someone else; the NMI watchdog holds one by "
	"default: `sudo sysctl kernel.nmi_watchdog=0` frees it (perf sessions hold them too)";

} // namespace

static RecordError::Kind kind_of(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
	case EOPNOTSUPP:
	case EBUSY:
	case ESRCH:
	case EINVAL:
	case ENOSPC:
	case ENOMEM:
		return RecordError::Kind::Refused;
	default:
		return RecordError::Kind::Internal;
	}
}

RecordError::RecordError(Kind kind, int err, const std::string &what, const std::string &advice)
	: std::runtime_error(err ? what + ": " + errno_text(err) : what), err_(err), kind_(kind),
	  advice_(advice)
{
}

RecordError::RecordError(int err, const std::string &what, const std::string &advice)
	: RecordError(kind_of(err), err, what, advice)
{
}

void UniqueFd::reset()
{
	if (fd_ >= 0)
		::close(fd_);
	fd_ = -1;
}

BucketBuffer::BucketBuffer(std::size_t buckets) : count_(buckets)
{
	const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

	map_bytes_ = std::max<std::size_t>((buckets * 4 + page - 1) / page * page, page);
	void *p = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		throw RecordError(errno, fmt::format("cannot allocate {} bytes of buckets", buckets * 4),
				  "use larger buckets (-b) to need less memory");
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
	if (ioctl(fd_.get(), KPROFILE_IOC_START) != 0) {
		const int err = errno;
		throw RecordError(err, "cannot start a profile",
				  err == EBUSY ? kWatchdogAdvice :
				  err == ENOMEM ? memlock_advice(memlock_limit()) :
				  "");
	}
	started_ = true;
}

void Profile::stop()
{
	if (!started_)
		return;
	started_ = false;
	// The process may have exited; counts stay in the buffer either way.
	(void)ioctl(fd_.get(), KPROFILE_IOC_STOP);
}

kprofile_profile_stats Profile::stats() const
{
	kprofile_profile_stats st{};

	if (ioctl(fd_.get(), KPROFILE_IOC_PROFILE_STATS, &st) != 0)
		st = kprofile_profile_stats{};
	return st;
}

kprofile_profile_stats_ex Profile::stats_ex() const
{
	kprofile_profile_stats_ex st{};

	if (ioctl(fd_.get(), KPROFILE_IOC_PROFILE_STATS_EX, &st) != 0)
		st = kprofile_profile_stats_ex{};
	return st;
}

ProfileDevice::ProfileDevice(const std::string &path) : path_(path)
{
	using K = RecordError::Kind;

	fd_ = UniqueFd(::open(path_.c_str(), O_RDWR | O_CLOEXEC));
	if (fd_.get() >= 0)
		return;
	const int err = errno;
	if (err == ENOENT || err == ENODEV || err == ENXIO)
		throw RecordError(K::Device, err, "cannot open " + path_,
				  "the kprofile module is not loaded: `sudo modprobe kprofile` "
				  "(or `sudo insmod kmod/kprofile.ko` from the build tree)");
	if (err == EACCES || err == EPERM)
		throw RecordError(K::Device, err, "cannot open " + path_,
				  "no permission: run as root, or give your group access to "
				  "/dev/kprofile with a udev rule");
	throw RecordError(K::Device, err, "cannot open " + path_);
}

kprofile_info ProfileDevice::info() const
{
	kprofile_info info{};

	if (ioctl(fd_.get(), KPROFILE_IOC_INFO, &info) != 0)
		throw RecordError(RecordError::Kind::Device, errno, "KPROFILE_IOC_INFO failed",
				  "the module and the tool may be from different versions: rebuild both");
	return info;
}

static SourceDesc to_desc(const kprofile_source_info &si)
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

std::vector<SourceDesc> ProfileDevice::sources() const
{
	std::vector<kprofile_source_info> entries(256);
	kprofile_source_list list{};

	for (int tries = 0; tries < 2; tries++) {
		list.count = static_cast<std::uint32_t>(entries.size());
		list.entries = reinterpret_cast<std::uint64_t>(entries.data());
		if (ioctl(fd_.get(), KPROFILE_IOC_LIST_SOURCES, &list) == 0)
			break;
		if (errno != ENOSPC || tries)
			throw RecordError(errno, "KPROFILE_IOC_LIST_SOURCES failed");
		entries.resize(list.count);
	}
	std::vector<SourceDesc> out;
	for (std::uint32_t i = 0; i < list.count && i < entries.size(); i++)
		out.push_back(to_desc(entries[i]));
	return out;
}

SourceDesc ProfileDevice::source(std::uint32_t value) const
{
	kprofile_source_info si{};

	si.source = value;
	if (ioctl(fd_.get(), KPROFILE_IOC_QUERY_SOURCE, &si) != 0)
		throw RecordError(errno, fmt::format("unknown profile source {:#x}", value),
				  "`kprofile sources` lists the sources of this machine");
	return to_desc(si);
}

std::uint32_t ProfileDevice::set_interval(std::uint32_t source, std::uint32_t interval) const
{
	kprofile_interval iv{source, interval};

	if (ioctl(fd_.get(), KPROFILE_IOC_SET_INTERVAL, &iv) != 0) {
		const int err = errno;
		throw RecordError(err, fmt::format("cannot set the interval of source {:#x}", source),
				  err == EPERM || err == EACCES ?
				  "intervals are machine-wide: setting one needs root (CAP_SYS_ADMIN or CAP_PERFMON)" :
				  "see `kprofile sources` for the allowed range");
	}
	return iv.interval;
}

void ProfileDevice::check_schedule(const std::vector<SourceDesc> &sources) const
{
	kprofile_schedule s{};
	std::vector<const SourceDesc *> counters;

	for (const auto &d : sources)
		if (!d.timer)
			counters.push_back(&d);
	if (counters.empty())
		return;
	if (counters.size() > KPROFILE_MAX_COUNTERS)
		throw RecordError(RecordError::Kind::Usage, 0, "too many counter sources",
				  fmt::format("at most {} at once", KPROFILE_MAX_COUNTERS));
	s.nr_sources = static_cast<std::uint32_t>(counters.size());
	for (std::size_t i = 0; i < counters.size(); i++)
		s.sources[i] = counters[i]->value;
	if (ioctl(fd_.get(), KPROFILE_IOC_SCHEDULE, &s) != 0)
		throw RecordError(errno, "KPROFILE_IOC_SCHEDULE failed");
	if (s.flags & KPROFILE_SCHED_FITS)
		return;
	std::vector<std::string> names;
	for (const auto *d : counters)
		names.push_back(d->name);
	throw schedule_error(names, s);
}

RecordError schedule_error(const std::vector<std::string> &names, const kprofile_schedule &s)
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
	return RecordError(EBUSY, fmt::format("sources {} do not fit on the {} counters{}", nofit,
					      s.num_counters, reason.empty() ? "" : " (" + reason + ")"),
			   advice);
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

std::unique_ptr<Profile> ProfileDevice::create(const ProfileRequest &req) const
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
	const int fd = ioctl(fd_.get(), KPROFILE_IOC_CREATE_PROFILE, &cp);
	if (fd < 0) {
		const int err = errno;
		std::string advice = profile_advice(err, req);
		if (err == EOPNOTSUPP) {
			try {
				SourceDesc d = source(req.source);
				advice = d.name + " is not supported here: " + d.reason;
			} catch (const RecordError &) {
			}
		}
		throw RecordError(err, fmt::format("cannot create a profile of {:#x}..{:#x}",
						   req.base, req.base + req.size), advice);
	}
	return std::make_unique<Profile>(UniqueFd(fd), std::move(buffer));
}

std::uint32_t parse_source(const std::string &text, const std::vector<SourceDesc> &known)
{
	for (const auto &d : known)
		if (d.name == text || d.name == "Profile" + text)
			return d.value;
	char *end = nullptr;
	errno = 0;
	unsigned long v = std::strtoul(text.c_str(), &end, 0);
	if (!text.empty() && end && *end == '\0' && errno == 0)
		for (const auto &d : known)
			if (d.value == v)
				return d.value;
	throw RecordError(RecordError::Kind::Usage, EINVAL, "unknown profile source '" + text + "'",
			  "`kprofile sources` lists the names and values on this machine");
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
