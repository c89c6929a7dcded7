/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * ptime.c - wall time of whole processes, started without a shell.
 *
 * Usage: ptime REPS CMD [ARG...] [-- CMD [ARG...]]...
 *
 * Runs the commands in turn, REPS rounds (so that all of them see the
 * same load), each with standard output and error on /dev/null, and
 * prints one line per command: the median (the upper middle one of an
 * even count), minimum and maximum wall time in microseconds, from just before posix_spawn() to the end of
 * waitpid().  A shell's fork of itself costs a millisecond or more on a
 * VM, as much as a short command; posix_spawn() from this small process
 * does not.  Exits 1 when a command fails (not exit status 0) or cannot
 * be started, 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

#define MAX_CMDS 8

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Run @argv once with its output on /dev/null; its wall time or -1. */
static long long run_once(char **argv)
{
	posix_spawn_file_actions_t fa;
	long long t0, t1;
	pid_t pid;
	int st, err;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = now_us();
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return -1;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	t1 = now_us();
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t1 - t0 : -1;
}

int main(int argc, char **argv)
{
	char **cmd[MAX_CMDS];
	long long *t;
	int reps = argc > 2 ? atoi(argv[1]) : 0, n = 1, i, r, c;

	if (reps < 1) {
		fprintf(stderr, "usage: ptime REPS CMD [ARG...] [-- CMD...]\n");
		return 2;
	}
	cmd[0] = &argv[2];
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--") != 0)
			continue;
		if (n == MAX_CMDS || i + 1 == argc) {
			fprintf(stderr, "ptime: at most %d commands\n", MAX_CMDS);
			return 2;
		}
		argv[i] = NULL;
		cmd[n++] = &argv[i + 1];
	}
	t = malloc(sizeof(*t) * (size_t)reps * (size_t)n);
	if (!t)
		return 1;
	for (r = 0; r < reps; r++) {
		for (c = 0; c < n; c++) {
			t[c * reps + r] = run_once(cmd[c]);
			if (t[c * reps + r] < 0) {
				fprintf(stderr, "ptime: '%s' failed\n", cmd[c][0]);
				return 1;
			}
		}
	}
	for (c = 0; c < n; c++) {
		qsort(t + c * reps, (size_t)reps, sizeof(*t), by_value);
		printf("%lld %lld %lld\n", t[c * reps + reps / 2], t[c * reps],
		       t[c * reps + reps - 1]);
	}
	free(t);
	return 0;
}
