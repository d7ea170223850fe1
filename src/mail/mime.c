/*
 * mime.c - the entry of orderly-mime.so: decode.c and compose.c, the judge's
 * reading and writing of mail through GMime and GPGME, built as a shared
 * object of their own (CMakeLists.txt) that the orderly binary loads when a
 * command first reads or writes a mail (src/cli/plugins.c).  Everything
 * else of the judge is in the binary, and so is the rest of liborderly,
 * which the object's calls resolve against.
 */
#include "mail/mail.h"

__attribute__((visibility("default"))) const struct mail_mime *mail_mime_plugin(void)
{
	static const struct mail_mime table = {
		MAIL_MIME_ABI,      ORD_BUILD_ID,         mail_init,        mail_shutdown,
		mail_msg_read,      mail_msg_verify_pgp,  mail_msg_release, mail_msg_texts,
		mail_header_decode, mail_pgp_fingerprint, mail_compose,     mail_out_release,
		mail_compose_file,
	};

	return &table;
}
