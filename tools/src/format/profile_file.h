// SPDX-License-Identifier: GPL-2.0
// profile_file.h - the on-disk format `kprofile record` writes and
// `kprofile report` reads (docs/record-format.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sample_data.h"

namespace kprofile::record {

inline constexpr char kFileMagic[8] = {'K', 'P', 'R', 'O', 'F', 'R', 'E', 'C'};
// 3: the sample section (record -g); 2: sparse buckets; 1: the first.
inline constexpr std::uint32_t kFileVersion = 3;

// What a range covers.
enum class RangeKind { Object, Kernel, CatchAll };

const char *range_kind_name(RangeKind kind);
std::optional<RangeKind> range_kind_from_name(const std::string &name);

// A profile source used in the recording, with the interval it ran at.
struct SourceRecord {
	std::uint32_t value = 0;
	std::string name;
	std::uint32_t interval = 0;
	bool timer = false;	// ProfileTime: interval in 100 ns units
};

// An object file a range maps (an ELF file, the kernel, or nothing).
struct ObjectRecord {
	std::string path;	// "[kernel]", "[vdso]", a file path, ...
	std::string build_id;	// lowercase hex, empty when unknown
};

// One profile object: a range, its buckets and its statistics.
struct RangeRecord {
	RangeKind kind = RangeKind::Object;
	std::uint32_t source = 0;	// KPROFILE_SOURCE value
	std::uint64_t base = 0;
	std::uint64_t size = 0;
	std::uint32_t bucket_shift = 0;
	std::uint32_t mode = 0;		// enum kprofile_mode
	int object = -1;		// index into ProfileData::objects, or -1
	std::uint64_t file_offset = 0;	// file offset mapped at @base
	std::uint64_t hits = 0;		// from KPROFILE_IOC_PROFILE_STATS
	std::uint64_t outside = 0;
	std::uint64_t unavailable = 0;
	std::uint64_t wrong_mode = 0;
	// The process the profile counted (its thread-group id); 0 when it
	// counted every process (system-wide) or in files that predate it
	// (then the file's @pid).  Key "pid", absent when 0.
	std::int64_t pid = 0;
	std::vector<std::uint32_t> buckets;

	std::uint64_t bucket_size() const { return 1ULL << bucket_shift; }
	std::uint64_t bucket_base(std::size_t i) const
	{
		return base + (static_cast<std::uint64_t>(i) << bucket_shift);
	}
};

// A kernel symbol snapshot, taken at record time from /proc/kallsyms.
struct KernelSymbolRecord {
	std::uint64_t addr = 0;
	std::uint64_t size = 0;
	std::string name;
	std::string module;	// empty for the kernel image
};

// A process the recording followed (record -- CMD and its children, or a
// busy process under -a): what the comm/pid columns of a report show.
struct ProcessRecord {
	std::int64_t pid = 0;
	std::int64_t ppid = 0;	// 0 when not a followed child
	std::string comm;	// /proc/PID/comm, after its last exec seen
};

struct MachineRecord {
	std::uint32_t abi_version = 0;
	std::string interface;	// "emon", "amd64", "none"
	std::string vendor;
	std::uint32_t family = 0, model = 0;
	std::uint32_t perfmon_version = 0;
	std::uint32_t num_counters = 0, counter_width = 0;
	std::uint32_t num_cpus = 0;
	std::string reason;
	std::string kernel_release;
};

struct ProfileData {
	std::uint32_t version = kFileVersion;
	MachineRecord machine;
	std::string target;	// "pid", "command", "system"
	std::int64_t pid = 0;
	std::vector<std::string> command;
	std::uint64_t start_time = 0;	// Unix seconds
	std::uint64_t duration_ns = 0;
	std::vector<SourceRecord> sources;
	std::vector<ObjectRecord> objects;
	std::vector<RangeRecord> ranges;
	std::vector<KernelSymbolRecord> kernel_symbols;
	std::vector<ProcessRecord> processes;	// key "processes", may be absent
	SampleData samples;	// key "samples" (version 3, record -g), may be absent
	// Read side only, never written: what parse() had to leave out of a
	// damaged file it could still read (a truncated sample section), for
	// a warning; empty for a whole file.
	std::string damage;
};

// The comm of @pid in @data ("" when the file does not say).
std::string process_comm(const ProfileData &data, std::int64_t pid);

// Serialize to bytes / parse bytes; parse throws FormatError on anything
// malformed (wrong magic, newer version, truncated data, bad JSON).
std::string serialize(const ProfileData &data);
ProfileData parse(const std::string &bytes);

// Whether the data holds kernel addresses (kernel ranges, symbols or
// sampled kernel frames): the
// KASLR base, which /proc/kallsyms hides from unprivileged users.
bool holds_kernel_addresses(const ProfileData &data);

// Write atomically: a new temporary file next to @path (O_EXCL, never
// following a symlink), renamed over it.  Mode 0600 when the data holds
// kernel addresses, as perf.data; 0666 & ~umask otherwise.
void write_file(const std::string &path, const ProfileData &data);
ProfileData read_file(const std::string &path);

struct FormatError : std::exception {
	explicit FormatError(std::string msg) : message(std::move(msg)) {}
	const char *what() const noexcept override { return message.c_str(); }
	std::string message;
};

} // namespace kprofile::record
