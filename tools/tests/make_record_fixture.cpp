// SPDX-License-Identifier: GPL-2.0
// kp_make_record SO OUT: write a record file, as `kprofile record` would,
// whose hits fall on known functions of the fixture library SO, so that
// `kprofile report` can be tested end to end without the module.
//
//   kp_fixture_c_function        70 hits  (ProfileTime)
//   kp_fixture_static_helper     20 hits
//   kpfix::Widget::compute(int)  10 hits
//   [unattributed]                5 hits  (catch-all 105)
//   kp_fixture_c_function        40 hits  (ProfileTotalCycles; --two-sources)
//
// Prints "symbol hits source" lines of what it wrote, for the checker.
//
// With --samples, also the sample section of record -g (process 500
// "fixture" and its child 501, which execs "child" and maps the library
// elsewhere), and "folded\tSTACK\tN" lines of the stacks it holds:
//
//   fixture;kp_fixture_cpp_entry;kp_fixture_c_function;kp_fixture_static_helper  30
//   fixture;kp_fixture_cpp_entry;kpfix::Widget::compute(int) const              10
//   fixture;kp_fixture_cpp_entry;kp_fixture_c_function                           5  (501, before its
//                                           exec: its parent's maps at the fork)
//   child;kp_fixture_cpp_entry;kpfix::Widget::compute(int) const                 8  (501 after exec)
//   child;[unknown]                                                              2  (the old address)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <linux/kprofile.h>

#include "profile_file.h"
#include "symbolize.h"

using namespace kprofile::record;

namespace {

// The file offset loaded at ELF address @vaddr.
std::uint64_t offset_of(const ElfObject &obj, std::uint64_t vaddr)
{
	for (std::uint64_t delta = 0; delta < 0x400000; delta += 0x1000) {
		for (std::uint64_t off : {vaddr - delta, vaddr + delta})
			if (obj.offset_to_vaddr(off) == vaddr)
				return off;
	}
	std::fprintf(stderr, "kp_make_record: no file offset for %#llx\n",
		     static_cast<unsigned long long>(vaddr));
	std::exit(2);
}

// The runtime address, in a mapping of the library at @base (file offset
// 0), of @name's start + @delta.
std::uint64_t at(const ElfObject &obj, const std::string &so, std::uint64_t base, const char *name,
		 std::uint64_t delta)
{
	const Symbol *s = obj.symbols().named(name);
	if (!s || s->start + delta >= s->end) {
		std::fprintf(stderr, "kp_make_record: %s has no %s of %llu bytes\n", so.c_str(), name,
			     static_cast<unsigned long long>(delta + 1));
		std::exit(2);
	}
	return base + offset_of(obj, s->start + delta);
}

void add_samples(ProfileData &d, const ElfObject &obj, const std::string &so, std::uint64_t base)
{
	const std::uint64_t base2 = 0x7f3400000000;
	// Leaves anywhere in the function; callers by a return address
	// inside them (report names a return address by the byte before).
	const std::uint64_t helper = at(obj, so, base, "kp_fixture_static_helper", 1);
	const std::uint64_t cfunc_ret = at(obj, so, base, "kp_fixture_c_function", 8);
	const std::uint64_t entry_ret = at(obj, so, base, "kp_fixture_cpp_entry", 8);
	const std::uint64_t compute = at(obj, so, base, "kpfix::Widget::compute(int) const", 1);
	auto sample = [&](std::uint64_t time, std::int32_t pid, std::vector<std::uint64_t> frames) {
		SampleRecord s;
		s.time = time;
		s.cpu = static_cast<std::uint32_t>(time % 2);
		s.pid = s.tid = pid;
		s.ip = frames.front();
		s.flags = KPROFILE_SAMPLE_USER;
		s.nr_user = static_cast<std::uint16_t>(frames.size());
		s.frames = std::move(frames);
		d.samples.samples.push_back(std::move(s));
	};
	auto folded = [](const char *stack, int n) { std::printf("folded\t%s\t%d\n", stack, n); };
	SampleData &sd = d.samples;
	sd.present = true;
	sd.callchain = true;
	sd.mode = KPROFILE_MODE_BOTH;
	sd.ring_pages = 16;
	sd.maps.push_back({500, 50, "fixture", {{base, base + 0x10000, 0, 0}}});
	for (int i = 0; i < 30; i++)
		sample(100 + i, 500, {helper, cfunc_ret, entry_ret});
	for (int i = 0; i < 10; i++)
		sample(200 + i, 500, {compute, entry_ret});
	folded("fixture;kp_fixture_cpp_entry;kp_fixture_c_function;kp_fixture_static_helper", 30);
	folded("fixture;kp_fixture_cpp_entry;kpfix::Widget::compute(int) const", 10);
	// 501: forked at 300, samples before its exec at 400 run the
	// parent's program (no snapshot of its own: the parent's at 300).
	sd.tasks.push_back({TaskKind::Fork, 300, 0, 501, 501, 500, "fixture"});
	for (int i = 0; i < 5; i++)
		sample(310 + i, 501, {cfunc_ret + 0, entry_ret});
	folded("fixture;kp_fixture_cpp_entry;kp_fixture_c_function", 5);
	sd.tasks.push_back({TaskKind::Exec, 400, 1, 501, 501, 0, "child"});
	sd.maps.push_back({501, 450, "child", {{base2, base2 + 0x10000, 0, 0}}});
	for (int i = 0; i < 8; i++)
		sample(500 + i, 501, {compute - base + base2, entry_ret - base + base2});
	folded("child;kp_fixture_cpp_entry;kpfix::Widget::compute(int) const", 8);
	// The old program's address means nothing after the exec.
	for (int i = 0; i < 2; i++)
		sample(600 + i, 501, {helper});
	folded("child;[unknown]", 2);
	sd.tasks.push_back({TaskKind::Exit, 700, 0, 501, 501, 0, "child"});
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: kp_make_record SO OUT [--two-sources | --samples | "
			     "--cpi]\n");
		return 2;
	}
	const std::string so = argv[1];
	const bool two = argc > 3 && std::strcmp(argv[3], "--two-sources") == 0;
	const bool samples = argc > 3 && std::strcmp(argv[3], "--samples") == 0;
	const bool cpi = argc > 3 && std::strcmp(argv[3], "--cpi") == 0;
	std::string err;
	auto obj = ElfObject::load(so, &err);
	if (!obj) {
		std::fprintf(stderr, "kp_make_record: %s\n", err.c_str());
		return 2;
	}

	ProfileData d;
	d.machine.interface = "none";
	d.machine.num_cpus = 2;
	d.target = "command";
	d.command = {"fixture"};
	d.start_time = 1700000000;
	d.duration_ns = 1500000000;
	d.sources = {{0x00, "ProfileTime", 10000, true}};
	if (two)
		d.sources.push_back({0x13, "ProfileTotalCycles", 65536, false});
	if (cpi)
		d.sources.insert(d.sources.end(), {{0x13, "ProfileTotalCycles", 65536, false},
						   {0x02, "ProfileTotalIssues", 32768, false}});
	d.objects = {{so, obj->build_id()}};

	const std::uint64_t base = 0x7f1200000000;	// runtime address of file offset 0
	auto range = [&](std::uint32_t source) {
		RangeRecord r;
		r.kind = RangeKind::Object;
		r.source = source;
		r.base = base;
		r.size = 0x10000;
		r.bucket_shift = 2;
		r.object = 0;
		r.buckets.assign(r.size >> r.bucket_shift, 0);
		return r;
	};
	auto hit = [&](RangeRecord &r, const char *name, std::uint32_t n) {
		const Symbol *s = obj->symbols().named(name);
		if (!s) {
			std::fprintf(stderr, "kp_make_record: %s has no %s\n", so.c_str(), name);
			std::exit(2);
		}
		// A bucket wholly inside the function when there is one; else
		// the one holding its start (which may share it with crt's
		// size-less frame_dummy: that must not matter).
		const std::uint64_t b = r.bucket_size();
		std::uint64_t at = (s->start + b - 1) / b * b;
		if (at + b > s->end)
			at = s->start;
		r.buckets[offset_of(*obj, at) >> r.bucket_shift] += n;
		for (const auto &src : d.sources)
			if (src.value == r.source)
				std::printf("%s\t%u\t%s\n", name, n, src.name.c_str());
	};

	RangeRecord t = range(0x00);
	hit(t, "kp_fixture_c_function", 70);
	hit(t, "kp_fixture_static_helper", 20);
	hit(t, "kpfix::Widget::compute(int) const", 10);
	RangeRecord all;
	all.kind = RangeKind::CatchAll;
	all.size = 1ULL << 47;
	all.bucket_shift = 31;
	all.buckets.assign(1ULL << 16, 0);
	all.buckets[base >> 31] = 105;
	d.ranges = {t, all};
	if (two) {
		RangeRecord c = range(0x13);
		hit(c, "kp_fixture_c_function", 40);
		d.ranges.push_back(c);
	}
	// --cpi: ProfileTotalCycles and ProfileTotalIssues (kernrate's CPI):
	// kp_fixture_c_function 40 x 65536 cycles over 20 x 32768
	// instructions (CPI 4), kp_fixture_static_helper 20 x 65536 over 40 x
	// 32768 (CPI 1); the library 3840 Ki cycles over 1920 Ki (CPI 2).
	if (cpi) {
		RangeRecord c = range(0x13), i = range(0x02);
		hit(c, "kp_fixture_c_function", 40);
		hit(c, "kp_fixture_static_helper", 20);
		hit(i, "kp_fixture_c_function", 20);
		hit(i, "kp_fixture_static_helper", 40);
		d.ranges.push_back(c);
		d.ranges.push_back(i);
	}
	if (samples)
		add_samples(d, *obj, so, base);
	write_file(argv[2], d);
	return 0;
}
