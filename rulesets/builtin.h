/*
 * builtin.h - the modules compiled into orderly.  Every front-end (the
 * command line, the mail judge, the web server, the tests) calls
 * ord_builtin_register() once before it opens a game; the core itself
 * names no module (src/core/registry.c).
 */
#ifndef ORD_BUILTIN_H
#define ORD_BUILTIN_H

/* Register the built-in rulesets and notations; 0, or the registry's error. */
int ord_builtin_register(void);

#endif
