/*
 * check_web_auth.c - the web page's passphrase checks (src/web/auth.c,
 * W14): one runs at a time and the others wait their turn, two of an
 * address at a time and all together two fewer than the server's threads; a
 * login past that is told the server is busy at once.  The login limits
 * count an IPv6 client by its /64 and a side's wrong passphrases from
 * every address; one grant holds at most 16 sessions, so that one
 * passphrase logged in from everywhere logs nobody else out; a game's
 * known networks are its own; the connections a client holds are counted
 * by its /64 too.  (What a
 * flood of logins does to a running server is tests/web/test_http.py's.)
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Wrong passphrases from ten addresses of one /64 (a guesser takes a new
 * one for each try) count as one address's: its eleventh, from yet
 * another address of the /64, waits.  An IPv4-mapped address is its IPv4
 * address; another /64 has its own count. */
START_TEST(ipv6_counted_by_64)
{
	struct web_auth *a = web_auth_new(8);
	char ip[64];
	int i, side_wide;

	for (i = 0; i < 10; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:1:2:%x::%x", (i * 7919) & 0xffff, i + 1);
		ck_assert_int_eq(web_auth_may_try(a, ip, "g", "red", "p1", &side_wide), 0);
		web_auth_failed(a, ip, "g", "red", "p1");
	}
	ck_assert_int_gt(web_auth_may_try(a, "2001:db8:1:2:ffff:1:2:3", "g", "red", "p1", &side_wide),
			 0);
	ck_assert_int_eq(side_wide, 0);
	/* its other sides too: the count is the address's */
	ck_assert_int_gt(web_auth_may_try(a, "[2001:db8:1:2::beef]", "g", "blue", "p1", &side_wide), 0);
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:1:3::1", "g", "red", "p1", &side_wide), 0);

	for (i = 0; i < 10; i++)
		web_auth_failed(a, i % 2 ? "::ffff:192.0.2.9" : "192.0.2.9", "g", "blue", "p1");
	ck_assert_int_gt(web_auth_may_try(a, "192.0.2.9", "g", "blue", "p1", &side_wide), 0);
	ck_assert_int_gt(web_auth_may_try(a, "::ffff:192.0.2.9", "g", "blue", "p1", &side_wide), 0);
	ck_assert_int_eq(web_auth_may_try(a, "192.0.2.10", "g", "blue", "p1", &side_wide), 0);
	web_auth_free(a);
}
END_TEST

/* Twenty wrong passphrases for a side from twenty /64s, one each: the
 * side's logins are refused from a twenty-first, said to be the side's
 * lock, while the game's other side and the referee are not; a network
 * the side logged in from before is let in (a stranger cannot lock the
 * player out for the price of 20 tries), and the lock is told. */
START_TEST(side_wide_limit)
{
	struct web_auth *a = web_auth_new(8);
	char ip[64];
	int i, side_wide, fails, locked = 0;

	web_auth_succeeded(a, "2001:db8:aaaa:1::10", "g", "red");
	ck_assert_int_eq(web_auth_side_locked(a, "g", "red", "p1", &fails), 0);
	for (i = 0; i < 20; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:%x::1", i + 1);
		ck_assert_int_eq(web_auth_may_try(a, ip, "g", "red", "p1", &side_wide), 0);
		locked += web_auth_failed(a, ip, "g", "red", "p1");
		ck_assert_int_eq(locked, i == 19);
	}
	ck_assert_int_gt(web_auth_may_try(a, "2001:db8:ffff::1", "g", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(side_wide, 1);
	ck_assert_int_gt(web_auth_may_try(a, "198.51.100.1", "g", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(side_wide, 1);
	ck_assert_int_gt(web_auth_side_locked(a, "g", "red", "p1", &fails), 0);
	ck_assert_int_eq(fails, 20);
	/* the player's own network (another address of its /64) */
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:aaaa:1::99", "g", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(side_wide, 0);
	/* the lock is red's of game g alone */
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:ffff::1", "g", "blue", "p1", &side_wide), 0);
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:ffff::1", "g", WEB_REFEREE, "p1", &side_wide),
			 0);
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:ffff::1", "h", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(web_auth_side_locked(a, "g", "blue", "p1", &fails), 0);
	/* a new passphrase registered for red (the referee's page says to
	 * give one) ends the lock at once: the strangers' 20 were given
	 * against the old one, and the new one's count starts at nothing */
	ck_assert_int_eq(web_auth_side_locked(a, "g", "red", "p2", &fails), 0);
	ck_assert_int_eq(web_auth_may_try(a, "198.51.100.2", "g", "red", "p2", &side_wide), 0);
	ck_assert_int_eq(side_wide, 0);
	ck_assert_int_eq(web_auth_failed(a, "198.51.100.2", "g", "red", "p2"), 0);
	ck_assert_int_eq(web_auth_side_locked(a, "g", "red", "p2", &fails), 0);
	ck_assert_int_eq(fails, 1);
	/* and the old one's count is not taken up again */
	ck_assert_int_eq(web_auth_side_locked(a, "g", "red", "p1", &fails), 0);
	web_auth_free(a);
}
END_TEST

/* A game's known networks are its own: the referee of another game logs
 * its thousands of sides in, each from its 8 networks (more than the one
 * table of every game held, 4,096), and red of game g, locked by
 * strangers, still logs in from the network it logged in from; a network
 * known for red of g lets nobody through the lock of red of another
 * game. */
START_TEST(known_networks_by_game)
{
	struct web_auth *a = web_auth_new(8);
	char ip[64], party[32];
	int i, k, side_wide;

	web_auth_succeeded(a, "2001:db8:aaaa:1::10", "g", "red");
	web_auth_succeeded(a, "2001:db8:aaaa:1::10", "h", "blue");
	for (i = 0; i < 600; i++) {
		snprintf(party, sizeof(party), "side%d", i);
		for (k = 0; k < 8; k++) {
			snprintf(ip, sizeof(ip), "2001:db8:%x:%x::1", i + 1, k + 1);
			web_auth_succeeded(a, ip, "big", party);
		}
	}
	for (i = 0; i < 20; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:f:%x::1", i + 1);
		web_auth_failed(a, ip, "g", "red", "p1");
		web_auth_failed(a, ip, "h", "red", "p1");
		web_auth_failed(a, ip, "big", "side599", "p1");
	}
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:aaaa:1::99", "g", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(side_wide, 0);
	ck_assert_int_gt(web_auth_may_try(a, "2001:db8:aaaa:1::99", "h", "red", "p1", &side_wide), 0);
	ck_assert_int_eq(side_wide, 1);
	/* the big game's own networks are kept too, the newest of them */
	ck_assert_int_eq(web_auth_may_try(a, "2001:db8:258:8::1", "big", "side599", "p1", &side_wide),
			 0);
	ck_assert_int_gt(web_auth_may_try(a, "2001:db8:ffff::1", "big", "side599", "p1", &side_wide),
			 0);
	web_auth_free(a);
}
END_TEST

/* The connections a client holds (server.c W17) are counted by its /64
 * as the login limits count it: libmicrohttpd's limit counted each
 * address alone, and a /64 held as many connections as it has addresses.
 * An IPv4-mapped address is its IPv4 address; another /64 has its own
 * count; a connection let go of makes room; 0 is no limit. */
START_TEST(connections_counted_by_64)
{
	struct web_auth *a = web_auth_new(8);
	char ip[64];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:1:2:%x::%x", i * 4099, i + 1);
		ck_assert_int_eq(web_conn_enter(a, ip, 3), 0);
	}
	ck_assert_int_eq(web_conn_enter(a, "2001:db8:1:2:ffff:1:2:3", 3), -1);
	ck_assert_int_eq(web_conn_enter(a, "2001:db8:1:3::1", 3), 0);
	web_conn_leave(a, "2001:db8:1:2:0:0:0:1");
	ck_assert_int_eq(web_conn_enter(a, "2001:db8:1:2:ffff:1:2:3", 3), 0);
	ck_assert_int_eq(web_conn_enter(a, "2001:db8:1:2::77", 3), -1);

	ck_assert_int_eq(web_conn_enter(a, "192.0.2.1", 2), 0);
	ck_assert_int_eq(web_conn_enter(a, "::ffff:192.0.2.1", 2), 0);
	ck_assert_int_eq(web_conn_enter(a, "192.0.2.1", 2), -1);
	ck_assert_int_eq(web_conn_enter(a, "192.0.2.2", 2), 0);
	web_conn_leave(a, "::ffff:192.0.2.1");
	web_conn_leave(a, "192.0.2.1");
	ck_assert_int_eq(web_conn_enter(a, "192.0.2.1", 1), 0);
	ck_assert_int_eq(web_conn_enter(a, "192.0.2.1", 1), -1);
	for (i = 0; i < 5000; i++)
		ck_assert_int_eq(web_conn_enter(a, "192.0.2.3", 0), 0);
	web_auth_free(a);
}
END_TEST

/* The number of live sessions among sids[from..to) holding ("g", party). */
static int holding(struct web_auth *a, char (*sids)[WEB_SID_HEX + 1], int from, int to, const char *party)
{
	struct web_session s;
	int i, n = 0;

	for (i = from; i < to; i++)
		if (web_auth_find(a, sids[i], &s) && web_session_has(&s, "g", party))
			n++;
	return n;
}

/* One passphrase logged in from more places than the table has sessions:
 * each login past the grant's 16 takes the grant from its own oldest
 * session, never another's: the 16 newest hold it, the referee's session
 * (made first, the oldest of all, which the full table dropped) and the
 * other side's stay, and a browser that held red's grant with another
 * keeps the other. */
START_TEST(sessions_capped_per_grant)
{
	enum { N = 8192 + 32 };
	char(*sids)[WEB_SID_HEX + 1] = calloc(N, sizeof(*sids));
	struct web_auth *a = web_auth_new(8);
	struct web_session s, ref, blue, both;
	int i;

	ck_assert_ptr_nonnull(sids);
	web_auth_grant(a, NULL, "g", WEB_REFEREE, "ref-pass", &ref);
	web_auth_grant(a, NULL, "g", "blue", "blue-pass", &blue);
	web_auth_grant(a, NULL, "h", "white", "white-pass", &both);
	web_auth_grant(a, both.sid, "g", "red", "red-pass", &both);
	for (i = 0; i < N; i++) {
		web_auth_grant(a, NULL, "g", "red", "red-pass", &s);
		memcpy(sids[i], s.sid, sizeof(sids[i]));
	}
	ck_assert_int_eq(web_auth_find(a, ref.sid, &s), 1);
	ck_assert(web_session_has(&s, "g", WEB_REFEREE));
	ck_assert_int_eq(web_auth_find(a, blue.sid, &s), 1);
	ck_assert(web_session_has(&s, "g", "blue"));
	ck_assert_int_eq(holding(a, sids, 0, N, "red"), 16);
	ck_assert_int_eq(holding(a, sids, N - 16, N, "red"), 16);
	ck_assert_int_eq(web_auth_find(a, both.sid, &s), 1);
	ck_assert(web_session_has(&s, "h", "white"));
	ck_assert(!web_session_has(&s, "g", "red"));
	web_auth_free(a);
	free(sids);
}
END_TEST

/* A browser shared at the club table: a login as a side of a game drops
 * the grants of the game's other sides the session held (the next player
 * saw the last one's sheet), keeps another game's and the referee's (who
 * may play a side too), and the referee's login keeps the side's. */
START_TEST(side_login_drops_other_sides)
{
	struct web_auth *a = web_auth_new(8);
	struct web_session s, found;

	web_auth_grant(a, NULL, "g", "red", "red-pass", &s);
	web_auth_grant(a, s.sid, "h", "red", "h-red-pass", &s);
	web_auth_grant(a, s.sid, "g", WEB_REFEREE, "ref-pass", &s);
	ck_assert(web_session_has(&s, "g", "red"));
	ck_assert(web_session_has(&s, "g", WEB_REFEREE));
	web_auth_grant(a, s.sid, "g", "blue", "blue-pass", &s);
	ck_assert(web_session_has(&s, "g", "blue"));
	ck_assert(!web_session_has(&s, "g", "red"));
	ck_assert(web_session_has(&s, "g", WEB_REFEREE));
	ck_assert(web_session_has(&s, "h", "red"));
	ck_assert_int_eq(s.ngrants, 3);
	/* the table's copy, as the next request finds it */
	ck_assert_int_eq(web_auth_find(a, s.sid, &found), 1);
	ck_assert(!web_session_has(&found, "g", "red"));
	ck_assert(web_session_has(&found, "g", "blue"));
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
	t = tcase_create("limits");
	tcase_add_test(t, ipv6_counted_by_64);
	tcase_add_test(t, side_wide_limit);
	tcase_add_test(t, known_networks_by_game);
	tcase_add_test(t, connections_counted_by_64);
	tcase_add_test(t, side_login_drops_other_sides);
	tcase_set_timeout(t, 60);
	suite_add_tcase(s, t);
	/* 8,224 logins into a full table, each scanning all of it (16 MB of
	 * sessions): 20 to 60 s under ASan beside the other tests, and it
	 * ran out of the 60 s once (the CI run of c6f0bba) */
	t = tcase_create("table");
	tcase_add_test(t, sessions_capped_per_grant);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);
	return s;
}
