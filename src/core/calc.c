/* calc.c - `orderly calc` and `orderly rules`: a ruleset's tables without a game. */
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "ruleset.h"

static int load(const struct ord_ruleset **rs, struct ord_rules **rules, const char *name,
		const char *tables_path)
{
	int err;

	if ((err = ord_crypto_init()) != 0 || (err = ord_ruleset_find(rs, name)) != 0)
		return err;
	return ord_ruleset_load_tables(rules, *rs, tables_path);
}

int ord_calc(struct ord_buf *out, const char *ruleset, const char *what, int argc,
	     char *const *argv, const int *dice, size_t ndice, const char *tables_path, int xml)
{
	const struct ord_ruleset *rs;
	struct ord_rules *rules = NULL;
	struct ord_kv args;
	int i, err;

	ord_kv_init(&args);
	if ((err = load(&rs, &rules, ruleset, tables_path)) != 0)
		goto out;
	if (!rs->calc) {
		err = ord_error_set(ORD_EUSAGE, "ruleset '%s' has no calculator", ruleset);
		goto out;
	}
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char *key;
		if (!eq || eq == argv[i]) {
			err = ord_error_set(ORD_EUSAGE, "argument '%s' is not key=value", argv[i]);
			goto out;
		}
		key = ord_xmalloc((size_t)(eq - argv[i]) + 1);
		memcpy(key, argv[i], (size_t)(eq - argv[i]));
		key[eq - argv[i]] = '\0';
		if (ord_kv_get(&args, key)) {
			err = ord_error_set(ORD_EUSAGE, "key '%s' given twice", key);
			free(key);
			goto out;
		}
		ord_kv_set(&args, key, eq + 1);
		free(key);
	}
	err = rs->calc(rules, what, &args, dice, ndice, xml, out);
out:
	if (rules)
		rs->free(rules);
	ord_kv_release(&args);
	return err;
}

int ord_rules_print(struct ord_buf *out, const char *ruleset, const char *table, const char *tables_path)
{
	const struct ord_ruleset *rs;
	struct ord_rules *rules = NULL;
	int err;

	if ((err = load(&rs, &rules, ruleset, tables_path)) != 0)
		return err;
	if (!rs->print_tables)
		err = ord_error_set(ORD_EUSAGE, "ruleset '%s' has no tables", ruleset);
	else
		err = rs->print_tables(rules, table, out);
	rs->free(rules);
	return err;
}
