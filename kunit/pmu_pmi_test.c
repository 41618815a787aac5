// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_pmi_test.c - KUnit suite "kprofile_pmu_pmi": the PMI handler
 * against what silicon does around it (docs/hardware.md F3, F5, F6, F10,
 * F11).  Every PMI here goes through the fake's LVTPC and NMI code
 * (fake_pmu.h): an Intel PMI masks the LVTPC and a PMI while it is masked
 * is lost, AMD PMIs can arrive late, another NMI handler (perf's, with
 * Intel PT) may acknowledge the status first, and a PMI may freeze the
 * counters.  The user-visible result checked is the samples (consumer
 * calls) and the unknown NMIs.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <asm/nmi.h>

#include "pmu_fixture.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GSTATUS		KP_FAKE_MSR_IA32_GLOBAL_STATUS
#define OVF_CTRL	KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL
#define DEBUGCTL	KP_FAKE_MSR_IA32_DEBUGCTL
#define K7_CTR0		KP_FAKE_MSR_K7_PERFCTR0

#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS	/* counter 0 */
#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES		/* counter 1 */
#define PERIOD		10000

struct pmi_case {
	struct kp_pmu_fix *fix;
	struct kp_fake *fake;
	struct kp_test_consumer tc;
	struct pt_regs regs;
	unsigned int cpu;
};

static void pmi_arm(struct kunit *test, struct pmi_case *pc, u32 source)
{
	char reason[KPROFILE_REASON_LEN] = "";

	kp_pmu_fix_interval(pc->fix, source, PERIOD);
	KUNIT_ASSERT_EQ_MSG(test, kp_pmu_arm(&pc->fix->pmu, source,
					     KPROFILE_MODE_TABLE, NULL, reason,
					     sizeof(reason)), 0,
			    "arming 0x%x: %s", source, reason);
}

/* A fixture on @fix with a recording consumer; @sources armed in order. */
static struct pmi_case *pmi_setup(struct kunit *test, struct kp_pmu_fix *fix,
				  unsigned int nr_sources)
{
	struct pmi_case *pc = kunit_kzalloc(test, sizeof(*pc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pc);
	pc->fix = fix;
	pc->fake = fix->fake;
	pc->cpu = cpumask_last(cpu_online_mask);
	kp_test_consumer_init(&pc->tc);
	kp_pmu_add_consumer(&fix->pmu, &pc->tc.c);
	if (nr_sources > 0)
		pmi_arm(test, pc, MISPRED);
	if (nr_sources > 1)
		pmi_arm(test, pc, ISSUES);
	return pc;
}

static void pmi_teardown(struct pmi_case *pc, unsigned int nr_sources)
{
	if (nr_sources > 1)
		kp_pmu_disarm(&pc->fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	if (nr_sources > 0)
		kp_pmu_disarm(&pc->fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	kp_pmu_remove_consumer(&pc->fix->pmu, &pc->tc.c);
}

static struct kp_fake_nmi_stats pmi_stats(struct pmi_case *pc)
{
	struct kp_fake_nmi_stats st;

	kp_fake_nmi_stats(pc->fake, pc->cpu, &st);
	return st;
}

/*
 * F3: a PMI in flight when its counter is disarmed finds nothing.  The
 * handler must still unmask the LVTPC (something else is armed here),
 * or every later PMI on this CPU is lost and the other source stops
 * sampling for good.
 */
static void kp_pmi_unmask_when_nothing_found(struct kunit *test)
{
	struct pmi_case *pc = pmi_setup(test, kp_pmu_fix_intel(test, 2, 4, 48),
					2);

	KUNIT_EXPECT_TRUE(test, kp_fake_count(pc->fake, pc->cpu, PMC0, PERIOD));
	KUNIT_EXPECT_TRUE(test, kp_fake_lvtpc_masked(pc->fake, pc->cpu));
	kp_pmu_disarm(&pc->fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(pc->fake, pc->cpu));

	KUNIT_EXPECT_TRUE(test, kp_fake_count(pc->fake, pc->cpu, PMC0 + 1,
					      PERIOD));
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 1);
	KUNIT_EXPECT_EQ(test, pc->tc.source, (u32)ISSUES);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).lost, 0U);
	kp_pmu_disarm(&pc->fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	pmi_teardown(pc, 0);
}

/* F3: arming unmasks an LVTPC a missed PMI (or firmware) left masked. */
static void kp_pmi_arm_unmasks(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 4, 4, 48);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct pmi_case *pc;

	kp_fake_lvtpc_set_masked(fix->fake, cpu, true);
	pc = pmi_setup(test, fix, 1);
	pc->cpu = cpu;
	kp_fake_count(pc->fake, cpu, PMC0, PERIOD);
	kp_pmu_fix_deliver(fix, cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 1);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).lost, 0U);
	pmi_teardown(pc, 1);
}

/*
 * F5: perf's handler runs first (Intel PT active) and acknowledges every
 * GLOBAL_STATUS bit, kprofile's too.  kprofile still sees its counter
 * wrapped (top bit clear), reloads it and samples; the counter keeps
 * sampling on the next period.
 */
static void kp_pmi_status_acked_by_perf(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct pmi_case *pc;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	pc = pmi_setup(test, kp_pmu_fix_build_pt(test, fake), 0);
	kp_pmu_fix_up(pc->fix);
	pmi_arm(test, pc, MISPRED);
	kp_fake_count(fake, pc->cpu, PMC0, PERIOD);
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 1);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, pc->cpu, PMC0),
			0xffffffffd8f0ULL);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, pc->cpu, PMC0, PERIOD));
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).unknown, 0U);
	pmi_teardown(pc, 1);
}

/*
 * F6, Intel: counter 1 overflows inside the handler, right after counter
 * 0's acknowledgment, while the LVTPC is still masked: its PMI is lost.
 * The handler reads the status again and takes it; nothing is left for
 * a PMI that will never come.
 */
static void kp_pmi_overflow_inside_handler(struct kunit *test)
{
	struct pmi_case *pc = pmi_setup(test, kp_pmu_fix_intel(test, 2, 4, 48),
					2);

	kp_fake_count(pc->fake, pc->cpu, PMC0, PERIOD);
	kp_fake_inject_after_write(pc->fake, pc->cpu, OVF_CTRL, PMC0 + 1,
				   PERIOD);
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).lost, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(pc->fake, pc->cpu, GSTATUS),
			0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(pc->fake, pc->cpu, PMC0 + 1),
			0xffffffffd8f0ULL);
	pmi_teardown(pc, 2);
}

/*
 * F6, AMD: two counters overflow; the first NMI handles both and the
 * second PMI arrives late (not back to back).  It must be claimed, not
 * reported as "NMI received for unknown reason".
 */
static void kp_pmi_amd_late_pmi(struct kunit *test)
{
	struct pmi_case *pc = pmi_setup(test, kp_pmu_fix_amd(test, 0x17, false),
					2);

	kp_fake_count(pc->fake, pc->cpu, K7_CTR0, PERIOD);
	kp_fake_count(pc->fake, pc->cpu, K7_CTR0 + 1, PERIOD);
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(pc->fake, pc->cpu), 2U);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_deliver(pc->fix, pc->cpu, 1,
						 &pc->regs), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_deliver(pc->fix, pc->cpu, 1,
						 &pc->regs), 1U);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).unknown, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	pmi_teardown(pc, 2);
}

/*
 * F6, AMD PerfMonV2: the source is disarmed just after its counter
 * overflowed; its PMI lands after the disable.  Disarming waits for it
 * (here it never comes in time) and the late NMI is claimed.
 */
static void kp_pmi_amd_disarm_in_flight(struct kunit *test)
{
	struct pmi_case *pc = pmi_setup(test, kp_pmu_fix_amd(test, 0x19, true),
					1);

	kp_fake_count(pc->fake, pc->cpu, K7_CTR0, PERIOD);
	kp_pmu_disarm(&pc->fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).delivered, 1U);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).unknown, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 0);
	pmi_teardown(pc, 0);
}

/*
 * F10, v2 (legacy freeze): DEBUGCTL.FREEZE_PERFMON_ON_PMI was set by
 * firmware.  Bring-up clears it, so a PMI does not clear GLOBAL_CTRL and
 * the counter keeps sampling.
 */
static void kp_pmi_freeze_legacy(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	struct pmi_case *pc;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, DEBUGCTL,
			KP_FAKE_DEBUGCTL_FREEZE_ON_PMI | BIT_ULL(0));
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	pc = pmi_setup(test, fix, 1);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, pc->cpu, DEBUGCTL),
			BIT_ULL(0));
	kp_fake_count(fake, pc->cpu, PMC0, PERIOD);
	kp_pmu_fix_deliver(fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, pc->cpu, PMC0, PERIOD));
	kp_pmu_fix_deliver(fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	pmi_teardown(pc, 1);
}

/*
 * F10, v4 (streamlined freeze): another agent sets the freeze bit after
 * bring-up.  The PMI sets GLOBAL_STATUS.CTR_Frz and stops every counter;
 * the handler clears it and sampling goes on.
 */
static void kp_pmi_freeze_streamlined(struct kunit *test)
{
	struct pmi_case *pc = pmi_setup(test, kp_pmu_fix_intel(test, 4, 4, 48),
					1);

	kp_fake_msr_set(pc->fake, pc->cpu, DEBUGCTL,
			KP_FAKE_DEBUGCTL_FREEZE_ON_PMI);
	kp_fake_count(pc->fake, pc->cpu, PMC0, PERIOD);
	KUNIT_EXPECT_TRUE(test, kp_fake_msr_get(pc->fake, pc->cpu, GSTATUS) &
			  KP_FAKE_STATUS_CTR_FRZ);
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(pc->fake, pc->cpu, GSTATUS) &
			   KP_FAKE_STATUS_CTR_FRZ);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(pc->fake, pc->cpu, PMC0, PERIOD));
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	pmi_teardown(pc, 1);
}

/*
 * F11: a status bit left over from earlier counting is cleared when the
 * counter is armed, so the next NMI (of any kind) is not a phantom
 * sample.
 */
static void kp_pmi_stale_status_at_arm(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct pmi_case *pc;

	kp_fake_msr_set(fix->fake, KP_FAKE_ALL_CPUS, GSTATUS, BIT_ULL(0));
	pc = pmi_setup(test, fix, 1);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, cpu, GSTATUS), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(fix, cpu, &pc->regs), NMI_DONE);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 0);
	pmi_teardown(pc, 1);
}

static void kp_claim_count(void *data, u64 mask, struct pt_regs *regs)
{
	atomic_inc(data);
}

/*
 * F11: a reserved counter with an overflow claim, which its holder runs
 * without INT, wraps: its status bit is set but it raised no PMI.  An
 * unrelated NMI is not kprofile's (claiming it would hide its cause).
 */
static void kp_pmi_claim_needs_int(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	static const struct kprofile_counter_desc descs[] = {
		{ .type = KPROFILE_COUNTER_SINGLE, .begin = 1 },
		{ .type = KPROFILE_COUNTER_OVERFLOW },
	};
	unsigned int cpu = cpumask_first(cpu_online_mask);
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_reservation *r;
	atomic_t calls = ATOMIC_INIT(0);

	KUNIT_ASSERT_EQ(test, kp_reserve(&fix->pmu, descs, ARRAY_SIZE(descs),
					 NULL, kp_claim_count, &calls, "test",
					 &r, reason, sizeof(reason)), 0);
	kp_fake_msr_set(fix->fake, cpu, SEL0 + 1, 0x3003c | KP_EVTSEL_EN);
	kp_fake_msr_set(fix->fake, cpu, PMC0 + 1, 0xfffffffffff0ULL);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fix->fake, cpu, PMC0 + 1, 0x20));
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fix->fake, cpu), 0U);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(fix, cpu, NULL), NMI_DONE);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 0);
	kp_unreserve(r);
}

/* Every logged write of @msr on @cpu was @val; how many there were. */
static unsigned int writes_of(struct kunit *test, struct kp_fake *fake,
			      unsigned int cpu, u32 msr, u64 val)
{
	unsigned int i, n = 0;

	for (i = 0; i < kp_fake_log_len(fake); i++) {
		const struct kp_fake_write *w = kp_fake_log_at(fake, i);

		if (w->cpu != cpu || w->msr != msr)
			continue;
		KUNIT_EXPECT_EQ(test, w->val, val);
		KUNIT_EXPECT_EQ(test, w->ret, 0);
		n++;
	}
	return n;
}

/*
 * F15: in x2APIC mode the LVTPC is MSR 0x834, and kprofile writes it
 * through the seam (the mode comes from detection, read once: no APICBASE
 * read per PMI).  The fake's memory-mapped interface is off in x2APIC
 * mode, as on silicon, so an Intel PMI leaves the LVTPC masked unless
 * the handler writes 0x834; the next period's PMI is lost otherwise.  In
 * xAPIC mode MSR 0x834 is never written (it does not exist there).
 */
static void kp_pmi_x2apic_lvtpc(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	struct pmi_case *pc;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_x2apic(fake);
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_TRUE(test, fix->desc.features & KP_FEAT_X2APIC);
	kp_pmu_fix_up(fix);
	pc = pmi_setup(test, fix, 0);
	kp_fake_lvtpc_set_masked(fake, pc->cpu, true);
	kp_fake_log_clear(fake);
	pmi_arm(test, pc, MISPRED);
	/* Arming re-runs InitializeProfiling: 0x834 = NMI, unmasked. */
	KUNIT_EXPECT_EQ(test, writes_of(test, fake, pc->cpu,
					KP_MSR_X2APIC_LVTPC, KP_LVTPC_NMI), 1U);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(fake, pc->cpu));

	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, pc->cpu, PMC0, PERIOD));
	KUNIT_EXPECT_TRUE(test, kp_fake_lvtpc_masked(fake, pc->cpu));
	kp_pmu_fix_deliver(fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(fake, pc->cpu));
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, pc->cpu, PMC0, PERIOD));
	kp_pmu_fix_deliver(fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&pc->tc.calls), 2);
	KUNIT_EXPECT_EQ(test, pmi_stats(pc).lost, 0U);
	KUNIT_EXPECT_EQ(test, writes_of(test, fake, pc->cpu,
					KP_MSR_X2APIC_LVTPC, KP_LVTPC_NMI), 3U);
	pmi_teardown(pc, 1);
	kp_pmu_fix_exit(test);

	/* xAPIC: the lvtpc_nmi op, never MSR 0x834. */
	pc = pmi_setup(test, kp_pmu_fix_intel(test, 4, 4, 48), 1);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(pc->fake, pc->cpu, PMC0, PERIOD));
	kp_pmu_fix_deliver(pc->fix, pc->cpu, 0, &pc->regs);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(pc->fake, pc->cpu));
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(pc->fake, KP_FAKE_ALL_CPUS,
						    KP_MSR_X2APIC_LVTPC), 0U);
	pmi_teardown(pc, 1);
}

static struct kunit_case kp_pmu_pmi_cases[] = {
	KUNIT_CASE(kp_pmi_unmask_when_nothing_found),
	KUNIT_CASE(kp_pmi_arm_unmasks),
	KUNIT_CASE(kp_pmi_status_acked_by_perf),
	KUNIT_CASE(kp_pmi_overflow_inside_handler),
	KUNIT_CASE(kp_pmi_amd_late_pmi),
	KUNIT_CASE(kp_pmi_amd_disarm_in_flight),
	KUNIT_CASE(kp_pmi_freeze_legacy),
	KUNIT_CASE(kp_pmi_freeze_streamlined),
	KUNIT_CASE(kp_pmi_stale_status_at_arm),
	KUNIT_CASE(kp_pmi_claim_needs_int),
	KUNIT_CASE(kp_pmi_x2apic_lvtpc),
	{}
};

static struct kunit_suite kp_pmu_pmi_suite = {
	.name = "kprofile_pmu_pmi",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_pmu_pmi_cases,
};

kunit_test_suite(kp_pmu_pmi_suite);
