/*
 * short_read.c - an LD_PRELOAD shim for tests/e2e/test_export_checked.sh:
 * a pread of a file whose path holds the text ORD_SHORT_READ names (an
 * export's file beside its own, k.xml.tmp-PID) finds the file ending
 * after its first ORD_SHORT_READ_AT bytes, as if it had been cut there
 * while the bundle was written; with ORD_SHORT_READ_EIO set, the read past
 * them fails with EIO instead.  What lets the test see what the export
 * says of a file it cannot read back whole before it signs.  Under ASan
 * the process needs ASAN_OPTIONS=verify_asan_link_order=0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

/* How many of the n bytes at off the file is let give: n when it is no
 * file of the test's; -1 (errno EIO) when the read is to fail. */
static ssize_t allowed(int fd, size_t n, off_t off)
{
	const char *want = getenv("ORD_SHORT_READ"), *at = getenv("ORD_SHORT_READ_AT");
	char link[64], path[4096];
	ssize_t k;
	long long end;

	if (!want || !*want || !at)
		return (ssize_t)n;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	k = readlink(link, path, sizeof(path) - 1);
	if (k < 0)
		return (ssize_t)n;
	path[k] = '\0';
	if (!strstr(path, want))
		return (ssize_t)n;
	end = atoll(at);
	if ((long long)off + (long long)n <= end)
		return (ssize_t)n;
	if (getenv("ORD_SHORT_READ_EIO") && *getenv("ORD_SHORT_READ_EIO") && (long long)off >= end) {
		errno = EIO;
		return -1;
	}
	return (long long)off >= end ? 0 : (ssize_t)(end - (long long)off);
}

static ssize_t short_pread(const char *name, int fd, void *buf, size_t n, off_t off)
{
	pread_fn real = (pread_fn)dlsym(RTLD_NEXT, name);
	ssize_t k = allowed(fd, n, off);

	if (k < 0)
		return -1;
	return k ? real(fd, buf, (size_t)k, off) : 0;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return short_pread("pread", fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return short_pread("pread64", fd, buf, n, off);
}
