/*
 * tables_impl.h - the tables engine's data, shared by its four files:
 * tables.c (loading a document, checking every number, the document and
 * its tables), tables_lookup.c (lookups, modifiers, rows), tables_print.c
 * (formatting numbers, printing tables) and tables_given.c (the checks of
 * a document a user hands in).  Internal to the core; modules see only
 * the opaque handles of tables.h.
 */
#ifndef ORD_TABLES_IMPL_H
#define ORD_TABLES_IMPL_H

#include "tables.h"

struct row_attr {
	char *name;
	char *value; /* as written */
	double num;  /* the value as a number when has_num */
	int has_num; /* 1 if value parsed as a number (or min/max) */
};

struct ord_row {
	const struct ord_table *table; /* owner */
	unsigned line;                 /* in the document */
	struct row_attr *attrs;
	size_t nattrs;
	enum ord_mod_mode mode; /* modifier rows only */
};

struct name_list {
	char **v;
	size_t n;
};

struct table_index;

struct ord_table {
	const struct ord_tables *doc; /* owner */
	enum ord_table_kind kind;
	char *name, *title, *note, *unit; /* note, unit may be NULL */
	int reconstructed, provisional;
	int die; /* dice tables: faces, 0 if not given */
	unsigned line;
	struct name_list keys, columns, labels;
	struct ord_row *rows;
	size_t nrows;
	/* its rows by the words of an attribute, each attribute's made at its
	 * first lookup (tables_lookup.c); allocated with the table, so that
	 * a lookup through a const table fills it: a table is one thread's */
	struct table_index *index;
};

/* A parameter by its name: the document's index of them. */
struct param_ref {
	const char *name;
	const struct ord_row *row;
};

struct ord_tables {
	char *name; /* document name for messages */
	char *ruleset;
	struct ord_table **tables;
	size_t n;
	/* every params row of every params table, sorted by name (the names
	 * are unique: check_unique), for ord_tables_param_row's search: a
	 * check of a sheet reads parameters for every order */
	struct param_ref *params;
	size_t nparams;
	/* while it loads: its lines, for the line a table or row starts on */
	const struct ord_xml_lines *lines;
};

/* A space-separated list split into its names. */
void ord_tbl_names_split(struct name_list *l, const char *s);
void ord_tbl_names_free(struct name_list *l);
int ord_tbl_names_has(const struct name_list *l, const char *s);
/* A number as the tables write it: a decimal, or p/q with q > 0; 0 or -1. */
int ord_tbl_parse_number(const char *s, double *out);
/* 1 for the marks' "yes". */
int ord_tbl_is_yes(const char *s);
/* A row's attribute, or NULL. */
const struct row_attr *ord_tbl_row_find(const struct ord_row *row, const char *name);
/* A table's index of rows by words (tables_lookup.c): made empty with the
 * table, freed with it. */
struct table_index *ord_tbl_index_new(void);
void ord_tbl_index_free(struct table_index *ix);
/* Does a row of tbl list word in its attribute attr (ord_words_has)? */
int ord_tbl_lists(const struct ord_table *tbl, const char *attr, const char *word);

#endif
