// SPDX-License-Identifier: GPL-2.0
// side_band.h - the kernel's own mmap records for record: a software
// "dummy" perf event per CPU that counts nothing and carries Linux's
// side-band records (PERF_RECORD_MMAP2 of every executable mapping,
// PERF_RECORD_COMM at exec), as `perf record` gets them, stamped with
// CLOCK_MONOTONIC like kprofile's stream (ktime_get_mono_fast_ns on both
// sides).  With it, record learns of a library the loader or dlopen maps
// when it happens, not by reading /proc/PID/maps after the fact (when a
// short-lived process may be gone: docs/record.md, "Following children").
//
// It needs what perf needs for a user-only software event:
// kernel.perf_event_paranoid <= 2 for one's own processes, CAP_PERFMON
// (or paranoid <= 0) system-wide.  Where perf_event_open() is refused
// (Debian's default paranoid of 3 for an unprivileged user), record goes
// on reading /proc, and says so.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "maps.h"
#include "unique_fd.h"

namespace kprofile::record {

// An executable mapping the kernel reported (PERF_RECORD_MMAP2), or an
// exec (PERF_RECORD_COMM with PERF_RECORD_MISC_COMM_EXEC: @exec, the new
// name in @mapping.path, no range).
struct MapRecord {
	std::uint64_t time = 0;		// CLOCK_MONOTONIC ns
	pid_t pid = 0;
	pid_t tid = 0;
	bool exec = false;
	Mapping mapping;		// perms "r-xp"-style; path "//anon" as perf
};

using MapSink = std::function<void(MapRecord &&)>;

// One perf ring (struct perf_event_mmap_page at @base, 2^n data pages
// after it) of an event with sample_type TID|TIME and sample_id_all.
// Works on any memory laid out so: the tests drive it over a synthetic
// ring.
class PerfRingReader {
public:
	PerfRingReader(void *base, std::size_t page_size, std::size_t data_bytes);

	// Pass the MMAP2 and exec COMM records between data_tail and
	// data_head to @sink (a record that wraps the ring's end is put
	// together first), count PERF_RECORD_LOST, skip the other types,
	// then free the space (data_tail, store-release).  A malformed record
	// (size 0, not a multiple of 8, too short for its type, longer than
	// the ring) stops this ring for good: broken() says so.
	std::size_t drain(const MapSink &sink);

	std::uint64_t lost() const { return lost_; }
	bool broken() const { return broken_; }

private:
	bool take(const unsigned char *rec, std::size_t size, const MapSink &sink);

	unsigned char *base_;
	const unsigned char *data_;
	std::size_t size_;
	std::uint64_t lost_ = 0;
	bool broken_ = false;
	std::vector<unsigned char> wrapped_;
};

// The per-CPU dummy events and their rings.
class SideBand {
public:
	// Open the events for every thread of @pid (and, with @inherit, the
	// threads and processes they start from now on), or for every
	// process (@pid 0): one ring per online CPU, the events of the
	// other threads writing to it (PERF_EVENT_IOC_SET_OUTPUT).
	// Returns nullptr with @why set ("perf_event_open: Permission denied
	// (kernel.perf_event_paranoid is 3)") when the kernel refuses.
	static std::unique_ptr<SideBand> open(pid_t pid, bool inherit, std::string *why);

	SideBand() = default;
	SideBand(const SideBand &) = delete;
	SideBand &operator=(const SideBand &) = delete;
	~SideBand();

	// Every record written so far, each ring's in its order.
	std::size_t drain(const MapSink &sink);
	// Records the kernel dropped (a ring was full), and broken rings:
	// mappings that may be missing.
	std::uint64_t lost() const;
	bool complete() const { return lost() == 0 && !broken(); }
	bool broken() const;
	// The fds, to poll() for the rings' watermark.
	std::vector<int> fds() const;

private:
	struct Ring {
		UniqueFd fd;
		void *map = nullptr;
		std::size_t bytes = 0;
		std::unique_ptr<PerfRingReader> reader;
	};
	std::vector<Ring> rings_;
	std::vector<UniqueFd> extra_;	// events writing to a ring of rings_
};

// Put @m into @maps (sorted by start, not overlapping), as the kernel's
// mmap() replaces what was mapped in its range: the parts of older
// mappings outside it stay (their file offsets moved with their starts).
void apply_mapping(std::vector<Mapping> &maps, const Mapping &m);

} // namespace kprofile::record
