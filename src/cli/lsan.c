/*
 * lsan.c - in the sanitizer build only (ORDERLY_SANITIZE): LeakSanitizer's
 * default suppressions, so that the binary run by hand reports what the
 * test suite reports.  Rendering a PNG loads fonts through pango and
 * fontconfig, which keep their font caches for the life of the process and
 * never free them: not a leak of orderly's (tests/lsan.supp says the same
 * for the test programs).  Every other leak still fails.
 *
 * And AddressSanitizer's interception of __tls_get_addr off: a command
 * that loads the mail module (orderly-mime.so, whose glib and gmime keep
 * thread-local data) leaves glibc's table of dynamic TLS with an entry
 * the sanitizer's bookkeeping reads as a block at a bogus address
 * ("DTLS 7 at 0x22b-0x40000132d"), and LeakSanitizer crashed scanning it
 * at the exit ("Tracer caught signal 11"), as the heap's layout happened
 * to fall: `orderly deadline` of test_deadlines, at 885a1d0.  Without the
 * interception the blocks are found as the heap blocks they are, from the
 * thread's own vector, so no leak goes unseen for it.
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

const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}
