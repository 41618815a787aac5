// SPDX-License-Identifier: GPL-2.0
// sample_data.h - what `record -g` keeps of the sample stream
// (<linux/kprofile_stream.h>): the samples with their call stacks, the
// fork/exec/exit records of the followed processes, and the executable
// mappings of each process as record read them over time, so that report
// can name every frame in the program that ran at that moment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kprofile::record {

// One interrupt of a source (struct kprofile_record_sample).
struct SampleRecord {
	std::uint64_t time = 0;		// CLOCK_MONOTONIC, ns
	std::uint32_t cpu = 0;
	std::int32_t pid = 0;
	std::int32_t tid = 0;
	std::uint32_t source = 0;
	std::uint64_t ip = 0;
	std::uint32_t flags = 0;	// KPROFILE_SAMPLE_*
	std::uint16_t nr_kernel = 0;
	std::uint16_t nr_user = 0;
	// Innermost first: kernel entries, then user entries; empty
	// without KPROFILE_STREAM_CALLCHAIN.
	std::vector<std::uint64_t> frames;
	// KPROFILE_SAMPLE_STACK (record --call-graph dwarf): the user
	// registers in DWARF numbering (rax, rdx, rcx, rbx, rsi, rdi, rbp,
	// rsp, r8..r15, rip) and the user stack copied from rsp up; empty
	// otherwise, and once report has unwound them into @frames.
	std::vector<std::uint64_t> regs;
	std::string stack;

	bool user_mode() const;
	bool truncated() const;
	// Whether frames[i] is a kernel address (one of the nr_kernel first).
	bool kernel_frame(std::size_t i) const { return i < nr_kernel; }
};

enum class TaskKind : std::uint32_t { Fork = 2, Exec = 3, Exit = 4 };

const char *task_kind_name(TaskKind k);

// A followed process forked, exec'd or ended (struct kprofile_record_task).
struct TaskRecord {
	TaskKind kind = TaskKind::Fork;
	std::uint64_t time = 0;
	std::uint32_t cpu = 0;
	std::int32_t pid = 0;	// the child, for Fork
	std::int32_t tid = 0;
	std::int32_t ppid = 0;	// Fork: the parent; else 0
	std::string comm;	// after the exec, for Exec
};

// One executable mapping of a snapshot.
struct SnapshotMapping {
	std::uint64_t start = 0;
	std::uint64_t end = 0;		// exclusive
	std::uint64_t offset = 0;	// file offset mapped at @start
	int object = -1;		// index into ProfileData::objects
};

// The executable mappings of process @pid as /proc/PID/maps showed them
// at @time (CLOCK_MONOTONIC ns, the clock of the records).  Only
// snapshots that differ from the previous one of the same process are
// kept.
struct MapsSnapshot {
	std::int64_t pid = 0;
	std::uint64_t time = 0;
	std::string comm;		// /proc/PID/comm, read with the maps
	std::vector<SnapshotMapping> mappings;	// ascending @start
};

// The sample section of a record file (docs/record-format.md).
struct SampleData {
	bool present = false;		// record -g ran
	bool callchain = false;		// KPROFILE_STREAM_CALLCHAIN
	std::uint32_t mode = 0;		// enum kprofile_mode of the stream
	std::uint32_t ring_pages = 0;	// data pages per ring
	std::uint32_t max_frames = 0;
	std::uint32_t stack_bytes = 0;	// --call-graph dwarf's copy size; 0: fp
	std::string vdso;		// the recording kernel's vDSO image (dwarf)
	std::uint64_t stack_short = 0;	// copies that stopped before stack_bytes
	std::uint64_t lost = 0;		// records dropped (full rings)
	std::uint64_t untracked = 0;	// children the module could not follow
	std::uint64_t not_dumpable = 0;
	std::uint64_t filtered = 0;	// samples left out by record -C
	std::vector<std::string> problems;	// rings that could not be read, ...
	std::vector<SampleRecord> samples;	// ascending time
	std::vector<TaskRecord> tasks;		// ascending time
	std::vector<MapsSnapshot> maps;		// ascending time
};

} // namespace kprofile::record
