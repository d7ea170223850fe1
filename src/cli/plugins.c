/*
 * plugins.c - the parts of the orderly binary that bring libraries most of
 * its commands never use, loaded when a command first needs them:
 *
 *   orderly-png.so   pictures as PNG (src/core/png.c): librsvg and cairo,
 *                    some forty libraries with pango, fontconfig and X's
 *   orderly-mime.so  reading and writing mail (src/mail/decode.c,
 *                    compose.c): GMime and GPGME
 *   orderly-web.so   the web page (src/web): libmicrohttpd and GnuTLS
 *
 * Linked in, they made every process load 65 shared libraries and bind
 * their symbols before main: 16 ms of a submit's or an event's time, more
 * than all of its own work on a game of a thousand units
 * (docs/benchmarks.md, "The thirty-fifth session").  Now a submit loads
 * SQLite, libxml2 and libsodium and what they need.
 *
 * Each object is looked for next to the binary (the build's directory, or a
 * copy's with its objects), then where `cmake --install` puts it as seen
 * from the binary (ORD_PLUGINDIR_REL, ../lib/orderly: an installed tree
 * moved whole still finds its own), then in ORD_PLUGINDIR (the installed
 * one, LIBDIR/orderly, for a binary copied alone).  The first that exists
 * is loaded: never another's when the binary has its own.
 * Its one entry gives a table of its functions with the layout's number
 * (abi) and the build's identity (ORD_BUILD_ID, drawn once when the build
 * directory is configured: CMakeLists.txt), and the functions here of the same names as the object's call
 * through it: the rest of the binary and liborderly call them as before,
 * and the tests link the objects' code directly.  The object resolves its
 * own calls of liborderly against the binary, which exports them (as for an
 * external ruleset), so it must be of the binary's own build: an object of
 * an older one, left installed where this binary looks, may call
 * liborderly's functions as they were.  An object not found, or of another
 * layout or build, ends the
 * process with a message naming it and exit status 69: the installation is
 * incomplete, and nothing was written.
 *
 * An object is loaded once (pthread_once: `orderly serve` composes mail in
 * its threads) and never let go.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canvas.h"
#include "cli/cli.h"
#include "mail/mail.h"
#include "web/web.h"

#ifndef ORD_PLUGINDIR
#define ORD_PLUGINDIR "/usr/local/lib/orderly"
#endif
#ifndef ORD_PLUGINDIR_REL
#define ORD_PLUGINDIR_REL "../lib/orderly"
#endif

struct plugin {
	const char *file;  /* "orderly-png.so" */
	const char *entry; /* its function that gives the table */
	const char *what;  /* for the message: "the pictures' part" */
	unsigned abi;      /* the table's layout this binary was built for */
	const void *table; /* set once, by load under pthread_once */
};

/* What every part's table begins with (struct ord_png, mail_mime,
 * web_plugin). */
struct plugin_head {
	unsigned abi;
	const char *build;
};

static struct plugin png = { "orderly-png.so", "ord_png_plugin", "the pictures' part", ORD_PNG_ABI,
			     NULL };
static struct plugin mime = { "orderly-mime.so", "mail_mime_plugin", "the mail's part",
			      MAIL_MIME_ABI, NULL };
static struct plugin web = { "orderly-web.so", "web_plugin", "the web page's part", WEB_ABI, NULL };

/* The directory of the running binary, in dir (no trailing '/'); 0 or -1. */
static int binary_dir(char *dir, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", dir, n - 1);
	char *slash;

	if (len <= 0)
		return -1;
	dir[len] = '\0';
	if (!(slash = strrchr(dir, '/')))
		return -1;
	*slash = '\0';
	return 0;
}

static void __attribute__((noreturn))
refuse(const struct plugin *p, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "orderly: %s (%s) cannot be loaded: ", p->what, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(CLI_UNAVAILABLE);
}

/* Where file is looked for, into path (n bytes): the first place that
 * holds it, else the last looked at; 1 when it is there. */
static int where(const char *file, char *path, size_t n)
{
	char dir[PATH_MAX];

	if (binary_dir(dir, sizeof(dir)) == 0) {
		snprintf(path, n, "%s/%s", dir, file);
		if (access(path, F_OK) == 0)
			return 1;
		snprintf(path, n, "%s/%s/%s", dir, ORD_PLUGINDIR_REL, file);
		if (access(path, F_OK) == 0)
			return 1;
	}
	snprintf(path, n, "%s/%s", ORD_PLUGINDIR, file);
	return access(path, F_OK) == 0;
}

static void load(struct plugin *p)
{
	char path[PATH_MAX + 64];
	const void *(*entry)(void);
	const struct plugin_head *head;
	void *h;

	where(p->file, path, sizeof(path));
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		refuse(p, path, "%s", dlerror());
	*(void **)&entry = dlsym(h, p->entry);
	if (!entry)
		refuse(p, path, "it has no %s", p->entry);
	head = entry();
	if (!head || head->abi != p->abi)
		refuse(p, path, "it is of another orderly (its table's layout %u, this binary's %u)",
		       head ? head->abi : 0u, p->abi);
	if (!head->build || strcmp(head->build, ORD_BUILD_ID))
		refuse(p, path,
		       "it is of another build of orderly (build %s, this binary's %s): install the binary and its parts together",
		       head->build ? head->build : "(none)", ORD_BUILD_ID);
	p->table = head;
}

/* pthread_once calls a function of no argument: one for each object */
#define ONCE(name)                                             \
	static pthread_once_t name##_once = PTHREAD_ONCE_INIT; \
	static void load_##name(void)                          \
	{                                                      \
		load(&name);                                   \
	}
ONCE(png)
ONCE(mime)
ONCE(web)

void cli_plugins_where(FILE *out)
{
	const struct plugin *parts[] = { &png, &mime, &web };
	char path[PATH_MAX + 64], real[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		if (where(parts[i]->file, path, sizeof(path)))
			fprintf(out, "part %s: %s\n", parts[i]->file,
				realpath(path, real) ? real : path);
		else
			fprintf(out,
				"part %s: not installed (looked for beside the binary, in %s from it, and at %s)\n",
				parts[i]->file, ORD_PLUGINDIR_REL, path);
	}
}

#define PNG (pthread_once(&png_once, load_png), (const struct ord_png *)png.table)
#define MIME (pthread_once(&mime_once, load_mime), (const struct mail_mime *)mime.table)
#define WEB (pthread_once(&web_once, load_web), (const struct web_plugin *)web.table)
/* ---- orderly-png.so ---- */

int ord_svg_to_png(struct ord_buf *out, const char *svg, size_t len, double scale)
{
	return PNG->svg_to_png(out, svg, len, scale);
}

/* ---- orderly-mime.so ---- */

void mail_init(void)
{
	MIME->init();
}

void mail_shutdown(void)
{
	MIME->shutdown();
}

void mail_msg_read(struct mail_msg *m, const char *raw, size_t len, const char *recipient)
{
	MIME->msg_read(m, raw, len, recipient);
}

void mail_msg_verify_pgp(struct mail_msg *m, const char *raw, size_t len, const char *armored)
{
	MIME->msg_verify_pgp(m, raw, len, armored);
}

void mail_msg_release(struct mail_msg *m)
{
	MIME->msg_release(m);
}

void mail_msg_texts(const char *raw, size_t len, mail_text_fn fn, void *ud)
{
	MIME->msg_texts(raw, len, fn, ud);
}

char *mail_header_decode(const char *text)
{
	return MIME->header_decode(text);
}

int mail_pgp_fingerprint(const char *armored, char *fpr, size_t n)
{
	return MIME->pgp_fingerprint(armored, fpr, n);
}

void mail_compose(struct mail_out *out, const char *from, const char *rcpt, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const char *game, const struct mail_attach *att, size_t natt)
{
	MIME->compose(out, from, rcpt, subject, body, in_reply_to, references, game, att, natt);
}

void mail_out_release(struct mail_out *o)
{
	MIME->out_release(o);
}

int mail_compose_file(struct mail_out *out, int fd, const char *from, const char *rcpt,
		      const char *subject, const char *body, int text_fd, size_t text_len,
		      const char *in_reply_to, const char *references, const char *game,
		      const struct mail_attach *att, size_t natt)
{
	return MIME->compose_file(out, fd, from, rcpt, subject, body, text_fd, text_len,
				  in_reply_to, references, game, att, natt);
}

/* ---- orderly-web.so ---- */

int web_serve(const struct web_opts *o)
{
	return WEB->serve(o);
}
