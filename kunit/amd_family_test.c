// SPDX-License-Identifier: GPL-2.0
/*
 * amd_family_test.c - KUnit suite "kprofile_amd_family": which Amd64
 * sources each AMD family supports and on which counters (docs/hardware.md
 * F2): the family is named from CPUID, an event the family renumbered is
 * EOPNOTSUPP with a reason naming the family and the event, and on family
 * 15h the allocator and KPROFILE_IOC_SCHEDULE keep each event on the
 * counters perf's constraint table allows.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/string.h>

#include "../kmod/sources.h"
#include "pmu_fixture.h"

#define RET_INSTR	0x68	/* ProfileFRRetiredx86Instructions, 0xC0 */
#define IC_FETCH	0x5E	/* ProfileICFetch, 0x80 */
#define IC_MISS		0x5F	/* ProfileICMiss, 0x81 */
#define IC_REFILL_L2	0x60	/* ProfileICRefillFromL2, 0x82 */
#define IC_REFILL_SYS	0x61	/* ProfileICRefillFromSystem, 0x83 */
#define DC_MISS		0x32	/* ProfileDCMiss, 0x41 */

/* Display family and model into CPUID leaf 1, as the processor reports. */
static void set_fms(struct kp_fake *fake, u32 family, u32 model)
{
	struct kp_cpuid_regs *r = kp_fake_cpuid_find(fake, 1, 0);
	u32 base = family >= 0xf ? 0xf : family;

	r->eax = (model & 0xf) << 4 | base << 8 | ((model >> 4) & 0xf) << 16 |
		 (family >= 0xf ? family - 0xf : 0) << 20;
}

struct family_case {
	const char *vendor;
	u32 family, model, want;
};

static const struct family_case family_cases[] = {
	{ "AuthenticAMD", 0x0f, 0x05, KPROFILE_AMD_FAMILY_K8 },
	{ "AuthenticAMD", 0x10, 0x02, KPROFILE_AMD_FAMILY_FAM10H },
	{ "AuthenticAMD", 0x15, 0x02, KPROFILE_AMD_FAMILY_FAM15H },
	{ "AuthenticAMD", 0x16, 0x30, KPROFILE_AMD_FAMILY_UNKNOWN },
	{ "AuthenticAMD", 0x17, 0x01, KPROFILE_AMD_FAMILY_ZEN1 },
	{ "AuthenticAMD", 0x17, 0x08, KPROFILE_AMD_FAMILY_ZEN1 },
	{ "AuthenticAMD", 0x17, 0x31, KPROFILE_AMD_FAMILY_ZEN2 },
	{ "AuthenticAMD", 0x17, 0x71, KPROFILE_AMD_FAMILY_ZEN2 },
	{ "AuthenticAMD", 0x19, 0x01, KPROFILE_AMD_FAMILY_ZEN3 },
	{ "AuthenticAMD", 0x19, 0x21, KPROFILE_AMD_FAMILY_ZEN3 },
	{ "AuthenticAMD", 0x19, 0x11, KPROFILE_AMD_FAMILY_ZEN4 },
	{ "AuthenticAMD", 0x19, 0x61, KPROFILE_AMD_FAMILY_ZEN4 },
	{ "AuthenticAMD", 0x1a, 0x02, KPROFILE_AMD_FAMILY_ZEN5 },
	{ "HygonGenuine", 0x18, 0x00, KPROFILE_AMD_FAMILY_HYGON },
};

static void family_case_desc(const struct family_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s family %#x model %#x",
		 c->vendor, c->family, c->model);
}

KUNIT_ARRAY_PARAM(family, family_cases, family_case_desc);

static void kp_amd_family_from_cpuid(struct kunit *test)
{
	const struct family_case *c = test->param_value;
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_amd(fake, c->family, false);
	kp_fake_vendor(fake, c->vendor);
	set_fms(fake, c->family, c->model);
	kp_detect(kp_fake_hw(fake), &d);
	KUNIT_ASSERT_EQ(test, d.iface, KPROFILE_INTERFACE_AMD64);
	KUNIT_EXPECT_EQ(test, d.family, c->family);
	KUNIT_EXPECT_EQ(test, d.model, c->model);
	KUNIT_EXPECT_EQ(test, d.amd_family, c->want);
}

static struct kp_pmu_fix *fix_family(struct kunit *test, u32 family,
				     u32 model)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	kp_fake_amd(fake, family, false);
	set_fms(fake, family, model);
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_AMD64);
	kp_pmu_fix_up(fix);
	return fix;
}

/* Zen: 0x41 is ls_mab_alloc; the table's umask 0 counts nothing. */
static void kp_amd_zen_refuses_dc_miss(struct kunit *test)
{
	struct kp_pmu_fix *fix = fix_family(test, 0x17, 0x01);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kprofile_source_info info;
	u32 iv = 10000;

	KUNIT_EXPECT_EQ(test, kp_source_set_interval(&fix->sources, DC_MISS,
						     &iv), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, DC_MISS,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "Zen 1 (family 17h)"),
				  "reason \"%s\"", reason);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "event 0x41"),
				  "reason \"%s\"", reason);
	KUNIT_ASSERT_EQ(test, kp_source_query(&fix->sources, DC_MISS, &info),
			0);
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_NOT_NULL(test, strstr(info.reason, "ls_mab_alloc"));
	/* Retired instructions kept its meaning. */
	KUNIT_EXPECT_TRUE(test, kp_source_supported(&fix->sources, RET_INSTR,
						    NULL, 0));
}

/* K8: the table is its event list; every row is supported. */
static void kp_amd_k8_supports_table(struct kunit *test)
{
	struct kp_pmu_fix *fix = fix_family(test, 0x0f, 0x05);
	const struct kp_source_row *rows;
	unsigned int i, nr;

	rows = kp_table(KPROFILE_INTERFACE_AMD64, &nr);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_TRUE_MSG(test,
				      kp_source_supported(&fix->sources,
							  rows[i].value, NULL,
							  0),
				      "row %#x", rows[i].value);
}

/* Family 15h: NB events are uncore there. */
static void kp_amd_f15h_refuses_nb(struct kunit *test)
{
	struct kp_pmu_fix *fix = fix_family(test, 0x15, 0x02);
	char reason[KPROFILE_REASON_LEN] = "";

	KUNIT_EXPECT_FALSE(test, kp_source_supported(&fix->sources, 0x93,
						     reason, sizeof(reason)));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "family 15h"),
				  "reason \"%s\"", reason);
}

/*
 * Family 15h: IC events (0x80-0x83) may only use PERF_CTL[2:0].  Arming
 * an unconstrained event first must leave 0-2 for them, and a fourth IC
 * event does not fit.
 */
static void kp_amd_f15h_allocator_respects_constraints(struct kunit *test)
{
	static const u32 ic[] = { IC_FETCH, IC_MISS, IC_REFILL_L2 };
	struct kp_pmu_fix *fix = fix_family(test, 0x15, 0x02);
	char reason[KPROFILE_REASON_LEN];
	struct kp_pmu *pmu = &fix->pmu;
	unsigned int i;
	int idx;

	KUNIT_ASSERT_EQ(test, kp_pmu_arm(pmu, RET_INSTR, KPROFILE_MODE_TABLE,
					 NULL, reason, sizeof(reason)), 0);
	for (i = 0; i < ARRAY_SIZE(ic); i++) {
		KUNIT_ASSERT_EQ_MSG(test, kp_pmu_arm(pmu, ic[i],
						     KPROFILE_MODE_TABLE, NULL,
						     reason, sizeof(reason)),
				    0, "%s", reason);
		mutex_lock(&pmu->lock);
		idx = kp_pmu_find_armed(pmu, ic[i], KPROFILE_MODE_TABLE);
		mutex_unlock(&pmu->lock);
		KUNIT_EXPECT_GE(test, idx, 0);
		KUNIT_EXPECT_LT_MSG(test, idx, 3, "source %#x on counter %d",
				    ic[i], idx);
	}
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(pmu, IC_REFILL_SYS,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	for (i = 0; i < ARRAY_SIZE(ic); i++)
		kp_pmu_disarm(pmu, ic[i], KPROFILE_MODE_TABLE);
	kp_pmu_disarm(pmu, RET_INSTR, KPROFILE_MODE_TABLE);
}

/* KPROFILE_IOC_SCHEDULE matches, whatever the order of the request. */
static void kp_amd_f15h_schedule_matches(struct kunit *test)
{
	struct kp_pmu_fix *fix = fix_family(test, 0x15, 0x02);
	struct kprofile_schedule s = { .nr_sources = 4 };
	unsigned int i;

	s.sources[0] = RET_INSTR;
	s.sources[1] = IC_FETCH;
	s.sources[2] = IC_MISS;
	s.sources[3] = IC_REFILL_L2;
	KUNIT_ASSERT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_TRUE_MSG(test, s.flags & KPROFILE_SCHED_FITS, "%s",
			      s.reason);
	KUNIT_EXPECT_EQ(test, s.counters[0], 3U);
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_LT_MSG(test, s.counters[i], 3U, "source %u", i);

	/* Four IC events for three counters: no, and the reason says why. */
	s.sources[0] = IC_REFILL_SYS;
	KUNIT_ASSERT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.flags & KPROFILE_SCHED_FITS);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(s.reason, "0-2") ?:
				  strstr(s.reason, "in use"), "reason \"%s\"",
				  s.reason);
}

static struct kunit_case kp_amd_family_cases[] = {
	KUNIT_CASE_PARAM(kp_amd_family_from_cpuid, family_gen_params),
	KUNIT_CASE(kp_amd_zen_refuses_dc_miss),
	KUNIT_CASE(kp_amd_k8_supports_table),
	KUNIT_CASE(kp_amd_f15h_refuses_nb),
	KUNIT_CASE(kp_amd_f15h_allocator_respects_constraints),
	KUNIT_CASE(kp_amd_f15h_schedule_matches),
	{}
};

static struct kunit_suite kp_amd_family_suite = {
	.name = "kprofile_amd_family",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_amd_family_cases,
};

kunit_test_suite(kp_amd_family_suite);
