/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream_fixture.h - for the kprofile_stream_* KUnit suites: a reader of
 * one ring (the user side of the protocol in kprofile_stream.h, run in
 * the kernel), and streams on a profile fixture's set (profile_fixture.h)
 * that are freed at exit.
 *
 * Suites that make streams set .exit = kp_str_fix_exit: every stream is
 * freed (stopped first), then the profile fixture's exit runs.
 */
#ifndef _KPROFILE_STREAM_FIXTURE_H
#define _KPROFILE_STREAM_FIXTURE_H

#include <kunit/test.h>

#include "../kmod/stream.h"
#include "profile_fixture.h"

#define KP_STR_FIX_MAX	8

/**
 * struct kp_str_fix - one test's streams.
 * @prof:    the profile fixture whose set they belong to.
 * @streams: streams to free at exit.
 * @nr:	     entries in @streams.
 */
struct kp_str_fix {
	struct kp_prof_fix *prof;
	struct kp_stream *streams[KP_STR_FIX_MAX];
	unsigned int nr;
};

/**
 * struct kp_str_read - what a read of a ring returned.
 * @nr:	     records (pads excluded) in @recs.
 * @pads:    pads skipped.
 * @bad:     malformed records (bad size, crossing the end, past head):
 *	     the read stopped there.
 * @recs:    pointers to the records, in the ring (valid until the ring
 *	     is written again).
 */
struct kp_str_read {
	unsigned int nr;
	unsigned int pads;
	unsigned int bad;
	const struct kprofile_record_header *recs[64];
};

struct kp_str_fix *kp_str_fix_new(struct kunit *test);
void kp_str_fix_exit(struct kunit *test);
struct kp_stream *kp_str_new(struct kp_str_fix *f, u32 target, u32 flags,
			     enum kprofile_mode mode, const u32 *src, u32 nr,
			     u32 max_frames, u32 ring_pages);
void kp_str_start(struct kp_str_fix *f, struct kp_stream *st);
void kp_str_read_page(struct kprofile_stream_page *page,
		      struct kp_str_read *out);
void kp_str_read(struct kp_stream *st, unsigned int cpu,
		 struct kp_str_read *out);
void kp_str_read_all(struct kp_stream *st, struct kp_str_read *out);
bool kp_str_feed(struct kp_str_fix *f, u32 source, const struct pid *tgid,
		 const struct mm_struct *mm, unsigned long ip, bool user,
		 bool dumpable);
struct kprofile_stream_info kp_str_info(struct kp_stream *st);

#endif /* _KPROFILE_STREAM_FIXTURE_H */
