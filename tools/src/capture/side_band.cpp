// SPDX-License-Identifier: GPL-2.0
// side_band.cpp - Linux's mmap and exec records for record (side_band.h).
#include "side_band.h"

#include <dirent.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.h"
#include "proc_read.h"
#include "profile_device.h"

namespace kprofile::record {

namespace {

// Data pages per ring: a power of two.  MMAP2 records are ~100 bytes, so
// 16 KiB hold ~150 mappings between two drains (a drain comes at each of
// the stream's wake-ups, and at this ring's own watermark, half of it).
constexpr std::size_t kDataPages = 4;

// Every record ends with the sample_id of sample_type TID|TIME.
constexpr std::size_t kSampleId = 16;

template <typename T> T load(const unsigned char *p)
{
	T v;

	std::memcpy(&v, p, sizeof(v));
	return v;
}

std::string c_string(const unsigned char *p, std::size_t max)
{
	const void *nul = std::memchr(p, 0, max);
	return std::string(reinterpret_cast<const char *>(p),
			   nul ? static_cast<const unsigned char *>(nul) - p : max);
}

std::vector<int> online_cpus()
{
	std::string text;
	std::vector<int> out;

	if (read_path("/sys/devices/system/cpu/online", text) == 0) {
		while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
			text.pop_back();
		try {
			const std::vector<std::uint8_t> map = parse_cpu_list(text);
			for (std::size_t c = 0; c < map.size() * 8; c++)
				if (map[c / 8] >> (c % 8) & 1)
					out.push_back(static_cast<int>(c));
		} catch (const std::invalid_argument &) {
			out.clear();
		}
	}
	if (out.empty())
		for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); c++)
			out.push_back(static_cast<int>(c));
	return out;
}

std::string paranoid_level()
{
	const auto level = perf_event_paranoid();

	return level ? std::to_string(*level) : "?";
}

} // namespace

PerfRingReader::PerfRingReader(void *base, std::size_t page_size, std::size_t data_bytes)
	: base_(static_cast<unsigned char *>(base)),
	  data_(static_cast<unsigned char *>(base) + page_size), size_(data_bytes)
{
}

bool PerfRingReader::take(const unsigned char *rec, std::size_t size, const MapSink &sink)
{
	const auto type = load<std::uint32_t>(rec);
	const auto misc = load<std::uint16_t>(rec + 4);

	switch (type) {
	case PERF_RECORD_MMAP2: {
		// header, pid, tid, addr, len, pgoff, 24 bytes of device and
		// inode (or build id), prot, flags, filename, sample_id.
		constexpr std::size_t name_at = 8 + 8 + 24 + 24 + 8;
		if (size < name_at + 8 + kSampleId)
			return false;
		MapRecord m;
		m.pid = static_cast<pid_t>(load<std::uint32_t>(rec + 8));
		m.tid = static_cast<pid_t>(load<std::uint32_t>(rec + 12));
		m.mapping.start = load<std::uint64_t>(rec + 16);
		m.mapping.end = m.mapping.start + load<std::uint64_t>(rec + 24);
		m.mapping.offset = load<std::uint64_t>(rec + 32);
		const auto prot = load<std::uint32_t>(rec + 64);
		m.mapping.perms = fmt::format("{}{}{}p", prot & PROT_READ ? 'r' : '-',
					      prot & PROT_WRITE ? 'w' : '-',
					      prot & PROT_EXEC ? 'x' : '-');
		m.mapping.path = c_string(rec + name_at, size - name_at - kSampleId);
		if (m.mapping.path == "//anon")
			m.mapping.path.clear();	// as /proc/PID/maps shows it
		m.time = load<std::uint64_t>(rec + size - 8);
		if (m.mapping.end > m.mapping.start && m.mapping.executable())
			sink(std::move(m));
		return true;
	}
	case PERF_RECORD_COMM: {
		if (size < 8 + 8 + 8 + kSampleId)
			return false;
		if (!(misc & PERF_RECORD_MISC_COMM_EXEC))
			return true;	// prctl(PR_SET_NAME): no new program
		MapRecord m;
		m.exec = true;
		m.pid = static_cast<pid_t>(load<std::uint32_t>(rec + 8));
		m.tid = static_cast<pid_t>(load<std::uint32_t>(rec + 12));
		m.mapping.path = c_string(rec + 16, size - 16 - kSampleId);
		m.time = load<std::uint64_t>(rec + size - 8);
		sink(std::move(m));
		return true;
	}
	case PERF_RECORD_LOST:
		if (size < 8 + 16)
			return false;
		lost_ += load<std::uint64_t>(rec + 16);
		return true;
	default:
		return true;
	}
}

std::size_t PerfRingReader::drain(const MapSink &sink)
{
	auto *page = reinterpret_cast<perf_event_mmap_page *>(base_);
	std::size_t n = 0;

	if (broken_)
		return 0;
	const std::uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	std::uint64_t tail = page->data_tail;

	while (tail < head) {
		const std::size_t at = tail & (size_ - 1);
		unsigned char hdr[8];
		for (std::size_t i = 0; i < sizeof(hdr); i++)
			hdr[i] = data_[(at + i) & (size_ - 1)];
		const std::size_t size = load<std::uint16_t>(hdr + 6);
		if (size < 8 || size % 8 || size > size_ || tail + size > head) {
			broken_ = true;
			break;
		}
		const unsigned char *rec = data_ + at;
		if (at + size > size_) {
			wrapped_.resize(size);
			std::memcpy(wrapped_.data(), data_ + at, size_ - at);
			std::memcpy(wrapped_.data() + (size_ - at), data_, size - (size_ - at));
			rec = wrapped_.data();
		}
		if (!take(rec, size, sink)) {
			broken_ = true;
			break;
		}
		n++;
		tail += size;
	}
	__atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

// The threads of @pid now (/proc/PID/task), sorted; empty when it is gone.
static std::vector<pid_t> threads_of(pid_t pid)
{
	std::vector<pid_t> out;
	const std::string dir = "/proc/" + std::to_string(pid) + "/task";
	std::unique_ptr<DIR, int (*)(DIR *)> d(opendir(dir.c_str()), closedir);

	if (!d)
		return out;
	while (const dirent *e = readdir(d.get()))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			out.push_back(static_cast<pid_t>(std::atoi(e->d_name)));
	std::sort(out.begin(), out.end());
	return out;
}

std::unique_ptr<SideBand> SideBand::open(pid_t pid, bool inherit, std::string *why)
{
	const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
	const std::vector<int> cpus = online_cpus();
	auto sb = std::make_unique<SideBand>();
	// Per CPU: the event whose ring the others write to (SET_OUTPUT).
	std::map<int, int> ring_of;
	std::vector<pid_t> done;

	auto fail = [&](const std::string &what) {
		if (why)
			*why = what;
		return nullptr;
	};
	// A task's events cover the threads and processes it starts from
	// then on (inherit): open one for each thread @pid has, again until
	// no thread appeared meanwhile (one a covered thread started is
	// covered already; one of a thread not yet opened may not be).
	for (int round = 0; round < 8; round++) {
		std::vector<pid_t> tids = pid > 0 ? threads_of(pid) : std::vector<pid_t>{-1};
		std::vector<pid_t> fresh;

		std::set_difference(tids.begin(), tids.end(), done.begin(), done.end(),
				    std::back_inserter(fresh));
		if (fresh.empty())
			break;
		for (pid_t tid : fresh) {
			for (int cpu : cpus) {
				perf_event_attr attr {};
				attr.size = sizeof(attr);
				attr.type = PERF_TYPE_SOFTWARE;
				attr.config = PERF_COUNT_SW_DUMMY;
				attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
				attr.sample_id_all = 1;
				attr.mmap = 1;
				attr.mmap2 = 1;
				attr.comm = 1;
				attr.comm_exec = 1;
				attr.inherit = pid > 0 && inherit;
				attr.exclude_kernel = 1;	// what paranoid 2 allows
				attr.exclude_hv = 1;
				attr.use_clockid = 1;
				attr.clockid = CLOCK_MONOTONIC;
				attr.watermark = 1;
				attr.wakeup_watermark = static_cast<std::uint32_t>(kDataPages * page / 2);
				const long fd = syscall(SYS_perf_event_open, &attr, tid, cpu, -1,
							PERF_FLAG_FD_CLOEXEC);
				if (fd < 0) {
					const int err = errno;
					if (err == ENODEV || (err == EINVAL && cpu))
						continue;	// went offline meanwhile
					if (err == ESRCH && tid != pid)
						break;		// a thread that ended
					return fail(fmt::format("perf_event_open: {} "
								"(kernel.perf_event_paranoid is {})",
								std::strerror(err), paranoid_level()));
				}
				UniqueFd owned(static_cast<int>(fd));
				if (auto r = ring_of.find(cpu); r != ring_of.end()) {
					if (ioctl(owned.get(), PERF_EVENT_IOC_SET_OUTPUT, r->second))
						return fail(fmt::format("PERF_EVENT_IOC_SET_OUTPUT: {}",
									std::strerror(errno)));
					sb->extra_.push_back(std::move(owned));
					continue;
				}
				Ring ring;
				ring.fd = std::move(owned);
				ring.bytes = (1 + kDataPages) * page;
				void *map = mmap(nullptr, ring.bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
						 ring.fd.get(), 0);
				if (map == MAP_FAILED)
					return fail(fmt::format("mmap of a perf ring: {} "
								"(kernel.perf_event_mlock_kb)",
								std::strerror(errno)));
				ring.map = map;
				ring.reader = std::make_unique<PerfRingReader>(map, page, kDataPages * page);
				ring_of[cpu] = ring.fd.get();
				sb->rings_.push_back(std::move(ring));
			}
		}
		done.insert(done.end(), fresh.begin(), fresh.end());
		std::sort(done.begin(), done.end());
		if (pid <= 0)
			break;
	}
	if (sb->rings_.empty())
		return fail("perf_event_open: no CPU took the event");
	return sb;
}

SideBand::~SideBand()
{
	for (auto &r : rings_) {
		r.reader.reset();
		if (r.map)
			munmap(r.map, r.bytes);
	}
}

std::size_t SideBand::drain(const MapSink &sink)
{
	std::size_t n = 0;

	for (auto &r : rings_)
		n += r.reader->drain(sink);
	return n;
}

std::uint64_t SideBand::lost() const
{
	std::uint64_t n = 0;

	for (const auto &r : rings_)
		n += r.reader->lost();
	return n;
}

bool SideBand::broken() const
{
	return std::any_of(rings_.begin(), rings_.end(),
			   [](const Ring &r) { return r.reader->broken(); });
}

std::vector<int> SideBand::fds() const
{
	std::vector<int> out;

	for (const auto &r : rings_)
		out.push_back(r.fd.get());
	return out;
}

void apply_mapping(std::vector<Mapping> &maps, const Mapping &m)
{
	std::vector<Mapping> out;

	out.reserve(maps.size() + 2);
	for (const auto &o : maps) {
		if (o.end <= m.start || o.start >= m.end) {
			out.push_back(o);
			continue;
		}
		if (o.start < m.start) {
			Mapping head = o;
			head.end = m.start;
			out.push_back(std::move(head));
		}
		if (o.end > m.end) {
			Mapping tail = o;
			tail.offset += m.end - o.start;
			tail.start = m.end;
			out.push_back(std::move(tail));
		}
	}
	out.push_back(m);
	std::sort(out.begin(), out.end(),
		  [](const Mapping &a, const Mapping &b) { return a.start < b.start; });
	maps = std::move(out);
}

} // namespace kprofile::record
