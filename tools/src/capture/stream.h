// SPDX-License-Identifier: GPL-2.0
// stream.h - the sample stream of /dev/kprofile (<linux/kprofile_stream.h>):
// a stream fd, its per-CPU rings mapped into memory, and the reader that
// drains them.  The ring reader works on any memory laid out as the header
// says, so the tests drive it over a synthetic ring.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include <linux/kprofile.h>

#include "device.h"
#include "record_codec.h"
#include "unique_fd.h"

namespace kprofile::record {

using RecordSink = std::function<void(StreamRecord &&)>;

// One ring: a struct kprofile_stream_page at @page, its data area at
// page->data_offset, within @ring_bytes of mapped memory.  The reader
// owns data_tail; the producer owns data_head.
class RingReader {
public:
	RingReader(void *page, std::size_t ring_bytes, unsigned index);

	// Pass every record between data_tail and data_head to @sink, then
	// free their space (data_tail, store-release).  data_head is read
	// once, with load-acquire, so the records it covers are complete.
	// A record that is not valid (a size that is not a multiple of 8,
	// runs past data_head or the area's end, or is too short for its
	// type) stops this ring for good: broken() and error() say so, and
	// the records before it were delivered.  Returns the records
	// delivered (pads not counted).
	std::size_t drain(const RecordSink &sink);

	bool broken() const { return !error_.empty(); }
	// "ring 3 (CPU 3): ..." once broken.
	const std::string &error() const { return error_; }
	// Records this ring dropped because it was full (the page's @lost).
	std::uint64_t lost() const;
	std::uint32_t cpu() const;
	// Records of a type this reader does not know, skipped.
	std::uint64_t unknown() const { return unknown_; }

private:
	void fail(std::string why);

	kprofile_stream_page *page_;
	const unsigned char *data_ = nullptr;
	std::uint64_t size_ = 0;
	unsigned index_;
	std::uint64_t unknown_ = 0;
	std::string error_;
};

// A MAP_SHARED mapping of a stream fd, unmapped on destruction.
class StreamMapping {
public:
	StreamMapping(int fd, std::size_t bytes);
	~StreamMapping();
	StreamMapping(const StreamMapping &) = delete;
	StreamMapping &operator=(const StreamMapping &) = delete;
	unsigned char *data() const { return data_; }
	std::size_t size() const { return bytes_; }

private:
	unsigned char *data_ = nullptr;
	std::size_t bytes_ = 0;
};

struct StreamRequest {
	std::uint32_t target = KPROFILE_TARGET_SELF;
	pid_t pid = 0;
	std::uint32_t flags = 0;	// KPROFILE_STREAM_*
	std::uint32_t mode = KPROFILE_MODE_BOTH;
	std::vector<std::uint32_t> sources;
	std::uint32_t max_frames = 0;	// 0: the module's default
	std::uint32_t ring_pages = 0;	// 0: the module's default
	std::uint32_t stack_bytes = 0;	// with KPROFILE_STREAM_USER_STACK
	// ProfileTime's own interval for this stream (100 ns units), 0: the
	// machine-wide one.
	std::uint32_t own_interval = 0;
};

// A stream: its fd (closed last), its mapping and a reader per ring.
class Stream {
public:
	// KPROFILE_IOC_CREATE_STREAM, STREAM_INFO, mmap.  Throws Failure
	// with advice for the request (the errno and what to do).
	static std::unique_ptr<Stream> create(const Device &dev, const StreamRequest &req);
	// An fd KPROFILE_IOC_CREATE_STREAM returned, not mapped yet (create()).
	Stream(UniqueFd fd, StreamRequest req) : fd_(std::move(fd)), req_(std::move(req)) {}
	// @nr_rings rings of @ring_bytes each, back to back at @mem, laid
	// out as the module's (a kprofile_stream_page, then the data area),
	// in memory the caller owns and keeps: no fd (start() fails, info()
	// is zeroes).  For the tests and the host benchmark, which write the
	// records themselves.
	static std::unique_ptr<Stream> over(void *mem, std::size_t ring_bytes, unsigned nr_rings,
					    StreamRequest req);

	void start();
	void stop();	// idempotent; errors ignored
	bool started() const { return started_; }
	// KPROFILE_IOC_STREAM_INFO (zeroes when it fails).
	kprofile_stream_info info() const;
	// Drain every ring that is not broken; returns the records delivered.
	std::size_t drain(const RecordSink &sink);
	// One line per broken ring.
	std::vector<std::string> problems() const;
	const StreamRequest &request() const { return req_; }
	int fd() const { return fd_.get(); }
	std::size_t ring_count() const { return rings_.size(); }

private:
	UniqueFd fd_;
	StreamRequest req_;
	std::unique_ptr<StreamMapping> map_;	// destroyed before fd_ closes
	std::vector<RingReader> rings_;
	bool started_ = false;
};

// What to do about an errno from creating or starting a stream.
std::string stream_advice(int err, const StreamRequest &req);

// Whether @pages is a ring size the module takes (0, or a power of two up
// to KPROFILE_STREAM_MAX_PAGES); the message says what it takes.
std::string check_ring_pages(std::uint32_t pages);

} // namespace kprofile::record
