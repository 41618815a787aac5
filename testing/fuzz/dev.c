// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - requests on /dev/kprofile other than CREATE_PROFILE and
 * THREAD_ENABLE: queries with edge fields and pointers, the machine-wide
 * setters (an interval is set back to the default right away, so the
 * fuzzer does not slow the machine down), reservations, and ioctl numbers
 * the module does not know or knows with another size or direction.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kpfuzz.h"

static const unsigned long dev_cmds[] = {
	KPROFILE_IOC_INFO, KPROFILE_IOC_QUERY_SOURCE, KPROFILE_IOC_LIST_SOURCES,
	KPROFILE_IOC_SET_INTERVAL, KPROFILE_IOC_GET_INTERVAL,
	KPROFILE_IOC_SCHEDULE, KPROFILE_IOC_RESERVE,
	KPROFILE_IOC_SET_HW_CONFIG, KPROFILE_IOC_QUERY_HW_CONFIG,
	KPROFILE_IOC_SET_HW_CONFIG_EX, KPROFILE_IOC_START, KPROFILE_IOC_STOP,
	KPROFILE_IOC_PROFILE_STATS, KPROFILE_IOC_PROFILE_STATS_EX,
	KPROFILE_IOC_THREAD_READ,
	KPROFILE_IOC_THREAD_LIST, KPROFILE_IOC_CREATE_PROFILE,
	KPROFILE_IOC_THREAD_ENABLE,
};

#define NCMDS (sizeof(dev_cmds) / sizeof(dev_cmds[0]))

static uint32_t a_source(struct kpf_ctx *c)
{
	switch (kpf_below(&c->rng, 4)) {
	case 0:
		return KPROFILE_SOURCE_TIME;
	case 1:
		return (uint32_t)kpf_edge(&c->rng);
	default:
		return kpf_below(&c->rng, 0x40);
	}
}

static void q_source(struct kpf_ctx *c, struct kprofile_source_info *si)
{
	si->source = a_source(c);
	kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_QUERY_SOURCE, si);
}

static void q_list(struct kpf_ctx *c, struct kprofile_source_list *l)
{
	static __thread struct kprofile_source_info ents[40];

	l->count = kpf_chance(&c->rng, 60) ? kpf_below(&c->rng, 41) :
					    (uint32_t)kpf_edge(&c->rng);
	l->flags = kpf_chance(&c->rng, 90) ? 0 : (uint32_t)kpf_edge(&c->rng);
	l->entries = (uintptr_t)ents;
	if (l->count > 40 || kpf_chance(&c->rng, 10))
		l->entries = (uintptr_t)kpf_edge_ptr(c, sizeof(ents));
	memset(ents, 0xa5, sizeof(ents));
	kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_LIST_SOURCES, l);
}

static void q_interval(struct kpf_ctx *c, struct kprofile_interval *iv, int set)
{
	iv->source = a_source(c);
	iv->interval = (uint32_t)kpf_edge(&c->rng);
	if (!set) {
		kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_GET_INTERVAL, iv);
		return;
	}
	if (kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_SET_INTERVAL, iv) < 0)
		return;
	if (iv->source == KPROFILE_SOURCE_TIME &&
	    (iv->interval < KPROFILE_TIME_INTERVAL_MIN ||
	     iv->interval > KPROFILE_TIME_INTERVAL_MAX))
		kpf_fail(c, "ProfileTime interval %u outside the documented range",
			 iv->interval);
	iv->interval = iv->source == KPROFILE_SOURCE_TIME ?
		       KPROFILE_TIME_INTERVAL_DEFAULT :
		       KPROFILE_COUNTER_INTERVAL_DEFAULT;
	kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_SET_INTERVAL, iv);
}

static void q_schedule(struct kpf_ctx *c, struct kprofile_schedule *s)
{
	unsigned int i;

	s->nr_sources = kpf_chance(&c->rng, 80) ? kpf_below(&c->rng, 17) :
						  (uint32_t)kpf_edge(&c->rng);
	for (i = 0; i < KPROFILE_MAX_COUNTERS; i++)
		s->sources[i] = a_source(c);
	kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_SCHEDULE, s);
}

static void q_reserve(struct kpf_ctx *c, struct kprofile_reserve *r)
{
	struct kprofile_counter_desc *d = (void *)(r + 1);
	unsigned int i;
	long ret;

	memset(r, 0, sizeof(*r));
	r->nr_descs = kpf_chance(&c->rng, 70) ? kpf_below(&c->rng, 4) :
						(uint32_t)kpf_edge(&c->rng);
	r->descs = (uintptr_t)d;
	for (i = 0; i < 4; i++) {
		d[i].type = kpf_below(&c->rng, 6);
		d[i].begin = kpf_below(&c->rng, 20);
		d[i].end = kpf_below(&c->rng, 20);
		d[i].flags = kpf_chance(&c->rng, 90) ? 0 : 1;
		d[i].reserved = 0;
	}
	if (kpf_chance(&c->rng, 20))
		r->descs = (uintptr_t)kpf_edge_ptr(c, 4 * sizeof(*d));
	if (kpf_chance(&c->rng, 30)) {
		r->cpus = (uintptr_t)kpf_edge_ptr(c, 64);
		r->cpus_size = kpf_edge(&c->rng) & 0xfff;
	}
	if (kpf_chance(&c->rng, 10))
		r->flags = 1;
	ret = kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_RESERVE, r);
	if (ret >= 0) {
		if (c->priv != KPF_ROOT)
			kpf_fail(c, "RESERVE without CAP_PERFMON succeeded");
		close((int)ret);
	} else if (c->priv != KPF_ROOT && ret != -EPERM && ret != -EFAULT &&
		   ret != -EINVAL) {
		kpf_fail(c, "RESERVE without CAP_PERFMON: %s, want EPERM",
			 strerror((int)-ret));
	}
}

static void q_hwconfig(struct kpf_ctx *c, void *arg, int ex)
{
	struct kprofile_hw_config *h = arg;
	unsigned int i;

	h->count = kpf_chance(&c->rng, 80) ? kpf_below(&c->rng, 17) :
					     (uint32_t)kpf_edge(&c->rng);
	h->flags = kpf_chance(&c->rng, 90) ? 0 : 1;
	for (i = 0; i < KPROFILE_MAX_COUNTERS; i++) {
		h->counters[i].type = kpf_chance(&c->rng, 90) ? 0 : kpf_edge(&c->rng);
		h->counters[i].source = a_source(c);
		h->counters[i].mode = kpf_below(&c->rng, 5);
	}
	kpf_ioctl(c, c->dev, KPF_DEV, ex ? KPROFILE_IOC_SET_HW_CONFIG_EX :
		  KPROFILE_IOC_SET_HW_CONFIG, arg);
}

/**
 * kpf_random_cmd() - a number the module does not know, or knows with
 *	another size or direction, on @fd.
 * @c:    the worker.
 * @fd:   the file descriptor.
 * @kind: what it is.
 */
void kpf_random_cmd(struct kpf_ctx *c, int fd, enum kpf_kind kind)
{
	unsigned long cmd, known = dev_cmds[kpf_below(&c->rng, NCMDS)];
	void *arg = kpf_scratch(c, 2048);

	switch (kpf_below(&c->rng, 3)) {
	case 0:
		cmd = _IOC(kpf_below(&c->rng, 4), KPROFILE_IOC_MAGIC,
			   kpf_below(&c->rng, 256), kpf_below(&c->rng, 1024));
		break;
	case 1:	/* the right number, another size */
		cmd = _IOC(_IOC_DIR(known), KPROFILE_IOC_MAGIC, _IOC_NR(known),
			   (_IOC_SIZE(known) + 1 + kpf_below(&c->rng, 64)) & 0x3fff);
		break;
	default: /* the right number, another direction */
		cmd = _IOC((_IOC_DIR(known) + 1 + kpf_below(&c->rng, 3)) & 3,
			   KPROFILE_IOC_MAGIC, _IOC_NR(known), _IOC_SIZE(known));
	}
	/* Requests that make objects are tested with valid arguments only. */
	if (cmd == KPROFILE_IOC_CREATE_PROFILE || cmd == KPROFILE_IOC_RESERVE ||
	    cmd == KPROFILE_IOC_THREAD_ENABLE ||
	    cmd == KPROFILE_IOC_SET_INTERVAL || cmd == KPROFILE_IOC_SET_HW_CONFIG ||
	    cmd == KPROFILE_IOC_SET_HW_CONFIG_EX)
		return;
	/* START and STOP on a profile fd are the state machine's business */
	if (kind == KPF_PROFILE && (cmd == KPROFILE_IOC_START ||
				    cmd == KPROFILE_IOC_STOP))
		return;
	kpf_ioctl(c, fd, kind, cmd, arg);
}

/**
 * kpf_dev_query() - one request on /dev/kprofile: a query or a setter with
 *	fields from the edges, in valid memory or at an edge pointer, or an
 *	unknown number.
 * @c: the worker.
 */
void kpf_dev_query(struct kpf_ctx *c)
{
	unsigned int which = kpf_below(&c->rng, 11);
	size_t len = 2048;
	void *arg = kpf_scratch(c, len);

	if (kpf_chance(&c->rng, 12) && which != 10) {
		unsigned long cmd = dev_cmds[kpf_below(&c->rng, 10)];

		if (cmd == KPROFILE_IOC_SET_INTERVAL || cmd == KPROFILE_IOC_RESERVE)
			cmd = KPROFILE_IOC_GET_INTERVAL;
		kpf_ioctl(c, c->dev, KPF_DEV, cmd,
			  kpf_edge_ptr(c, _IOC_SIZE(cmd)));
		return;
	}
	switch (which) {
	case 0:
		kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_INFO, arg);
		break;
	case 1:
		q_source(c, arg);
		break;
	case 2:
		q_list(c, arg);
		break;
	case 3:
		q_interval(c, arg, 0);
		break;
	case 4:
		if (kpf_chance(&c->rng, 20))
			q_interval(c, arg, 1);
		else
			q_interval(c, arg, 0);
		break;
	case 5:
		q_schedule(c, arg);
		break;
	case 6:
		q_reserve(c, arg);
		break;
	case 7:
		q_hwconfig(c, arg, kpf_below(&c->rng, 2));
		break;
	case 8:
		kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_QUERY_HW_CONFIG, arg);
		break;
	default:
		kpf_random_cmd(c, c->dev, KPF_DEV);
	}
}
