/*
 * cmd_serve.c - `orderly serve DIR [--listen ADDR:PORT] [--tls-cert FILE
 * --tls-key FILE] [--behind-proxy] [--threads N] [--per-address N]`: the club's web page
 * over every game file in DIR (src/web, docs/web.md).  It listens on
 * loopback unless told otherwise and runs until SIGINT or SIGTERM.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mail/mail.h"
#include "web/web.h"

int cmd_serve(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *listen = NULL, *cert = NULL, *key = NULL, *threads_s = NULL, *per_s = NULL;
	struct web_opts o;
	int proxy = 0, threads = 8, rc;
	long per = -1;
	const struct cli_opt opts[] = {
		{ "listen", &listen, NULL },
		{ "tls-cert", &cert, NULL },
		{ "tls-key", &key, NULL },
		{ "behind-proxy", NULL, &proxy },
		{ "threads", &threads_s, NULL },
		{ "per-address", &per_s, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing DIR");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!cert != !key)
		return cli_usage_error(cmd, "--tls-cert and --tls-key go together");
	if ((rc = cli_parse_positive(cmd, "--threads", threads_s, &threads)) != 0)
		return rc;
	if (threads > 64)
		return cli_usage_error(cmd, "--threads %d (at most 64)", threads);
	if (per_s && (ord_parse_long(per_s, &per) != 0 || per < 0 || per > 1000))
		return cli_usage_error(cmd, "--per-address '%s' (a whole number from 0 to 1000)",
				       per_s);
	memset(&o, 0, sizeof(o));
	o.dir = argv[1];
	o.listen = listen ? listen : "127.0.0.1:8080";
	o.tls_cert = cert;
	o.tls_key = key;
	o.behind_proxy = proxy;
	o.threads = (unsigned)threads;
	/* behind a proxy every connection is the proxy's: no limit unless told */
	o.per_address = per >= 0 ? (unsigned)per : proxy ? 0u : 64u;
	/* a deadline changed on the referee's page is mailed as `orderly
	 * deadline` mails it (W19): GMime initialised here, once, before the
	 * server's threads */
	o.deadline_notices = mail_deadline_notices;
	mail_init();
	rc = web_serve(&o);
	mail_shutdown();
	if (rc != 0)
		return cli_fail(rc);
	return CLI_OK;
}
