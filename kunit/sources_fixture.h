/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sources_fixture.h - source models of fake machines, for the suites that
 * test the profile-source layer (sources_test.c, intervals_test.c).
 *
 * Each builds a fake processor, runs the real kp_detect() on it, asserts
 * the interface it must find, and initialises a struct kp_sources over
 * the result.  Everything is freed with the test.
 */
#ifndef _KPROFILE_SOURCES_FIXTURE_H
#define _KPROFILE_SOURCES_FIXTURE_H

#include <kunit/test.h>

#include "../kmod/sources.h"

/* The ranges of the intervals, as xperf -pmcsources shows them. */
#define KP_TEST_TIME_DEF	10000U
#define KP_TEST_TIME_MIN	1221U
#define KP_TEST_TIME_MAX	1000000U
#define KP_TEST_CTR_DEF		65536U
#define KP_TEST_CTR_MIN		4096U
#define KP_TEST_CTR_MAX		2147483647U

/* Geoff Chappell's Emon and Amd64 tables: the last specific value of each. */
#define KP_TEST_EMON_LAST	0x1f
#define KP_TEST_AMD64_LAST	0xbf
#define KP_TEST_NR_GENERIC	25	/* 0x00..0x18 */

/**
 * kp_test_emon_model() - the source model of an Intel perfmon v2 machine
 *	with four 48-bit counters.
 * @test:     the test.
 * @ebx_len:  CPUID.0AH:EAX[31:24].
 * @ebx_mask: CPUID.0AH:EBX.
 *
 * Return: the model; the test is aborted unless detection chose Emon.
 */
struct kp_sources *kp_test_emon_model(struct kunit *test, u32 ebx_len,
				      u32 ebx_mask);

/**
 * kp_test_amd64_model() - the source model of an AMD K8 (family 0Fh)
 *	machine, where every Amd64 table row is supported.
 * @test: the test.
 *
 * Return: the model; the test is aborted unless detection chose Amd64.
 */
struct kp_sources *kp_test_amd64_model(struct kunit *test);

/**
 * kp_test_none_model() - the source model of a machine without a usable
 *	PMU (Intel, CPUID leaf 0xA version 0, as QEMU TCG reports).
 * @test: the test.
 *
 * Return: the model; the test is aborted unless detection chose None.
 */
struct kp_sources *kp_test_none_model(struct kunit *test);

#endif /* _KPROFILE_SOURCES_FIXTURE_H */
