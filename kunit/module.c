// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - kprofile_test.ko: the KUnit suites of kprofile.  Each suite
 * lives in its own *_test.c and registers itself with
 * kunit_test_suite(); KUnit runs them all when this module is loaded,
 * after kprofile.ko, whose internals it uses.
 */
#include <linux/module.h>

#include "../kmod/compat.h"

MODULE_DESCRIPTION("KUnit suites for kprofile");
MODULE_LICENSE("GPL");
KP_IMPORT_KUNIT_NS();
