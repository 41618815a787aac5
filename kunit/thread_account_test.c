// SPDX-License-Identifier: GPL-2.0
/*
 * thread_account_test.c - KUnit suite "kprofile_thread_account":
 * accumulation of ReadThreadProfilingData across simulated context
 * switches, on a fake register file and a fake cycle clock.  Events the
 * fake PMU counts while the thread is switched out must not show up;
 * cycles are charged only between switch-in and switch-out; a mask bit
 * or an entry that is not configured reads 0; without a PMU switches
 * and cycles still count and the counters are unavailable, with the
 * reason.
 *
 * The profiled "thread" is the test's own task, joined by pointer; the
 * switches are the calls the sched_switch hook makes, made here with
 * preemption off so every access hits this CPU's fake registers.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "thread_fixture.h"

#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES
#define BRANCHES	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS

/* One test's setup: configuration, client and the joined entry. */
struct acct {
	struct kp_thread_fix *fix;
	struct kp_thread_client *c;
	struct kp_thread_task *e;
	u32 msr[KPROFILE_MAX_COUNTERS];	/* counter MSR of entry i */
};

static void acct_setup(struct kunit *test, struct acct *a,
		       struct kp_pmu_fix *pmu, u32 nr_sources, u32 mask)
{
	static const u32 sources[] = { ISSUES, BRANCHES };
	char reason[KPROFILE_REASON_LEN] = "";
	struct kprofile_hw_config cfg = { .count = nr_sources };
	u32 i;

	memset(a, 0, sizeof(*a));
	a->fix = kp_thread_fix_new(test, pmu);
	for (i = 0; i < nr_sources; i++)
		cfg.counters[i].source = sources[i];
	if (nr_sources) {
		KUNIT_ASSERT_EQ_MSG(test, kp_hwconfig_set(&a->fix->threads,
							  &cfg, reason,
							  sizeof(reason)),
				    0, "%s", reason);
		for (i = 0; i < nr_sources; i++)
			a->msr[i] = pmu->desc.counter_base +
				    cfg.counters[i].index;
	}
	a->c = kp_thread_client_new(&a->fix->threads, 0, mask, reason,
				    sizeof(reason));
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(a->c), "%s", reason);
	a->e = kp_thread_join(a->c, current, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a->e);
}

/* A slice: switched in at @in, @events[i] counted on entry i, out at @out. */
static void slice(struct acct *a, u64 in, const u64 *events, u32 n, u64 out)
{
	unsigned int cpu, i;

	preempt_disable();
	cpu = smp_processor_id();
	kp_thread_switch_in(a->c, a->e, in);
	for (i = 0; i < n; i++)
		kp_fake_count(a->fix->pmu->fake, cpu, a->msr[i], events[i]);
	kp_thread_switch_out(a->c, a->e, out);
	/* Events while switched out: someone else runs. */
	for (i = 0; i < n; i++)
		kp_fake_count(a->fix->pmu->fake, cpu, a->msr[i], 1000000);
	preempt_enable();
}

static void read_data(struct acct *a, struct kprofile_thread_data *d)
{
	kp_thread_read(a->c, d);
}

static void accumulates(struct kunit *test, struct kp_pmu_fix *pmu)
{
	static const u64 first[] = { 100, 7 }, second[] = { 50, 3 };
	struct kprofile_thread_data d;
	struct acct a;

	acct_setup(test, &a, pmu, 2, 0xffff);
	slice(&a, 1000, first, 2, 1500);
	slice(&a, 2000, second, 2, 2100);
	read_data(&a, &d);
	KUNIT_EXPECT_EQ(test, d.size, (u32)sizeof(d));
	KUNIT_EXPECT_EQ(test, d.version, 1U);
	KUNIT_EXPECT_TRUE(test, d.flags & KPROFILE_THREAD_COUNTERS_VALID);
	KUNIT_EXPECT_EQ(test, d.hw_counter_count, 2U);
	KUNIT_EXPECT_EQ(test, d.context_switches, 2ULL);
	KUNIT_EXPECT_EQ(test, d.cycle_time, 600ULL);
	KUNIT_EXPECT_EQ(test, d.threads, 1ULL);
	KUNIT_EXPECT_EQ(test, d.hw_counters[0], 150ULL);
	KUNIT_EXPECT_EQ(test, d.hw_counters[1], 10ULL);
	KUNIT_EXPECT_EQ(test, d.hw_counters[2], 0ULL);
	KUNIT_EXPECT_STREQ(test, d.reason, "");
}

static void kp_thread_accumulates_emon(struct kunit *test)
{
	accumulates(test, kp_pmu_fix_intel(test, 2, 4, 48));
}

static void kp_thread_accumulates_emon_v1(struct kunit *test)
{
	accumulates(test, kp_pmu_fix_intel(test, 1, 2, 40));
}

static void kp_thread_accumulates_amd64(struct kunit *test)
{
	accumulates(test, kp_pmu_fix_amd(test, 0x17, false));
}

static void kp_thread_accumulates_amd64_v2(struct kunit *test)
{
	accumulates(test, kp_pmu_fix_amd(test, 0x19, true));
}

/* Switched in: the counters run with EN set; switched out: EN clear. */
static void kp_thread_counters_run_only_while_in(struct kunit *test)
{
	struct kp_pmu_fix *pmu = kp_pmu_fix_intel(test, 2, 4, 48);
	u32 sel, cpu;
	struct acct a;
	u64 v;

	acct_setup(test, &a, pmu, 1, 0xffff);
	sel = a.msr[0] - pmu->desc.counter_base + pmu->desc.evtsel_base;
	preempt_disable();
	cpu = smp_processor_id();
	kp_fake_msr_set(pmu->fake, cpu, a.msr[0], 12345);
	kp_thread_switch_in(a.c, a.e, 10);
	v = kp_fake_msr_get(pmu->fake, cpu, sel);
	KUNIT_EXPECT_TRUE(test, v & BIT(22));	/* EN */
	KUNIT_EXPECT_FALSE(test, v & BIT(20));	/* no INT: counting only */
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(pmu->fake, cpu, a.msr[0]), 0ULL);
	kp_thread_switch_out(a.c, a.e, 20);
	v = kp_fake_msr_get(pmu->fake, cpu, sel);
	KUNIT_EXPECT_FALSE(test, v & BIT(22));
	preempt_enable();
}

static void kp_thread_mask_bit_reads_zero(struct kunit *test)
{
	static const u64 ev[] = { 100, 7 };
	struct kprofile_thread_data d;
	struct acct a;

	acct_setup(test, &a, kp_pmu_fix_intel(test, 2, 4, 48), 2, BIT(1));
	slice(&a, 0, ev, 2, 10);
	read_data(&a, &d);
	KUNIT_EXPECT_EQ(test, d.hw_counter_count, 2U);
	KUNIT_EXPECT_EQ(test, d.hw_counters[0], 0ULL);
	KUNIT_EXPECT_EQ(test, d.hw_counters[1], 7ULL);
}

static void kp_thread_empty_config_counts_switches(struct kunit *test)
{
	struct kprofile_thread_data d;
	struct acct a;

	acct_setup(test, &a, kp_pmu_fix_amd(test, 0x17, false), 0, 0xffff);
	slice(&a, 5, NULL, 0, 25);
	read_data(&a, &d);
	KUNIT_EXPECT_TRUE(test, d.flags & KPROFILE_THREAD_COUNTERS_VALID);
	KUNIT_EXPECT_EQ(test, d.hw_counter_count, 0U);
	KUNIT_EXPECT_EQ(test, d.context_switches, 1ULL);
	KUNIT_EXPECT_EQ(test, d.cycle_time, 20ULL);
}

static void kp_thread_no_pmu_counters_unavailable(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kprofile_thread_data d;
	struct kp_pmu_fix *pmu;
	struct acct a;

	kp_fake_amd(fake, 0x17, false);
	kp_fake_cpuid_find(fake, 0x80000001, 0)->edx &= ~BIT(29);
	pmu = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, pmu->desc.iface, KPROFILE_INTERFACE_NONE);
	acct_setup(test, &a, pmu, 0, 0xffff);
	slice(&a, 100, NULL, 0, 130);
	slice(&a, 200, NULL, 0, 210);
	read_data(&a, &d);
	KUNIT_EXPECT_FALSE(test, d.flags & KPROFILE_THREAD_COUNTERS_VALID);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d.reason, pmu->desc.reason),
				  "reason \"%s\"", d.reason);
	KUNIT_EXPECT_EQ(test, d.context_switches, 2ULL);
	KUNIT_EXPECT_EQ(test, d.cycle_time, 40ULL);
}

/* Joined while running elsewhere: its first switch-out charges nothing. */
static void kp_thread_out_without_in_charges_nothing(struct kunit *test)
{
	struct kprofile_thread_data d;
	struct acct a;

	acct_setup(test, &a, kp_pmu_fix_intel(test, 2, 4, 48), 1, 0xffff);
	preempt_disable();
	kp_thread_switch_out(a.c, a.e, 500);
	preempt_enable();
	read_data(&a, &d);
	KUNIT_EXPECT_EQ(test, d.context_switches, 0ULL);
	KUNIT_EXPECT_EQ(test, d.cycle_time, 0ULL);
}

/* Reading one's own data includes the slice running now. */
static void kp_thread_read_includes_running_slice(struct kunit *test)
{
	struct kp_pmu_fix *pmu = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kprofile_thread_data d;
	struct acct a;

	acct_setup(test, &a, pmu, 1, 0xffff);
	preempt_disable();
	kp_thread_switch_in(a.c, a.e, 100);
	kp_fake_count(pmu->fake, smp_processor_id(), a.msr[0], 42);
	kp_thread_fix_now = 350;
	read_data(&a, &d);
	kp_thread_switch_out(a.c, a.e, 400);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, d.cycle_time, 250ULL);
	KUNIT_EXPECT_EQ(test, d.hw_counters[0], 42ULL);
	read_data(&a, &d);
	KUNIT_EXPECT_EQ(test, d.cycle_time, 300ULL);
}

static void kp_thread_exit_keeps_exited_entry(struct kunit *test)
{
	static const u64 ev[] = { 9 };
	struct kprofile_thread_entry *list;
	struct kp_thread_task *e;
	struct acct a;
	u32 n;

	acct_setup(test, &a, kp_pmu_fix_intel(test, 2, 4, 48), 1, 0xffff);
	slice(&a, 0, ev, 1, 10);
	preempt_disable();
	kp_thread_switch_in(a.c, a.e, 20);
	kp_thread_exited(a.c, current, 25);
	preempt_enable();
	rcu_read_lock();	/* kp_thread_find()'s context */
	e = kp_thread_find(a.c, current);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, e);

	list = kunit_kcalloc(test, 2, sizeof(*list), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);
	n = kp_thread_list(a.c, list, 2);
	KUNIT_ASSERT_EQ(test, n, 1U);
	KUNIT_EXPECT_TRUE(test, list[0].flags & KPROFILE_THREAD_EXITED);
	KUNIT_EXPECT_EQ(test, list[0].tid, task_pid_vnr(current));
	KUNIT_EXPECT_EQ(test, list[0].tgid, task_tgid_vnr(current));
	KUNIT_EXPECT_STREQ(test, list[0].comm, current->comm);
	KUNIT_EXPECT_EQ(test, list[0].context_switches, 2ULL);
	KUNIT_EXPECT_EQ(test, list[0].cycle_time, 15ULL);
	KUNIT_EXPECT_EQ(test, list[0].hw_counters[0], 9ULL);
	/* No room: the count needed, nothing written. */
	KUNIT_EXPECT_EQ(test, kp_thread_list(a.c, list, 0), 1U);
}

/*
 * A thread that executes a set-user-ID program is charged up to the exec
 * and then leaves: no hook finds it again, and it is listed (and the
 * totals flagged) as exec-stopped.
 */
static void kp_thread_exec_stops_entry(struct kunit *test)
{
	static const u64 ev[] = { 9 };
	struct kprofile_thread_entry *list;
	struct kprofile_thread_data *d;
	struct kp_thread_task *e;
	struct acct a;

	acct_setup(test, &a, kp_pmu_fix_intel(test, 2, 4, 48), 1, 0xffff);
	slice(&a, 0, ev, 1, 10);
	preempt_disable();
	kp_thread_switch_in(a.c, a.e, 20);
	kp_thread_exec_stopped(a.c, current, 25);
	preempt_enable();
	rcu_read_lock();
	e = kp_thread_find(a.c, current);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, e);

	list = kunit_kcalloc(test, 1, sizeof(*list), GFP_KERNEL);
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, kp_thread_list(a.c, list, 1), 1U);
	KUNIT_EXPECT_TRUE(test, list[0].flags & KPROFILE_THREAD_EXEC_STOPPED);
	KUNIT_EXPECT_FALSE(test, list[0].flags & KPROFILE_THREAD_EXITED);
	KUNIT_EXPECT_EQ(test, list[0].cycle_time, 15ULL);
	KUNIT_EXPECT_EQ(test, list[0].context_switches, 2ULL);
	kp_thread_read(a.c, d);
	KUNIT_EXPECT_TRUE(test, d->flags & KPROFILE_THREAD_EXEC_STOPPED);
	KUNIT_EXPECT_EQ(test, d->cycle_time, 15ULL);
}

/*
 * KPROFILE_THREAD_START_ON_EXEC: what the thread counted before its exec
 * (a tool's own code in the forked child, the exec's start) is dropped
 * there and the counters restart from zero; an exec without the flag, or
 * a second exec, keeps the counts.
 */
static void kp_thread_exec_starts_counting(struct kunit *test)
{
	static const u64 ev[] = { 9 };
	struct kprofile_thread_data *d;
	unsigned int cpu;
	struct acct a;

	acct_setup(test, &a, kp_pmu_fix_intel(test, 2, 4, 48), 1, 0xffff);
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);

	/* No flag: an exec changes nothing. */
	slice(&a, 0, ev, 1, 10);
	preempt_disable();
	kp_thread_exec_started(a.c, current, 12);
	preempt_enable();
	kp_thread_read(a.c, d);
	KUNIT_EXPECT_EQ(test, d->hw_counters[0], 9ULL);
	KUNIT_EXPECT_EQ(test, d->cycle_time, 10ULL);

	/* Waiting: 5 events before the exec (dropped), 7 after. */
	kp_thread_wait_exec(a.c, a.e);
	preempt_disable();
	cpu = smp_processor_id();
	kp_thread_switch_in(a.c, a.e, 20);
	kp_fake_count(a.fix->pmu->fake, cpu, a.msr[0], 5);
	kp_thread_exec_started(a.c, current, 25);
	kp_fake_count(a.fix->pmu->fake, cpu, a.msr[0], 7);
	kp_thread_switch_out(a.c, a.e, 40);
	preempt_enable();
	kp_thread_read(a.c, d);
	KUNIT_EXPECT_EQ(test, d->hw_counters[0], 7ULL);
	KUNIT_EXPECT_EQ(test, d->cycle_time, 15ULL);
	KUNIT_EXPECT_EQ(test, d->context_switches, 0ULL);

	/* Once: a second exec keeps what was counted. */
	slice(&a, 50, ev, 1, 60);
	preempt_disable();
	kp_thread_exec_started(a.c, current, 61);
	preempt_enable();
	kp_thread_read(a.c, d);
	KUNIT_EXPECT_EQ(test, d->hw_counters[0], 16ULL);
	KUNIT_EXPECT_EQ(test, d->context_switches, 1ULL);
}

static struct kunit_case kp_thread_cases[] = {
	KUNIT_CASE(kp_thread_accumulates_emon),
	KUNIT_CASE(kp_thread_accumulates_emon_v1),
	KUNIT_CASE(kp_thread_accumulates_amd64),
	KUNIT_CASE(kp_thread_accumulates_amd64_v2),
	KUNIT_CASE(kp_thread_counters_run_only_while_in),
	KUNIT_CASE(kp_thread_mask_bit_reads_zero),
	KUNIT_CASE(kp_thread_empty_config_counts_switches),
	KUNIT_CASE(kp_thread_no_pmu_counters_unavailable),
	KUNIT_CASE(kp_thread_out_without_in_charges_nothing),
	KUNIT_CASE(kp_thread_read_includes_running_slice),
	KUNIT_CASE(kp_thread_exit_keeps_exited_entry),
	KUNIT_CASE(kp_thread_exec_stops_entry),
	KUNIT_CASE(kp_thread_exec_starts_counting),
	{}
};

static struct kunit_suite kp_thread_suite = {
	.name = "kprofile_thread_account",
	.exit = kp_thread_fix_exit,
	.test_cases = kp_thread_cases,
};

kunit_test_suite(kp_thread_suite);
