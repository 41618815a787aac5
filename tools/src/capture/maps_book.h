// SPDX-License-Identifier: GPL-2.0
// maps_book.h - the executable mappings of every process the sample stream
// names, over time, for symbolizing its frames later (record -g).
//
// A process's maps are read when record first sees it (the command, a
// FORK record, a sample of a process it did not know under -a), at once
// after an EXEC record, and when a sample taken after the last read has
// a user address outside every mapping known for it (a library loaded
// since: dlopen).  An address a read made after its sample did not find
// is in no mapping (a frame-pointer walk through code built without frame
// pointers yields such addresses): it is not read for again.  So reads
// happen when records arrive, at most one per process per drain, never
// on a timer.
// Each read that changed something is a snapshot with its time; report
// picks the snapshot of the program that ran at a sample's time
// (sample_symbols.h).
//
// With the kernel's side band (side_band.h), a process known from the
// start or from a FORK record is not read again: each MMAP2 record makes
// the next snapshot, a fork copies its parent's, an exec's is the last
// one (the new program's mappings came before it) under the new name.
// Only while the side band has lost nothing (fed()); otherwise, and for
// a process first seen at a sample (-a), maps are read as above.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "maps.h"
#include "sample_data.h"
#include "side_band.h"

namespace kprofile::record {

// How the book reads a process (tests replace it).
struct ProcReader {
	// The mappings of @pid; nullopt when it is gone or unreadable.
	std::function<std::optional<std::vector<Mapping>>(pid_t)> maps;
	std::function<std::string(pid_t)> comm;
	// CLOCK_MONOTONIC in ns: the clock of the stream's records.
	std::function<std::uint64_t()> now;
};

// /proc/PID/maps and /proc/PID/comm, and clock_gettime(CLOCK_MONOTONIC).
ProcReader system_proc_reader();

class MapsBook {
public:
	explicit MapsBook(ProcReader reader = system_proc_reader());

	// Read @pid now, and keep a snapshot when it differs from the last
	// one of @pid (or always, with @force: after an exec the same file
	// is another program run).  False when @pid could not be read.
	bool read(pid_t pid, bool force = false);
	// An EXEC record of @pid at @time: snapshots whose read overlapped it
	// may show either program and are dropped; @pid is read again (fed:
	// its last snapshot is taken on under @comm, just after @time).
	void exec(pid_t pid, std::uint64_t time, const std::string &comm = "");
	// A FORK record at @time: @child of @parent is a new process (a pid
	// may be reused), read now (fed: its parent's last snapshot).
	void fork(pid_t child, pid_t parent = 0, std::uint64_t time = 0);
	// A side-band record: a mapping into @m.pid's next snapshot.
	void map(const MapRecord &m);
	// Whether the side band runs and is complete so far.
	void fed(bool complete) { fed_ = complete; }
	// @pid's mmaps come as side-band records from now on (a command
	// held at its exec when the side band opened).
	void feed(pid_t pid) { procs_[pid].fed = true; }
	// An EXIT record: @pid is read no more.
	void exit(pid_t pid);
	// A sample of @pid at @time with user address @addr: read @pid when
	// it is not known yet, or when no mapping of its last snapshot holds
	// @addr and the last read began before @time (@addr outside user
	// space, or below 4096, is ignored).
	void need(pid_t pid, std::uint64_t addr, std::uint64_t time);

	// The snapshots in time order, objects as paths (parallel to
	// MapsSnapshot::mappings; their object fields are -1).
	struct PathSnapshot {
		MapsSnapshot snap;
		std::vector<std::string> paths;
	};
	const std::vector<PathSnapshot> &snapshots() const { return snaps_; }
	// The snapshots with objects named by @object_index (path -> index).
	std::vector<MapsSnapshot> resolve(const std::function<int(const std::string &)> &object_index) const;
	std::size_t reads() const { return reads_; }

private:
	struct Proc {
		bool dead = false;
		bool fed = false;		// its mmaps come as MMAP2 records
		bool sampled = false;		// need() since its last snapshot
		int last = -1;			// index into snaps_
		std::uint64_t read_begin = 0;	// ns: when the last read began
	};
	struct Window {
		std::uint64_t begin, end;	// the read's start and end
	};

	ProcReader rd_;
	std::map<pid_t, Proc> procs_;
	std::vector<PathSnapshot> snaps_;
	std::vector<Window> windows_;	// parallel to snaps_
	std::size_t reads_ = 0;
	bool fed_ = false;
	// A new snapshot of @pid at @time, a copy of @from's (pid, time
	// and comm changed); returns its index.
	int copy_snapshot(int from, pid_t pid, std::uint64_t time);
};

} // namespace kprofile::record
