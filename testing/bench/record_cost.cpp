// SPDX-License-Identifier: GPL-2.0
// record_cost.cpp - host benchmark of what `kprofile record --call-graph
// dwarf` does with each sample, without the module: N synthetic dwarf
// samples (user registers and a stack copy of about 3.7 KiB each, as the
// bench's `wl` gives at 8 KiB a sample; docs/performance.md) written into
// a ring laid out as the module's, drained by record's own code
// (RingReader, SampleRecorder, drained at a quarter of the ring as the
// module's watermark wakes record), then record's end: SampleRecorder::
// take_data() and write_file().  Prints each phase's time and page faults, and
// the cost per sample; with several N, the marginal cost per sample
// between the first and the last (what a longer recording adds).
//
// Not a test (no assertion on time).  Build and run:
//   make tool && cmake --build build/tool --target kp_bench_record
//   build/tool/kp_bench_record 1000 4000
//   valgrind --tool=callgrind build/tool/kp_bench_record --repeat 1 1000
// Each run is a process of its own, as record is (fresh memory).
// Options: --stack BYTES (the mean copy, default 3700), --repeat R (runs
// per N, the median printed; default 5), --out FILE (default
// /tmp/kp_bench_record.data), --keep (leave the last N's file there: the
// same input gives the same bytes, to compare two builds' files).
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <linux/kprofile.h>

#include "maps_book.h"
#include "profile_file.h"
#include "record_codec.h"
#include "sample_recorder.h"
#include "stream.h"

using namespace kprofile::record;

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kRingPages = 128;		// record's default with dwarf
constexpr std::int32_t kPid = 4242;

double now_ms()
{
	timespec ts{};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

long minflt()
{
	rusage ru{};
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

// One ring in memory the benchmark owns, written as the module writes:
// records never wrap (a PAD fills the end), data_head published after.
class Ring {
public:
	Ring() : mem_((1 + kRingPages) * kPage / 8, 0)
	{
		page()->data_offset = kPage;
		page()->data_size = kRingPages * kPage;
	}
	void *mem() { return mem_.data(); }
	std::size_t bytes() const { return mem_.size() * 8; }
	std::uint64_t unread() { return head_ - std::atomic_ref<__u64>(page()->data_tail).load(); }
	bool write(const std::string &rec)
	{
		const std::uint64_t size = page()->data_size;
		const std::uint64_t tail = std::atomic_ref<__u64>(page()->data_tail).load();
		const std::uint64_t off = head_ % size;
		const std::uint64_t pad = off + rec.size() > size ? size - off : 0;
		if (head_ + pad + rec.size() - tail > size)
			return false;
		if (pad) {
			std::string p;
			encode_pad(p, pad);
			std::memcpy(data() + off, p.data(), p.size());
			head_ += pad;
		}
		std::memcpy(data() + head_ % size, rec.data(), rec.size());
		head_ += rec.size();
		std::atomic_ref<__u64>(page()->data_head).store(head_, std::memory_order_release);
		return true;
	}

private:
	kprofile_stream_page *page() { return reinterpret_cast<kprofile_stream_page *>(mem_.data()); }
	unsigned char *data() { return reinterpret_cast<unsigned char *>(mem_.data()) + kPage; }
	std::vector<std::uint64_t> mem_;
	std::uint64_t head_ = 0;
};

// Sample @i: user mode, ip and two return addresses in the program's
// text, the 17 registers, and a stack copy of about @stack bytes.
SampleRecord sample(std::size_t i, std::size_t stack)
{
	SampleRecord s;
	s.cpu = 0;
	s.pid = s.tid = kPid;
	s.source = 0;
	s.ip = 0x401000 + (i * 64) % 0x8000;
	s.flags = KPROFILE_SAMPLE_USER | KPROFILE_SAMPLE_STACK;
	s.frames = {s.ip, 0x402345, 0x403456};
	s.nr_user = 3;
	s.regs.assign(KPROFILE_USER_REGS, 0);
	for (std::size_t r = 0; r < s.regs.size(); r++)
		s.regs[r] = 0x7ffc00000000ULL + r * 8 + i;
	s.regs[16] = s.ip;
	const std::size_t n = (stack - 300 + (i * 37) % 600) / 8 * 8;
	s.stack.resize(n);
	std::uint64_t x = 0x9e3779b97f4a7c15ULL * (i + 1);
	for (std::size_t b = 0; b < n; b++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s.stack[b] = static_cast<char>(x);
	}
	return s;
}

// Sample @i's record as the module writes it: one of 64 made ahead, with
// its own time (the producer's work is the kernel's, not timed, and
// makes no memory of its own that record's allocations would reuse).
class Samples {
public:
	explicit Samples(std::size_t stack)
	{
		for (std::size_t i = 0; i < 64; i++) {
			std::string rec;
			encode_record(rec, sample(i, stack));
			recs_.push_back(std::move(rec));
		}
	}
	const std::string &operator[](std::size_t i)
	{
		std::string &rec = recs_[i % recs_.size()];
		const std::uint64_t time = 1000000 + i * 1000000;
		std::memcpy(rec.data() + offsetof(kprofile_record_sample, time), &time, 8);
		return rec;
	}

private:
	std::vector<std::string> recs_;
};

ProcReader fake_proc()
{
	ProcReader r;
	r.maps = [](pid_t) -> std::optional<std::vector<Mapping>> {
		return std::vector<Mapping>{{0x400000, 0x480000, "r-xp", 0, "/usr/bin/wl"}};
	};
	r.comm = [](pid_t) { return std::string("wl"); };
	r.now = [] { return std::uint64_t(1); };
	return r;
}

struct Phases {
	double drain = 0, data = 0, write = 0, total = 0;
	long flt_drain = 0, flt_data = 0, flt_write = 0;
	std::uint64_t file_bytes = 0;
};

Phases run(std::size_t n, std::size_t stack, const std::string &out)
{
	Samples recs(stack);
	Ring ring;
	StreamRequest req;
	req.flags = KPROFILE_STREAM_CALLCHAIN | KPROFILE_STREAM_USER_STACK;
	req.mode = KPROFILE_MODE_USER;
	req.sources = {0};
	req.ring_pages = kRingPages;
	req.stack_bytes = 8192;
	SampleOptions opts;
	opts.pid = kPid;
	opts.sources = {0};
	opts.stack_bytes = 8192;
	opts.callchain = true;
	SampleRecorder rec(Stream::over(ring.mem(), ring.bytes(), 1, req), opts,
			   MapsBook(fake_proc()));
	Phases p;
	long f0 = minflt();
	for (std::size_t i = 0; i < n; i++) {
		while (!ring.write(recs[i])) {
			const double t = now_ms();
			rec.drain();
			p.drain += now_ms() - t;
		}
		// The module wakes record at a quarter of the ring.
		if (ring.unread() >= kRingPages * kPage / 4 || i + 1 == n) {
			const double t = now_ms();
			rec.drain();
			p.drain += now_ms() - t;
		}
	}
	long f1 = minflt();
	p.flt_drain = f1 - f0;

	double t = now_ms();
	ProfileData d;
	d.target = "command";
	d.command = {"wl"};
	d.samples = rec.take_data([&d](const std::string &path) {
		for (std::size_t o = 0; o < d.objects.size(); o++)
			if (d.objects[o].path == path)
				return static_cast<int>(o);
		d.objects.push_back({path, ""});
		return static_cast<int>(d.objects.size() - 1);
	});
	p.data = now_ms() - t;
	long f2 = minflt();
	p.flt_data = f2 - f1;
	if (d.samples.samples.size() != n) {
		std::fprintf(stderr, "kp_bench_record: %zu samples kept of %zu\n",
			     d.samples.samples.size(), n);
		std::exit(1);
	}

	t = now_ms();
	write_file(out, d);
	p.write = now_ms() - t;
	p.flt_write = minflt() - f2;
	p.total = p.drain + p.data + p.write;
	struct stat st {};
	p.file_bytes = ::stat(out.c_str(), &st) == 0 ? st.st_size : 0;
	return p;
}

// run() in a child process of its own: record runs once per process, so
// its allocations come to fresh memory (page faults) as they do there, not
// to what an earlier run freed.
Phases run_fresh(std::size_t n, std::size_t stack, const std::string &out)
{
	int fds[2];
	if (::pipe(fds) != 0) {
		std::perror("pipe");
		std::exit(1);
	}
	const pid_t pid = ::fork();
	if (pid == 0) {
		::close(fds[0]);
		const Phases p = run(n, stack, out);
		const bool ok = ::write(fds[1], &p, sizeof(p)) == sizeof(p);
		::_exit(ok ? 0 : 1);
	}
	::close(fds[1]);
	Phases p;
	const bool ok = ::read(fds[0], &p, sizeof(p)) == sizeof(p);
	::close(fds[0]);
	int status = 0;
	::waitpid(pid, &status, 0);
	if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		std::fprintf(stderr, "kp_bench_record: the run of %zu samples failed\n", n);
		std::exit(1);
	}
	return p;
}

double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::size_t> ns;
	std::size_t stack = 3700;
	int repeat = 5;
	std::string out = "/tmp/kp_bench_record.data";
	bool keep = false;

	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a == "--stack" && i + 1 < argc)
			stack = std::strtoul(argv[++i], nullptr, 0);
		else if (a == "--repeat" && i + 1 < argc)
			repeat = std::max(1, std::atoi(argv[++i]));
		else if (a == "--out" && i + 1 < argc)
			out = argv[++i];
		else if (a == "--keep")
			keep = true;
		else if (!a.empty() && a[0] != '-')
			ns.push_back(std::strtoul(a.c_str(), nullptr, 0));
		else {
			std::fprintf(stderr, "usage: kp_bench_record [--stack BYTES] [--repeat R] "
					     "[--out FILE] [--keep] [SAMPLES...]\n");
			return 2;
		}
	}
	if (ns.empty())
		ns = {1000, 4000};
	if (stack < 400)
		stack = 400;

	std::printf("# record --call-graph dwarf's sample path on the host: stack copies of "
		    "about %zu bytes, median of %d runs\n", stack, repeat);
	std::printf("%8s %9s %9s %9s %9s %10s %8s %8s %8s %11s\n", "samples", "drain_ms",
		    "data_ms", "write_ms", "total_ms", "us/sample", "flt_drn", "flt_data",
		    "flt_wr", "file_bytes");
	std::vector<double> totals;
	for (std::size_t n : ns) {
		std::vector<double> dr, da, wr, to;
		Phases last;
		for (int r = 0; r < repeat; r++) {
			last = run_fresh(n, stack, out);
			dr.push_back(last.drain);
			da.push_back(last.data);
			wr.push_back(last.write);
			to.push_back(last.total);
		}
		const double tot = median(to);
		totals.push_back(tot);
		std::printf("%8zu %9.2f %9.2f %9.2f %9.2f %10.2f %8ld %8ld %8ld %11llu\n", n,
			    median(dr), median(da), median(wr), tot, tot * 1e3 / n, last.flt_drain,
			    last.flt_data, last.flt_write,
			    static_cast<unsigned long long>(last.file_bytes));
	}
	if (ns.size() > 1 && ns.back() != ns.front())
		std::printf("marginal: %.2f us per sample (%zu -> %zu samples)\n",
			    (totals.back() - totals.front()) * 1e3 /
				    (double(ns.back()) - double(ns.front())),
			    ns.front(), ns.back());
	if (!keep)
		::unlink(out.c_str());
	return 0;
}
