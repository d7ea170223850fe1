/*
 * registry.c - the modules orderly knows: rulesets and notations registered
 * by the front-end (rulesets/builtin.c lists the built-in ones), then
 * external ones found by dlopen in ORDERLY_RULESET_PATH (a colon-separated
 * list of directories holding ord_ruleset_<name>.so or
 * ord_notation_<name>.so).  Also the generic checking of key=value
 * arguments against key specs.
 *
 * The core owns this mechanism and names no module: nothing under src/core
 * links to a ruleset or a notation.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/argcheck.h"
#include "core/common.h"
#include "ruleset.h"
#include "tables.h"

#define MAX_MODULES 64

/* a word of the input quoted back in a message: at most so many characters */
#define QUOTED_MAX 60

/* Registered modules, in the order registered; the process's lifetime. */
static const struct ord_ruleset *rulesets[MAX_MODULES];
static size_t nrulesets;
static const struct ord_notation *notations[MAX_MODULES];
static size_t nnotations;

static int valid_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > 64)
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* What one kind of module is called and how it is checked. */
struct kind {
	const char *what;      /* "ruleset" */
	unsigned version, min; /* the host's version and the oldest accepted */
};
static const struct kind RULESET = { "ruleset", ORD_RULESET_VERSION, ORD_RULESET_VERSION_MIN };
static const struct kind NOTATION = { "notation", ORD_NOTATION_VERSION, ORD_NOTATION_VERSION_MIN };

static int check_module(const struct kind *k, const char *file, const char *name, unsigned version,
			const char *want)
{
	if (version < k->min)
		return ord_error_set(ORD_EVERSION,
				     "%s module '%s' has interface version %u, older than %u, the oldest this orderly accepts; rebuild it against this orderly",
				     k->what, file, version, k->min);
	if (!name || !valid_name(name) || (want && strcmp(name, want)))
		return ord_error_set(ORD_ERROR, "%s module '%s' calls itself '%s', expected %s%s%s",
				     k->what, file, name ? name : "",
				     want ? "'" : "a name of a-z, 0-9, _", want ? want : "",
				     want ? "'" : "");
	return 0;
}

/* dlopen ORDERLY_RULESET_PATH/ord_<what>_<name>.so and call its
 * ord_<what>_<name>_init(version); ORD_ENOTFOUND when no directory has it. */
static int find_external(const struct kind *k, const void **out, const char *name)
{
	const char *path = getenv("ORDERLY_RULESET_PATH");
	struct ord_buf file = ORD_BUF_INIT, sym = ORD_BUF_INIT;
	int err = ORD_ENOTFOUND;

	if (!path || !*path)
		return ORD_ENOTFOUND;
	ord_buf_addf(&sym, "ord_%s_%s_init", k->what, name);
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		const void *(*init)(unsigned int);
		const void *mod;
		void *h;

		ord_buf_reset(&file);
		ord_buf_add(&file, path, len);
		ord_buf_addf(&file, "/ord_%s_%s.so", k->what, name);
		path += len + (colon ? 1 : 0);
		if (access(file.buf, F_OK) != 0)
			continue;
		h = dlopen(file.buf, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			err = ord_error_set(ORD_ERROR, "cannot load %s module '%s': %s", k->what,
					    file.buf, dlerror());
			goto out;
		}
		*(void **)&init = dlsym(h, sym.buf);
		if (!init) {
			err = ord_error_set(ORD_ERROR, "'%s' does not export %s()", file.buf, sym.buf);
			dlclose(h);
			goto out;
		}
		mod = init(k->version);
		if (!mod) {
			err = ord_error_set(ORD_EVERSION,
					    "%s module '%s' refused this orderly (interface version %u): it needs a newer one",
					    k->what, file.buf, k->version);
			dlclose(h);
			goto out;
		}
		/* both structs start with their version, then their name */
		if (k == &RULESET)
			err = check_module(k, file.buf, ((const struct ord_ruleset *)mod)->name,
					   ((const struct ord_ruleset *)mod)->version, name);
		else
			err = check_module(k, file.buf, ((const struct ord_notation *)mod)->name,
					   ((const struct ord_notation *)mod)->version, name);
		if (err) {
			dlclose(h);
			goto out;
		}
		/* the module stays loaded for the life of the process */
		*out = mod;
		err = 0;
		goto out;
	}
out:
	ord_buf_release(&file);
	ord_buf_release(&sym);
	return err;
}

int ord_ruleset_register(const struct ord_ruleset *rs)
{
	size_t i;
	int err;

	if ((err = check_module(&RULESET, "(built in)", rs->name, rs->version, NULL)) != 0)
		return err;
	for (i = 0; i < nrulesets; i++) {
		if (rulesets[i] == rs)
			return 0;
		if (!strcmp(rulesets[i]->name, rs->name))
			return ord_error_set(ORD_EEXISTS,
					     "a ruleset named '%s' is registered already", rs->name);
	}
	if (nrulesets == MAX_MODULES)
		return ord_error_set(ORD_ERROR, "more than %d rulesets registered", MAX_MODULES);
	rulesets[nrulesets++] = rs;
	return 0;
}

int ord_notation_register(const struct ord_notation *n)
{
	size_t i;
	int err;

	if ((err = check_module(&NOTATION, "(built in)", n->name, n->version, NULL)) != 0)
		return err;
	for (i = 0; i < nnotations; i++) {
		if (notations[i] == n)
			return 0;
		if (!strcmp(notations[i]->name, n->name))
			return ord_error_set(ORD_EEXISTS,
					     "a notation named '%s' is registered already", n->name);
	}
	if (nnotations == MAX_MODULES)
		return ord_error_set(ORD_ERROR, "more than %d notations registered", MAX_MODULES);
	notations[nnotations++] = n;
	return 0;
}

const struct ord_ruleset *ord_ruleset_at(size_t i)
{
	return i < nrulesets ? rulesets[i] : NULL;
}

void ord_ruleset_names(struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < nrulesets; i++)
		ord_words_add(out, ", ", rulesets[i]->name);
}

int ord_ruleset_find(const struct ord_ruleset **out, const char *name)
{
	struct ord_buf names = ORD_BUF_INIT;
	const void *mod = NULL;
	size_t i;
	int err;

	*out = NULL;
	for (i = 0; i < nrulesets; i++)
		if (!strcmp(rulesets[i]->name, name)) {
			*out = rulesets[i];
			return 0;
		}
	ord_ruleset_names(&names);
	if (!valid_name(name)) {
		err = ord_error_set(ORD_ENOTFOUND,
				    "unknown ruleset '%s' (expected %s%sor a module name of a-z, 0-9, _)",
				    name, names.buf, names.len ? " " : "");
		goto out;
	}
	err = find_external(&RULESET, &mod, name);
	if (err == ORD_ENOTFOUND)
		err = ord_error_set(ORD_ENOTFOUND,
				    "unknown ruleset '%s' (built in: %s; none found in ORDERLY_RULESET_PATH)",
				    name, names.len ? names.buf : "none");
	else if (!err && (err = ord_ruleset_register(mod)) == 0)
		*out = mod;
out:
	ord_buf_release(&names);
	return err;
}

int ord_notation_find(const struct ord_notation **out, const char *name)
{
	struct ord_buf names = ORD_BUF_INIT;
	const void *mod = NULL;
	size_t i;
	int err;

	*out = NULL;
	for (i = 0; i < nnotations; i++)
		if (!strcmp(notations[i]->name, name)) {
			*out = notations[i];
			return 0;
		}
	for (i = 0; i < nnotations; i++)
		ord_words_add(&names, ", ", notations[i]->name);
	err = valid_name(name) ? find_external(&NOTATION, &mod, name) : ORD_ENOTFOUND;
	if (err == ORD_ENOTFOUND)
		err = ord_error_set(ORD_ENOTFOUND,
				    "unknown notation '%s' (built in: %s; none found in ORDERLY_RULESET_PATH)",
				    name, names.len ? names.buf : "none");
	else if (!err && (err = ord_notation_register(mod)) == 0)
		*out = mod;
	ord_buf_release(&names);
	return err;
}

int ord_ruleset_load_tables(struct ord_rules **out, const struct ord_ruleset *rs, const char *tables_path)
{
	char *bytes = NULL;
	size_t len = 0;
	int err;

	*out = NULL;
	if (tables_path) {
		if ((err = ord_read_file(&bytes, &len, tables_path, 16u << 20)) != 0)
			return err;
		err = rs->load(out, bytes, len, tables_path);
		free(bytes);
		if (!err && (err = ord_ruleset_check_given(rs, *out)) != 0) {
			rs->free(*out);
			*out = NULL;
		}
		return err;
	}
	if (rs->tables_resource) {
		const char *own = ord_ruleset_builtin_tables(rs, &len);
		if (!own)
			return ord_error_set(ORD_ERROR, "tables '%s' are not built in",
					     rs->tables_resource);
		return rs->load(out, own, len, ord_ruleset_tables_name(rs));
	}
	return rs->load(out, NULL, 0, NULL);
}

const char *ord_ruleset_builtin_tables(const struct ord_ruleset *rs, size_t *len)
{
	const struct ord_resource *r;

	if (rs->tables_resource)
		return (r = ord_resource_find(rs->tables_resource)) != NULL
			       ? (*len = r->len, (const char *)r->data)
			       : NULL;
	if (ORD_RULESET_HAS(rs, 2) && rs->tables_data && rs->tables_len) {
		*len = *rs->tables_len;
		return (const char *)rs->tables_data;
	}
	return NULL;
}

int ord_ruleset_check_given(const struct ord_ruleset *rs, struct ord_rules *rules)
{
	struct ord_rules *own = NULL;
	const struct ord_tables *t, *o;
	int err = 0;

	if (!ORD_RULESET_HAS(rs, 5) || !rs->tables || !(t = rs->tables(rules)))
		return 0;
	if ((err = ord_ruleset_load_tables(&own, rs, NULL)) != 0)
		return err;
	o = rs->tables(own);
	if (o && (err = ord_tables_check_names(t, o)) == 0 && (err = ord_tables_check_rows(t, o)) == 0)
		err = ord_tables_check_joins(t, o);
	rs->free(own);
	return err;
}

const char *ord_ruleset_revision(const struct ord_ruleset *rs)
{
	return ORD_RULESET_HAS(rs, 4) ? rs->rules_revision : NULL;
}

const char *ord_event_help(const struct ord_ruleset *rs, const char *lang,
			   const struct ord_event_kind *ek, const struct ord_key_spec *ks)
{
	const char *own = ks ? ks->help : ek->help, *t = NULL;

	if (!lang)
		lang = ord_ruleset_language(rs, NULL);
	if (lang && ORD_RULESET_HAS(rs, 10) && rs->event_help)
		t = rs->event_help(lang, ek->name, ks ? ks->name : NULL);
	return t ? t : own;
}

const struct ord_event_kind *ord_ruleset_event_kind(const struct ord_ruleset *rs, const char *name)
{
	const struct ord_event_kind *k;

	for (k = rs->events; k && k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

void ord_key_describe(const struct ord_key_spec *s, struct ord_buf *why)
{
	switch (s->type) {
	case ORD_KEY_INT: ord_buf_addf(why, "an integer from %g to %g", s->min, s->max); break;
	case ORD_KEY_NUM: ord_buf_addf(why, "a number from %g to %g", s->min, s->max); break;
	case ORD_KEY_BOOL: ord_buf_adds(why, "yes or no"); break;
	case ORD_KEY_ENUM:
		ord_buf_adds(why, "one of ");
		ord_words_join(why, s->values ? s->values : "", " ", " ");
		break;
	case ORD_KEY_UNIT: ord_buf_adds(why, "a unit id or name"); break;
	default: ord_buf_adds(why, "text");
	}
}

/* The values an ORD_KEY_WORD spec allows: "table.attr" read in tables. */
static void word_values(const struct ord_key_spec *s, const struct ord_tables *tables,
			struct ord_buf *out)
{
	const char *dot = s->values ? strchr(s->values, '.') : NULL;
	const struct ord_table *tbl = NULL;

	if (dot && tables) {
		char *name = ord_xmalloc((size_t)(dot - s->values) + 1);
		memcpy(name, s->values, (size_t)(dot - s->values));
		name[dot - s->values] = '\0';
		tbl = ord_tables_get(tables, name);
		free(name);
	}
	if (tbl)
		ord_table_key_values(tbl, dot + 1, out);
}

/* Is value allowed by s?  ORD_KEY_WORD needs the tables (NULL: any text). */
static int value_ok(const struct ord_key_spec *s, const char *value, const struct ord_tables *tables)
{
	long l;
	double d;

	switch (s->type) {
	case ORD_KEY_INT: return !ord_parse_long(value, &l) && l >= s->min && l <= s->max;
	case ORD_KEY_NUM: return !ord_parse_num(value, &d) && d >= s->min && d <= s->max;
	case ORD_KEY_BOOL: return ord_parse_bool(value) >= 0;
	case ORD_KEY_ENUM: return *value && s->values && ord_words_has(s->values, value);
	case ORD_KEY_WORD:
		if (tables) {
			struct ord_buf values = ORD_BUF_INIT;
			int ok;
			word_values(s, tables, &values);
			ok = *value && ord_words_has(values.buf, value);
			ord_buf_release(&values);
			return ok;
		}
		break; /* without the tables, a word is text */
	case ORD_KEY_UNIT:
	case ORD_KEY_STR: break;
	}
	/* text: one line, nothing a terminal would act on (ord_buf_add_shown) */
	{
		unsigned col;
		uint32_t cp;
		return *value != '\0' && !ord_text_unshowable(value, &col, &cp);
	}
}

/* A bound in a calculator's words: "0 or more", or "1 to 6". */
static void bounds(const struct ord_key_spec *s, struct ord_buf *why)
{
	if (s->max >= ORD_KEY_MANY)
		ord_buf_addf(why, "%g or more", s->min);
	else
		ord_buf_addf(why, "%g to %g", s->min, s->max);
}

/* Why value is not allowed: an event's wording, or a calculator's, which
 * starts with the key ("firers: '-1' is not a whole number ..."). */
static void bad_value(const struct ord_key_spec *s, const char *value,
		      const struct ord_keys_how *how, struct ord_buf *why)
{
	unsigned col;
	uint32_t cp;
	int k;

	if ((s->type == ORD_KEY_STR || s->type == ORD_KEY_UNIT) &&
	    (k = ord_text_unshowable(value, &col, &cp)) != 0) {
		/* text that would act on a terminal (ord_buf_add_shown) */
		ord_buf_addf(why, "%s: ", s->name);
		ord_buf_add_quoted(why, value, QUOTED_MAX);
		ord_buf_addf(why, " holds %s %s%04X at character %u (expected one line of plain text)",
			     k > 0 ? "the control or invisible character" : "the byte",
			     k > 0 ? "U+" : "0x", (unsigned)cp, col);
		return;
	}
	if (!how || !how->what) {
		ord_buf_add_quoted(why, value, QUOTED_MAX);
		ord_buf_addf(why, " is not valid for '%s' (expected ", s->name);
		ord_key_describe(s, why);
		ord_buf_addch(why, ')');
		return;
	}
	ord_buf_addf(why, "%s: ", s->name);
	ord_buf_add_quoted(why, value, QUOTED_MAX);
	ord_buf_addch(why, ' ');
	switch (s->type) {
	case ORD_KEY_BOOL: ord_buf_adds(why, "is not a flag (expected yes or no)"); break;
	case ORD_KEY_INT:
		ord_buf_adds(why, "is not a whole number (expected ");
		bounds(s, why);
		ord_buf_addch(why, ')');
		break;
	case ORD_KEY_NUM:
		/* a number with a unit is a distance: "inches, 0 or more" */
		ord_buf_addf(why, "is not a %s (expected ", s->help ? "distance" : "number");
		if (s->help)
			ord_buf_addf(why, "%s, ", s->help);
		bounds(s, why);
		ord_buf_addch(why, ')');
		break;
	case ORD_KEY_ENUM:
		ord_buf_adds(why, "(expected ");
		ord_words_join(why, s->values ? s->values : "", ", ", " or ");
		ord_buf_addch(why, ')');
		break;
	case ORD_KEY_WORD:
		ord_buf_reset(why);
		ord_buf_addf(why, "%s: unknown ", s->name);
		ord_buf_add_quoted(why, value, QUOTED_MAX);
		ord_buf_adds(why, " (expected one of ");
		word_values(s, how->tables, why);
		ord_buf_addch(why, ')');
		break;
	default: ord_buf_adds(why, "is not valid (expected text)");
	}
}

/* Why a required key is missing, in the same two wordings. */
static void missing(const struct ord_key_spec *s, const struct ord_keys_how *how, struct ord_buf *why)
{
	const char *p;

	if (!how || !how->what) {
		ord_buf_addf(why, "missing key '%s' (%s)", s->name, s->help ? s->help : "required");
		return;
	}
	ord_buf_addf(why, "%s: missing (", s->name);
	if (s->type == ORD_KEY_WORD || s->type == ORD_KEY_ENUM) {
		ord_buf_adds(why, "expected one of ");
		if (s->type == ORD_KEY_WORD)
			word_values(s, how->tables, why);
		else
			ord_words_join(why, s->values ? s->values : "", " ", " ");
	} else {
		ord_buf_addf(why, "%s needs %s=", how->what, s->name);
		if (s->type == ORD_KEY_NUM && s->help)
			for (p = s->help; *p; p++)
				ord_buf_addch(why, *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		else
			ord_buf_addch(why, 'N');
	}
	ord_buf_addch(why, ')');
}

int ord_key_check_value(const struct ord_key_spec *s, const char *value, struct ord_buf *why)
{
	if (value_ok(s, value, NULL))
		return 0;
	bad_value(s, value, NULL, why);
	return ORD_EUSAGE;
}

/* A yes/no key takes the words of either language and keeps the one it
 * has always stored, so that a game's events read the same to every
 * orderly that replays them: ja and nej for a flag (stored yes and no), yes
 * and no (or another word ord_parse_bool reads) for a key whose values are
 * ja and nej.  NULL when value is no such word. */
static const char *yes_no_as(const struct ord_key_spec *s, const char *value)
{
	int b;

	if (!s || s->type == ORD_KEY_BOOL) {
		if (ord_strcaseeq(value, "ja"))
			return "yes";
		if (ord_strcaseeq(value, "nej"))
			return "no";
	} else if (s->type == ORD_KEY_ENUM && s->values && ord_words_has(s->values, "ja") &&
		   ord_words_has(s->values, "nej") && (b = ord_parse_bool(value)) >= 0) {
		return b ? "ja" : "nej";
	}
	return NULL;
}

/* The word of list that value is as w reads the sheets' words. */
static int sheet_word(struct ord_buf *out, const char *list, const char *value,
		      const struct ord_words_how *w)
{
	if (!list || !*value)
		return 0;
	if (ord_words_has(list, value)) {
		ord_buf_reset(out);
		ord_buf_adds(out, value);
		return 1;
	}
	if (!w)
		return 0;
	if (w->key && ord_words_keyed(out, list, value, w->key))
		return 1;
	/* the sheet's other spellings, and its words of two ("kar",
	 * "skyttekæde tæt"): taken when what the sheet reads is a word of
	 * the list, stored so (ord_words_has: exactly as it writes it) */
	if (w->value && ord_utf8_valid(value) /* a notation reads no other */ &&
	    w->value(out, value) && ord_words_has(list, out->buf))
		return 1;
	ord_buf_reset(out);
	return 0;
}

int ord_key_word(struct ord_buf *out, const struct ord_key_spec *s, const char *value,
		 const struct ord_words_how *w)
{
	return s->type == ORD_KEY_ENUM && sheet_word(out, s->values, value, w);
}

void ord_words_how_of(struct ord_words_how *out, const struct ord_ruleset *rs)
{
	const struct ord_notation *nt;

	out->key = NULL;
	out->value = NULL;
	out->forms = NULL;
	if (!rs || !rs->notation)
		return;
	if (ord_notation_find(&nt, rs->notation) != 0) {
		ord_error_clear();
		return;
	}
	if (ORD_NOTATION_HAS(nt, 2))
		out->key = nt->word_key;
	if (ORD_NOTATION_HAS(nt, 3))
		out->value = nt->word_value;
	if (ORD_NOTATION_HAS(nt, 4))
		out->forms = nt->word_forms;
}

void ord_words_hint_how(struct ord_buf *out, const char *list, const char *written,
			const struct ord_words_how *w)
{
	struct ord_buf forms = ORD_BUF_INIT;

	if (w->forms && w->value)
		w->forms(&forms);
	ord_words_hint_forms(out, list, written, w->key, forms.len ? forms.buf : NULL, w->value);
	ord_buf_release(&forms);
}

/* The words spec s takes: an ORD_KEY_ENUM's list, an ORD_KEY_WORD's read
 * in how's tables (into buf), or NULL. */
static const char *key_list(const struct ord_key_spec *s, const struct ord_keys_how *how,
			    struct ord_buf *buf)
{
	if (s->type == ORD_KEY_ENUM)
		return s->values;
	if (s->type != ORD_KEY_WORD || !how || !how->tables)
		return NULL;
	ord_buf_reset(buf);
	word_values(s, how->tables, buf);
	return buf->len ? buf->buf : NULL;
}

/* One key=value against the specs (or the extra keys of how); words, how
 * the words are read (NULL: as written, and no "did you mean"). */
static void check_pair(struct ord_kv *out, const struct ord_key_spec *specs, const char *key,
		       const char *value, const struct ord_keys_how *how,
		       const struct ord_words_how *words, struct ord_diag *diag)
{
	const struct ord_key_spec *s;
	struct ord_buf why = ORD_BUF_INIT, values = ORD_BUF_INIT;
	const char *list;
	double d;

	for (s = specs; s->name; s++)
		if (!strcmp(s->name, key))
			break;
	if (ord_kv_get(out, key)) {
		ord_diag_add(diag, 0, 0, NULL, NULL, "key '%s' given twice", key);
	} else if (s->name) {
		const char *as;
		if (value_ok(s, value, how ? how->tables : NULL)) {
			ord_kv_set(out, key, value);
		} else if ((as = yes_no_as(s, value)) != NULL) {
			ord_kv_set(out, key, as);
		} else if (words && (s->type == ORD_KEY_ENUM || s->type == ORD_KEY_WORD) &&
			   (list = key_list(s, how, &values)) != NULL &&
			   sheet_word(&why, list, value, words)) {
			/* the sheet's spelling of a word ("KARRÉ", "kar",
			 * "skyttekæde tæt"): recorded as the spec writes it
			 * ("karre", "skyttekaede_taet"), as a unit named is by
			 * its id, so the log reads the same to a replay */
			ord_kv_set(out, key, why.buf);
		} else {
			bad_value(s, value, how, &why);
			if (words && (list = key_list(s, how, &values)) != NULL)
				ord_words_hint_how(&why, list, value, words);
			ord_diag_add(diag, 0, 0, NULL, NULL, "%s", why.buf);
		}
	} else if (how && how->extra && how->extra(how->ud, key)) {
		/* a modifier flag: yes/no, or a number for a `per` row */
		if (ord_parse_bool(value) >= 0 || !ord_parse_num(value, &d))
			ord_kv_set(out, key, value);
		else if (yes_no_as(NULL, value))
			ord_kv_set(out, key, yes_no_as(NULL, value));
		else {
			ord_buf_add_quoted(&why, value, QUOTED_MAX);
			ord_diag_add(diag, 0, 0, NULL, NULL,
				     "%s: %s is not a flag (expected yes, no or a number)", key,
				     why.buf);
		}
	} else {
		struct ord_buf hint = ORD_BUF_INIT, quoted = ORD_BUF_INIT;

		for (s = specs; s->name; s++)
			ord_words_add(&why, " ", s->name);
		/* the nearest key name (not the words the module adds after) */
		ord_words_hint(&hint, why.buf ? why.buf : "", key);
		if (how && how->what && how->extra_list)
			how->extra_list(how->ud, &why);
		ord_buf_add_quoted(&quoted, key, QUOTED_MAX);
		if (how && how->what)
			ord_diag_add(diag, 0, 0, NULL, NULL, "%s: unknown key %s (expected %s)%s",
				     how->what, quoted.buf, why.buf, hint.len ? hint.buf : "");
		else
			ord_diag_add(diag, 0, 0, NULL, NULL, "unknown key %s (expected one of %s)%s",
				     quoted.buf, why.buf, hint.len ? hint.buf : "");
		ord_buf_release(&quoted);
		ord_buf_release(&hint);
	}
	ord_buf_release(&why);
	ord_buf_release(&values);
}

/* After the pairs: required keys missing, defaults filled. given(name)
 * says whether the key was given at all (perhaps with a bad value, which
 * was reported already). */
static void check_missing(struct ord_kv *out, const struct ord_key_spec *specs,
			  int (*given)(const void *, const char *), const void *args,
			  const struct ord_keys_how *how, struct ord_diag *diag)
{
	const struct ord_key_spec *s;
	struct ord_buf why = ORD_BUF_INIT;

	for (s = specs; s->name; s++) {
		if (ord_kv_get(out, s->name) || given(args, s->name))
			continue;
		if (s->required) {
			ord_buf_reset(&why);
			missing(s, how, &why);
			ord_diag_add(diag, 0, 0, NULL, NULL, "%s", why.buf);
		} else if (s->def) {
			ord_kv_set(out, s->name, s->def);
		}
	}
	ord_buf_release(&why);
}

struct argv_list {
	int argc;
	char *const *argv;
};

/* Whether one of argv is name=... */
static int argv_given(const void *args, const char *name)
{
	const struct argv_list *a = args;
	size_t n = strlen(name);
	int i;

	for (i = 0; i < a->argc; i++)
		if (!strncmp(a->argv[i], name, n) && a->argv[i][n] == '=')
			return 1;
	return 0;
}

static int kv_given(const void *args, const char *name)
{
	return ord_kv_get(args, name) != NULL;
}

static int keys_check(struct ord_kv *out, const struct ord_key_spec *specs, int argc, char *const *argv,
		      const unsigned *cols, const struct ord_words_how *words, struct ord_diag *diag)
{
	struct argv_list a = { argc, argv };
	size_t before = diag->n, at, k;
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char *key;

		at = diag->n;
		if (!eq || eq == argv[i]) {
			ord_diag_add(diag, 0, 0, NULL, NULL, "argument '%s' is not key=value", argv[i]);
		} else {
			key = ord_xmalloc((size_t)(eq - argv[i]) + 1);
			memcpy(key, argv[i], (size_t)(eq - argv[i]));
			key[eq - argv[i]] = '\0';
			check_pair(out, specs, key, eq + 1, NULL, words, diag);
			free(key);
		}
		for (k = at; cols && k < diag->n; k++)
			diag->items[k].col = cols[i];
	}
	check_missing(out, specs, argv_given, &a, NULL, diag);
	return diag->n > before ? ORD_EUSAGE : 0;
}

int ord_keys_check(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
		   char *const *argv, struct ord_diag *diag)
{
	return ord_keys_check_at(out, specs, argc, argv, NULL, diag);
}

int ord_keys_check_at(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
		      char *const *argv, const unsigned *cols, struct ord_diag *diag)
{
	return keys_check(out, specs, argc, argv, cols, NULL, diag);
}

int ord_keys_check_words(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
			 char *const *argv, const unsigned *cols, const struct ord_words_how *words,
			 struct ord_diag *diag)
{
	return keys_check(out, specs, argc, argv, cols, words, diag);
}

int ord_keys_check_how(struct ord_kv *out, const struct ord_key_spec *specs, const struct ord_kv *args,
		       const struct ord_keys_how *how, struct ord_diag *diag)
{
	size_t before = diag->n, i;

	for (i = 0; args && i < args->n; i++)
		check_pair(out, specs, args->items[i].key, args->items[i].value, how,
			   how ? how->words : NULL, diag);
	if (args)
		check_missing(out, specs, kv_given, args, how, diag);
	else
		check_missing(out, specs, kv_given, out, how, diag);
	return diag->n > before ? ORD_EUSAGE : 0;
}

#ifndef ORD_DATADIR
#define ORD_DATADIR "/usr/local/share/orderly"
#endif

const char *ord_resource_installed(const char *name)
{
	static _Thread_local char path[512];

	snprintf(path, sizeof(path), "%s/%s", ORD_DATADIR, name);
	return path;
}

const char *ord_ruleset_tables_name(const struct ord_ruleset *rs)
{
	static _Thread_local char name[128];
	const char *path = rs->tables_resource ? ord_resource_installed(rs->tables_resource) : NULL;

	if (path && access(path, R_OK) == 0)
		return path;
	snprintf(name, sizeof(name), "the built-in %s tables", rs->name);
	return name;
}
