// SPDX-License-Identifier: GPL-2.0
/*
 * forkstorm - many short-lived children, for record's child following.
 *
 *   forkstorm N USEC EXECPATH   start N children, one after another; each
 *                               spins in kp_storm_spin() for USEC
 *                               microseconds of its own CPU time and
 *                               exits; every fourth one first executes
 *                               EXECPATH (this program under another
 *                               name, so its comm differs) as
 *                               "EXECPATH --child USEC".  Prints one line
 *                               per child: "child=PID exec=0|1".
 *   forkstorm --child USEC      spin, as a child does after its exec.
 *
 * With ProfileTime's interval well below USEC (record -F 8000: 0.122 ms
 * against 0.5 ms), every child runs through several timer interrupts:
 * each has hits, which record must attribute to it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline))
uint64_t kp_storm_spin(uint64_t n)
{
	volatile uint64_t x = 0;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int spin(double us)
{
	double end = cpu_us() + us;

	while (cpu_us() < end)
		kp_storm_spin(200);
	return 0;
}

int main(int argc, char **argv)
{
	int n, i, status, bad = 0;
	double us;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return spin(atof(argv[2]));
	if (argc != 4 || (n = atoi(argv[1])) <= 0 || (us = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: forkstorm N USEC EXECPATH | forkstorm --child USEC\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		int execs = i % 4 == 3;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			if (execs) {
				execl(argv[3], argv[3], "--child", argv[2], (char *)NULL);
				perror("exec");
				_exit(1);
			}
			_exit(spin(us));
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
		printf("child=%d exec=%d\n", (int)pid, execs);
	}
	return bad ? 1 : 0;
}
