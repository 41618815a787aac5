// SPDX-License-Identifier: GPL-2.0
// session.h - the set of live profiles covering a target: catch-all,
// kernel text, and every executable mapping (followed as it changes).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "record/maps.h"
#include "record/profile_device.h"
#include "record/profile_file.h"

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
	std::vector<std::uint8_t> cpus;
};

class Session {
public:
	Session(const ProfileDevice &dev, SessionOptions opts);
	~Session();
	Session(const Session &) = delete;
	Session &operator=(const Session &) = delete;

	// Create the catch-all and kernel profiles.
	void start_base();
	// Profile the target's executable mappings not seen yet; false when
	// the target's maps are gone (it exited).  Before start_pending() the
	// profiles are created stopped; after it, started at once.
	bool follow();
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
	// exec of the target, a lost bucket buffer); empty when none did.
	std::vector<std::string> stop_notes() const;
	std::size_t profile_count() const { return live_.size(); }
	// /proc/kallsyms as start_base() read it (empty when the kernel is
	// not profiled): record keeps the symbols of its kernel buckets from
	// this one read.
	const std::vector<KernelSymbolRecord> &kallsyms() const { return kallsyms_; }
	std::chrono::nanoseconds elapsed() const;

private:
	struct Live {
		RangeRecord meta;	// without buckets
		std::unique_ptr<Profile> profile;
	};
	void add(RangeKind kind, std::uint64_t base, std::uint64_t size, std::uint32_t shift,
		 std::uint32_t mode, int object, std::uint64_t offset, const SourceDesc &src);
	int object_index(const std::string &path);

	const ProfileDevice &dev_;
	SessionOptions opts_;
	std::vector<Live> live_;
	std::vector<ObjectRecord> objects_;
	std::map<std::string, int> object_ids_;
	MapsFollower follower_;
	std::vector<std::string> notes_;
	std::vector<KernelSymbolRecord> kallsyms_;
	bool pending_done_ = false;
	std::chrono::steady_clock::time_point started_{};
	std::chrono::steady_clock::time_point stopped_{};
};

// Kernel symbols worth keeping in a record file: those overlapping a
// non-zero bucket of a kernel range (sizes computed from the full list).
std::vector<KernelSymbolRecord> kernel_symbols_for(const ProfileData &data,
						   std::vector<KernelSymbolRecord> all);

// Machine information for the file, from KPROFILE_IOC_INFO and uname.
MachineRecord machine_record(const kprofile_info &info);

} // namespace kprofile::record
