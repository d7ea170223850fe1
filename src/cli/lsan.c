/*
 * lsan.c - in the sanitizer build only (ORDERLY_SANITIZE): LeakSanitizer's
 * default suppressions, so that the binary run by hand reports what the
 * test suite reports.  Rendering a PNG loads fonts through pango and
 * fontconfig, which keep their font caches for the life of the process and
 * never free them: not a leak of orderly's (tests/lsan.supp says the same
 * for the test programs).  Every other leak still fails.
 */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* and no table of the suppressions used after a clean run */
const char *__lsan_default_options(void);

const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
