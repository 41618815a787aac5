// SPDX-License-Identifier: GPL-2.0
/*
 * kp-hwlayer - the hardware layer's ioctls for guest tests, from the
 * header alone, printing key=value lines.
 *
 *   kp-hwlayer query SRC          supported=0|1 reason=...
 *   kp-hwlayer schedule SRC...    result=OK|ERRNO fits= busy_mask=
 *                                 num_counters= counters=a,b,.. reason=
 *   kp-hwlayer reserve [DESC...] [--hold S]
 *                                 result=OK|ERRNO counter_mask=
 *	DESC: single N | range A B | overflow | pebs | bad-flags
 *	(none: the whole PMU); --hold keeps the reservation S seconds.
 *
 * SRC is a number (decimal or 0x hex).  Exit status: 0 unless the
 * program itself failed (usage, /dev/kprofile missing): 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/kprofile.h>
#include "kp_test.h"

static unsigned int num(const char *s)
{
	return (unsigned int)strtoul(s, NULL, 0);
}

static int do_query(int fd, const char *src)
{
	struct kprofile_source_info info;

	memset(&info, 0, sizeof(info));
	info.source = num(src);
	if (ioctl(fd, KPROFILE_IOC_QUERY_SOURCE, &info)) {
		printf("result=%s\n", kpt_errname(errno));
		return 0;
	}
	printf("result=OK\n");
	printf("supported=%d\n", !!(info.flags & KPROFILE_SOURCE_SUPPORTED));
	printf("reason=%.*s\n", (int)sizeof(info.reason), info.reason);
	return 0;
}

static int do_schedule(int fd, int argc, char **argv)
{
	struct kprofile_schedule s;
	int i;

	memset(&s, 0, sizeof(s));
	if (argc > KPROFILE_MAX_COUNTERS)
		return 2;
	s.nr_sources = argc;
	for (i = 0; i < argc; i++)
		s.sources[i] = num(argv[i]);
	if (ioctl(fd, KPROFILE_IOC_SCHEDULE, &s)) {
		printf("result=%s\n", kpt_errname(errno));
		return 0;
	}
	printf("result=OK\n");
	printf("fits=%d\n", !!(s.flags & KPROFILE_SCHED_FITS));
	printf("busy_mask=0x%x\n", s.busy_mask);
	printf("num_counters=%u\n", s.num_counters);
	printf("counters=");
	for (i = 0; i < argc; i++)
		printf("%s%d", i ? "," : "", s.counters[i] == KPROFILE_NO_COUNTER ?
		       -1 : (int)s.counters[i]);
	printf("\nreason=%.*s\n", (int)sizeof(s.reason), s.reason);
	return 0;
}

static int do_reserve(int fd, int argc, char **argv)
{
	struct kprofile_counter_desc descs[8];
	struct kprofile_reserve r;
	unsigned int hold = 0, n = 0;
	int i, rfd;

	memset(&r, 0, sizeof(r));
	memset(descs, 0, sizeof(descs));
	for (i = 0; i < argc && n < 8; i++) {
		if (!strcmp(argv[i], "single") && i + 1 < argc) {
			descs[n].type = KPROFILE_COUNTER_SINGLE;
			descs[n++].begin = num(argv[++i]);
		} else if (!strcmp(argv[i], "range") && i + 2 < argc) {
			descs[n].type = KPROFILE_COUNTER_RANGE;
			descs[n].begin = num(argv[++i]);
			descs[n++].end = num(argv[++i]);
		} else if (!strcmp(argv[i], "overflow")) {
			descs[n++].type = KPROFILE_COUNTER_OVERFLOW;
		} else if (!strcmp(argv[i], "pebs")) {
			descs[n++].type = KPROFILE_COUNTER_EVENT_BUFFER;
		} else if (!strcmp(argv[i], "bad-flags")) {
			r.flags = 1;
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			hold = num(argv[++i]);
		} else {
			fprintf(stderr, "kp-hwlayer: bad reserve argument %s\n",
				argv[i]);
			return 2;
		}
	}
	r.nr_descs = n;
	r.descs = (unsigned long)descs;
	rfd = ioctl(fd, KPROFILE_IOC_RESERVE, &r);
	if (rfd < 0) {
		printf("result=%s\n", kpt_errname(errno));
		return 0;
	}
	printf("result=OK\ncounter_mask=0x%x\n", r.counter_mask);
	fflush(stdout);
	sleep(hold);
	close(rfd);
	return 0;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: kp-hwlayer query|schedule|reserve ...\n");
		return 2;
	}
	fd = kpt_open_dev();
	if (!strcmp(argv[1], "query") && argc == 3)
		return do_query(fd, argv[2]);
	if (!strcmp(argv[1], "schedule"))
		return do_schedule(fd, argc - 2, argv + 2);
	if (!strcmp(argv[1], "reserve"))
		return do_reserve(fd, argc - 2, argv + 2);
	fprintf(stderr, "kp-hwlayer: unknown command %s\n", argv[1]);
	return 2;
}
