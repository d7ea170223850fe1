/*
 * mail.h - the mail judge (DESIGN.md, "Front-ends: the mail judge";
 * docs/pbem.md): a front-end over liborderly's public API that reads one
 * message from the MTA (mail-in), answers it through a transactional
 * outbox (mail-out), and keeps deadlines (tick).
 *
 *   decode.c   one RFC 5322 message through GMime: headers, loop signs, the
 *              text a player wrote (charsets, transfer encodings, parts),
 *              a .txt attachment, an OpenPGP/MIME signature
 *   body.c     the text as commands, proof lines and an order sheet whose
 *              lines keep the numbers the player saw
 *   compose.c  replies and notices as RFC 5322 bytes (GMime)
 *   (the names of the files the judge mails are the core's,
 *   src/core/file_names.c, which the web page names its downloads by too)
 *   mime.c     decode.c and compose.c as the shared object orderly-mime.so,
 *              which the orderly binary loads when a command first reads or
 *              writes a mail (src/cli/plugins.c): GMime and GPGME bring
 *              some twenty libraries that a submit or an event should not
 *              load
 *   judge.c    mail-in: the game, the inbox, who sent it, the command
 *   notices.c  what a change or the clock makes every player receive
 *   outbox.c   mail-out: queued mail to `sendmail -t -i`
 *   tick.c     tick: reminders, late notices, auto-seal, the outboxes of a
 *              directory of games
 *
 * Ownership: every struct here owns its strings (malloc'd), freed by its
 * _release function.
 */
#ifndef ORD_MAIL_H
#define ORD_MAIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "orderly.h"

/* sysexits for the MTA */
#define MAIL_EX_OK 0
#define MAIL_EX_DATAERR 65
#define MAIL_EX_NOUSER 67
#define MAIL_EX_SOFTWARE 70
#define MAIL_EX_TEMPFAIL 75

/* The notices an hour that a mail from a registered address was not
 * proven his (judge.c J8): at most this many (fewer when the game's
 * replies-per-hour is smaller), whoever writes them. */
#define MAIL_NOTICES_PER_HOUR 2

/* What is kept of a mail nobody answers (a stranger's, a loop's, one to
 * no game; judge.c J9): its headers up to this many bytes and the first
 * MAIL_UNANSWERED_BODY bytes of its body. */
#define MAIL_UNANSWERED_HEAD ((size_t)64 * 1024)
#define MAIL_UNANSWERED_BODY ((size_t)16 * 1024)

/* A notice or a reply whose body and attachments hold more than this
 * many bytes is composed into a file and copied into the outbox a piece
 * at a time (mail_queue_mail), as one attaching a file is; a smaller one
 * in memory. */
#define MAIL_IN_MEMORY ((size_t)64 * 1024)

/* The largest message mail-in takes (a larger one gets a reply saying so). */
#define MAIL_MAX_BYTES ((size_t)32 * 1024 * 1024)
/* The largest text orderly reads as a sheet. */
#define MAIL_MAX_TEXT ((size_t)1024 * 1024)

/* Hex both ways (libsodium): out has 2*len+1 bytes; unhex gives the bytes or -1. */
void mail_hex(char *out, const unsigned char *p, size_t len);
int mail_unhex(unsigned char *out, size_t max, const char *hex);

/* ---- decode.c ---- */

struct mail_msg {
	char *message_id;  /* without <>, or one made from the bytes when missing */
	char *from;        /* first mailbox of From:, lowercase; NULL when none */
	char *from_header; /* From: as written (for the inbox); "" when none */
	char *subject;     /* decoded, "" when none */
	char *references;  /* References: as written, "" when none */
	char *to_plus;     /* GAME of a recipient orderly+GAME@, NULL when none */
	char *loop;       /* why this must not be answered (auto-reply, bulk, bounce...), or NULL */
	char *text;       /* the text/plain the sender wrote, UTF-8, LF line ends; NULL if none */
	char *attachment; /* a .txt (or text/plain) attachment, UTF-8; NULL if none */
	int html_only;    /* HTML but no text/plain anywhere */
	struct mail_nul {
		int n;              /* NUL bytes left out of text and attachment (refused) */
		unsigned line, col; /* the first one's, 1-based, in characters */
	} nul;
	const char *nul_in; /* the part it is in: "your mail's text", ... */
	int nattachments;   /* .txt (or text/plain) attachments: each one a sheet */
	char *unread;       /* attached files not read (D9), the first five:
			       "a.docx, b.pdf"; NULL when none */
	int nunread;        /* how many */
	int ntexts;         /* inline text parts after the first, not blank */
	int broken;         /* GMime could not read it as a message */
	int pgp;       /* 0 unsigned; 1 a good OpenPGP/MIME signature by pgp_fpr; -1 a bad one */
	char *pgp_fpr; /* fingerprint of the signing key, uppercase */
	int64_t pgp_created; /* when the good signature was made (unix seconds; -1 unknown) */
	char *pgp_why;       /* why a signature is bad */
	int pgp_part;        /* a multipart/signed below the top: a part signed, no proof (D8) */
	int64_t received;    /* the date of the topmost Received: line, the one the MTA
				that handed it to us added (D11); 0: none or unreadable */
};
void mail_init(void); /* once per process: GMime */
void mail_shutdown(void);
/* Read raw (len bytes) into m.  recipient: the envelope recipient the MTA
 * names (may be NULL).  A signed message gets pgp -1 until verified. */
void mail_msg_read(struct mail_msg *m, const char *raw, size_t len, const char *recipient);
/* Verify the OpenPGP/MIME signature of raw against the one key armored. */
void mail_msg_verify_pgp(struct mail_msg *m, const char *raw, size_t len, const char *armored);
void mail_msg_release(struct mail_msg *m);
/* Every form raw can be read in (decode.c, D7): fn is called with each
 * text (NUL-terminated, n bytes, no NUL or CR in it): the bytes as they
 * are, the decoded Subject, every leaf part decoded (forwarded messages,
 * attachments and HTML too), in UTF-8, format=flowed joined, HTML as text. */
typedef void (*mail_text_fn)(void *ud, const char *text, size_t n);
void mail_msg_texts(const char *raw, size_t len, mail_text_fn fn, void *ud);
/* A header field's text with its encoded words (RFC 2047) decoded. */
char *mail_header_decode(const char *text);
/* The fingerprint of an armored OpenPGP public key (GPGME); 0 or -1. */
int mail_pgp_fingerprint(const char *armored, char *fpr, size_t n);

/* ---- body.c ---- */

enum mail_cmd {
	CMD_ORDERS,
	CMD_CHECK,
	CMD_STATUS,
	CMD_REPORT,
	CMD_HELP,
	CMD_LINK, /* a side's witness link (witnessed dice) */
	/* the referee's */
	CMD_SEAL,
	CMD_EVENT,
	CMD_RESOLVE,
	CMD_EXCHANGE,
	CMD_DEADLINE,
	CMD_SCHEDULE,
	CMD_CLOSE, /* witnessed dice: close the current phase's events */
};

struct mail_cmdline {
	enum mail_cmd cmd;
	char *args;    /* the rest of the line */
	unsigned line; /* its line in the text (1-based); 0: the Subject */
};

struct mail_body {
	enum mail_cmd cmd;
	int explicit_cmd; /* a command was written (not the default ORDERS) */
	int subject_cmd;  /* the subject's command (enum mail_cmd), or -1 */
	char *args;       /* the rest of its command line: REPORT 2, RESOLVE movement ... */
	struct mail_cmdline *cmds; /* every command line, in order (the referee's) */
	size_t ncmds;
	char *game;       /* Game: line, or NULL */
	char *side;       /* Side: line, or NULL */
	char *passphrase; /* Passphrase: line, or NULL */
	unsigned char nonce[32], signature[64], witness[32];
	int have_nonce, have_signature, have_witness; /* as `orderly sign` prints them */
	int nonce_line, signature_line, witness_line; /* those lines seen at all */
	const char *unreadable;            /* the first line of `orderly sign` there but not
				 * read (cut short, wrapped): what to say of it */
	unsigned char draft_signature[64]; /* `orderly sign --draft`: a CHECK's proof */
	int have_draft_signature, draft_signature_line; /* parsed; the line seen at all */
	struct ord_buf sheet; /* the sheet: the ORDERS ... END block, or the text */
	unsigned *lines;      /* lines[i]: the player's line number of sheet line i+1 */
	size_t nlines;
	int block;            /* 1: the sheet was an ORDERS ... END block */
	int extra_block;      /* an ORDERS or CHECK line after that block */
	char *where;          /* how line numbers count: "your ORDERS block", "your mail" */
	int unterminated;     /* an ORDERS line without its END */
	unsigned block_line;  /* the ORDERS (CHECK) line's number in the text, 0 when none */
	int cmd_from_subject; /* no command line, in the text nor (judge.c) as the attached
				 file's block: the Subject's, or the default */
};
void mail_body_init(struct mail_body *b);
void mail_body_release(struct mail_body *b);
/* Read the commands, proof lines and the sheet of text (quoted lines,
 * signatures and attributions gone); subject may hold the command. */
void mail_body_parse(struct mail_body *b, const char *subject, const char *text);
/* Is the line [s, e) a passphrase line, "Passphrase: VALUE" in any case,
 * its key perhaps marked bold or italic (B4)?  1 with the value, without
 * its blanks, in [*vs, *ve), and in *key_end where the key, its colon and
 * its marks end; else 0.  loose: also a line that only looks like one,
 * for the judge to keep none of its value (judge.c): quoted ('>'), after
 * a byte-order mark, marks that do not close, "Pass phrase", '=' for the
 * colon; the value without marks around it either.  Every line that
 * mail_body_parse takes as a passphrase line is one when loose, its value
 * the same or within it. */
int mail_passphrase_line(const char *s, const char *e, int loose, const char **key_end,
			 const char **vs, const char **ve);
/* Variants of the sheet a player may have signed with `orderly sign`: the
 * lines as received with LF, without the final newline, with CRLF. */
size_t mail_body_variants(const struct mail_body *b, struct ord_buf out[3]);
const char *mail_cmd_name(enum mail_cmd c);
/* Append the line [line, line + len) of a sheet as the judge quotes it
 * under a problem, indented and cut after MAIL_QUOTE_MAX characters, and
 * a line with a caret under its column col (from 1 to just past the
 * line's end; else none): col in characters, as every message counts
 * it.  The line is shown as the reports show a sheet's words: a character
 * a reader does not see or that turns what he reads escaped (\u202e,
 * ord_buf_add_name_char), a byte that is no UTF-8 as \xff; the caret is
 * placed by the columns of what is shown before it (an æ or a ↑ one, a
 * combining mark none, a CJK character or an emoji two, an escape its
 * length, a tab a tab: ord_char_columns). */
#define MAIL_QUOTE_MAX 200
void mail_quote_at(struct ord_buf *out, const char *line, size_t len, unsigned col);
/* The arguments of a LINK line, "[[phase] P] HEX" (B6): the link's 32
 * bytes, and the phase the player named (0 when none); -1 with why said
 * in why (appended) when they are not that. */
int mail_link_parse(const char *args, int *phase, unsigned char link[32], struct ord_buf *why);

/* ---- compose.c ---- */

struct mail_attach {
	const char *filename;
	const char *type; /* "text/plain", "application/xml" */
	const char *data;
	size_t len;
	int in_file; /* 1: not data, but the first len bytes of the file open at fd */
	int fd;
};
struct mail_out {
	char *message_id; /* without <> */
	struct ord_buf bytes;
	size_t file_len; /* mail_compose_file: the bytes written to its file */
};
/*
 * Compose a text/plain UTF-8 message (multipart/mixed with attachments)
 * from the judge (from) to rcpt.  in_reply_to/references: the message
 * answered, or NULL.  Auto-Submitted: auto-replied (auto-generated when
 * not a reply), X-Orderly-Game: game.  host names the Message-ID's right side.
 */
void mail_compose(struct mail_out *out, const char *from, const char *rcpt, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const char *game, const struct mail_attach *att, size_t natt);
/* mail_compose's message written into the file open at fd (at its
 * offset) rather than held in out->bytes, which stays empty: read a piece
 * at a time from the attachments' files, so that a mail attaching a
 * bundle is never whole in memory.  Its text is body followed by the
 * first text_len bytes of the file open at text_fd (a turn report written
 * there a piece at a time, read as the mail is written; text_fd < 0:
 * body alone).  0, or -1 when the file cannot be written (errno). */
int mail_compose_file(struct mail_out *out, int fd, const char *from, const char *rcpt,
		      const char *subject, const char *body, int text_fd, size_t text_len,
		      const char *in_reply_to, const char *references, const char *game,
		      const struct mail_attach *att, size_t natt);
void mail_out_release(struct mail_out *o);

/* ---- mime.c: decode.c and compose.c as orderly-mime.so ---- */

/* Its one entry gives every function of decode.c and compose.c above: the
 * orderly binary's functions of the same names call through it.  abi is
 * MAIL_MIME_ABI and build the build's ORD_BUILD_ID: a table of another
 * layout or build is refused at the load. */
#define MAIL_MIME_ABI 4
struct mail_mime {
	unsigned abi;
	const char *build;
	void (*init)(void);
	void (*shutdown)(void);
	void (*msg_read)(struct mail_msg *m, const char *raw, size_t len, const char *recipient);
	void (*msg_verify_pgp)(struct mail_msg *m, const char *raw, size_t len, const char *armored);
	void (*msg_release)(struct mail_msg *m);
	void (*msg_texts)(const char *raw, size_t len, mail_text_fn fn, void *ud);
	char *(*header_decode)(const char *text);
	int (*pgp_fingerprint)(const char *armored, char *fpr, size_t n);
	void (*compose)(struct mail_out *out, const char *from, const char *rcpt, const char *subject,
			const char *body, const char *in_reply_to, const char *references,
			const char *game, const struct mail_attach *att, size_t natt);
	void (*out_release)(struct mail_out *o);
	/* ABI 3; ABI 4 added text_fd and text_len */
	int (*compose_file)(struct mail_out *out, int fd, const char *from, const char *rcpt,
			    const char *subject, const char *body, int text_fd, size_t text_len,
			    const char *in_reply_to, const char *references, const char *game,
			    const struct mail_attach *att, size_t natt);
};
const struct mail_mime *mail_mime_plugin(void);

/* ---- the names of the files it mails: ord_file_name, ord_game_file_name
 * (orderly.h, src/core/file_names.c), which the web page names its
 * downloads by too ---- */

/* ---- notices.c: what players receive without asking ---- */

struct judge_ctx; /* judge.c */

/* The judge's From: for game g ("orderly+GAME@host"), written to out. */
void mail_judge_from(ord_game *g, struct ord_buf *out);
/* Queue every mail the state of g calls for and that was not queued yet:
 * signed heads and NMR notices at a seal, each side's report after the last
 * phase, reminders and late notices of the open
 * turn by now.  Inside a transaction (a hook, or ord_game_transact).
 * *next: when something will be due by the clock (0: nothing). */
int mail_notices(ord_game *g, int64_t now, int64_t *next);

/* The deadline of open turn `turn` changed from `from` to `to` (as the
 * game keeps it, the end of the grace; 0: none): every side told of the
 * turn (the mail of its opening queued) is mailed the change, *told how
 * many.  Call it in the change's transaction (its hook), before
 * mail_notices, so that each change is mailed once. */
int mail_deadline_notices(ord_game *g, int turn, int64_t from, int64_t to, size_t *told);
/* The same for change c (ORD_CHANGE_DEADLINE; nothing else): a deadline
 * set, or the end of its grace moved by a schedule whose grace changed
 * (c->grace_changed), which is mailed too, longer or shorter: the deadline
 * the players were told stays, and the mail says until when sheets are
 * taken now, and until when they were before.  What a hook calls. */
int mail_deadline_change(ord_game *g, const struct ord_change *c, size_t *told);

/* Queue one mail to address rcpt from the game's judge, its Subject
 * "[GAME] subject", under key (NULL: always; the caller looks whether one
 * is queued); its text body followed by the text_len bytes of the file
 * open at text_fd (< 0: none; a report that ord_game_report_fd wrote
 * there, read as the mail is written).  A mail with a text in a file, an
 * attachment in a file, or more than MAIL_IN_MEMORY bytes is composed
 * into a file of its own and copied into the outbox a piece at a time;
 * a smaller one in memory.  What the notices (mail_queue_to, a turn's
 * reports) and the judge's replies (REPORT) queue by. */
int mail_queue_mail(ord_game *g, const char *rcpt, const char *key, const char *subject,
		    const char *body, int text_fd, size_t text_len, const char *in_reply_to,
		    const char *references, const struct mail_attach *att, size_t natt);
/* Queue one mail to a party (its registered address); key NULL always,
 * else once.  Counts towards nothing: notices are not rate limited. */
int mail_queue_to(ord_game *g, const char *side, const char *key, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const struct mail_attach *att, size_t natt);

/* ---- judge.c, outbox.c, tick.c: the commands ---- */

struct mail_in_opts {
	const char *games;     /* directory of game files */
	const char *recipient; /* envelope recipient, or NULL */
	const char *game;      /* a game file named directly, or NULL */
};
/* Read one message (raw) and act on it; returns a sysexits code, with a
 * line for the MTA's log in msg. */
int mail_in(const struct mail_in_opts *o, const char *raw, size_t len, struct ord_buf *msg);
/* Hand every unsent mail of g to sendmail (a shell command); counts. */
int mail_out_game(ord_game *g, const char *sendmail, size_t *sent, size_t *failed, struct ord_buf *msg);
/* tick over one game file: notices, auto-seal, outbox; *unsent: how many
 * mails sendmail did not take (they stay queued); *notable: set when msg
 * says what a quiet tick prints too (the seal at the deadline, done or
 * refused, or a mail sendmail did not take), else 0. */
int mail_tick_game(const char *path, const char *sendmail, int64_t *next, size_t *unsent,
		   int *notable, struct ord_buf *msg);

#endif
