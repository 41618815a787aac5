// SPDX-License-Identifier: GPL-2.0
/*
 * kp-json - check that a file is one valid JSON document (RFC 8259), and
 * print a value from it, for guest tests of `--json` (the guest has no
 * JSON tools).
 *
 *   kp-json FILE          exit 0 iff FILE holds exactly one JSON value
 *   kp-json FILE PATH     also print the value at PATH: keys and array
 *                         indexes joined by dots ("rows.0.symbol"); a
 *                         final "#" prints an array's or object's size.
 *                         Strings print unquoted (escapes are kept as
 *                         written), containers as "<object>"/"<array>".
 * Exit: 0 ok, 1 invalid JSON, 2 usage or I/O, 3 PATH not found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p, *end;
static char want[64][128];
static int nwant, found;
static const char *found_at, *found_end;
static int found_string;
static long found_count = -1;

static void ws(void)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
}

static int value(int depth, int match);

/* A string; its raw contents are [*s, *e). */
static int string(const char **s, const char **e)
{
	if (p >= end || *p != '"')
		return 0;
	*s = ++p;
	while (p < end && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return 0;
		if (*p == '\\') {
			p++;
			if (p >= end || !strchr("\"\\/bfnrtu", *p))
				return 0;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (p + i >= end || !strchr("0123456789abcdefABCDEF", p[i]))
						return 0;
				p += 4;
			}
		}
		p++;
	}
	if (p >= end)
		return 0;
	*e = p++;
	return 1;
}

static int number(void)
{
	const char *s = p;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (p < end && *p == '.') {
		p++;
		if (p >= end || *p < '0' || *p > '9')
			return 0;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			return 0;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	return p > s;
}

static int literal(const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - p) < n || memcmp(p, w, n))
		return 0;
	p += n;
	return 1;
}

/* The element at @depth matches the path so far: is it the target? */
static void note(int depth, int match, const char *s, const char *e, long count)
{
	if (!match || found)
		return;
	if (depth == nwant) {
		found = 1;
		found_string = count == -2;
		found_at = s;
		found_end = e;
	} else if (depth == nwant - 1 && !strcmp(want[depth], "#") && count >= 0) {
		found = 1;
		found_count = count;
	}
}

static int container(int depth, int match, int object)
{
	const char *start = p;
	long n = 0;

	p++;
	ws();
	if (p < end && *p == (object ? '}' : ']')) {
		p++;
		note(depth, match, start, p, 0);
		return 1;
	}
	for (;;) {
		int sub = 0;

		ws();
		if (object) {
			const char *ks, *ke;

			if (!string(&ks, &ke))
				return 0;
			sub = match && depth < nwant && strlen(want[depth]) == (size_t)(ke - ks) &&
			      !memcmp(want[depth], ks, ke - ks);
			ws();
			if (p >= end || *p++ != ':')
				return 0;
		} else {
			char idx[32];

			snprintf(idx, sizeof(idx), "%ld", n);
			sub = match && depth < nwant && !strcmp(want[depth], idx);
		}
		if (!value(depth + 1, sub))
			return 0;
		n++;
		ws();
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == (object ? '}' : ']')) {
			p++;
			break;
		}
		return 0;
	}
	note(depth, match, start, p, n);
	return 1;
}

static int value(int depth, int match)
{
	const char *s, *e;

	if (depth > 512)
		return 0;
	ws();
	if (p >= end)
		return 0;
	s = p;
	switch (*p) {
	case '{':
		return container(depth, match, 1);
	case '[':
		return container(depth, match, 0);
	case '"':
		if (!string(&s, &e))
			return 0;
		note(depth, match, s, e, -2);
		return 1;
	case 't':
		if (!literal("true"))
			return 0;
		break;
	case 'f':
		if (!literal("false"))
			return 0;
		break;
	case 'n':
		if (!literal("null"))
			return 0;
		break;
	default:
		if (!number())
			return 0;
	}
	note(depth, match, s, p, -1);
	return 1;
}

int main(int argc, char **argv)
{
	static char buf[1 << 24];
	FILE *f;
	size_t n;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kp-json FILE [PATH]\n");
		return 2;
	}
	f = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	n = fread(buf, 1, sizeof(buf), f);
	if (n == sizeof(buf)) {
		fprintf(stderr, "kp-json: %s is too large\n", argv[1]);
		return 2;
	}
	if (argc == 3) {
		char *path = argv[2], *tok;

		for (tok = strtok(path, "."); tok && nwant < 64; tok = strtok(NULL, "."))
			snprintf(want[nwant++], sizeof(want[0]), "%s", tok);
	}
	p = buf;
	end = buf + n;
	if (!value(0, 1)) {
		fprintf(stderr, "kp-json: invalid JSON at byte %ld\n", (long)(p - buf));
		return 1;
	}
	ws();
	if (p != end) {
		fprintf(stderr, "kp-json: trailing data at byte %ld\n", (long)(p - buf));
		return 1;
	}
	if (argc == 2)
		return 0;
	if (!found)
		return 3;
	if (found_count >= 0)
		printf("%ld\n", found_count);
	else if (found_string)
		printf("%.*s\n", (int)(found_end - found_at), found_at);
	else if (*found_at == '{')
		printf("<object>\n");
	else if (*found_at == '[')
		printf("<array>\n");
	else
		printf("%.*s\n", (int)(found_end - found_at), found_at);
	return 0;
}
