/*
 * game_mail.h - what game.c asks of game_mail.c: the mail registrations
 * and schedule of a new game, the next turn's deadline, and the passphrase
 * suspensions a turn opens with.
 */
#ifndef ORD_GAME_MAIL_H
#define ORD_GAME_MAIL_H

#include "core/game.h"
#include "core/scenario.h"

/* Store and log the scenario's mail settings and schedule (inside the
 * create transaction, before turn 1 opens). */
int ord_game_mail_create(struct ord_game *g, const struct ord_scenario *sc);
/* The enforced deadline of turn n from the schedule (announced + grace),
 * 0 when the game has no schedule. */
int ord_game_mail_next_deadline(struct ord_game *g, int n, int64_t *out);
/* Log again in turn (just opened, inside its transaction) every party's
 * passphrase suspension that runs on now (mail-suspended, carried=1). */
int ord_game_mail_carry_suspensions(struct ord_game *g, int turn);

#endif
