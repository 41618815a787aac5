// SPDX-License-Identifier: GPL-2.0
/*
 * kp-ioctl - raw /dev/kprofile ioctls for guest tests, independent of the
 * kprofile tool, so the ABI is tested from the header alone.
 *
 *   kp-ioctl info         print struct kprofile_info as key=value lines
 *   kp-ioctl bad-ioctl    exit 0 iff an unknown ioctl fails with ENOTTY
 *   kp-ioctl loop SECS    list the sources over and over for SECS seconds:
 *			   time spent in the module's code (record's module
 *			   ranges are tested on it)
 *
 * Exit status: 0 on success, 1 on a failed check, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/kprofile.h>
#include "kp_test.h"

static const char *const iface_names[] = { "None", "Emon", "Amd64" };

static int do_info(int fd)
{
	struct kprofile_info info;

	memset(&info, 0xa5, sizeof(info));
	if (ioctl(fd, KPROFILE_IOC_INFO, &info)) {
		fprintf(stderr, "kp-ioctl: KPROFILE_IOC_INFO: %s\n",
			strerror(errno));
		return 1;
	}
	printf("abi_version=%u\n", info.abi_version);
	printf("header_abi_version=%u\n", KPROFILE_ABI_VERSION);
	printf("interface=%s\n", info.interface < 3 ?
	       iface_names[info.interface] : "invalid");
	printf("perfmon_version=%u\n", info.perfmon_version);
	printf("num_counters=%u\n", info.num_counters);
	printf("counter_width=%u\n", info.counter_width);
	printf("ebx_mask=0x%x\n", info.ebx_mask);
	printf("ebx_length=%u\n", info.ebx_length);
	printf("num_cpus=%u\n", info.num_cpus);
	printf("family=0x%x\n", info.family);
	printf("model=0x%x\n", info.model);
	printf("flags=0x%x\n", info.flags);
	printf("reserved_zero=%d\n", !info.reserved[0] && !info.reserved[1] &&
	       !info.reserved[2] && !info.reserved[3]);
	printf("vendor=%.*s\n", (int)sizeof(info.vendor), info.vendor);
	printf("reason=%.*s\n", (int)sizeof(info.reason), info.reason);
	return 0;
}

static int do_bad_ioctl(int fd)
{
	/* Our type letter, a number no kprofile ioctl uses. */
	unsigned long cmd = _IOR(KPROFILE_IOC_MAGIC, 0xfe, __u64);
	__u64 arg = 0;

	if (ioctl(fd, cmd, &arg) == 0) {
		fprintf(stderr, "kp-ioctl: unknown ioctl succeeded\n");
		return 1;
	}
	if (errno != ENOTTY) {
		fprintf(stderr, "kp-ioctl: unknown ioctl: %s, want ENOTTY\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

static int do_loop(int fd, const char *secs)
{
	static struct kprofile_source_info entries[256];
	struct kprofile_source_list list;
	time_t end = time(NULL) + atoi(secs);
	unsigned long calls = 0;

	while (time(NULL) < end) {
		memset(&list, 0, sizeof(list));
		list.count = 256;
		list.entries = (__u64)(unsigned long)entries;
		if (ioctl(fd, KPROFILE_IOC_LIST_SOURCES, &list)) {
			fprintf(stderr, "kp-ioctl: KPROFILE_IOC_LIST_SOURCES: %s\n",
				strerror(errno));
			return 1;
		}
		calls++;
	}
	printf("calls=%lu\n", calls);
	return 0;
}

int main(int argc, char **argv)
{
	int fd, ret;

	if (argc < 2 || (argc != 2 && strcmp(argv[1], "loop")) ||
	    (!strcmp(argv[1], "loop") && argc != 3)) {
		fprintf(stderr, "usage: kp-ioctl info|bad-ioctl|loop SECS\n");
		return 2;
	}
	fd = kpt_try_open_dev();
	if (fd < 0)
		return 1;
	if (!strcmp(argv[1], "info"))
		ret = do_info(fd);
	else if (!strcmp(argv[1], "bad-ioctl"))
		ret = do_bad_ioctl(fd);
	else if (!strcmp(argv[1], "loop"))
		ret = do_loop(fd, argv[2]);
	else
		ret = 2;
	close(fd);
	return ret;
}
