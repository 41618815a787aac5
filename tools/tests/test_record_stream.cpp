// SPDX-License-Identifier: GPL-2.0
// The sample stream's ring reader against a synthetic ring laid out as
// <linux/kprofile_stream.h> says: a struct kprofile_stream_page, then the
// data area, written by a producer that behaves as the module's (records
// never wrap: a PAD fills the end; a record that does not fit is dropped
// and counted in @lost; data_head published after the records).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

#include <linux/kprofile.h>

#include "maps_book.h"
#include "record_codec.h"
#include "sample_recorder.h"
#include "stream.h"

using namespace kprofile::record;

namespace {

constexpr std::size_t kPage = 4096;

class FakeRing {
public:
	explicit FakeRing(std::size_t data_pages = 1, std::uint32_t cpu = 1)
		: mem_((1 + data_pages) * kPage / 8, 0)
	{
		page()->data_offset = kPage;
		page()->data_size = data_pages * kPage;
		page()->cpu = cpu;
	}
	kprofile_stream_page *page() { return reinterpret_cast<kprofile_stream_page *>(mem_.data()); }
	unsigned char *data() { return reinterpret_cast<unsigned char *>(mem_.data()) + kPage; }
	std::size_t bytes() const { return mem_.size() * 8; }
	RingReader reader() { return RingReader(mem_.data(), bytes(), 0); }

	// Write @rec as the module does, without publishing; false (and
	// @lost counted) when it does not fit.
	bool write(const std::string &rec)
	{
		const std::uint64_t size = page()->data_size;
		const std::uint64_t tail = std::atomic_ref<__u64>(page()->data_tail).load();
		const std::uint64_t off = pending_ % size;
		const std::uint64_t pad = off + rec.size() > size ? size - off : 0;
		if (pending_ + pad + rec.size() - tail > size) {
			page()->lost++;
			return false;
		}
		if (pad) {
			std::string p;
			encode_pad(p, pad);
			std::memcpy(data() + off, p.data(), p.size());
			pending_ += pad;
		}
		std::memcpy(data() + pending_ % size, rec.data(), rec.size());
		pending_ += rec.size();
		page()->records++;
		return true;
	}
	// data_head = what was written (store-release).
	void publish() { std::atomic_ref<__u64>(page()->data_head).store(pending_); }
	std::uint64_t tail() { return page()->data_tail; }
	std::uint64_t head() { return page()->data_head; }
	// Raw bytes at the producer's position (for damaged records).
	void write_raw(const std::string &bytes)
	{
		std::memcpy(data() + pending_ % page()->data_size, bytes.data(), bytes.size());
		pending_ += bytes.size();
	}

private:
	std::vector<std::uint64_t> mem_;
	std::uint64_t pending_ = 0;
};

SampleRecord sample(std::uint64_t time, std::vector<std::uint64_t> user_frames = {},
		    std::uint16_t nr_kernel = 0)
{
	SampleRecord s;
	s.time = time;
	s.cpu = 1;
	s.pid = 100;
	s.tid = 101;
	s.source = 0;
	s.ip = user_frames.empty() ? 0x401000 : user_frames[0];
	s.flags = KPROFILE_SAMPLE_USER;
	s.nr_kernel = nr_kernel;
	s.nr_user = static_cast<std::uint16_t>(user_frames.size() - nr_kernel);
	s.frames = std::move(user_frames);
	return s;
}

std::string enc(const SampleRecord &s)
{
	std::string out;
	encode_record(out, s);
	return out;
}

std::string enc(const TaskRecord &t)
{
	std::string out;
	encode_record(out, t);
	return out;
}

struct Collected {
	std::vector<SampleRecord> samples;
	std::vector<TaskRecord> tasks;
	RecordSink sink()
	{
		return [this](StreamRecord &&r) {
			if (auto *s = std::get_if<SampleRecord>(&r))
				samples.push_back(std::move(*s));
			else
				tasks.push_back(std::get<TaskRecord>(std::move(r)));
		};
	}
};

} // namespace

TEST(RecordStream, CodecRoundTripsSamplesAndTasks)
{
	const SampleRecord s = sample(42, {0x401234, 0x401100, 0x401050});
	std::string bytes = enc(s);
	ASSERT_EQ(bytes.size(), 48U + 3 * 8);
	Decoded d = decode_record(bytes.data(), bytes.size());
	ASSERT_TRUE(d.error.empty()) << d.error;
	ASSERT_EQ(d.size, bytes.size());
	const auto &got = std::get<SampleRecord>(*d.record);
	EXPECT_EQ(got.time, 42U);
	EXPECT_EQ(got.pid, 100);
	EXPECT_EQ(got.tid, 101);
	EXPECT_EQ(got.frames, s.frames);
	EXPECT_TRUE(got.user_mode());

	TaskRecord t{TaskKind::Exec, 7, 0, 100, 100, 0, "a-very-long-command-name"};
	bytes = enc(t);
	ASSERT_EQ(bytes.size(), sizeof(kprofile_record_task));
	d = decode_record(bytes.data(), bytes.size());
	const auto &task = std::get<TaskRecord>(*d.record);
	EXPECT_EQ(task.kind, TaskKind::Exec);
	EXPECT_EQ(task.comm, "a-very-long-com") << "comm is cut to 15 bytes and a NUL";
}

TEST(RecordStream, CodecRefusesBadSizes)
{
	std::string bytes = enc(sample(1, {1, 2}));
	// Size not a multiple of 8, zero, beyond the bytes, frames beyond size.
	for (std::uint32_t size : {13U, 0U, 4U, 4096U}) {
		std::string b = bytes;
		std::memcpy(b.data() + 4, &size, 4);
		EXPECT_FALSE(decode_record(b.data(), b.size()).error.empty()) << size;
	}
	std::string b = bytes;
	const std::uint16_t many = 60;
	std::memcpy(b.data() + offsetof(kprofile_record_sample, nr_user), &many, 2);
	EXPECT_NE(decode_record(b.data(), b.size()).error.find("claims 60 frames"), std::string::npos);
	EXPECT_FALSE(decode_record(b.data(), 4).error.empty()) << "less than a header";
	// A task record shorter than its type.
	std::string t = enc(TaskRecord{TaskKind::Fork, 1, 0, 2, 2, 1, "sh"});
	const std::uint32_t short_size = 16;
	std::memcpy(t.data() + 4, &short_size, 4);
	EXPECT_FALSE(decode_record(t.data(), t.size()).error.empty());
}

TEST(RecordStream, EmptyRingDeliversNothing)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	EXPECT_EQ(r.drain(c.sink()), 0U);
	EXPECT_FALSE(r.broken()) << r.error();
	EXPECT_EQ(ring.tail(), 0U);
	EXPECT_EQ(r.cpu(), 1U);
}

TEST(RecordStream, DeliversRecordsInOrderAndFreesTheirSpace)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	ASSERT_TRUE(ring.write(enc(TaskRecord{TaskKind::Fork, 1, 0, 200, 200, 100, "sh"})));
	ASSERT_TRUE(ring.write(enc(sample(2, {0x401000, 0x402000}))));
	ASSERT_TRUE(ring.write(enc(sample(3, {0xffffffff81000000ULL, 0x401000, 0x402000}, 1))));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 3U);
	EXPECT_EQ(ring.tail(), ring.head()) << "data_tail frees everything read";
	ASSERT_EQ(c.tasks.size(), 1U);
	EXPECT_EQ(c.tasks[0].ppid, 100);
	ASSERT_EQ(c.samples.size(), 2U);
	EXPECT_EQ(c.samples[1].nr_kernel, 1U);
	EXPECT_EQ(c.samples[1].nr_user, 2U);
	EXPECT_TRUE(c.samples[1].kernel_frame(0));
	EXPECT_FALSE(c.samples[1].kernel_frame(1));
}

TEST(RecordStream, ReadsOnlyUpToThePublishedHead)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	ring.write(enc(sample(1, {1})));
	ring.publish();
	// Written but not published: the module is still writing it.
	ring.write(enc(sample(2, {2})));
	EXPECT_EQ(r.drain(c.sink()), 1U);
	EXPECT_EQ(ring.tail(), 56U);
	ring.publish();
	ring.write(enc(sample(3, {3})));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 2U);
	ASSERT_EQ(c.samples.size(), 3U);
	EXPECT_EQ(c.samples[2].time, 3U);
	EXPECT_EQ(ring.tail(), ring.head());
}

TEST(RecordStream, FollowsAPadAcrossTheEnd)
{
	FakeRing ring;	// 4096 bytes
	RingReader r = ring.reader();
	Collected c;

	// 56-byte records: 73 of them reach byte 4088; the 74th does not fit
	// in the last 8 bytes, so a PAD fills them and it starts at 0.
	for (int i = 0; i < 73; i++)
		ASSERT_TRUE(ring.write(enc(sample(i, {0x1000u + i}))));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 73U);
	ASSERT_TRUE(ring.write(enc(sample(73, {0x1073}))));
	ASSERT_TRUE(ring.write(enc(sample(74, {0x1074}))));
	ring.publish();
	EXPECT_EQ(ring.head(), 4096U + 2 * 56) << "the pad took the last 8 bytes";
	EXPECT_EQ(r.drain(c.sink()), 2U);
	ASSERT_EQ(c.samples.size(), 75U);
	EXPECT_EQ(c.samples[73].frames[0], 0x1073U);
	EXPECT_EQ(c.samples[74].time, 74U);
	EXPECT_FALSE(r.broken()) << r.error();
	EXPECT_EQ(ring.tail(), ring.head());
}

TEST(RecordStream, FullRingCountsLostAndRecoversOnceRead)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;
	int written = 0, dropped = 0;

	for (int i = 0; i < 100; i++)
		(ring.write(enc(sample(i, {1, 2, 3}))) ? written : dropped)++;
	ring.publish();
	EXPECT_EQ(written, 4096 / 72);
	EXPECT_EQ(r.lost(), static_cast<std::uint64_t>(dropped));
	EXPECT_EQ(r.drain(c.sink()), static_cast<std::size_t>(written));
	EXPECT_TRUE(ring.write(enc(sample(100, {1})))) << "space freed by the reader";
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 1U);
}

TEST(RecordStream, ACorruptSizeStopsTheRingAfterTheGoodRecords)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	ring.write(enc(sample(1, {1})));
	std::string bad = enc(sample(2, {2}));
	const std::uint32_t odd = 52;
	std::memcpy(bad.data() + 4, &odd, 4);
	ring.write_raw(bad);
	ring.write(enc(sample(3, {3})));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 1U);
	EXPECT_TRUE(r.broken());
	EXPECT_NE(r.error().find("ring 0 (CPU 1)"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("size 52"), std::string::npos) << r.error();
	EXPECT_EQ(ring.tail(), 56U) << "the good record is freed, nothing after it";
	EXPECT_EQ(r.drain(c.sink()), 0U) << "a broken ring stays stopped";
}

TEST(RecordStream, AZeroSizeDoesNotLoop)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	ring.write_raw(std::string(16, '\0'));	// type PAD, size 0
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 0U);
	EXPECT_TRUE(r.broken());
}

TEST(RecordStream, ARecordRunningPastTheEndIsCorrupt)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	for (int i = 0; i < 73; i++)
		ring.write(enc(sample(i, {1})));
	ring.publish();
	r.drain(c.sink());
	// 8 bytes left before the end: a header claiming 56 would wrap.
	ring.write_raw(enc(sample(99, {1})).substr(0, 8));
	ring.write_raw(std::string(48, '\0'));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 0U);
	EXPECT_TRUE(r.broken());
	EXPECT_NE(r.error().find("more than the 8 bytes"), std::string::npos) << r.error();
}

TEST(RecordStream, AHeadBeyondTheAreaIsCorrupt)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	ring.page()->data_head = 3 * 4096;
	EXPECT_EQ(r.drain(c.sink()), 0U);
	EXPECT_TRUE(r.broken());
	EXPECT_EQ(ring.tail(), 0U);
}

TEST(RecordStream, AHeaderOutsideTheMappingIsRefused)
{
	FakeRing ring;
	ring.page()->data_size = 1 << 20;
	RingReader r = ring.reader();
	Collected c;

	EXPECT_TRUE(r.broken());
	EXPECT_EQ(r.drain(c.sink()), 0U);
}

TEST(RecordStream, UnknownRecordTypesAreSkippedAndCounted)
{
	FakeRing ring;
	RingReader r = ring.reader();
	Collected c;

	std::string unknown(24, '\0');
	const std::uint32_t type = 77, size = 24;
	std::memcpy(unknown.data(), &type, 4);
	std::memcpy(unknown.data() + 4, &size, 4);
	ring.write_raw(unknown);
	ring.write(enc(sample(5, {5})));
	ring.publish();
	EXPECT_EQ(r.drain(c.sink()), 1U);
	EXPECT_EQ(r.unknown(), 1U);
	EXPECT_FALSE(r.broken());
}

TEST(RecordStream, RingPagesArePowersOfTwo)
{
	EXPECT_EQ(check_ring_pages(0), "");
	EXPECT_EQ(check_ring_pages(64), "");
	EXPECT_EQ(check_ring_pages(1024), "");
	EXPECT_NE(check_ring_pages(3), "");
	EXPECT_NE(check_ring_pages(2048), "");
}

// record's end with --call-graph dwarf: the samples it kept are handed to
// the file, not copied (each holds a stack copy of up to 8 KiB; copying
// them all was a good part of record's cost per sample,
// docs/performance.md).  The stack bytes the observer saw decoded are the
// very ones take_data() returns, and the recorder keeps none after.
TEST(RecordStream, TakeDataHandsOverTheDecodedStackCopies)
{
	FakeRing ring(8);
	std::vector<std::string> stacks;
	for (int i = 0; i < 3; i++) {
		SampleRecord s = sample(10 + i, {0x401000 + 16U * i, 0x402000});
		s.flags |= KPROFILE_SAMPLE_STACK;
		s.regs.assign(KPROFILE_USER_REGS, 0x7ffc0000 + i);
		s.stack.assign(1000 + 8 * i, static_cast<char>('a' + i));
		stacks.push_back(s.stack);
		ASSERT_TRUE(ring.write(enc(s)));
	}
	ASSERT_TRUE(ring.write(enc(TaskRecord{TaskKind::Fork, 11, 1, 200, 200, 100, ""})));
	ring.publish();

	StreamRequest req;
	req.flags = KPROFILE_STREAM_CALLCHAIN | KPROFILE_STREAM_USER_STACK;
	req.mode = KPROFILE_MODE_USER;
	req.sources = {0};
	req.stack_bytes = 8192;
	SampleOptions opts;
	opts.pid = 100;
	opts.sources = {0};
	opts.stack_bytes = 8192;
	ProcReader proc;
	proc.maps = [](pid_t) -> std::optional<std::vector<Mapping>> {
		return std::vector<Mapping>{{0x400000, 0x410000, "r-xp", 0, "/bin/prog"}};
	};
	proc.comm = [](pid_t) { return std::string("prog"); };
	proc.now = [] { return std::uint64_t(1); };
	SampleRecorder rec(Stream::over(ring.page(), ring.bytes(), 1, req), opts,
			   MapsBook(proc));
	std::vector<const char *> seen;
	RecordObserver obs;
	obs.sample = [&seen](const SampleRecord &s) { seen.push_back(s.stack.data()); };
	rec.observe(obs);
	rec.drain();
	ASSERT_EQ(rec.sample_count(), 3U);
	ASSERT_EQ(rec.task_count(), 1U);
	EXPECT_EQ(ring.tail(), ring.head()) << "the ring's space is freed";

	std::vector<std::string> objects;
	auto index = [&objects](const std::string &path) {
		objects.push_back(path);
		return static_cast<int>(objects.size() - 1);
	};
	const SampleData d = rec.take_data(index);
	ASSERT_EQ(d.samples.size(), 3U);
	for (std::size_t i = 0; i < 3; i++) {
		EXPECT_EQ(d.samples[i].stack, stacks[i]);
		EXPECT_EQ(d.samples[i].stack.data(), seen[i]) << "sample " << i << "'s stack was copied";
		EXPECT_EQ(d.samples[i].regs.size(), std::size_t(KPROFILE_USER_REGS));
	}
	ASSERT_EQ(d.tasks.size(), 1U);
	EXPECT_EQ(d.tasks[0].pid, 200);
	EXPECT_EQ(d.stack_bytes, 8192U);
	EXPECT_EQ(rec.sample_count(), 0U);
	EXPECT_EQ(rec.task_count(), 0U);
	const SampleData again = rec.take_data(index);
	EXPECT_TRUE(again.present);
	EXPECT_TRUE(again.samples.empty());
	EXPECT_TRUE(again.tasks.empty());
}
