// SPDX-License-Identifier: GPL-2.0
/*
 * profile_nmi_test.c - KUnit suite "kprofile_profile_nmi": counter-source
 * profiles on the fake processor's hardware layer.  Starting arms the
 * source (the first profile takes a counter, later ones share it, the
 * last to stop gives it back); a simulated overflow NMI with fake
 * registers reaches the profile through the hardware layer's consumer
 * and increments the bucket of the registers' ip, in the registers' mode;
 * when perf holds every counter, start fails with EBUSY and says so.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/ptrace.h>
#include <asm/nmi.h>
#include <asm/segment.h>

#include "profile_fixture.h"

#define SRC	KP_PROF_COUNTER
#define BASE	0x400000UL

/* Who holds counter 0, and how many arms it has. */
static void expect_counter0(struct kunit *test, struct kp_prof_fix *f,
			    enum kp_holder kind, unsigned int users)
{
	struct kp_counter_holder h;

	kp_pmu_holder(&f->pmu->pmu, 0, &h);
	KUNIT_EXPECT_EQ(test, h.kind, kind);
	if (kind == KP_HOLDER_SOURCE) {
		KUNIT_EXPECT_EQ(test, h.source, (u32)SRC);
		KUNIT_EXPECT_EQ(test, h.users, users);
	}
}

/* An overflow of the profile's counter on @cpu with @regs. */
static int overflow(struct kunit *test, struct kp_prof_fix *f,
		    unsigned int cpu, struct pt_regs *regs)
{
	u64 period = kp_source_interval(&f->pmu->sources, SRC);

	KUNIT_EXPECT_TRUE(test, kp_fake_count(f->pmu->fake, cpu,
					      f->pmu->desc.counter_base,
					      period));
	return kp_pmu_fix_nmi(f->pmu, cpu, regs);
}

/*
 * A user-only profile of counter 0's source: a user-mode overflow hits the
 * bucket of its ip, a kernel-mode one is the wrong mode, an NMI without an
 * overflow is not kprofile's; stop gives the counter back.
 */
static void kp_nmi_hits_bucket_on(struct kunit *test, struct kp_prof_fix *f)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct pt_regs regs = { .ip = BASE + 0x123, .cs = __USER_CS };
	struct kp_profile *p;
	u32 *b;

	p = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_USER,
			BASE, 0x1000, 7, NULL);
	expect_counter0(test, f, KP_HOLDER_FREE, 0);
	b = kp_prof_start(f, p);
	expect_counter0(test, f, KP_HOLDER_SOURCE, 1);
	/* Armed with EN and INT on every CPU. */
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(f->pmu->fake, cpu,
					      f->pmu->desc.evtsel_base) &
			(KP_EVTSEL_EN | KP_EVTSEL_INT),
			(u64)(KP_EVTSEL_EN | KP_EVTSEL_INT));

	KUNIT_EXPECT_EQ(test, overflow(test, f, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, b[0x123 >> 7], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 1ULL);

	/* A kernel-mode overflow: the user-only profile does not count it. */
	regs.cs = __KERNEL_CS;
	KUNIT_EXPECT_EQ(test, overflow(test, f, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, b[0x123 >> 7], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "wrong_mode"), 1ULL);

	/*
	 * An NMI without an overflow counts nothing.  It is not kprofile's,
	 * except on AMD right after an overflow: a late PMI is claimed.
	 */
	regs.cs = __USER_CS;
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(f->pmu, cpu, &regs),
			f->pmu->pmu.ops->late_pmi ? NMI_HANDLED : NMI_DONE);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 1ULL);

	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	expect_counter0(test, f, KP_HOLDER_FREE, 0);
	KUNIT_EXPECT_EQ(test, b[0x123 >> 7], 1U);
}

static void kp_nmi_hits_bucket_emon(struct kunit *test)
{
	kp_nmi_hits_bucket_on(test, kp_prof_fix_new(test));
}

static void kp_nmi_hits_bucket_amd64(struct kunit *test)
{
	kp_nmi_hits_bucket_on(test,
			      kp_prof_fix_on(test,
					     kp_pmu_fix_amd(test, 0x17, false)));
}

/*
 * Two profiles of the source in both modes (BOTH and the table's) share
 * one counter; the last stop frees it.  (A user-only profile would arm a
 * counter of its own: kp_counter_mode().)
 */
static void kp_nmi_shared_counter(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct pt_regs regs = { .ip = BASE + 0x10, .cs = __USER_CS };
	struct kp_profile *a, *b;
	u32 *ba, *bb;

	a = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			BASE, 0x100, 4, NULL);
	b = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_TABLE,
			BASE, 0x100, 8, cpumask_of(cpu));
	ba = kp_prof_start(f, a);
	bb = kp_prof_start(f, b);
	expect_counter0(test, f, KP_HOLDER_SOURCE, 2);

	KUNIT_EXPECT_EQ(test, overflow(test, f, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, ba[1], 1U);
	KUNIT_EXPECT_EQ(test, bb[0], 1U);

	KUNIT_EXPECT_EQ(test, kp_profile_stop(a), 0);
	expect_counter0(test, f, KP_HOLDER_SOURCE, 1);
	KUNIT_EXPECT_EQ(test, overflow(test, f, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, ba[1], 1U);
	KUNIT_EXPECT_EQ(test, bb[0], 2U);

	KUNIT_EXPECT_EQ(test, kp_profile_stop(b), 0);
	expect_counter0(test, f, KP_HOLDER_FREE, 0);
	KUNIT_EXPECT_EQ(test, f->pmu->held, 0UL);
}

/*
 * A user-only and a both-modes profile of one source arm a counter each
 * (kp_counter_mode()): the user-only one counts user mode only, so its
 * period is not spent in the kernel.  An overflow of either counter
 * counts in the profile that armed it, never in the other.
 */
static void kp_nmi_modes_own_counters(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct pt_regs regs = { .ip = BASE + 0x10, .cs = __USER_CS };
	u64 period = kp_source_interval(&f->pmu->sources, SRC);
	struct kp_profile *u, *b;
	u32 *bu, *bb;

	u = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_USER,
			BASE, 0x100, 8, NULL);
	b = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			BASE, 0x100, 8, NULL);
	bu = kp_prof_start(f, u);
	bb = kp_prof_start(f, b);
	expect_counter0(test, f, KP_HOLDER_SOURCE, 1);

	/* Counter 0, the user-only profile's. */
	KUNIT_EXPECT_EQ(test, overflow(test, f, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, bu[0], 1U);
	KUNIT_EXPECT_EQ(test, bb[0], 0U);
	/* Counter 1, the both-modes profile's. */
	KUNIT_EXPECT_TRUE(test, kp_fake_count(f->pmu->fake, cpu,
					      f->pmu->desc.counter_base + 1,
					      period));
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(f->pmu, cpu, &regs), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, bu[0], 1U);
	KUNIT_EXPECT_EQ(test, bb[0], 1U);

	KUNIT_EXPECT_EQ(test, kp_profile_stop(u), 0);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(b), 0);
	expect_counter0(test, f, KP_HOLDER_FREE, 0);
}

/* Perf holds every counter: start says EBUSY, and stays stopped. */
static void kp_nmi_busy(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile_buf buf = { };
	char reason[KPROFILE_REASON_LEN];
	struct kp_profile *p;

	f->pmu->perf = GENMASK(3, 0);
	p = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			BASE, 0x100, 4, NULL);
	KUNIT_EXPECT_EQ(test, kp_profile_start_buf(p, &buf, reason,
						   sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "perf"));
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "started"), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), -EALREADY);

	/* ProfileTime needs no counter. */
	p = kp_prof_new(f, KPROFILE_SOURCE_TIME, KPROFILE_TARGET_SYSTEM,
			KPROFILE_MODE_BOTH, BASE, 0x100, 4, NULL);
	kp_prof_start(f, p);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
}

/* Start when started is EBUSY and leaves the counter's arm count alone. */
static void kp_nmi_start_twice(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile_buf buf = { };
	struct kp_profile *p;

	p = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			BASE, 0x100, 4, NULL);
	kp_prof_start(f, p);
	KUNIT_EXPECT_EQ(test, kp_profile_start_buf(p, &buf, NULL, 0), -EBUSY);
	expect_counter0(test, f, KP_HOLDER_SOURCE, 1);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	expect_counter0(test, f, KP_HOLDER_FREE, 0);
}

static struct kunit_case kp_profile_nmi_cases[] = {
	KUNIT_CASE(kp_nmi_hits_bucket_emon),
	KUNIT_CASE(kp_nmi_hits_bucket_amd64),
	KUNIT_CASE(kp_nmi_shared_counter),
	KUNIT_CASE(kp_nmi_modes_own_counters),
	KUNIT_CASE(kp_nmi_busy),
	KUNIT_CASE(kp_nmi_start_twice),
	{}
};

static struct kunit_suite kp_profile_nmi_suite = {
	.name = "kprofile_profile_nmi",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_nmi_cases,
};

kunit_test_suite(kp_profile_nmi_suite);
