/*
 * check_web_auth.c - the web page's passphrase checks (src/web/auth.c,
 * W14): one runs at a time and the others wait their turn, two of an
 * address at a time and all together two fewer than the server's threads; a
 * login past that is told the server is busy at once.  (What a flood of
 * logins does to a running server is tests/web/test_http.py's.)
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "web/web.h"

struct waiter {
	struct web_auth *a;
	char ip[32];
	int rc;
};

static void *wait_turn(void *ud)
{
	struct waiter *w = ud;

	w->rc = web_auth_hash_enter(w->a, w->ip);
	if (w->rc == 0)
		web_auth_hash_leave(w->a, w->ip);
	return NULL;
}

/* Two logins of an address at a time (two players behind one router):
 * its third is busy while they are in a check; let go of, the address
 * may try again.  An empty address is an address like any other. */
START_TEST(two_checks_per_address)
{
	struct web_auth *a = web_auth_new(8);
	struct waiter w = { a, "192.0.2.1", 1 };
	pthread_t t;
	int i;

	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.1"), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, wait_turn, &w), 0);
	for (i = 0; i < 10000 && web_auth_hash_busy(a) < 2; i++)
		usleep(1000);
	ck_assert_int_eq(web_auth_hash_busy(a), 2);
	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.1"), -1);
	web_auth_hash_leave(a, "192.0.2.1");
	pthread_join(t, NULL);
	ck_assert_int_eq(w.rc, 0);
	ck_assert_int_eq(web_auth_hash_busy(a), 0);
	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.1"), 0);
	web_auth_hash_leave(a, "192.0.2.1");
	ck_assert_int_eq(web_auth_hash_enter(a, ""), 0);
	web_auth_hash_leave(a, "");
	ck_assert_int_eq(web_auth_hash_busy(a), 0);
	web_auth_free(a);
}
END_TEST

/* With 3 threads one login is in a check at most: another address's is
 * busy, not left waiting on a worker thread. */
START_TEST(few_threads_few_waiting)
{
	struct web_auth *a = web_auth_new(3);

	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.1"), 0);
	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.2"), -1);
	web_auth_hash_leave(a, "192.0.2.1");
	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.2"), 0);
	web_auth_hash_leave(a, "192.0.2.2");
	web_auth_free(a);
}
END_TEST

/* With 8 threads, six logins of six addresses: one in its check, five
 * waiting their turn (each gets it once the one before lets go); a
 * seventh address is busy meanwhile. */
START_TEST(six_addresses_wait_their_turn)
{
	struct web_auth *a = web_auth_new(8);
	struct waiter w[5];
	pthread_t t[5];
	int i;

	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.100"), 0);
	for (i = 0; i < 5; i++) {
		w[i].a = a;
		snprintf(w[i].ip, sizeof(w[i].ip), "192.0.2.%d", i + 1);
		w[i].rc = 1;
		ck_assert_int_eq(pthread_create(&t[i], NULL, wait_turn, &w[i]), 0);
	}
	/* the five waiting, a seventh address finds no room */
	for (i = 0; i < 10000 && web_auth_hash_busy(a) < 6; i++)
		usleep(1000);
	ck_assert_int_eq(web_auth_hash_busy(a), 6);
	ck_assert_int_eq(web_auth_hash_enter(a, "192.0.2.200"), -1);
	web_auth_hash_leave(a, "192.0.2.100");
	for (i = 0; i < 5; i++) {
		pthread_join(t[i], NULL);
		ck_assert_int_eq(w[i].rc, 0);
	}
	ck_assert_int_eq(web_auth_hash_busy(a), 0);
	web_auth_free(a);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("web_auth");
	TCase *t = tcase_create("hash");

	tcase_add_test(t, two_checks_per_address);
	tcase_add_test(t, few_threads_few_waiting);
	tcase_add_test(t, six_addresses_wait_their_turn);
	suite_add_tcase(s, t);
	return s;
}
