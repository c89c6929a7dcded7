/* tmpdir.h - names of temporary files for unit tests, under $TMPDIR. */
#ifndef FP_TEST_TMPDIR_H
#define FP_TEST_TMPDIR_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Room for a template from test_tmpl(); paths under it need a bit more. */
#define TEST_TMPL_LEN 256

/* The directory for temporary files: $TMPDIR, or /tmp if unset or empty. */
static inline const char *test_tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/*
 * Write "$TMPDIR/NAME.XXXXXX" (a template for mkstemp or mkdtemp) into
 * @buf of @len bytes and return @buf; the test fails if it does not fit.
 */
static inline char *test_tmpl(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s.XXXXXX", test_tmpdir(), name);

	ck_assert_msg(n > 0 && (size_t)n < len, "TMPDIR is too long");
	return buf;
}

#endif
