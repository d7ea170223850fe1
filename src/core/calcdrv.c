/*
 * calcdrv.c - the calculator driver (ruleset.h, "The calculator"): the one
 * copy of what `orderly calc RULESET WHAT key=value...` does around a
 * module's computation.  It finds the calculation, checks its arguments
 * with the key checker the events use (argcheck.h), hands out the dice
 * (those given with --dice first, then rolled through ord_dice_face from a
 * fresh random key, as a game's dice are from its dice key), and writes
 * the answer: a line of text, or the <calc> document.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/argcheck.h"
#include "core/crypto.h"
#include "core/ctx.h"
#include "ruleset.h"
#include "tables.h"

struct ord_calc {
	const struct ord_calculator *calc; /* the module's calculator */
	const struct ord_calculation *cn;  /* the calculation run */
	const struct ord_tables *tables;   /* the module's tables, for words and flags */
	struct ord_kv args;                /* checked, defaults filled in */

	const int *given; /* --dice */
	size_t ngiven, used;
	unsigned char key[32]; /* the key rolled dice come from, drawn at the first */
	int have_key;
	unsigned nrolled;

	struct ord_buf rolled;  /* "a d6 = 3, b d6 = 5" */
	struct ord_buf dice;    /* <die> elements */
	struct ord_buf values;  /* <value> elements */
	struct ord_buf plain;   /* the values as "name value, ..." */
	struct ord_buf summary; /* what the text starts with, when the module says */
	int has_summary;
	struct ord_buf after; /* what follows the explanation */
	struct ord_kv texts;  /* lang -> explanation */
};

/* ---- the arguments: specs, and modifier flags ---- */

/* Does a flag table of the calculation name flag in a when or unless list? */
static int table_flag(const struct ord_calc *c, const char *flag)
{
	size_t t, i;

	for (t = 0; c->cn->flag_tables && c->cn->flag_tables[t]; t++) {
		const struct ord_table *tbl = ord_tables_get(c->tables, c->cn->flag_tables[t]);
		for (i = 0; tbl && i < ord_table_nrows(tbl); i++) {
			const struct ord_row *row = ord_table_row(tbl, i);
			const char *w = ord_row_attr(row, "when"), *u = ord_row_attr(row, "unless");
			if ((w && ord_words_has(w, flag)) || (u && ord_words_has(u, flag)))
				return 1;
		}
	}
	return 0;
}

static const char *const no_prefix[] = { "", NULL };

static const char *const *prefixes(const struct ord_calc *c)
{
	return c->cn->flag_prefixes ? c->cn->flag_prefixes : no_prefix;
}

/* A key beyond the specs is a flag: a prefix, then a flag of the tables. */
static int is_flag(void *ud, const char *key)
{
	const struct ord_calc *c = ud;
	const char *const *p;

	if (!c->cn->flag_tables)
		return 0;
	for (p = prefixes(c); *p; p++)
		if (!strncmp(key, *p, strlen(*p)) && table_flag(c, key + strlen(*p)))
			return 1;
	return 0;
}

/* ", or a modifier flag: a_flanke a_ryg d_flanke ..." */
static void list_flags(void *ud, struct ord_buf *out)
{
	const struct ord_calc *c = ud;
	struct ord_buf flags = ORD_BUF_INIT;
	const char *const *p;
	size_t t, i, len;
	int k;

	if (!c->cn->flag_tables)
		return;
	for (t = 0; c->cn->flag_tables[t]; t++) {
		const struct ord_table *tbl = ord_tables_get(c->tables, c->cn->flag_tables[t]);
		for (i = 0; tbl && i < ord_table_nrows(tbl); i++) {
			const char *lists[2] = { ord_row_attr(ord_table_row(tbl, i), "when"),
						 ord_row_attr(ord_table_row(tbl, i), "unless") };
			for (k = 0; k < 2; k++) {
				const char *l = lists[k], *w;
				while ((w = ord_words_next(&l, &len)) != NULL) {
					char name[128];
					if (len >= sizeof(name))
						continue;
					memcpy(name, w, len);
					name[len] = '\0';
					if (!ord_words_has(flags.buf, name))
						ord_words_add(&flags, " ", name);
				}
			}
		}
	}
	ord_buf_adds(out, ", or a modifier flag:");
	for (p = prefixes(c); *p; p++) {
		const char *l = flags.buf, *w;
		while ((w = ord_words_next(&l, &len)) != NULL)
			ord_buf_addf(out, " %s%.*s", *p, (int)len, w);
	}
	ord_buf_release(&flags);
}

/* How the words of the calculator's ruleset's sheets are read (argcheck.h):
 * a calculation's words are read so ("formation=KARRÉ", "kar": karre),
 * and a word that is none is told the nearest, as an event's are.  None
 * (as written) when the ruleset is not registered. */
static void calc_words(const struct ord_calc *c, struct ord_words_how *words)
{
	const struct ord_ruleset *rs = NULL;

	if (!c->calc->ruleset || ord_ruleset_find(&rs, c->calc->ruleset) != 0) {
		ord_error_clear();
		rs = NULL;
	}
	ord_words_how_of(words, rs);
}

static int check_args(struct ord_calc *c, const struct ord_kv *args)
{
	struct ord_words_how words;
	struct ord_keys_how how = { c->cn->what, c->tables, is_flag, list_flags, c, &words };
	struct ord_diag d;
	int err;

	calc_words(c, &words);
	ord_diag_init(&d);
	err = ord_keys_check_how(&c->args, c->cn->args, args, &how, &d);
	/* the calculator names the first problem, as a message */
	if (err)
		err = ord_error_set(ORD_EUSAGE, "%s", d.items[0].msg);
	ord_diag_release(&d);
	return err;
}

/* ---- what a calculation calls ---- */

const struct ord_kv *ord_calc_args(struct ord_calc *c)
{
	return &c->args;
}

void ord_calc_flags(struct ord_calc *c, const char *prefix, struct ord_kv *flags)
{
	const struct ord_key_spec *s;
	size_t i, n = strlen(prefix);

	for (i = 0; i < c->args.n; i++) {
		const char *key = c->args.items[i].key;
		for (s = c->cn->args; s->name; s++)
			if (!strcmp(s->name, key))
				break;
		if (!s->name && !strncmp(key, prefix, n))
			ord_kv_set(flags, key + n, c->args.items[i].value);
	}
}

int ord_calc_die(struct ord_calc *c, int *out, unsigned sides, const char *name)
{
	int rolled = 0;

	if (sides < 2 || sides > 1000)
		return ord_error_set(ORD_ERROR, "a die of %u faces", sides);
	if (c->used < c->ngiven) {
		*out = c->given[c->used++];
	} else {
		/* no --dice: a fresh key, and faces derived from it exactly as a
		 * game's from its dice key (ctx.c, ord_dice_face) */
		if (!c->have_key) {
			int err = ord_crypto_init();
			if (err)
				return err;
			randombytes_buf(c->key, sizeof(c->key));
			c->have_key = 1;
		}
		*out = ord_dice_face(c->key, c->cn->what, 0, name, c->nrolled++, sides);
		rolled = 1;
		ord_buf_addf(&c->rolled, "%s%s d%u = %d", c->rolled.len ? ", " : "", name, sides, *out);
	}
	ord_buf_addf(&c->dice, "  <die name=\"%s\" sides=\"%u\" rolled=\"%s\">%d</die>\n", name,
		     sides, rolled ? "yes" : "no", *out);
	return 0;
}

void ord_calc_value(struct ord_calc *c, const char *name, const char *value)
{
	ord_buf_adds(&c->values, "  <value name=\"");
	ord_buf_add_xml(&c->values, name);
	ord_buf_adds(&c->values, "\">");
	ord_buf_add_xml(&c->values, value);
	ord_buf_adds(&c->values, "</value>\n");
	ord_buf_addf(&c->plain, "%s%s %s", c->plain.len ? ", " : "", name, value);
}

void ord_calc_value_int(struct ord_calc *c, const char *name, long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld", v);
	ord_calc_value(c, name, b);
}

void ord_calc_value_num(struct ord_calc *c, const char *name, double v)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_tables_fmt(&b, v, 0);
	ord_calc_value(c, name, b.buf);
	ord_buf_release(&b);
}

void ord_calc_summary(struct ord_calc *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&c->summary, fmt, ap);
	va_end(ap);
	c->has_summary = 1;
}

void ord_calc_after(struct ord_calc *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&c->after, fmt, ap);
	va_end(ap);
}

void ord_calc_explain(struct ord_calc *c, const char *lang, const char *text)
{
	ord_kv_set(&c->texts, lang, text);
}

/* ---- the answer ---- */

/* The explanation in the language the arguments ask for, else the first. */
static const char *text_in(const struct ord_calc *c, const char *lang)
{
	const char *t = lang ? ord_kv_get(&c->texts, lang) : NULL;

	if (t)
		return t;
	return c->texts.n ? c->texts.items[0].value : "";
}

/* What the calculator calls the dice it rolled, in a language. */
static const char *rolled_words(const struct ord_calc *c, const char *lang)
{
	const char *const *w = c->calc->dice_rolled;
	size_t i;

	if (!w || !w[0])
		return "dice rolled";
	for (i = 0; w[i] && w[i + 1]; i += 2)
		if (lang && !strcmp(w[i], lang))
			return w[i + 1];
	return w[1];
}

static void write_xml(const struct ord_calc *c, struct ord_buf *out)
{
	size_t i;

	ord_buf_adds(out, "<calc ruleset=\"");
	ord_buf_add_xml(out, c->calc->ruleset);
	ord_buf_adds(out, "\" what=\"");
	ord_buf_add_xml(out, c->cn->what);
	ord_buf_adds(out, "\">\n");
	ord_buf_add(out, c->values.buf, c->values.len);
	ord_buf_add(out, c->dice.buf, c->dice.len);
	/* one explanation plain; several each with its language */
	for (i = 0; i < c->texts.n; i++) {
		ord_buf_adds(out, "  <explanation");
		if (c->texts.n > 1) {
			ord_buf_adds(out, " lang=\"");
			ord_buf_add_xml(out, c->texts.items[i].key);
			ord_buf_addch(out, '"');
		}
		ord_buf_addch(out, '>');
		ord_buf_add_xml(out, c->texts.items[i].value);
		ord_buf_adds(out, "</explanation>\n");
	}
	ord_buf_adds(out, "</calc>\n");
}

static void write_text(const struct ord_calc *c, struct ord_buf *out)
{
	const char *lang = c->calc->lang_key ? ord_kv_get(&c->args, c->calc->lang_key) : NULL;

	if (c->has_summary)
		ord_buf_add(out, c->summary.buf, c->summary.len);
	else
		ord_buf_add(out, c->plain.buf, c->plain.len);
	ord_buf_addf(out, " (%s)", text_in(c, lang));
	ord_buf_add(out, c->after.buf, c->after.len);
	ord_buf_addch(out, '\n');
	if (c->rolled.len)
		ord_buf_addf(out, "%s: %s\n", rolled_words(c, lang), c->rolled.buf);
}

int ord_calc_run(const struct ord_calculator *calc, struct ord_rules *rules,
		 const struct ord_tables *tables, const char *what, const struct ord_kv *args,
		 const int *dice, size_t ndice, int xml, struct ord_buf *out)
{
	const struct ord_calculation *cn;
	struct ord_calc c;
	int err;

	for (cn = calc->calcs; cn->what; cn++)
		if (what && !strcmp(what, cn->what))
			break;
	if (!cn->what) {
		struct ord_buf names = ORD_BUF_INIT;
		for (cn = calc->calcs; cn->what; cn++)
			ord_words_add(&names, " ", cn->what);
		/* none asked for ("orderly calc battalion"): what there is */
		if (!what || !*what)
			err = ord_error_set(ORD_EUSAGE,
					    "missing WHAT, the calculation (expected one of %s)",
					    names.buf);
		else
			err = ord_error_set(ORD_EUSAGE, "unknown calculation '%s' (expected one of %s)",
					    what, names.buf);
		ord_buf_release(&names);
		return err;
	}
	if (ndice > cn->ndice)
		return ord_error_set(ORD_EUSAGE, "dice: %zu given, %s uses %u", ndice, what, cn->ndice);
	memset(&c, 0, sizeof(c));
	c.calc = calc;
	c.cn = cn;
	c.tables = tables;
	c.given = dice;
	c.ngiven = ndice;
	ord_kv_init(&c.args);
	ord_kv_init(&c.texts);
	ord_buf_init(&c.rolled);
	ord_buf_init(&c.dice);
	ord_buf_init(&c.values);
	ord_buf_init(&c.plain);
	ord_buf_init(&c.summary);
	ord_buf_init(&c.after);
	if ((err = check_args(&c, args)) != 0 || (err = cn->run(&c, rules)) != 0)
		goto out;
	if (xml)
		write_xml(&c, out);
	else
		write_text(&c, out);
out:
	sodium_memzero(c.key, sizeof(c.key));
	ord_kv_release(&c.args);
	ord_kv_release(&c.texts);
	ord_buf_release(&c.rolled);
	ord_buf_release(&c.dice);
	ord_buf_release(&c.values);
	ord_buf_release(&c.plain);
	ord_buf_release(&c.summary);
	ord_buf_release(&c.after);
	return err;
}
