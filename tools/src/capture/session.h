// SPDX-License-Identifier: GPL-2.0
// session.h - the set of live profiles covering a target: catch-all,
// kernel text, module text, and every executable mapping (followed as it
// changes) of the command or -p process, or system-wide under -a; and the
// processes the kernel's stream tells of (fork, exec, exit, samples):
// the target's children, or under -a every process, whose hits are
// counted from the stream's samples into ranges of their own
// (sampled_ranges.h, docs/record.md "Following children").
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernel_modules.h"
#include "maps.h"
#include "process_tree.h"
#include "profile_device.h"
#include "profile_file.h"
#include "sample_data.h"
#include "sampled_ranges.h"
#include "side_band.h"

namespace kprofile::record {

// The user part of the x86-64 address space (TASK_SIZE_MAX with 4-level
// paging: a range reaching above it counts as a kernel range, which needs
// CAP_PERFMON), and the kernel half: the catch-all ranges.
inline constexpr std::uint64_t kUserTop = (1ULL << 47) - 4096;
inline constexpr std::uint64_t kKernelBase = 0xffff800000000000ULL;
inline constexpr std::uint32_t kCatchAllShift = 31;
inline constexpr std::uint32_t kDefaultKernelBucketShift = 6;

struct SessionOptions {
	std::vector<SourceDesc> sources;
	std::uint32_t bucket_shift = 4;
	// The kernel text's buckets: coarser than user code's by default, a
	// cache line (64 bytes).  The kernel is large (14 MB of text on
	// Debian's) and mostly idle in a program's profile; at 16-byte
	// buckets it pinned 3.6 MB per recording.
	std::uint32_t kernel_bucket_shift = kDefaultKernelBucketShift;
	std::uint32_t target = KPROFILE_TARGET_PID;
	pid_t pid = 0;
	bool user = true;		// profile user space
	bool kernel = true;		// profile the kernel, when permitted
	bool kernel_required = false;	// --kernel: refusal is an error
	bool inherit = true;		// follow the target's children
	std::vector<std::uint8_t> cpus;
	// ProfileTime's interval of this recording's own (-F/-i without
	// CAP_PERFMON; 100 ns units), 0: the machine-wide one.
	std::uint32_t own_time_interval = 0;
};

class Session {
public:
	Session(const Device &dev, SessionOptions opts);
	~Session();
	Session(const Session &) = delete;
	Session &operator=(const Session &) = delete;

	// Create the catch-all and kernel profiles.
	void start_base();
	// Read the target's maps and profile its executable mappings (the
	// one scan of /proc at the start); false when it is gone or its maps
	// cannot be read.  Before start_pending() the profiles are created
	// stopped; after it, started at once.
	bool follow_root();
	// What the stream says, in time order (session_events.cpp): a fork
	// of a followed process (a child to follow), an exec (its new name,
	// its maps read again), an exit (its counts kept, its profiles
	// freed), and a sample, counted for a process without profiles of
	// its own, or of the target in a mapping it has no profile of (one
	// mapped after the start).  A sample outside every mapping known to
	// its process, taken after their last read, reads them again (once
	// a drain: end_batch()).
	void task(const TaskRecord &t);
	void sample(const SampleRecord &s);
	void end_batch();
	// A mapping the kernel reported (side_band.h) in the same time order:
	// it goes into its process's maps at once.  While @complete says
	// that no side-band record was lost, a process whose mmaps it sees
	// (the command and what it starts) is not read from /proc again: a
	// sample outside its known mappings is in none (JIT code, a frame of
	// code gone).  Without it, maps are read as said above.
	void map(const MapRecord &m);
	// @root_fed: the target's own mmaps come too (the side band opened
	// on each of its threads; its maps are read after that).
	void side_band(std::function<bool()> complete, bool root_fed);
	// Whether a followed process is still running (always under -a).
	bool alive() const;
	// Start every profile created so far, catch-alls first.
	void start_pending();
	// Stop everything: object profiles first, catch-alls last, so the
	// catch-all total covers every attributed hit.
	void stop();

	// The recording so far (live counts, or final after stop()).
	ProfileData snapshot() const;
	// Things the user should know (kernel not profiled, and why).
	const std::vector<std::string> &notes() const { return notes_; }
	// Why profiles stopped counting, one note per reason (a set-user-ID
	// exec of the target, a lost bucket buffer, a child that could not be
	// followed); empty when none did.
	std::vector<std::string> stop_notes() const;
	// The processes followed so far.
	std::vector<ProcessRecord> processes() const;
	// /proc/kallsyms as start_base() read it (empty when the kernel is
	// not profiled): record keeps the symbols of its kernel buckets from
	// this one read.
	const std::vector<KernelSymbolRecord> &kallsyms() const { return kallsyms_; }
	std::chrono::nanoseconds elapsed() const;

private:
	struct Live {
		RangeRecord meta;	// without buckets; meta.pid: 0 system-wide
		std::unique_ptr<Profile> profile;
	};
	// A followed process: the target, whose catch-all and kernel
	// profiles are its own (@profiled), or one the stream told of.  The
	// hits of every one by mapping, and a child's totals and kernel
	// hits, are counted from samples in @sampled.
	struct Proc {
		ProcessRecord rec;
		std::vector<Mapping> maps;	// executable mappings, by address
		std::uint64_t maps_time = 0;	// CLOCK_MONOTONIC ns of their read
		bool alive = true;
		bool profiled = false;
		bool own_totals = true;		// catch-alls (not under -a)
		bool read_in_batch = false;	// maps read for a sample this drain
		// Its mmaps come as side-band records: the command or -p's
		// process, and the children of such a process.
		bool fed = false;
		SampledRanges sampled;
	};
	void add(RangeKind kind, std::uint64_t base, std::uint64_t size, std::uint32_t shift,
		 std::uint32_t mode, int object, std::uint64_t offset, const SourceDesc &src,
		 pid_t pid);
	int object_index(const std::string &path);
	// Kernel catch-all, kernel text and module text of @pid (0: all).
	void add_kernel(pid_t pid);
	// start_base()'s kernel profiles (when asked for and permitted).
	void start_kernel(pid_t root);
	// Read @p's executable mappings.  False when the process is gone.
	bool follow_maps(Proc &p);
	// Whether @p's mappings are known from side-band records alone.
	bool fed(const Proc &p) const { return p.fed && side_band_ok_ && side_band_ok_(); }
	// A process the stream named that is not known yet (a child of
	// @ppid, 0 for none).
	Proc &sampled_proc(pid_t pid, pid_t ppid, const std::string &comm, bool own_totals);
	// Count a sample of @p, a process without profiles.
	void count(Proc &p, const SampleRecord &s);
	// Leave @p out after @e (a note unless it had just exited).
	void skip(Proc &p, const Error &e);
	// @p exited: stop its profiles and keep their counts as records,
	// freeing the buffers.
	void retire(Proc &p);
	RangeRecord record_of(const Live &l) const;

	const Device &dev_;
	SessionOptions opts_;
	std::vector<Live> live_;
	std::vector<RangeRecord> retired_;	// of exited processes
	std::vector<ObjectRecord> objects_;
	std::map<std::string, int> object_ids_;
	std::map<pid_t, Proc> procs_;
	pid_t root_ = 0;		// the command or -p process; 0 under -a
	bool kernel_ok_ = false;	// the kernel profiles were permitted
	std::pair<std::uint64_t, std::uint64_t> text_{};	// _stext.._etext
	std::vector<KernelSymbolRecord> kallsyms_;
	std::vector<ModuleText> modules_;	// read once, at start_base()
	std::vector<std::string> notes_;
	std::vector<std::string> skipped_;	// children not followed, and why
	// What retired processes' profiles said when they were stopped
	// (stop_notes() reports them with the live ones').
	bool retired_exec_ = false;
	std::uint64_t retired_hidden_ = 0;
	// Hits not counted because a bucket buffer lost its mapping, and
	// whose ("spin 114"), of retired processes.
	std::uint64_t retired_lost_hits_ = 0;
	std::set<std::string> retired_lost_procs_;
	bool pending_done_ = false;
	std::function<bool()> side_band_ok_;	// unset: no side band
	// -a: the side band's mappings of processes not sampled yet (one
	// that exits before record drains has no /proc/PID/maps left).
	std::map<pid_t, std::vector<Mapping>> unseen_maps_;
	std::chrono::steady_clock::time_point started_{};
	std::chrono::steady_clock::time_point stopped_{};
};

// The executable mappings of @pid, sorted by address, with the time of
// the read (CLOCK_MONOTONIC ns, the stream's clock); nullopt when it is
// gone or its maps cannot be read.
std::optional<std::vector<Mapping>> read_exec_maps(pid_t pid, std::uint64_t *time);
// The mapping of @maps (sorted) that holds @addr, or nullptr.
const Mapping *mapping_at(const std::vector<Mapping> &maps, std::uint64_t addr);

// Kernel symbols worth keeping in a record file: those overlapping a
// non-zero bucket of a kernel range (sizes computed from the full list).
std::vector<KernelSymbolRecord> kernel_symbols_for(const ProfileData &data,
						   std::vector<KernelSymbolRecord> all);

// An object of the file for @path: the path, and the build-id read from
// the file (a " (deleted)" suffix is left out of the read).
ObjectRecord object_record(const std::string &path);
// The index of @path in @data.objects, appending it when new.
int object_index(ProfileData &data, const std::string &path);

// Machine information for the file, from KPROFILE_IOC_INFO and uname.
MachineRecord machine_record(const kprofile_info &info);

} // namespace kprofile::record
