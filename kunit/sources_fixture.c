// SPDX-License-Identifier: GPL-2.0
/*
 * sources_fixture.c - source models of fake machines; see
 * sources_fixture.h.
 */
#include <kunit/test.h>

#include "../kmod/detect.h"
#include "fake_hw.h"
#include "sources_fixture.h"

struct kp_test_model {
	struct kp_pmu_desc desc;
	struct kp_sources s;
};

static struct kp_sources *kp_test_model(struct kunit *test,
					struct kp_fake *fake,
					enum kprofile_interface want)
{
	struct kp_test_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	/* As module init does: process context. */
	kp_detect(kp_fake_hw(fake), &m->desc);
	KUNIT_ASSERT_EQ_MSG(test, m->desc.iface, want, "reason \"%s\"",
			    m->desc.reason);
	kp_sources_init(&m->s, &m->desc);
	return &m->s;
}

struct kp_sources *kp_test_emon_model(struct kunit *test, u32 ebx_len,
				      u32 ebx_mask)
{
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_intel(fake, 2, 4, 48, ebx_len, ebx_mask);
	return kp_test_model(test, fake, KPROFILE_INTERFACE_EMON);
}

struct kp_sources *kp_test_amd64_model(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);

	/* K8: the Amd64 table is its event list, so every row counts. */
	kp_fake_amd(fake, 0x0f, false);
	return kp_test_model(test, fake, KPROFILE_INTERFACE_AMD64);
}

struct kp_sources *kp_test_none_model(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_intel(fake, 0, 0, 0, 0, 0);
	return kp_test_model(test, fake, KPROFILE_INTERFACE_NONE);
}
