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
#include <cstdio>
#include <cstring>
#include <string>

#include "record/profile_file.h"
#include "record/symbolize.h"

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

} // namespace

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: kp_make_record SO OUT [--two-sources]\n");
		return 2;
	}
	const std::string so = argv[1];
	const bool two = argc > 3 && std::strcmp(argv[3], "--two-sources") == 0;
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
		std::printf("%s\t%u\t%s\n", name, n, d.sources[r.source ? 1 : 0].name.c_str());
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
	write_file(argv[2], d);
	return 0;
}
