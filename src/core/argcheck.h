/*
 * argcheck.h - the one checker of key=value arguments (registry.c), as the
 * calculator driver (calcdrv.c) uses it: the same specs and checks as an
 * event's keys (ord_keys_check), with the calculator's wording, the
 * values of ORD_KEY_WORD read from the tables, and modifier flags as
 * keys beyond the specs.  Internal to the core.
 */
#ifndef ORD_ARGCHECK_H
#define ORD_ARGCHECK_H

#include "ruleset.h"
#include "tables.h"

struct ord_keys_how {
	const char *what;                /* the calculation: messages start with the key
			     ("firers: missing (fire needs firers=N)"); NULL:
			     an event's wording ("missing key 'firers'") */
	const struct ord_tables *tables; /* where ORD_KEY_WORD values are, or NULL */
	/* Keys beyond the specs: 1 if key is one (a modifier flag), else 0. */
	int (*extra)(void *ud, const char *key);
	/* Appended to the list of keys an unknown key's message gives. */
	void (*extra_list)(void *ud, struct ord_buf *out);
	void *ud;
	/* How the words are read (ord_key_word), or NULL: as written, and
	 * no "did you mean". */
	const struct ord_words_how *words;
};

/* ord_keys_check, each argument's problems at its column, cols[i] (as
 * read in a file; 0: unknown), when cols is not NULL. */
int ord_keys_check_at(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
		      char *const *argv, const unsigned *cols, struct ord_diag *diag);

/* How the words of a ruleset's sheets are read: its notation's word_key,
 * word_value and word_forms (notation.h), each NULL when it has none. */
struct ord_words_how {
	ord_word_key key;
	ord_word_value value;
	ord_word_forms forms; /* the spellings value reads, for the nearest */
};

/* The words_how of ruleset rs: its notation's, none when it has no
 * notation or one older than the slots (never an error). */
void ord_words_how_of(struct ord_words_how *out, const struct ord_ruleset *rs);

/* The word of spec s's list (ORD_KEY_ENUM) that value is as the sheets
 * read their words (w; NULL: as written only): value itself, its key by
 * w->key ("KARRÉ": karre), else what w->value reads it as when that is of
 * the list ("kar": karre, "skyttekæde tæt": skyttekaede_taet), copied to
 * out (reset first) as the list writes it: 1, else 0. */
int ord_key_word(struct ord_buf *out, const struct ord_key_spec *s, const char *value,
		 const struct ord_words_how *w);

/* ": did you mean ...?" for a word of list that is none, as w reads the
 * sheets' words: the nearest of list's words and of the sheet's
 * spellings of them (w->forms: "kra", "did you mean 'kar' (karre)?");
 * ord_words_hint_forms. */
void ord_words_hint_how(struct ord_buf *out, const char *list, const char *written,
			const struct ord_words_how *w);

/* ord_keys_check_at of an event's arguments: a word value (ORD_KEY_ENUM)
 * is read as the game's sheets read their words (ord_key_word; words
 * NULL: as written), and kept as its spec writes it; a word that is none
 * is told the nearest ("did you mean 'karre'?"). */
int ord_keys_check_words(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
			 char *const *argv, const unsigned *cols, const struct ord_words_how *words,
			 struct ord_diag *diag);

/* ord_keys_check on a list of key=value already split (args), worded as
 * how says; every problem goes to diag, ORD_EUSAGE if there is any. */
int ord_keys_check_how(struct ord_kv *out, const struct ord_key_spec *specs, const struct ord_kv *args,
		       const struct ord_keys_how *how, struct ord_diag *diag);

#endif
