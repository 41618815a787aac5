// SPDX-License-Identifier: GPL-2.0
// record_codec.cpp - decode and encode the sample stream's records.
#include "record_codec.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include <fmt/format.h>

#include <linux/kprofile.h>

namespace kprofile::record {

static_assert(sizeof(kprofile_record_header) == 8);
static_assert(sizeof(kprofile_record_sample) == 48);
static_assert(offsetof(kprofile_record_sample, frames) == 48);
static_assert(sizeof(kprofile_record_task) == 56);
static_assert(sizeof(kprofile_sample_stack) == 8 * KPROFILE_USER_REGS + 8);

bool SampleRecord::user_mode() const
{
	return flags & KPROFILE_SAMPLE_USER;
}

bool SampleRecord::truncated() const
{
	return flags & KPROFILE_SAMPLE_TRUNCATED;
}

const char *task_kind_name(TaskKind k)
{
	switch (k) {
	case TaskKind::Fork:
		return "fork";
	case TaskKind::Exec:
		return "exec";
	case TaskKind::Exit:
		return "exit";
	}
	return "?";
}

namespace {

Decoded bad(std::string why)
{
	Decoded d;

	d.error = std::move(why);
	return d;
}

} // namespace

Decoded decode_record(const void *p, std::size_t avail)
{
	const auto *bytes = static_cast<const unsigned char *>(p);
	kprofile_record_header h;

	if (avail < sizeof(h))
		return bad(fmt::format("{} bytes left, less than a record header", avail));
	std::memcpy(&h, bytes, sizeof(h));
	if (h.size < sizeof(h) || h.size % 8)
		return bad(fmt::format("record of type {} has size {}: not a multiple of 8 of "
				       "at least 8", h.type, h.size));
	if (h.size > avail)
		return bad(fmt::format("record of type {} has size {}, more than the {} bytes "
				       "there are", h.type, h.size, avail));
	Decoded d;
	d.size = h.size;
	switch (h.type) {
	case KPROFILE_RECORD_PAD:
		d.pad = true;
		return d;
	case KPROFILE_RECORD_SAMPLE: {
		kprofile_record_sample s;
		if (h.size < sizeof(s))
			return bad(fmt::format("sample record of {} bytes, shorter than its {} "
					       "fixed bytes", h.size, sizeof(s)));
		std::memcpy(&s, bytes, sizeof(s));
		const std::size_t n = std::size_t(s.nr_kernel) + s.nr_user;
		if (n > (h.size - sizeof(s)) / 8)
			return bad(fmt::format("sample record of {} bytes claims {} frames", h.size,
					       n));
		SampleRecord r;
		r.time = s.time;
		r.cpu = s.cpu;
		r.pid = s.pid;
		r.tid = s.tid;
		r.source = s.source;
		r.ip = s.ip;
		r.flags = s.flags;
		r.nr_kernel = s.nr_kernel;
		r.nr_user = s.nr_user;
		r.frames.resize(n);
		if (n)
			std::memcpy(r.frames.data(), bytes + sizeof(s), n * 8);
		if (s.flags & KPROFILE_SAMPLE_STACK) {
			const std::size_t at = sizeof(s) + n * 8;
			kprofile_sample_stack u;
			if (h.size - at < sizeof(u))
				return bad(fmt::format("sample record of {} bytes has no room for its "
						       "user registers", h.size));
			std::memcpy(&u, bytes + at, sizeof(u));
			if (u.size > h.size - at - sizeof(u))
				return bad(fmt::format("sample record of {} bytes claims {} stack "
						       "bytes", h.size, u.size));
			r.regs.assign(u.regs, u.regs + KPROFILE_USER_REGS);
			r.stack.assign(reinterpret_cast<const char *>(bytes) + at + sizeof(u), u.size);
		}
		d.record = std::move(r);
		return d;
	}
	case KPROFILE_RECORD_FORK:
	case KPROFILE_RECORD_EXEC:
	case KPROFILE_RECORD_EXIT: {
		kprofile_record_task t;
		if (h.size < sizeof(t))
			return bad(fmt::format("task record of {} bytes, shorter than its {} bytes",
					       h.size, sizeof(t)));
		std::memcpy(&t, bytes, sizeof(t));
		TaskRecord r;
		r.kind = static_cast<TaskKind>(h.type);
		r.time = t.time;
		r.cpu = t.cpu;
		r.pid = t.pid;
		r.tid = t.tid;
		r.ppid = t.ppid;
		r.comm.assign(t.comm, strnlen(t.comm, sizeof(t.comm)));
		d.record = std::move(r);
		return d;
	}
	default:
		return d;	// a newer module's record: skipped by its size
	}
}

std::size_t encoded_size(const SampleRecord &r)
{
	std::size_t n = sizeof(kprofile_record_sample) + r.frames.size() * 8;
	if (r.flags & KPROFILE_SAMPLE_STACK)
		n += sizeof(kprofile_sample_stack) + (r.stack.size() + 7) / 8 * 8;
	return n;
}

std::size_t stack_padding(const SampleRecord &r)
{
	return r.flags & KPROFILE_SAMPLE_STACK ? (8 - r.stack.size() % 8) % 8 : 0;
}

void encode_sample_head(std::string &out, const SampleRecord &r)
{
	kprofile_record_sample s{};

	s.header.type = KPROFILE_RECORD_SAMPLE;
	s.header.size = static_cast<std::uint32_t>(encoded_size(r));
	s.time = r.time;
	s.cpu = r.cpu;
	s.pid = r.pid;
	s.tid = r.tid;
	s.source = r.source;
	s.ip = r.ip;
	s.flags = r.flags;
	s.nr_kernel = r.nr_kernel;
	s.nr_user = r.nr_user;
	out.append(reinterpret_cast<const char *>(&s), sizeof(s));
	out.append(reinterpret_cast<const char *>(r.frames.data()), r.frames.size() * 8);
	if (r.flags & KPROFILE_SAMPLE_STACK) {
		kprofile_sample_stack u{};
		std::copy_n(r.regs.begin(), std::min<std::size_t>(r.regs.size(), KPROFILE_USER_REGS),
			    u.regs);
		u.size = static_cast<std::uint32_t>(r.stack.size());
		out.append(reinterpret_cast<const char *>(&u), sizeof(u));
	}
}

void encode_record(std::string &out, const SampleRecord &r)
{
	encode_sample_head(out, r);
	if (r.flags & KPROFILE_SAMPLE_STACK) {
		out.append(r.stack);
		out.append(stack_padding(r), '\0');
	}
}

void encode_record(std::string &out, const TaskRecord &r)
{
	kprofile_record_task t{};

	t.header.type = static_cast<std::uint32_t>(r.kind);
	t.header.size = sizeof(t);
	t.time = r.time;
	t.cpu = r.cpu;
	t.pid = r.pid;
	t.tid = r.tid;
	t.ppid = r.ppid;
	std::memcpy(t.comm, r.comm.data(), std::min(r.comm.size(), sizeof(t.comm) - 1));
	out.append(reinterpret_cast<const char *>(&t), sizeof(t));
}

void encode_pad(std::string &out, std::size_t size)
{
	kprofile_record_header h{};

	h.type = KPROFILE_RECORD_PAD;
	h.size = static_cast<std::uint32_t>(size);
	out.append(reinterpret_cast<const char *>(&h), sizeof(h));
	out.append(size - sizeof(h), '\0');
}

} // namespace kprofile::record
