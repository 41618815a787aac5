// SPDX-License-Identifier: GPL-2.0
// stream.cpp - creating, mapping and draining a sample stream.
#include "stream.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>

#include <fmt/format.h>

#include "errors.h"
#include "memlock.h"
#include "profile_device.h"

namespace kprofile::record {

static_assert(sizeof(kprofile_stream_page) == 128);

RingReader::RingReader(void *page, std::size_t ring_bytes, unsigned index)
	: page_(static_cast<kprofile_stream_page *>(page)), index_(index)
{
	const std::uint64_t off = page_->data_offset, size = page_->data_size;

	if (off < sizeof(kprofile_stream_page) || off % 8 || size == 0 || size % 8 ||
	    off > ring_bytes || size > ring_bytes - off) {
		fail(fmt::format("its header places the data area at {} + {} bytes, outside the "
				 "{} bytes mapped", off, size, ring_bytes));
		return;
	}
	data_ = static_cast<const unsigned char *>(page) + off;
	size_ = size;
}

void RingReader::fail(std::string why)
{
	error_ = fmt::format("ring {} (CPU {}): {}; the ring is no longer read", index_, cpu(),
			     why);
}

std::uint64_t RingReader::lost() const
{
	return std::atomic_ref<__u64>(page_->lost).load(std::memory_order_relaxed);
}

std::uint32_t RingReader::cpu() const
{
	return page_->cpu;
}

std::size_t RingReader::drain(const RecordSink &sink)
{
	if (broken())
		return 0;
	std::atomic_ref<__u64> head_ref(page_->data_head), tail_ref(page_->data_tail);
	// The module publishes data_head after writing the records below it
	// (store-release): this load-acquire makes them visible.
	const std::uint64_t head = head_ref.load(std::memory_order_acquire);
	std::uint64_t tail = tail_ref.load(std::memory_order_relaxed);	// ours alone
	std::size_t delivered = 0;

	if (head < tail || head - tail > size_) {
		fail(fmt::format("data_head {} and data_tail {} are {} bytes apart, the area has "
				 "{}", head, tail, head - tail, size_));
		return 0;
	}
	while (tail < head) {
		const std::uint64_t off = tail % size_;
		// A record never wraps: it must fit before both data_head and
		// the end of the area.
		const std::uint64_t avail = std::min(head - tail, size_ - off);
		// Not const: the record (its stack copy, with --call-graph dwarf)
		// is moved to @sink, not copied.
		Decoded d = decode_record(data_ + off, static_cast<std::size_t>(avail));

		if (!d.error.empty()) {
			fail(fmt::format("at byte {} of its data ({} written, {} read): {}", off, head,
					 tail, d.error));
			break;
		}
		tail += d.size;
		if (d.record) {
			sink(StreamRecord(std::move(*d.record)));
			delivered++;
		} else if (!d.pad) {
			unknown_++;
		}
	}
	// Done with the bytes up to @tail: the module may overwrite them
	// (store-release orders our reads of them before it).
	tail_ref.store(tail, std::memory_order_release);
	return delivered;
}

StreamMapping::StreamMapping(int fd, std::size_t bytes) : bytes_(bytes)
{
	void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		const int err = errno;
		throw Failure(errno_error(err, fmt::format("cannot map the sample rings ({} KiB)",
							   bytes / 1024),
					  {err == ENOMEM || err == EPERM || err == EAGAIN ?
					   "use smaller rings (-m/--mmap-pages), or raise the locked-"
					   "memory limit (ulimit -l)" :
					   "the module may be older than this kprofile: update it"}));
	}
	data_ = static_cast<unsigned char *>(p);
}

StreamMapping::~StreamMapping()
{
	if (data_)
		::munmap(data_, bytes_);
}

std::string check_ring_pages(std::uint32_t pages)
{
	if (pages == 0 || (std::has_single_bit(pages) && pages <= KPROFILE_STREAM_MAX_PAGES))
		return "";
	return fmt::format("--mmap-pages {}: the rings take a power of two of pages, 1 to {} "
			   "(default {})", pages, KPROFILE_STREAM_MAX_PAGES,
			   KPROFILE_STREAM_DEFAULT_PAGES);
}

std::string stream_advice(int err, const StreamRequest &req)
{
	switch (err) {
	case EPERM:
		return "counter sources, system-wide and kernel-mode samples need CAP_PERFMON (or "
		       "CAP_SYS_ADMIN): run as root, or `sudo setcap cap_perfmon+ep $(command -v "
		       "kprofile)`; without it, ProfileTime samples of your own processes in user "
		       "mode (--user)";
	case EACCES: {
		std::string paranoid = paranoid_advice(req.mode != KPROFILE_MODE_USER);
		if (!paranoid.empty())
			return paranoid;
		return fmt::format("sampling process {} needs ptrace-read access to it, as perf: "
				   "be its user, or run as root / with CAP_PERFMON", req.pid);
	}
	case ESRCH:
		return fmt::format("process {} does not exist (it may have exited)", req.pid);
	case EOPNOTSUPP:
		return "`kprofile sources` shows which sources this machine supports, and why not";
	case EBUSY:
		return "the performance counters are held by someone else; the NMI watchdog holds "
		       "one by default: `sudo sysctl kernel.nmi_watchdog=0` frees it";
	case ENOMEM:
		return memlock_advice(memlock_limit()) +
		       "; or use smaller rings (-m/--mmap-pages)";
	case ENOTTY:
		return "the loaded module has no sample stream (KPROFILE_IOC_CREATE_STREAM): "
		       "update the kprofile module, or record without -g";
	case EINVAL:
		return "the module refused the request: it may be older than this kprofile "
		       "(update it), or the sources are more than 8";
	default:
		return "";
	}
}

std::unique_ptr<Stream> Stream::create(const Device &dev, const StreamRequest &req)
{
	kprofile_create_stream cs{};

	cs.target = req.target;
	cs.pid = req.pid;
	cs.flags = req.flags;
	cs.mode = req.mode;
	cs.nr_sources = static_cast<std::uint32_t>(req.sources.size());
	cs.max_frames = req.max_frames;
	cs.sources = reinterpret_cast<std::uint64_t>(req.sources.data());
	cs.ring_pages = req.ring_pages;
	cs.stack_bytes = req.stack_bytes;
	auto fd = dev.create_stream(cs);
	if (!fd.ok()) {
		const int err = fd.error().err;
		throw Failure(errno_error(err, "cannot create the sample stream",
					  {stream_advice(err, req)}));
	}
	auto s = std::make_unique<Stream>(std::move(fd).value(), req);
	if (req.own_interval &&
	    std::find(req.sources.begin(), req.sources.end(), KPROFILE_SOURCE_TIME) !=
		    req.sources.end())
		set_own_interval(s->fd_.get(), req.own_interval, "the sample stream");
	const kprofile_stream_info si = s->info();
	const long page = ::sysconf(_SC_PAGESIZE);
	if (si.nr_rings == 0 || si.ring_pages == 0 || si.page_size != static_cast<std::uint32_t>(page))
		throw Failure(errno_error(0, fmt::format("the module describes its sample rings as "
							 "{} rings of {} pages of {} bytes",
							 si.nr_rings, si.ring_pages, si.page_size),
					  {"the module and the tool disagree: update both"}));
	const std::size_t ring = (std::size_t(si.ring_pages) + 1) * si.page_size;
	s->map_ = std::make_unique<StreamMapping>(s->fd_.get(), ring * si.nr_rings);
	s->rings_.reserve(si.nr_rings);
	for (unsigned i = 0; i < si.nr_rings; i++)
		s->rings_.emplace_back(s->map_->data() + i * ring, ring, i);
	return s;
}

std::unique_ptr<Stream> Stream::over(void *mem, std::size_t ring_bytes, unsigned nr_rings,
				     StreamRequest req)
{
	auto s = std::make_unique<Stream>(UniqueFd(), std::move(req));

	s->rings_.reserve(nr_rings);
	for (unsigned i = 0; i < nr_rings; i++)
		s->rings_.emplace_back(static_cast<unsigned char *>(mem) + i * ring_bytes, ring_bytes,
				       i);
	return s;
}

kprofile_stream_info Stream::info() const
{
	kprofile_stream_info si{};

	if (ioctl_errno(fd_.get(), KPROFILE_IOC_STREAM_INFO, &si))
		si = kprofile_stream_info{};
	return si;
}

void Stream::start()
{
	if (int err = ioctl_errno(fd_.get(), KPROFILE_IOC_START, nullptr))
		throw Failure(errno_error(err, "cannot start the sample stream",
					  {stream_advice(err, req_)}));
	started_ = true;
}

void Stream::stop()
{
	if (!started_)
		return;
	started_ = false;
	(void)ioctl_errno(fd_.get(), KPROFILE_IOC_STOP, nullptr);
}

std::size_t Stream::drain(const RecordSink &sink)
{
	std::size_t n = 0;

	for (auto &r : rings_)
		n += r.drain(sink);
	return n;
}

std::vector<std::string> Stream::problems() const
{
	std::vector<std::string> out;

	for (const auto &r : rings_) {
		if (r.broken())
			out.push_back(r.error());
		if (r.unknown())
			out.push_back(fmt::format("ring of CPU {}: {} records of a type this kprofile "
						  "does not know were skipped (a newer module?)",
						  r.cpu(), r.unknown()));
	}
	return out;
}

} // namespace kprofile::record
