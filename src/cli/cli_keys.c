/*
 * cli_keys.c - helpers of the commands about keys, signatures and bundles
 * (see cli_keys.h).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_keys.h"
#include "core/common.h"

static void add_values(const char *v, const char ***vals, size_t *n)
{
	const char *p = v;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *item = malloc(len + 1);

		if (!item)
			abort();
		memcpy(item, p, len);
		item[len] = '\0';
		*vals = realloc(*vals, (*n + 1) * sizeof(**vals));
		if (!*vals)
			abort();
		(*vals)[(*n)++] = item;
		if (!comma)
			break;
		p = comma + 1;
	}
}

int cli_take_repeated(const struct cli_cmd *cmd, int *argc, char **argv, const char *name,
		      const char ***vals, size_t *n)
{
	size_t nl = strlen(name);
	int i, out = 1;

	for (i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strncmp(a, "--", 2) || strncmp(a + 2, name, nl) ||
		    (a[2 + nl] != '\0' && a[2 + nl] != '=')) {
			argv[out++] = argv[i];
			continue;
		}
		if (a[2 + nl] == '=') {
			if (!a[3 + nl])
				return cli_usage_error(cmd, "option '--%s' needs a value", name);
			add_values(a + 3 + nl, vals, n);
		} else {
			if (i + 1 >= *argc || !strncmp(argv[i + 1], "--", 2) || !*argv[i + 1])
				return cli_usage_error(cmd, "option '--%s' needs a value", name);
			add_values(argv[++i], vals, n);
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

void cli_long_option(int argc, char **argv, const char *short_opt, const char *long_opt)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], short_opt))
			argv[i] = (char *)long_opt;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int cli_hex_option(const struct cli_cmd *cmd, const char *option, const char *s, unsigned char *out,
		   size_t n)
{
	size_t i;

	if (strlen(s) != 2 * n)
		goto bad;
	for (i = 0; i < n; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			goto bad;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
bad:
	return cli_usage_error(cmd, "%s: '%.80s' is not %zu hexadecimal digits", option, s, 2 * n);
}

int cli_load_key(const char *path, struct ord_keypair *kp)
{
	int rc;

	cli_protect_file(path, 0);
	rc = ord_key_load(kp, path);

	return rc < 0 ? cli_fail(rc) : 0;
}

int cli_load_head(const char *path, struct ord_head *h)
{
	struct ord_buf b = ORD_BUF_INIT;
	int rc;

	if ((rc = cli_read_input(&b, path, 65536)) != 0)
		goto out;
	rc = ord_head_parse(h, b.buf, b.len, cli_input_name(path));
	if (rc < 0)
		rc = cli_fail(rc);
out:
	ord_buf_release(&b);
	return rc;
}

/* ---- files no output may replace ---- */

#define PROTECTED_MAX 8
static struct protected_file {
	char *path; /* canonical (canonical_path) */
	int game;
} protected_files[PROTECTED_MAX];
static size_t nprotected;

/* path with its directory resolved (links, "..", "."): the file's own
 * resolved path when it is there, else its directory's and its name, so
 * that two names of one file, there or not yet, compare equal. */
static char *canonical_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct ord_buf b = ORD_BUF_INIT;
	char *dir, *real;

	if ((real = realpath(path, NULL)) != NULL)
		return real;
	if (!slash)
		dir = realpath(".", NULL);
	else if (slash == path)
		dir = ord_strdup("");
	else {
		struct ord_buf d = ORD_BUF_INIT;
		ord_buf_add(&d, path, (size_t)(slash - path));
		dir = realpath(d.buf, NULL);
		ord_buf_release(&d);
	}
	if (!dir)
		return ord_strdup(path);
	ord_buf_addf(&b, "%s/%s", dir, slash ? slash + 1 : path);
	free(dir);
	return ord_buf_detach(&b, NULL);
}

void cli_protect_file(const char *path, int game)
{
	if (!path || !strcmp(path, "-") || nprotected == PROTECTED_MAX)
		return;
	protected_files[nprotected].path = canonical_path(path);
	protected_files[nprotected].game = game;
	nprotected++;
}

/* Said unless a caller only asks (cli_output_open): cli_write_output says
 * it when it is asked again. */
static int hush;

static void say(const char *fmt, ...)
{
	struct ord_buf msg = ORD_BUF_INIT;
	va_list ap;

	if (hush)
		return;
	va_start(ap, fmt);
	ord_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	cli_error("%s", msg.buf);
	ord_buf_release(&msg);
}

/* 1, said, when an output to target would replace a file this run reads:
 * by its name or another (a hard link, a link followed), or, for a game,
 * SQLite's files beside it, whose loss or garbage loses the game. */
static int replaces_protected(const char *path, const char *target)
{
	static const char *const beside[] = { "", "-journal", "-wal", "-shm" };
	char *t = canonical_path(target);
	struct stat ts, ps;
	int have = stat(target, &ts) == 0, hit = 0;
	size_t i, k;

	for (i = 0; i < nprotected && !hit; i++) {
		const struct protected_file *p = &protected_files[i];
		size_t n = strlen(p->path);

		for (k = 0; k < (p->game ? 4 : 1) && !hit; k++)
			if (!strncmp(t, p->path, n) && !strcmp(t + n, beside[k])) {
				hit = 1;
				if (k == 0)
					say("cannot write '%s': it is this command's %s (give another file's path)",
					    path, p->game ? "game file" : "key file");
				else
					say("cannot write '%s': it is SQLite's %s of the game file '%s' (give another file's path)",
					    path, beside[k] + 1, p->path);
			}
		if (!hit && have && stat(p->path, &ps) == 0 && ps.st_dev == ts.st_dev &&
		    ps.st_ino == ts.st_ino) {
			hit = 1;
			say("cannot write '%s': it is this command's %s, '%s', under another name (give another file's path)",
			    path, p->game ? "game file" : "key file", p->path);
		}
	}
	free(t);
	return hit;
}

/* The directory path's file is in ("." for a bare name, "/" at the top). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = ord_strdup(slash ? path : ".");

	if (slash)
		dir[slash == path ? 1 : slash - path] = '\0';
	return dir;
}

/* A file not there yet: path, when its directory is one this run may
 * create a file in (a missing directory is said now, before the change a
 * head signs is committed, not after it); NULL, said, when not. */
static char *new_file(const char *path)
{
	char *dir = dir_of(path);
	struct stat st;
	int ok = 0;

	/* in the words of a game file that cannot be created (store.c) */
	if (stat(dir, &st) < 0 && errno == ENOENT)
		say("cannot create '%s': directory '%s' does not exist", path, dir);
	else if (stat(dir, &st) < 0)
		say("cannot create '%s': %s", path, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		say("cannot create '%s': '%s' is not a directory", path, dir);
	else if (access(dir, W_OK | X_OK) < 0)
		say("cannot create '%s': directory '%s' may not be written (%s)", path, dir,
		    strerror(errno));
	else
		ok = 1;
	free(dir);
	return ok ? ord_strdup(path) : NULL;
}

/* The file an output to path replaces: path itself when it is a regular
 * file or not there yet, the file a link names (a link is followed, not
 * replaced); a directory, a device, a pipe or a link to nothing is
 * refused, since the rename that puts the output in place would replace
 * it (a head must be known writable before the change that signs it is
 * committed).  NULL, said, when refused. */
static char *output_file(const char *path)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return new_file(path);
		say("cannot write '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISREG(st.st_mode))
		return ord_strdup(path);
	if (S_ISLNK(st.st_mode)) {
		if (!(real = realpath(path, NULL))) {
			say("cannot write '%s': it is a link to a file that cannot be reached (%s)",
			    path, strerror(errno));
			return NULL;
		}
		if (stat(real, &st) == 0 && S_ISREG(st.st_mode))
			return real;
		free(real);
	}
	say("cannot write '%s': it is %s, not a file (give a file's path; without -o the output goes to standard output)",
	    path,
	    S_ISLNK(st.st_mode)                          ? "a link to no regular file"
	    : S_ISDIR(st.st_mode)                        ? "a directory"
	    : S_ISFIFO(st.st_mode)                       ? "a pipe"
	    : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
							 : "a special file");
	return NULL;
}

/* output_file, but never a file this run reads (replaces_protected). */
static char *output_target(const char *path)
{
	char *t = output_file(path);

	if (t && replaces_protected(path, t)) {
		free(t);
		return NULL;
	}
	return t;
}

int cli_output_allowed(const char *path)
{
	char *t;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!(t = output_target(path)))
		return CLI_CANTCREAT;
	free(t);
	return 0;
}

/* The files TARGET.tmp-PID an output to target left beside it when its
 * process was killed as it wrote (an export of a big game writes for
 * seconds): removed, and said, once no process PID runs on this machine
 * and the file has not changed for ten minutes.  One of a running output
 * is left, and so is one a process of another machine may be writing on
 * a shared disk, as long as it writes. */
static void sweep_stale(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	size_t blen = strlen(base);
	char *dir = dir_of(target);
	time_t now = time(NULL);
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		const char *p = e->d_name + blen + 5;
		struct ord_buf f = ORD_BUF_INIT;
		struct stat st;
		char *end;
		long pid;

		if (strncmp(e->d_name, base, blen) || strncmp(e->d_name + blen, ".tmp-", 5) ||
		    *p < '1' || *p > '9')
			continue;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (*end || errno || pid <= 0 || (pid_t)pid != pid || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		ord_buf_addf(&f, "%s/%s", dir, e->d_name);
		if (lstat(f.buf, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime >= 600 &&
		    unlink(f.buf) == 0)
			cli_error("removed '%s', left by an output that did not finish (process %ld, no longer running)",
				  f.buf, pid);
		ord_buf_release(&f);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* Write bytes to a new temporary file beside path, synced; *tmp names it
 * and *target the file it is to replace (output_target). */
static int stage(const char *path, const char *bytes, size_t len, char **tmp, char **target)
{
	struct ord_buf t = ORD_BUF_INIT;
	int written;
	int fd;

	*tmp = NULL;
	if (!(*target = output_target(path)))
		return CLI_CANTCREAT;
	sweep_stale(*target);
	ord_buf_addf(&t, "%s.tmp-%ld", *target, (long)getpid());
	fd = open(t.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		cli_error("cannot create '%s': %s", path, strerror(errno));
		ord_buf_release(&t);
		free(*target);
		*target = NULL;
		return CLI_CANTCREAT;
	}
	written = ord_fd_write(fd, bytes, len, ORD_FD_APPEND) == 0;
	if (!written || fsync(fd) < 0 || close(fd) < 0) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		if (!written)
			close(fd);
		unlink(t.buf);
		ord_buf_release(&t);
		free(*target);
		*target = NULL;
		return CLI_CANTCREAT;
	}
	*tmp = ord_buf_detach(&t, NULL);
	return 0;
}

int cli_write_output(const char *path, const char *bytes, size_t len)
{
	char *tmp = NULL, *target = NULL;
	int rc;

	if (!path || !strcmp(path, "-")) {
		if (fwrite(bytes, 1, len, stdout) != len) {
			cli_error("cannot write the output: %s", strerror(errno));
			return CLI_SOFTWARE;
		}
		return 0;
	}
	if ((rc = stage(path, bytes, len, &tmp, &target)) != 0)
		return rc;
	if (rename(tmp, target) < 0) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		rc = CLI_CANTCREAT;
	}
	free(tmp);
	free(target);
	return rc;
}

int cli_output_open(const char *path, struct cli_output *o)
{
	struct ord_buf t = ORD_BUF_INIT;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !strcmp(path, "-"))
		return -1;
	hush = 1;
	o->target = output_target(path);
	hush = 0;
	if (!o->target)
		return -1;
	sweep_stale(o->target);
	ord_buf_addf(&t, "%s.tmp-%ld", o->target, (long)getpid());
	o->fd = open(t.buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		ord_buf_release(&t);
		free(o->target);
		o->target = NULL;
		return -1;
	}
	o->path = path;
	o->tmp = ord_buf_detach(&t, NULL);
	return 0;
}

int cli_output_close(struct cli_output *o, int keep)
{
	int rc = 0;

	if (o->fd < 0)
		return 0;
	if (keep && close(o->fd) < 0) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		keep = 0;
		rc = CLI_CANTCREAT;
	} else if (!keep) {
		close(o->fd);
	}
	if (keep && rename(o->tmp, o->target) < 0) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		keep = 0;
		rc = CLI_CANTCREAT;
	}
	if (!keep)
		unlink(o->tmp);
	o->fd = -1;
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return rc;
}

int cli_write_head(ord_game *g, int turn, const char *at, int phase, const char *path)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_head h;
	int rc = phase > 0 ? ord_game_head_close(g, &h, turn, phase) : ord_game_head(g, &h, turn, at);

	if (rc < 0)
		return cli_fail(rc);
	ord_head_format(&h, &b);
	rc = cli_write_output(path, b.buf, b.len);
	ord_buf_release(&b);
	return rc;
}

/* ---- a signed head written before the change that signs it commits ---- */

void cli_head_out_init(struct cli_head_out *h, const char *path)
{
	memset(h, 0, sizeof(*h));
	h->path = path;
	ord_buf_init(&h->text);
	ord_buf_init(&h->held);
	ord_buf_init(&h->held_why);
}

int cli_head_hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct cli_head_out *h = ud;
	int rc;

	(void)g;
	if (c->kind == ORD_CHANGE_SEAL && c->held) {
		ord_buf_reset(&h->held);
		ord_buf_adds(&h->held, c->held);
		ord_buf_reset(&h->held_why);
		if (c->held_why)
			ord_buf_adds(&h->held_why, c->held_why);
	}
	if (!c->head || !h->path)
		return 0;
	ord_buf_reset(&h->text);
	ord_head_format(c->head, &h->text);
	h->turn = c->head->turn;
	snprintf(h->at, sizeof(h->at), "%s", c->head->at);
	if (!strcmp(h->path, "-")) {
		h->staged = 1;
		return 0;
	}
	/* the head must exist before the change does: if it cannot be written,
	 * the change is rolled back and nothing is lost */
	free(h->target);
	if ((rc = stage(h->path, h->text.buf, h->text.len, &h->tmp, &h->target)) != 0)
		return ord_error_set(ORD_ECANTWRITE,
				     "the signed head cannot be written to '%s', so nothing was changed",
				     h->path);
	h->staged = 1;
	return 0;
}

int cli_head_out_finish(struct cli_head_out *h, int committed, const char *game)
{
	int rc = 0;

	if (!h->staged) {
		ord_buf_release(&h->text);
		return 0;
	}
	if (!committed) {
		if (h->tmp)
			unlink(h->tmp);
	} else if (!h->tmp) {
		if (fwrite(h->text.buf, 1, h->text.len, stdout) != h->text.len)
			rc = CLI_SOFTWARE;
	} else if (rename(h->tmp, h->target) < 0) {
		cli_error("the change is made, but its signed head could not be put in '%s' (%s): write it again with 'orderly head %s --turn %d --at %s -o FILE'",
			  h->path, strerror(errno), game, h->turn, h->at);
		unlink(h->tmp);
		rc = CLI_SOFTWARE;
	} else {
		printf("signed head: %s (hand it to every side)\n", h->path);
	}
	free(h->tmp);
	h->tmp = NULL;
	free(h->target);
	h->target = NULL;
	ord_buf_release(&h->text);
	return rc;
}

int cli_signed_change(const char *game, const char *key, const char *head,
		      int (*change)(ord_game *g, void *ud), void *ud, const char *done)
{
	struct cli_head_out ho;
	struct ord_keypair kp;
	ord_game *g = NULL;
	int rc, frc;

	memset(&kp, 0, sizeof(kp));
	cli_head_out_init(&ho, head);
	if (key && (rc = cli_load_key(key, &kp)) != 0)
		goto out;
	if ((rc = cli_open_game(&g, game)) != 0)
		goto out;
	if (key && (rc = ord_game_use_key(g, &kp)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	ord_game_set_hook(g, cli_head_hook, &ho);
	rc = change(g, ud);
	if (rc < 0) {
		rc = cli_fail(rc);
		cli_head_out_finish(&ho, 0, game);
		goto out;
	}
	printf("%s\n", done);
	if (ho.held.len)
		printf("no sheet from %s: the NMR policy stood in (see 'orderly info')\n", ho.held.buf);
	if (ho.held_why.len)
		printf("%s\n", ho.held_why.buf);
	frc = cli_head_out_finish(&ho, 1, game);
	rc = frc ? frc : CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	if (g)
		ord_game_free(g);
	ord_buf_release(&ho.text);
	ord_buf_release(&ho.held);
	ord_buf_release(&ho.held_why);
	return rc;
}
