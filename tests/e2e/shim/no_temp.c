/*
 * no_temp.c - an LD_PRELOAD shim for tests/web/test_http.py: mkstemp of a
 * template that holds the text ORD_NO_TEMP names (the web server's
 * ".orderly-bundle-") fails with EACCES, as on a server that may write
 * no directory it tries (a read-only game served from a read-only tree,
 * with no writable TMPDIR or /tmp), which a test run as root cannot make
 * with the files' modes.  What lets the test see the bundle made in
 * memory, the server's last resort (src/web/server.c, W18).  Under ASan
 * the process needs ASAN_OPTIONS=verify_asan_link_order=0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef int (*mkstemp_fn)(char *);

static int no_temp(const char *name, char *tmpl)
{
	const char *want = getenv("ORD_NO_TEMP");

	if (want && *want && strstr(tmpl, want)) {
		errno = EACCES;
		return -1;
	}
	return ((mkstemp_fn)dlsym(RTLD_NEXT, name))(tmpl);
}

int mkstemp(char *tmpl)
{
	return no_temp("mkstemp", tmpl);
}

int mkstemp64(char *tmpl)
{
	return no_temp("mkstemp64", tmpl);
}
