/*
 * check_scenario.c - reading scenario files: the example battalion scenario,
 * every structural and semantic error with its line, the ruleset's unit
 * attributes, and hostile XML (tests/fixtures/scenario/ plus generated
 * documents too big to keep as files).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/argcheck.h"
#include "core/lookalike.h"
#include "core/scenario.h"
#include "xml/xmlsafe.h"
#include "../fuzz/scenario_same.h"

#define FIXTURES ORD_SOURCE_DIR "/tests/fixtures/scenario/"
#define EXAMPLE ORD_SOURCE_DIR "/rulesets/battalion/examples/scenario.xml"

/* The battalion unit attributes, as the battalion module declares them. */
static const struct ord_key_spec battalion_attrs[] = {
	{ "kind", ORD_KEY_ENUM, 1,
	  "line_infantry|light_infantry|skirmishers|light_cavalry|heavy_cavalry|foot_artillery|horse_artillery",
	  0, 0, NULL, "the kind of unit" },
	{ "formation", ORD_KEY_ENUM, 0, "line|column|square|skirmish|misc|limbered|unlimbered", 0,
	  0, "line", "formation at the start" },
	{ "figures", ORD_KEY_INT, 1, NULL, 1, 10000, NULL, "figures at the start" },
	{ "quality", ORD_KEY_ENUM, 0, "line|elite|militia", 0, 0, "line", "troop quality" },
	{ "class", ORD_KEY_ENUM, 0, "A|B|C|D|E", 0, 0, "C", "d20 morale class" },
	{ "weapon", ORD_KEY_ENUM, 0, "musket|rifle|none", 0, 0, "musket", "small arms" },
	{ 0 },
};

static const char *const kinds[] = {
	"line_infantry", "light_infantry", "skirmishers",     "light_cavalry",
	"heavy_cavalry", "foot_artillery", "horse_artillery",
};

/* Replace every '@' of tmpl by path: expected messages name the file on each line. */
static char *expand(const char *tmpl, const char *path)
{
	struct ord_buf b = ORD_BUF_INIT;

	for (; *tmpl; tmpl++)
		if (*tmpl == '@')
			ord_buf_adds(&b, path);
		else
			ord_buf_addch(&b, *tmpl);
	return ord_buf_detach(&b, NULL);
}

/* Load a fixture, expect code and exactly the message tmpl (with '@' = path). */
static void expect_file(const char *file, int code, const char *tmpl)
{
	struct ord_scenario sc;
	char path[4096], *want;
	int rc;

	snprintf(path, sizeof(path), "%s%s", FIXTURES, file);
	rc = ord_scenario_load_file(&sc, path);
	want = expand(tmpl, path);
	ck_assert_msg(rc == code, "%s: rc %d, expected %d (%s)", file, rc, code, ord_error_last());
	ck_assert_str_eq(ord_error_last(), want);
	/* a failed load leaves nothing behind */
	ck_assert_ptr_null(sc.title);
	ck_assert_uint_eq(sc.nsides, 0);
	ck_assert_uint_eq(sc.nunits, 0);
	free(want);
	ord_scenario_release(&sc);
}

/* Load a string as "t.xml"; expect ORD_EBADDATA and exactly msg. */
static void expect_text(const char *xml, const char *msg)
{
	struct ord_scenario sc;
	int rc = ord_scenario_load(&sc, xml, strlen(xml), "t.xml");

	ck_assert_msg(rc == ORD_EBADDATA, "rc %d for:\n%s", rc, xml);
	ck_assert_str_eq(ord_error_last(), msg);
	ck_assert_uint_eq(sc.nunits, 0);
	ord_scenario_release(&sc);
}

/* A document whose <scenario> holds body, the lines numbered from 2. */
static char *doc(const char *body)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_buf_addf(&b,
		     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<scenario ruleset=\"battalion\">\n%s</scenario>\n",
		     body);
	return ord_buf_detach(&b, NULL);
}

/* body with a title and two sides before the lines given (which start on line 6). */
#define HEAD "<title>T</title>\n<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n"
#define UNIT "<unit id=\"U1\" name=\"U1\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n"

static void expect_body(const char *body, const char *msg)
{
	char *xml = doc(body);

	expect_text(xml, msg);
	free(xml);
}

static void load_body_ok(struct ord_scenario *sc, const char *body)
{
	char *xml = doc(body);
	int rc = ord_scenario_load(sc, xml, strlen(xml), "t.xml");

	ck_assert_msg(rc == 0, "rc %d: %s\n%s", rc, ord_error_last(), xml);
	free(xml);
}

static const struct ord_scenario_unit *find_unit(const struct ord_scenario *sc, const char *id)
{
	size_t i;

	for (i = 0; i < sc->nunits; i++)
		if (!strcmp(sc->units[i].id, id))
			return &sc->units[i];
	ck_abort_msg("no unit '%s'", id);
	return NULL;
}

/* ---- loading -------------------------------------------------------- */

START_TEST(test_example)
{
	struct ord_scenario sc;
	const struct ord_scenario_unit *u;
	size_t i, k, s;

	ck_assert_int_eq(ord_scenario_load_file(&sc, EXAMPLE), 0);
	ck_assert_str_eq(sc.ruleset, "battalion");
	ck_assert_str_eq(sc.title, "Quatre Bras, 16 June 1815");
	ck_assert_str_eq(sc.nmr, "hold");
	ck_assert(sc.deadline == 0); /* the example has no deadline: the demo must not expire */
	ck_assert(!strncmp(sc.description, "Ney's II Corps", 14));
	ck_assert_uint_eq(sc.nsides, 2);
	ck_assert_str_eq(sc.sides[0].id, "french");
	ck_assert_str_eq(sc.sides[0].name, "Armée du Nord");
	ck_assert_ptr_null(sc.sides[0].pubkey);
	ck_assert_str_eq(sc.sides[1].id, "allied");
	ck_assert_str_eq(sc.sides[1].name, "Anglo-Allied Army");
	ck_assert_uint_eq(sc.nunits, 19);

	ck_assert_int_eq(ord_scenario_check_attrs(&sc, battalion_attrs, NULL, EXAMPLE), 0);
	u = find_unit(&sc, "F1");
	ck_assert_str_eq(u->name, "1/2e Léger");
	ck_assert_str_eq(u->side, "french");
	ck_assert_uint_eq(u->attrs.n, 6);
	ck_assert_str_eq(ord_kv_get(&u->attrs, "kind"), "light_infantry");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "formation"), "column");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "figures"), "24");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "quality"), "line");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "class"), "B");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "weapon"), "musket");
	u = find_unit(&sc, "A5");
	ck_assert_str_eq(u->name, "1/95th Rifles");
	ck_assert_str_eq(ord_kv_get(&u->attrs, "weapon"), "rifle");

	/* every kind on each side, at least 7 units each, scales as in the rules */
	for (s = 0; s < sc.nsides; s++) {
		size_t count = 0;
		for (k = 0; k < ORD_ARRAY_SIZE(kinds); k++) {
			int found = 0;
			for (i = 0; i < sc.nunits; i++)
				if (!strcmp(sc.units[i].side, sc.sides[s].id) &&
				    !strcmp(ord_kv_get(&sc.units[i].attrs, "kind"), kinds[k]))
					found = 1;
			ck_assert_msg(found, "no %s on side %s", kinds[k], sc.sides[s].id);
		}
		for (i = 0; i < sc.nunits; i++)
			count += !strcmp(sc.units[i].side, sc.sides[s].id);
		ck_assert_uint_ge(count, 7);
	}
	for (i = 0; i < sc.nunits; i++) {
		const char *kind = ord_kv_get(&sc.units[i].attrs, "kind");
		const char *formation = ord_kv_get(&sc.units[i].attrs, "formation");
		long figures = ord_kv_get_int(&sc.units[i].attrs, "figures", 0);

		if (strstr(kind, "artillery")) {
			ck_assert(!strcmp(formation, "limbered") || !strcmp(formation, "unlimbered"));
			ck_assert_int_le(figures, 12);
			ck_assert_str_eq(ord_kv_get(&sc.units[i].attrs, "weapon"), "none");
		} else if (strstr(kind, "cavalry")) {
			ck_assert_int_ge(figures, 4);
			ck_assert_int_le(figures, 8);
		} else if (strstr(kind, "infantry")) {
			ck_assert_int_eq(figures, 24);
		}
	}
	ord_scenario_release(&sc);
	ck_assert_ptr_null(sc.units);
	ord_scenario_release(&sc); /* releasing twice is harmless */
}
END_TEST

START_TEST(test_minimal)
{
	struct ord_scenario sc;
	const struct ord_scenario_unit *u;

	ck_assert_int_eq(ord_scenario_load_file(&sc, FIXTURES "valid-minimal.xml"), 0);
	ck_assert_str_eq(sc.title, "Skirmish at the mill");
	ck_assert_str_eq(sc.description, "");
	ck_assert_str_eq(sc.nmr, "hold");
	ck_assert(sc.deadline == 1796148000); /* 19:00+01:00 is 18:00Z */
	ck_assert_uint_eq(sc.nsides, 2);
	ck_assert_str_eq(sc.sides[0].name, "Blue Army");
	ck_assert_str_eq(sc.sides[0].pubkey,
			 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	ck_assert_uint_eq(sc.sides[0].line, 10);
	ck_assert_str_eq(sc.sides[1].id, "red_2");
	ck_assert_ptr_null(sc.sides[1].pubkey);
	ck_assert_uint_eq(sc.nunits, 2);
	ck_assert_str_eq(sc.units[1].id, "r.2/a-1");
	ck_assert_uint_eq(sc.units[1].line, 13);

	/* defaults are filled after the attributes given, in the specs' order */
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, battalion_attrs, NULL, "valid-minimal.xml"), 0);
	u = &sc.units[0];
	ck_assert_uint_eq(u->attrs.n, 6);
	ck_assert_str_eq(u->attrs.items[0].key, "kind");
	ck_assert_str_eq(u->attrs.items[1].key, "figures");
	ck_assert_str_eq(u->attrs.items[2].key, "formation");
	ck_assert_str_eq(u->attrs.items[2].value, "line");
	ck_assert_str_eq(u->attrs.items[3].key, "quality");
	ck_assert_str_eq(u->attrs.items[3].value, "line");
	ck_assert_str_eq(u->attrs.items[4].key, "class");
	ck_assert_str_eq(u->attrs.items[4].value, "C");
	ck_assert_str_eq(u->attrs.items[5].key, "weapon");
	ck_assert_str_eq(u->attrs.items[5].value, "musket");
	/* a value given is never replaced by a default */
	ck_assert_str_eq(ord_kv_get(&sc.units[1].attrs, "formation"), "column");
	ord_scenario_release(&sc);
}
END_TEST

START_TEST(test_nmr_and_description)
{
	struct ord_scenario sc;

	load_body_ok(&sc,
		     "<title>T</title>\n<description>\n  Two lines\n  of text.\n</description>\n"
		     "<nmr policy=\"repeat\"/>\n<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT);
	ck_assert_str_eq(sc.nmr, "repeat");
	ck_assert_str_eq(sc.description, "Two lines\n  of text.");
	ck_assert(sc.deadline == 0);
	ord_scenario_release(&sc);
	load_body_ok(&sc, "<title>T</title>\n<nmr policy=\"wait\"/>\n<side id=\"a\" name=\"A\"/>\n"
			  "<side id=\"b\" name=\"B\"/>\n" UNIT);
	ck_assert_str_eq(sc.nmr, "wait");
	ord_scenario_release(&sc);
}
END_TEST

START_TEST(test_missing_file)
{
	struct ord_scenario sc;

	ck_assert_int_eq(ord_scenario_load_file(&sc, FIXTURES "no-such-file.xml"), ORD_ENOFILE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "no-such-file.xml"));
	ck_assert_int_eq(ord_scenario_load_file(&sc, FIXTURES), ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "is a directory"));
	ord_scenario_release(&sc);
}
END_TEST

/* ---- structural and semantic errors, each with its line ------------- */

START_TEST(test_wrong_root)
{
	expect_file("bad-wrong-root.xml", ORD_EBADDATA,
		    "@:2: root element is <game>, expected <scenario>");
	expect_text("<scenario xmlns=\"urn:x\" ruleset=\"battalion\"/>",
		    "t.xml:1: root element is <scenario>, expected <scenario> with no namespace");
}
END_TEST

START_TEST(test_missing_title)
{
	expect_file("bad-missing-title.xml", ORD_EBADDATA,
		    "@:3: expected <title> first, found <description>");
	expect_body("", "t.xml:2: <scenario> has no <title> (expected <title> first)");
	expect_body("<title>  \n </title>\n",
		    "t.xml:3: <title> is empty (expected the scenario's title)");
}
END_TEST

START_TEST(test_sides_and_units_needed)
{
	expect_file("bad-one-side.xml", ORD_EBADDATA,
		    "@:5: only one <side> (expected at least two sides)");
	expect_body("<title>T</title>\n", "t.xml:2: no <side> (expected at least two sides)");
	expect_body(HEAD, "t.xml:2: no <unit> in <scenario> (expected at least one)");
}
END_TEST

/* A title, n sides s0, s1, ... and a unit of s0. */
static void sides_body(struct ord_buf *body, int n)
{
	int i;

	ord_buf_reset(body);
	ord_buf_adds(body, "<title>T</title>\n");
	for (i = 0; i < n; i++)
		ord_buf_addf(body, "<side id=\"s%d\" name=\"S%d\"/>\n", i, i);
	ord_buf_adds(body,
		     "<unit id=\"U1\" name=\"U1\" side=\"s0\" kind=\"line_infantry\" figures=\"24\"/>\n");
}

/* At most 64 sides: a verifier checks each side against every sheet */
START_TEST(test_sides_at_most)
{
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_scenario sc;

	sides_body(&body, 64);
	load_body_ok(&sc, body.buf);
	ck_assert_uint_eq(sc.nsides, 64);
	ord_scenario_release(&sc);
	sides_body(&body, 65);
	expect_body(body.buf, "t.xml:68: side 65: more than 64 sides (expected at most 64)");
	ord_buf_release(&body);
}
END_TEST

START_TEST(test_duplicates_and_unknown_side)
{
	/* every problem at once, in file order */
	expect_file("bad-duplicates.xml", ORD_EBADDATA,
		    "@:6: side id 'a' is already used on line 4\n"
		    "@:9:13: unit id 'U1' is already used on line 7\n"
		    "@:10:23: unit name 'FIRST FOOT' is already used by unit 'U1' on line 7 (names must differ ignoring case)\n"
		    "@:11:40: unit 'U5': side 'prussia' is not declared (expected one of a b)");
	/* a third copy names the first, not the second */
	expect_body(HEAD UNIT UNIT UNIT,
		    "t.xml:7:11: unit id 'U1' is already used on line 6\n"
		    "t.xml:7:21: unit name 'U1' is already used by unit 'U1' on line 6 (names must differ ignoring case)\n"
		    "t.xml:8:11: unit id 'U1' is already used on line 6\n"
		    "t.xml:8:21: unit name 'U1' is already used by unit 'U1' on line 6 (names must differ ignoring case)");
}
END_TEST

/* A sheet names a unit by its id, else by its name: a unit named as
 * another's id would be read as either, by whichever the sheet's side
 * holds (review: blue's 'R1 ↑' moved blue's B1, named R1).  A name that is
 * the unit's own id is no clash. */
START_TEST(test_name_is_another_id)
{
	expect_body(HEAD UNIT
		    "<unit id=\"U2\" name=\"Second\" side=\"b\" kind=\"line_infantry\" figures=\"24\"/>\n"
		    "<unit id=\"B1\" name=\"u2\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n",
		    "t.xml:8:21: unit name 'u2' of unit 'B1' is the id of unit 'U2' on line 7 (a sheet's word would name both: a name must differ from every other unit's id, ignoring case)");
}
END_TEST

/* Names a player tells apart (attack 41): the load takes them (a game
 * made before, its bundles), `orderly new` refuses them
 * (ord_scenario_names_apart). */
static void names_refused(const char *body, const char *msg)
{
	struct ord_scenario sc;

	load_body_ok(&sc, body);
	ck_assert_int_eq(ord_scenario_names_apart(&sc, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(), msg);
	ord_scenario_release(&sc);
}

START_TEST(test_names_apart)
{
	struct ord_scenario sc;
	struct ord_buf b = ORD_BUF_INIT;

	/* every name as the skeleton reads it */
	ord_name_skeleton(&b, "  Blue\xc2\xa0\xc2\xa0Hussars\xe2\x80\x8b ");
	ck_assert_str_eq(b.buf, "blue hussars");
	ord_name_skeleton(&b, "\xd0\x92"
			      "1"); /* Cyrillic Ve, 1 */
	ck_assert_str_eq(b.buf, "bl");
	ord_name_skeleton(&b, "II/1er L\xc3\xa9ger"); /* é composed */
	ck_assert_str_eq(b.buf, "ll/ler l\xc3\xa9ger");
	ord_name_skeleton(&b, "II/1er Le\xcc\x81ger"); /* e and its mark */
	ck_assert_str_eq(b.buf, "ll/ler l\xc3\xa9ger");
	ord_name_skeleton(&b, "\xef\xbc\xa2"
			      "0"); /* fullwidth B, zero */
	ck_assert_str_eq(b.buf, "bo");
	/* shown: an unseen character escaped, a line kept, the rest as is */
	ord_buf_reset(&b);
	ord_buf_add_name_shown(&b, "R3 \xe2\x80\xae"
				   "deR\nmap \xc2\xad\xc2\xa0x");
	ck_assert_str_eq(b.buf, "R3 \\u202edeR\nmap \\u00ad\xc2\xa0x");
	ord_buf_release(&b);

	load_body_ok(&sc, HEAD UNIT
		     "<unit id=\"U2\" name=\"Blue Hussars\" side=\"b\" kind=\"line_infantry\" figures=\"24\"/>\n");
	ck_assert_int_eq(ord_scenario_names_apart(&sc, "t.xml"), 0);
	ord_scenario_release(&sc);
	names_refused(HEAD UNIT
		      "<unit id=\"U2\" name=\"Blue Hussars\" side=\"b\" kind=\"line_infantry\" figures=\"24\"/>\n"
		      "<unit id=\"U3\" name=\"BLUE \xd0\x9dUSSARS\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n",
		      "t.xml:8:21: the name of unit 'U3' ('BLUE \xd0\x9dUSSARS') looks like the name of unit 'U2' ('Blue Hussars') on line 7: a player cannot tell them apart (expected units' names and ids that differ in more than case, blanks, unseen characters and letters drawn alike: Greek and Cyrillic ones as Latin, fullwidth forms, 0 and O, 1, I and l)");
	names_refused("<title>T</title>\n<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"\xe2\x80\x8f"
		      "B\"/>\n" UNIT,
		      "t.xml:5: side 'b': its name '\\u200fB' holds the unseen character U+200F at character 1 (expected characters a player sees: a zero-width, bidirectional, control or other unseen character makes a name look like another's, or a report's line read otherwise)");
	names_refused(HEAD
		      "<unit id=\"U1\" name=\"\xe3\x80\x80U\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n",
		      "t.xml:6:21: unit 'U1': its name '\xe3\x80\x80U' begins with the blank U+3000 (expected no blank at either end: a name and the same name with a blank after it look alike)");
	/* a name quoted with every unseen character escaped, the soft hyphen
	 * too, as a report shows it */
	names_refused(HEAD "<unit id=\"U1\" name=\"Blue\xc2\xadHussars\" side=\"a\" "
			   "kind=\"line_infantry\" figures=\"24\"/>\n",
		      "t.xml:6:21: unit 'U1': its name 'Blue\\u00adHussars' holds the unseen character U+00AD at character 5 (expected characters a player sees: a zero-width, bidirectional, control or other unseen character makes a name look like another's, or a report's line read otherwise)");
}
END_TEST

/* What audit and verify note of a game made before (attack 41): the
 * problems `new` refuses, in its words less the reason, every one on a
 * line of its own; none of a scenario `new` takes. */
START_TEST(test_names_alike_noted)
{
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD UNIT
		     "<unit id=\"U2\" name=\"Blue Hussars\" side=\"b\" kind=\"line_infantry\" figures=\"24\"/>\n");
	ck_assert_int_eq(ord_scenario_names_alike(&sc, "the game's scenario"), 0);
	ord_scenario_release(&sc);
	load_body_ok(&sc,
		     "<title>T\xe2\x80\x8b</title>\n<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT
		     "<unit id=\"U2\" name=\"Blue Hussars\" side=\"b\" kind=\"line_infantry\" figures=\"24\"/>\n"
		     "<unit id=\"U3\" name=\"\xe2\x80\xae\xd0\x92lue Hussars\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n");
	ck_assert_int_eq(ord_scenario_names_alike(&sc, "the game's scenario"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "the game's scenario: the title 'T\\u200b' holds the unseen character U+200B at character 2\n"
			 "the game's scenario:8:21: unit 'U3': its name '\\u202e\xd0\x92lue Hussars' holds the unseen character U+202E at character 1\n"
			 "the game's scenario:8:21: the name of unit 'U3' ('\\u202e\xd0\x92lue Hussars') looks like the name of unit 'U2' ('Blue Hussars') on line 7: a player cannot tell them apart");
	ord_scenario_release(&sc);
}
END_TEST

/* A tag a club wrote over several lines is named by the line it begins
 * on (libxml2 names the line it ends on). */
START_TEST(test_tag_over_lines)
{
	/* line 4: a side given twice, the second over lines 5 to 7 */
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\"/>\n<side\n  id=\"a\"\n  name=\"B\"/>\n"
		    "<side id=\"b\" name=\"C\"/>\n" UNIT,
		    "t.xml:5: side id 'a' is already used on line 4");
	/* a unit over three lines: its own line, and its attribute's */
	expect_body(HEAD UNIT
		    "<unit\n id=\"U2\"\n name=\"u1\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n",
		    "t.xml:9:8: unit name 'u1' is already used by unit 'U1' on line 6 (names must differ ignoring case)\n"
		    "t.xml:9:8: unit name 'u1' of unit 'U2' is the id of unit 'U1' on line 6 (a sheet's word would name both: a name must differ from every other unit's id, ignoring case)");
	/* an element's own fault, named where its tag begins */
	expect_body("<title>T</title>\n<side id=\"a\"\n name=\"A\"\n bogus=\"1\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT,
		    "t.xml:4: unknown attribute 'bogus' on <side> (expected id, name, pubkey, email)");
}
END_TEST

START_TEST(test_many_problems)
{
	struct ord_buf body = ORD_BUF_INIT, want = ORD_BUF_INIT;
	int i;

	ord_buf_adds(&body, HEAD);
	for (i = 0; i < 30; i++)
		ord_buf_addf(&body, "<unit id=\"U%d\" name=\"U%d\" side=\"x\"/>\n", i, i);
	for (i = 0; i < 20; i++)
		ord_buf_addf(&want,
			     "t.xml:%d:%d: unit 'U%d': side 'x' is not declared (expected one of a b)\n",
			     6 + i, i < 10 ? 31 : 33, i);
	ord_buf_adds(&want, "t.xml: 10 more problems not shown");
	expect_body(body.buf, want.buf);
	ord_buf_release(&body);
	ord_buf_release(&want);
}
END_TEST

START_TEST(test_deadline)
{
	static const struct {
		const char *text;
		long long when; /* 0: refused */
	} cases[] = {
		{ "2026-12-01T18:00:00Z", 1796148000 },
		{ "2026-12-01T18:00Z", 1796148000 },
		{ "2026-12-01T19:00:00+01:00", 1796148000 },
		{ "2026-12-01T13:30:00-04:30", 1796148000 },
		{ " 2026-12-01T18:00:00Z\n", 1796148000 },
		{ "2028-02-29T00:00:00Z", 1835395200 },
		{ "2026-06-16T14:30:00Z", 1781620200 },
		{ "2027-02-29T00:00:00Z", 0 },
		{ "2026-02-30T18:00:00Z", 0 },
		{ "2026-13-01T18:00:00Z", 0 },
		{ "2026-00-01T18:00:00Z", 0 },
		{ "2026-12-00T18:00:00Z", 0 },
		{ "2026-12-01T24:00:00Z", 0 },
		{ "2026-12-01T18:60:00Z", 0 },
		{ "2026-12-01T18:00:60Z", 0 },
		{ "2026-12-01T18:00:00", 0 },
		{ "2026-12-01 18:00:00Z", 1796148000 },
		{ "2026-12-01T19:00 Europe/Copenhagen", 1796148000 },
		{ "2026-12-01T19:00 Europe/Nowhere", 0 },
		{ "2026-12-01T18:00:00.5Z", 0 },
		{ "2026-12-01T18:00:00+0100", 1796144400 },
		{ "1969-12-31T23:59:59Z", 0 },
		{ "1970-01-01T00:00:00Z", 0 },
		{ "1970-01-01T00:30:00+01:00", 0 },
		{ "tomorrow", 0 },
		{ "", 0 },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		struct ord_buf body = ORD_BUF_INIT, want = ORD_BUF_INIT;
		struct ord_scenario sc;
		char *xml;
		int rc;

		ord_buf_addf(&body,
			     "<title>T</title>\n<deadline>%s</deadline>\n<side id=\"a\" name=\"A\"/>\n"
			     "<side id=\"b\" name=\"B\"/>\n" UNIT,
			     cases[i].text);
		xml = doc(body.buf);
		rc = ord_scenario_load(&sc, xml, strlen(xml), "t.xml");
		if (cases[i].when) {
			ck_assert_msg(rc == 0, "'%s': %s", cases[i].text, ord_error_last());
			ck_assert_msg(sc.deadline == cases[i].when, "'%s': %lld", cases[i].text,
				      (long long)sc.deadline);
		} else {
			ck_assert_msg(rc == ORD_EBADDATA, "'%s' accepted", cases[i].text);
			ord_buf_addf(&want,
				     "t.xml:4: deadline '%s' is not a valid date and time "
				     "(expected ISO 8601 with a zone such as 2026-12-01T18:00:00Z, 2026-12-01T18:00+01:00 or 2026-12-01T18:00 Europe/Copenhagen, or +48h, +2d from the game's creation)",
				     cases[i].text);
			ck_assert_str_eq(ord_error_last(), want.buf);
		}
		ord_scenario_release(&sc);
		free(xml);
		ord_buf_release(&body);
		ord_buf_release(&want);
	}
}
END_TEST

/* A deadline the zone's clocks skip: the scenario reads (a game made
 * before reads its own again), and says why `orderly new` refuses it. */
START_TEST(test_deadline_clock_change)
{
	struct ord_scenario sc;

	load_body_ok(&sc, "<title>T</title>\n<deadline>2026-03-29T02:30 Europe/Copenhagen</deadline>\n"
			  "<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT);
	ck_assert_int_eq(sc.deadline, 1774747800); /* as mktime read it: 03:30 CEST */
	ck_assert_ptr_nonnull(sc.deadline_problem);
	ck_assert_str_eq(sc.deadline_problem,
			 "t.xml:4: deadline '2026-03-29T02:30 Europe/Copenhagen': 02:30 does not exist in Europe/Copenhagen on 2026-03-29: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)");
	ck_assert_str_eq(ord_error_last(), "");
	ord_scenario_release(&sc);
	load_body_ok(&sc, "<title>T</title>\n<deadline>2026-03-29T03:30 Europe/Copenhagen</deadline>\n"
			  "<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT);
	ck_assert_int_eq(sc.deadline, 1774747800);
	ck_assert_ptr_null(sc.deadline_problem);
	ord_scenario_release(&sc);
}
END_TEST

START_TEST(test_bad_deadline_file)
{
	expect_file("bad-deadline.xml", ORD_EBADDATA,
		    "@:4: deadline '2026-02-30T18:00:00Z' is not a valid date and time (expected ISO 8601 with a zone such as 2026-12-01T18:00:00Z, 2026-12-01T18:00+01:00 or 2026-12-01T18:00 Europe/Copenhagen, or +48h, +2d from the game's creation)");
}
END_TEST

START_TEST(test_pubkey)
{
	expect_file("bad-pubkey.xml", ORD_EBADDATA,
		    "@:4: side 'a': pubkey '0123456789abcdef' is not valid (expected 64 hex digits, an Ed25519 public key)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\" pubkey=\""
		    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg\"/>\n"
		    "<side id=\"b\" name=\"B\"/>\n" UNIT,
		    "t.xml:4: side 'a': pubkey '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg' is not valid (expected 64 hex digits, an Ed25519 public key)");
}
END_TEST

START_TEST(test_order_of_elements)
{
	expect_body("<title>T</title>\n<title>T</title>\n",
		    "t.xml:4: second <title> (only one is allowed)");
	expect_body(HEAD "<deadline>2026-12-01T18:00:00Z</deadline>\n" UNIT,
		    "t.xml:6: <deadline> after <side> (expected the order title, description, deadline, nmr, schedule, mail, sides, units)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\"/>\n" UNIT
		    "<side id=\"b\" name=\"B\"/>\n",
		    "t.xml:6: <side> after <unit> (expected the order title, description, deadline, nmr, schedule, mail, sides, units)");
	expect_body("<title>T</title>\n<nmr policy=\"hold\"/>\n<nmr policy=\"hold\"/>\n",
		    "t.xml:5: second <nmr> (only one is allowed)");
	expect_body(HEAD "<map/>\n" UNIT,
		    "t.xml:6: unknown element <map> in <scenario> (expected title, description, deadline, nmr, schedule, mail, side or unit)");
	expect_body(HEAD "<x:unit xmlns:x=\"urn:x\"/>\n",
		    "t.xml:6: element <unit> in namespace 'urn:x' is not accepted (expected no namespace)");
	expect_body(HEAD "stray text\n" UNIT,
		    "t.xml:6: unexpected text in <scenario> (expected elements only)");
	expect_body(HEAD "\n\n  stray\n  text\n\n" UNIT,
		    "t.xml:8: unexpected text in <scenario> (expected elements only)");
}
END_TEST

START_TEST(test_content_of_elements)
{
	expect_body("<title>T<b>old</b></title>\n",
		    "t.xml:3: unexpected element <b> in <title> (expected text only)");
	expect_body("<title lang=\"en\">T</title>\n",
		    "t.xml:3: unknown attribute 'lang' on <title> (expected none)");
	expect_body("<title>T</title>\n<description>a <i>b</i></description>\n",
		    "t.xml:4: unexpected element <i> in <description> (expected text only)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\">\n<unit/>\n</side>\n",
		    "t.xml:5: unexpected element <unit> in <side> (expected an empty element)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\">blue</side>\n",
		    "t.xml:4: unexpected text in <side> (expected an empty element)");
	expect_body("<title>T</title>\n<nmr policy=\"sometimes\"/>\n",
		    "t.xml:4: nmr policy 'sometimes' is not known (expected hold, repeat or wait)");
	expect_body("<title>T</title>\n<nmr/>\n",
		    "t.xml:4: <nmr> has no 'policy' attribute (expected hold, repeat or wait)");
	expect_body("<title>T</title>\n<nmr policy=\"hold\" when=\"now\"/>\n",
		    "t.xml:4: unknown attribute 'when' on <nmr> (expected policy)");
}
END_TEST

START_TEST(test_root_attributes)
{
	expect_text("<scenario>\n<title>T</title>\n</scenario>",
		    "t.xml:1: <scenario> has no 'ruleset' attribute (expected a ruleset name such as battalion)");
	expect_text("<scenario ruleset=\"Battalion\">\n<title>T</title>\n</scenario>",
		    "t.xml:1: ruleset 'Battalion' is not a ruleset name (expected 1 to 64 of a-z 0-9 _)");
	expect_text("<scenario ruleset=\"battalion\" version=\"2\">\n<title>T</title>\n</scenario>",
		    "t.xml:1: unknown attribute 'version' on <scenario> (expected ruleset)");
}
END_TEST

START_TEST(test_sides_attributes)
{
	expect_body("<title>T</title>\n<side id=\"French\" name=\"F\"/>\n",
		    "t.xml:4: side id 'French' is not valid (expected 1 to 32 of a-z 0-9 _ -)");
	expect_body("<title>T</title>\n<side id=\"abcdefghijklmnopqrstuvwxyz0123456\" name=\"F\"/>\n",
		    "t.xml:4: side id 'abcdefghijklmnopqrstuvwxyz0123456' is not valid (expected 1 to 32 of a-z 0-9 _ -)");
	expect_body("<title>T</title>\n<side name=\"F\"/>\n",
		    "t.xml:4: <side> has no 'id' attribute (expected a side id of a-z 0-9 _ -)");
	expect_body("<title>T</title>\n<side id=\"a\"/>\n",
		    "t.xml:4: <side> has no 'name' attribute (expected the side's display name)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\" \"/>\n",
		    "t.xml:4: side name is empty (expected 1 to 100 characters)");
	expect_body("<title>T</title>\n<side id=\"a\" name=\"A\" colour=\"blue\"/>\n",
		    "t.xml:4: unknown attribute 'colour' on <side> (expected id, name, pubkey, email)");
}
END_TEST

START_TEST(test_units_attributes)
{
	struct ord_buf name = ORD_BUF_INIT, body = ORD_BUF_INIT;
	struct ord_scenario sc;
	char *xml;
	int i;

	/* the id's form is this check's alone: the schema takes any text,
	 * what a token without facets takes (libxml2 compiled its pattern
	 * again for every unit, and checked a token at three times the cost
	 * of text); a tab (read as a space) and nothing at all are this check's too */
	expect_body(HEAD "<unit id=\"1st Foot\" name=\"A\" side=\"a\"/>\n",
		    "t.xml:6:11: unit id '1st Foot' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"U&#9;1\" name=\"A\" side=\"a\"/>\n",
		    "t.xml:6:11: unit id 'U 1' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"\" name=\"A\" side=\"a\"/>\n",
		    "t.xml:6:11: unit id '' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"U1\" name=\"A\" side=\"\"/>\n",
		    "t.xml:6:30: unit 'U1': side '' is not declared (expected one of a b)");
	expect_body(HEAD "<unit name=\"A\"\n      id=\"B1!\" side=\"a\"/>\n",
		    "t.xml:7:11: unit id 'B1!' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"abcdefghijklmnopqrstuvwxyz0123456\" name=\"A\" side=\"a\"/>\n",
		    "t.xml:6:11: unit id 'abcdefghijklmnopqrstuvwxyz0123456' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"B&#233;\" name=\"A\" side=\"a\"/>\n",
		    "t.xml:6:11: unit id 'B\xc3\xa9' is not valid (expected 1 to 32 of letters, digits _ . / -)");
	expect_body(HEAD "<unit id=\"U1\" side=\"a\"/>\n",
		    "t.xml:6: <unit> has no 'name' attribute (expected the unit's display name)");
	expect_body(HEAD "<unit id=\"U1\" name=\"A\"/>\n",
		    "t.xml:6: <unit> has no 'side' attribute (expected the id of one of the sides)");
	expect_body(HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" xmlns:g=\"urn:g\" g:colour=\"red\"/>\n",
		    "t.xml:6: attribute 'g:colour' on <unit> is not accepted (expected attributes without a namespace)");
	/* 100 characters (200 bytes here) is the longest name */
	for (i = 0; i < 100; i++)
		ord_buf_adds(&name, "é");
	ord_buf_addf(&body, HEAD "<unit id=\"U1\" name=\"%s\" side=\"a\"/>\n", name.buf);
	load_body_ok(&sc, body.buf);
	ck_assert_uint_eq(strlen(sc.units[0].name), 200);
	ord_scenario_release(&sc);
	ord_buf_reset(&body);
	ord_buf_addf(&body, HEAD "<unit id=\"U1\" name=\"%sé\" side=\"a\"/>\n", name.buf);
	xml = doc(body.buf);
	ck_assert_int_eq(ord_scenario_load(&sc, xml, strlen(xml), "t.xml"), ORD_EBADDATA);
	ck_assert(!strncmp(ord_error_last(), "t.xml:6: unit name 'éé", 24));
	ck_assert_ptr_nonnull(
		strstr(ord_error_last(), "...' is too long (expected at most 100 characters)"));
	free(xml);
	ord_buf_release(&name);
	ord_buf_release(&body);
}
END_TEST

START_TEST(test_title_length)
{
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_scenario sc;
	int i;

	ord_buf_adds(&body, "<title>");
	for (i = 0; i < 200; i++)
		ord_buf_addch(&body, 'x');
	ord_buf_adds(&body,
		     "</title>\n<side id=\"a\" name=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n" UNIT);
	load_body_ok(&sc, body.buf);
	ck_assert_uint_eq(strlen(sc.title), 200);
	ord_scenario_release(&sc);
	ord_buf_reset(&body);
	ord_buf_adds(&body, "<title>");
	for (i = 0; i < 201; i++)
		ord_buf_addch(&body, 'x');
	ord_buf_adds(&body, "</title>\n");
	expect_body(body.buf, "t.xml:3: <title> is too long (expected at most 200 characters)");
	ord_buf_release(&body);
}
END_TEST

START_TEST(test_malformed)
{
	struct ord_scenario sc;
	char path[4096], *want;

	snprintf(path, sizeof(path), "%s%s", FIXTURES, "malformed.xml");
	ck_assert_int_eq(ord_scenario_load_file(&sc, path), ORD_EBADDATA);
	want = expand("@:6:12: Opening and ending tag mismatch: side line 4 and scenario", path);
	ck_assert_msg(!strncmp(ord_error_last(), want, strlen(want)), "%s", ord_error_last());
	free(want);
	expect_text("", "t.xml:1:1: Document is empty");
}
END_TEST

/* ---- the ruleset's attributes --------------------------------------- */

/* What bad-attrs.xml is refused with ("@" the file's path). */
#define BAD_ATTRS_MSG                                                                                                                                                                 \
	"@:8:77: unit 'U2': unknown attribute 'colour' (expected one of kind formation figures quality class weapon)\n"                                                               \
	"@:9:46: unit 'U3': 'cannon' is not valid for 'kind' (expected one of line_infantry light_infantry skirmishers light_cavalry heavy_cavalry foot_artillery horse_artillery)\n" \
	"@:10:3: unit 'U4': missing attribute 'kind' (expected one of line_infantry light_infantry skirmishers light_cavalry heavy_cavalry foot_artillery horse_artillery)\n"         \
	"@:11:69: unit 'U5': '20000' is not valid for 'figures' (expected an integer from 1 to 10000)\n"                                                                              \
	"@:11:83: unit 'U5': 'F' is not valid for 'class' (expected one of A B C D E)"

START_TEST(test_attrs_errors)
{
	struct ord_scenario sc;
	char path[4096], *want;

	snprintf(path, sizeof(path), "%s%s", FIXTURES, "bad-attrs.xml");
	ck_assert_int_eq(ord_scenario_load_file(&sc, path), 0);
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, battalion_attrs, NULL, path), ORD_EBADDATA);
	want = expand(BAD_ATTRS_MSG, path);
	ck_assert_str_eq(ord_error_last(), want);
	free(want);
	ord_scenario_release(&sc);
}
END_TEST

/* A verifier's load finds no attribute places, unless the scenario is
 * refused: then its messages are a load's, places and all. */
START_TEST(test_load_checked)
{
	struct ord_scenario sc;
	char path[4096], *bytes, *want;
	size_t len, i;

	snprintf(path, sizeof(path), "%s", EXAMPLE);
	ck_assert_int_eq(ord_read_file(&bytes, &len, path, 1u << 20), 0);
	ck_assert_int_eq(ord_scenario_load_checked(&sc, bytes, len, path, battalion_attrs, NULL), 0);
	ck_assert_uint_gt(sc.nunits, 1);
	for (i = 0; i < sc.nunits; i++) {
		ck_assert_ptr_null(sc.units[i].pos);
		ck_assert_uint_eq(sc.units[i].npos, 0);
		ck_assert_str_eq(sc.units[i].name, sc.units[i].id + strlen(sc.units[i].id) + 1);
	}
	ord_scenario_release(&sc);
	free(bytes);

	snprintf(path, sizeof(path), "%s%s", FIXTURES, "bad-attrs.xml");
	ck_assert_int_eq(ord_read_file(&bytes, &len, path, 1u << 20), 0);
	ck_assert_int_eq(ord_scenario_load_checked(&sc, bytes, len, path, battalion_attrs, NULL),
			 ORD_EBADDATA);
	want = expand(BAD_ATTRS_MSG, path);
	ck_assert_str_eq(ord_error_last(), want);
	free(want);
	ord_scenario_release(&sc);
	free(bytes);
}
END_TEST

START_TEST(test_attrs_values)
{
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD
		     "<unit id=\"U1\" name=\"A\" side=\"a\" kind=\"line_infantry\" figures=\"\"/>\n"
		     "<unit id=\"U2\" name=\"B\" side=\"a\" kind=\"line_infantry\" figures=\"0\"/>\n"
		     "<unit id=\"U3\" name=\"C\" side=\"a\" kind=\"line_infantry\" figures=\" 24\"/>\n"
		     "<unit id=\"U4\" name=\"D\" side=\"a\" kind=\"Line_Infantry\" figures=\"2.5\"/>\n"
		     "<unit id=\"U5\" name=\"E\" side=\"a\" kind=\"line_infantry\" figures=\"1\" weapon=\"\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, battalion_attrs, NULL, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:6:63: unit 'U1': '' is not valid for 'figures' (expected an integer from 1 to 10000)\n"
			 "t.xml:7:63: unit 'U2': '0' is not valid for 'figures' (expected an integer from 1 to 10000)\n"
			 "t.xml:8:63: unit 'U3': ' 24' is not valid for 'figures' (expected an integer from 1 to 10000)\n"
			 "t.xml:9:39: unit 'U4': 'Line_Infantry' is not valid for 'kind' (expected one of line_infantry light_infantry skirmishers light_cavalry heavy_cavalry foot_artillery horse_artillery)\n"
			 "t.xml:9:63: unit 'U4': '2.5' is not valid for 'figures' (expected an integer from 1 to 10000)\n"
			 "t.xml:10:74: unit 'U5': '' is not valid for 'weapon' (expected one of musket rifle none)");
	ord_scenario_release(&sc);
}
END_TEST

extern const struct ord_notation ord_notation_ordre;

/* A word is read as the ruleset's sheets read theirs (here the ordre
 * notation's word_key and word_value) and set as the key's list writes
 * it, both when the scenario is checked and when a game's logged scenario
 * is read (ord_scenario_fill_defaults), so that a seal finds its units as
 * they were made; a word that is none is told the nearest at its place;
 * without words (a ruleset whose notation has none) as written. */
START_TEST(test_attrs_words_as_the_sheet)
{
	static const struct ord_key_spec specs[] = {
		{ "formation", ORD_KEY_ENUM, 0, "linie|karre|skyttekaede_taet|skyttekaede_tynd", 0,
		  0, "linie", "formation" },
		{ "ammo", ORD_KEY_ENUM, 0, "SF|SK", 0, 0, NULL, "ammunition" },
		{ 0 },
	};
	const struct ord_words_how words = { ord_notation_ordre.word_key, ord_notation_ordre.word_value,
					     ord_notation_ordre.word_forms };
	const char *body = HEAD
		"<unit id=\"U1\" name=\"A\" side=\"a\" formation=\"KARRÉ\"/>\n"
		"<unit id=\"U2\" name=\"B\" side=\"a\" formation=\"kar\" ammo=\"kardæsk\"/>\n"
		"<unit id=\"U3\" name=\"C\" side=\"b\" formation=\"Skyttekæde tynd\"/>\n"
		"<unit id=\"U4\" name=\"D\" side=\"b\" formation=\"skk_taet\" ammo=\"sk\"/>\n";
	char *xml = doc(body), why[256];
	struct ord_scenario sc, logged;

	load_body_ok(&sc, body);
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, &words, "t.xml"), 0);
	ck_assert_str_eq(ord_kv_get(&sc.units[0].attrs, "formation"), "karre");
	ck_assert_str_eq(ord_kv_get(&sc.units[1].attrs, "formation"), "karre");
	ck_assert_str_eq(ord_kv_get(&sc.units[1].attrs, "ammo"), "SK");
	ck_assert_str_eq(ord_kv_get(&sc.units[2].attrs, "formation"), "skyttekaede_tynd");
	ck_assert_str_eq(ord_kv_get(&sc.units[3].attrs, "formation"), "skyttekaede_taet");
	ck_assert_str_eq(ord_kv_get(&sc.units[3].attrs, "ammo"), "SK");
	/* the logged read, defaults and words filled: the same units */
	ck_assert_int_eq(ord_scenario_load_logged(&logged, xml, strlen(xml), "t.xml"), 0);
	ord_scenario_fill_defaults(&logged, specs, &words);
	ck_assert_msg(!scenario_differs_in(&sc, &logged, 0, why, sizeof(why)), "%s", why);
	ord_scenario_release(&logged);
	ord_scenario_release(&sc);
	free(xml);

	/* without words: as written */
	load_body_ok(&sc, body);
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, NULL, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:6:44: unit 'U1': 'KARRÉ' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd)\n"
			 "t.xml:7:44: unit 'U2': 'kar' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd)\n"
			 "t.xml:7:55: unit 'U2': 'kardæsk' is not valid for 'ammo' (expected one of SF SK)\n"
			 "t.xml:8:44: unit 'U3': 'Skyttekæde tynd' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd)\n"
			 "t.xml:9:44: unit 'U4': 'skk_taet' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd)\n"
			 "t.xml:9:60: unit 'U4': 'sk' is not valid for 'ammo' (expected one of SF SK)");
	ord_scenario_release(&sc);

	/* a word that is none: at its place, the nearest named */
	load_body_ok(&sc, HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" formation=\"KARÉ\"/>\n"
			       "<unit id=\"U2\" name=\"B\" side=\"a\" formation=\"tæt skk\"/>\n"
			       "<unit id=\"U3\" name=\"C\" side=\"a\" formation=\"kra\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, &words, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:6:44: unit 'U1': 'KARÉ' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd): did you mean 'karre'?\n"
			 "t.xml:7:44: unit 'U2': 'tæt skk' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd)\n"
			 "t.xml:8:44: unit 'U3': 'kra' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd): did you mean 'kar' (karre)?");
	ord_scenario_release(&sc);

	/* a chain of no density is dense, as the sheet's FORM skk (11) */
	load_body_ok(&sc, HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" formation=\"skk\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, &words, "t.xml"), 0);
	ck_assert_str_eq(ord_kv_get(&sc.units[0].attrs, "formation"), "skyttekaede_taet");
	ord_scenario_release(&sc);
}
END_TEST

/* A unit's attributes are read as the text of a list, but for a value
 * with a newline (a character reference), which that text would read as
 * two lines: set as written; the units of one list share it. */
START_TEST(test_attrs_read)
{
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD
		     "<unit id=\"U1\" name=\"A\" side=\"a\" kind=\"foot\" note=\"x=1\"/>\n"
		     "<unit id=\"U2\" name=\"B\" side=\"a\" kind=\"foot\" note=\"two&#10;lines\"/>\n"
		     "<unit id=\"U3\" name=\"C\" side=\"b\" kind=\"foot\" note=\"x=1\"/>\n"
		     "<unit id=\"U4\" name=\"D\" side=\"b\" kind=\"foot\" note=\"\"/>\n"
		     "<unit id=\"U5\" name=\"E\" side=\"b\"/>\n");
	ck_assert_uint_eq(sc.units[0].attrs.n, 2);
	ck_assert_str_eq(ord_kv_get(&sc.units[0].attrs, "kind"), "foot");
	ck_assert_str_eq(ord_kv_get(&sc.units[0].attrs, "note"), "x=1");
	ck_assert_uint_eq(sc.units[1].attrs.n, 2);
	ck_assert_str_eq(ord_kv_get(&sc.units[1].attrs, "note"), "two\nlines");
	ck_assert_ptr_nonnull(ord_kv_shared_block(&sc.units[0].attrs));
	ck_assert_ptr_eq(ord_kv_shared_block(&sc.units[2].attrs),
			 ord_kv_shared_block(&sc.units[0].attrs));
	ck_assert_str_eq(ord_kv_get(&sc.units[3].attrs, "note"), "");
	ck_assert_uint_eq(sc.units[4].attrs.n, 0);
	ord_scenario_release(&sc);
}
END_TEST

/* Units of one list of attributes are checked as one (the lists found
 * clean are kept by ord_scenario_check_attrs): each unit of a list met
 * again, next to it or after others, ends as the first of it did, its
 * words respelled and its defaults filled, holding the same list; a list
 * with a problem is said of every unit that has it. */
START_TEST(test_attrs_lists_met_again)
{
	static const struct ord_key_spec specs[] = {
		{ "formation", ORD_KEY_ENUM, 0, "linie|karre|skyttekaede_taet|skyttekaede_tynd", 0,
		  0, "linie", "formation" },
		{ "ammo", ORD_KEY_ENUM, 0, "SF|SK", 0, 0, NULL, "ammunition" },
		{ 0 },
	};
	const struct ord_words_how words = { ord_notation_ordre.word_key, ord_notation_ordre.word_value,
					     ord_notation_ordre.word_forms };
	static const char *const want[][2] = {
		{ "karre", "SK" }, { "linie", "SF" }, { "karre", "SK" }, { "linie", "SF" },
		{ "kra", "SF" },   { "karre", "SK" }, { "kra", "SF" },   { "linie", "SF" },
	};
	struct ord_scenario sc;
	size_t i;

	load_body_ok(&sc,
		     HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" formation=\"kar\" ammo=\"sk\"/>\n"
			  "<unit id=\"U2\" name=\"B\" side=\"a\" ammo=\"SF\"/>\n"
			  "<unit id=\"U3\" name=\"C\" side=\"a\" formation=\"kar\" ammo=\"sk\"/>\n"
			  "<unit id=\"U4\" name=\"D\" side=\"b\" ammo=\"SF\"/>\n"
			  "<unit id=\"U5\" name=\"E\" side=\"b\" formation=\"kra\" ammo=\"SF\"/>\n"
			  "<unit id=\"U6\" name=\"F\" side=\"b\" formation=\"kar\" ammo=\"sk\"/>\n"
			  "<unit id=\"U7\" name=\"G\" side=\"b\" formation=\"kra\" ammo=\"SF\"/>\n"
			  "<unit id=\"U8\" name=\"H\" side=\"b\" ammo=\"SF\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, &words, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:10:44: unit 'U5': 'kra' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd): did you mean 'kar' (karre)?\n"
			 "t.xml:12:44: unit 'U7': 'kra' is not valid for 'formation' (expected one of linie karre skyttekaede_taet skyttekaede_tynd): did you mean 'kar' (karre)?");
	for (i = 0; i < sc.nunits; i++) {
		ck_assert_uint_eq(sc.units[i].attrs.n, 2);
		ck_assert_str_eq(ord_kv_get(&sc.units[i].attrs, "formation"), want[i][0]);
		ck_assert_str_eq(ord_kv_get(&sc.units[i].attrs, "ammo"), want[i][1]);
	}
	/* a list once, whichever way each unit came to it */
	ck_assert_ptr_nonnull(ord_kv_shared_block(&sc.units[0].attrs));
	ck_assert_ptr_eq(ord_kv_shared_block(&sc.units[2].attrs),
			 ord_kv_shared_block(&sc.units[0].attrs));
	ck_assert_ptr_eq(ord_kv_shared_block(&sc.units[5].attrs),
			 ord_kv_shared_block(&sc.units[0].attrs));
	ck_assert_ptr_eq(ord_kv_shared_block(&sc.units[3].attrs),
			 ord_kv_shared_block(&sc.units[1].attrs));
	ck_assert_ptr_eq(ord_kv_shared_block(&sc.units[7].attrs),
			 ord_kv_shared_block(&sc.units[1].attrs));
	ord_scenario_release(&sc);
}
END_TEST

/* An attribute of type ORD_KEY_UNIT names a unit of the scenario, by id or
 * by name ignoring ASCII case, as a sheet does; one that names none is
 * refused with its line and column, in any order of the units. */
START_TEST(test_attrs_name_units)
{
	static const struct ord_key_spec specs[] = {
		{ "kind", ORD_KEY_ENUM, 1, "foot|horse", 0, 0, NULL, "the arm" },
		{ "leader", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the unit it follows" },
		{ 0 },
	};
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD
		     "<unit id=\"U1\" name=\"First Foot\" side=\"a\" kind=\"foot\" leader=\"U3\"/>\n"
		     "<unit id=\"U2\" name=\"B\" side=\"a\" kind=\"foot\" leader=\"first FOOT\"/>\n"
		     "<unit id=\"U3\" name=\"C\" side=\"b\" kind=\"horse\" leader=\"U3\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, NULL, "t.xml"), 0);
	ck_assert_str_eq(ord_kv_get(&sc.units[1].attrs, "leader"), "first FOOT");
	ord_scenario_release(&sc);

	load_body_ok(&sc,
		     HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" kind=\"foot\" leader=\"U9\"/>\n"
			  "<unit id=\"U2\" name=\"B\" side=\"a\" kind=\"foot\" leader=\"u1\"/>\n"
			  "<unit id=\"U3\" name=\"C\" side=\"b\" kind=\"horse\" leader=\"\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, specs, NULL, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:6:53: unit 'U1': 'U9' names no unit of the scenario (expected the id or name of a unit for 'leader')\n"
			 "t.xml:7:53: unit 'U2': 'u1' names no unit of the scenario (expected the id or name of a unit for 'leader')\n"
			 "t.xml:8:54: unit 'U3': '' is not valid for 'leader' (expected a unit id or name)");
	ord_scenario_release(&sc);
}
END_TEST

START_TEST(test_attrs_no_specs)
{
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD "<unit id=\"U1\" name=\"A\" side=\"a\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, NULL, NULL, "t.xml"), 0);
	ck_assert_uint_eq(sc.units[0].attrs.n, 0);
	ord_scenario_release(&sc);
	load_body_ok(&sc, HEAD "<unit id=\"U1\" name=\"A\" side=\"a\" kind=\"x\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, NULL, NULL, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:6:33: unit 'U1': unknown attribute 'kind' (the ruleset declares no unit attributes)");
	ord_scenario_release(&sc);
}
END_TEST

/* A problem of an attribute names its line and column: past a comment
 * that holds a <unit> tag, on the second line of a tag, counting a
 * character of several bytes as one. */
START_TEST(test_attrs_columns)
{
	struct ord_scenario sc;

	load_body_ok(&sc, HEAD "<!-- <unit id=\"Z\" name=\"Z\" side=\"a\" kind=\"z\"/> -->\n"
			       "<unit id=\"U1\" name=\"A\"\n"
			       "      side=\"a\" kind=\"x\"/>\n"
			       "<unit id=\"U2\" name=\"\xc3\x86"
			       "ble\" side=\"a\" kind=\"y\"/>\n");
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, NULL, NULL, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:8:16: unit 'U1': unknown attribute 'kind' (the ruleset declares no unit attributes)\n"
			 "t.xml:9:36: unit 'U2': unknown attribute 'kind' (the ruleset declares no unit attributes)");
	ord_scenario_release(&sc);
}
END_TEST

START_TEST(test_attrs_many)
{
	struct ord_buf body = ORD_BUF_INIT;
	static const char first[] = "t.xml:6:1: unit 'U0': missing attribute 'kind' (expected one of ";
	struct ord_scenario sc;
	const char *msg, *p;
	int i, lines = 1;

	ord_buf_adds(&body, HEAD);
	for (i = 0; i < 40; i++)
		ord_buf_addf(&body, "<unit id=\"U%d\" name=\"U%d\" side=\"a\"/>\n", i, i);
	load_body_ok(&sc, body.buf);
	ck_assert_int_eq(ord_scenario_check_attrs(&sc, battalion_attrs, NULL, "t.xml"), ORD_EBADDATA);
	msg = ord_error_last();
	for (p = msg; *p; p++)
		lines += *p == '\n';
	/* 80 problems (kind and figures of each unit): as many as fit the
	 * 2048-byte error message (14 of these long ones), then the count */
	ck_assert_int_eq(lines, 15);
	ck_assert_msg(!strncmp(msg, first, strlen(first)), "%s", msg);
	ck_assert_ptr_nonnull(strstr(msg, "\nt.xml:12:1: unit 'U6': missing attribute 'figures' (expected an integer from 1 to 10000)\n"
					  "t.xml: 66 more problems not shown"));
	ck_assert_uint_lt(strlen(msg), 2000);
	ord_scenario_release(&sc);
	ord_buf_release(&body);
}
END_TEST

/* ---- hostile XML ---------------------------------------------------- */

#define DOCTYPE_MSG \
	"DOCTYPE declarations are not accepted (entities and DTDs are refused); expected a plain XML document"

START_TEST(test_hostile_files)
{
	expect_file("hostile-billion-laughs.xml", ORD_EBADDATA, "@:2: " DOCTYPE_MSG);
	expect_file("hostile-xxe-file.xml", ORD_EBADDATA, "@:2: " DOCTYPE_MSG);
	expect_file("hostile-xxe-http.xml", ORD_EBADDATA, "@:2: " DOCTYPE_MSG);
	expect_file("hostile-external-dtd.xml", ORD_EBADDATA, "@:2: " DOCTYPE_MSG);
	expect_file("hostile-parameter-entity.xml", ORD_EBADDATA, "@:2: " DOCTYPE_MSG);
	expect_file("hostile-xinclude.xml", ORD_EBADDATA, "@:2: XInclude is not accepted");
	expect_file("hostile-latin1.xml", ORD_EBADDATA,
		    "@:1: encoding 'ISO-8859-1' is not accepted; expected UTF-8");
	expect_file("hostile-utf7.xml", ORD_EBADDATA,
		    "@:1: encoding 'UTF-7' is not accepted; expected UTF-8");
	expect_file("hostile-utf16.xml", ORD_EBADDATA,
		    "@:1: not UTF-8 (a UTF-16 or UTF-32 document); expected UTF-8");
	expect_file("hostile-nul.xml", ORD_EBADDATA, "@:3: contains a NUL byte; expected UTF-8 text");
}
END_TEST

START_TEST(test_hostile_generated)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_scenario sc;
	char *big;
	int i;

	/* quadratic blow-up: one large entity referenced many times */
	ord_buf_adds(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY a \"");
	for (i = 0; i < 50000; i++)
		ord_buf_addch(&b, 'a');
	ord_buf_adds(&b, "\">]>\n<scenario ruleset=\"battalion\"><title>");
	for (i = 0; i < 50000; i++)
		ord_buf_adds(&b, "&a;");
	ord_buf_adds(&b, "</title></scenario>\n");
	expect_text(b.buf, "t.xml:2: " DOCTYPE_MSG);

	/* 10,000 nested elements */
	ord_buf_reset(&b);
	ord_buf_adds(&b, "<scenario ruleset=\"battalion\">\n<title>T</title>\n");
	for (i = 0; i < 10000; i++)
		ord_buf_adds(&b, "<a>");
	for (i = 0; i < 10000; i++)
		ord_buf_adds(&b, "</a>");
	ord_buf_adds(&b, "</scenario>\n");
	expect_text(b.buf, "t.xml:3:769: elements nested deeper than 64 levels");

	/* larger than the limit: refused before parsing */
	big = ord_xmalloc(ORD_XML_MAX_BYTES + 2);
	memset(big, ' ', ORD_XML_MAX_BYTES + 1);
	memcpy(big, "<scenario>", 10);
	ck_assert_int_eq(ord_scenario_load(&sc, big, ORD_XML_MAX_BYTES + 1, "t.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml: document of 16777217 bytes is larger than the limit of 16777216 bytes");
	free(big);
	ord_buf_release(&b);
}
END_TEST

/* A document read as a stream (ord_scenario_load) and as a tree (the
 * reference): the same scenario, places included, or the same refusal;
 * and, when it is taken, read as a game's logged scenario is (without
 * the schema, ord_scenario_load_logged), the same but for the places. */
static void expect_stream_as_tree(const char *xml, size_t len, const char *what)
{
	struct ord_scenario a, b, c;
	char why[256], *msg;
	int ra, rb;

	ra = ord_scenario_load(&a, xml, len, "t.xml");
	if (!ra) {
		ck_assert_msg(ord_scenario_load_logged(&c, xml, len, "t.xml") == 0,
			      "%s: read as logged, refused: %s", what, ord_error_last());
		ck_assert_msg(!scenario_differs_in(&a, &c, 0, why, sizeof(why)),
			      "%s, as logged: %s", what, why);
		ord_scenario_release(&c);
	}
	ord_scenario_release(&a);

	ra = ord_scenario_load(&a, xml, len, "t.xml");
	msg = ord_strdup(ra ? ord_error_last() : "");
	rb = ord_scenario_load_tree(&b, xml, len, "t.xml");
	ck_assert_msg(ra == rb, "%s: the stream gives %d (%s), the tree %d (%s)", what, ra, msg, rb,
		      rb ? ord_error_last() : "");
	if (ra)
		ck_assert_str_eq(msg, ord_error_last());
	else
		ck_assert_msg(!scenario_differs(&a, &b, why, sizeof(why)), "%s: %s", what, why);
	free(msg);
	ord_scenario_release(&a);
	ord_scenario_release(&b);
}

/* A logged scenario that is not right (a unit on no side, a document cut
 * short) is refused as ord_scenario_load refuses it, in its words. */
START_TEST(test_logged_refused_as_load)
{
	static const char *const bodies[] = {
		HEAD "<unit id=\"U1\" name=\"U1\" side=\"c\" kind=\"line_infantry\" figures=\"24\"/>\n",
		HEAD UNIT "<unit id=\"U2\" name=\"U2\" side=\"a\"",
	};
	struct ord_scenario a, c;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(bodies); i++) {
		char *xml = doc(bodies[i]), *msg;
		ck_assert_int_ne(ord_scenario_load(&a, xml, strlen(xml), "t.xml"), 0);
		msg = ord_strdup(ord_error_last());
		ck_assert_int_ne(ord_scenario_load_logged(&c, xml, strlen(xml), "t.xml"), 0);
		ck_assert_str_eq(ord_error_last(), msg);
		ck_assert_uint_eq(c.nunits, 0);
		free(msg);
		free(xml);
	}
}
END_TEST

START_TEST(test_stream_as_tree)
{
	static const char *const bodies[] = {
		/* accepted, written every way a scenario may be */
		HEAD UNIT,
		"<!-- a comment -->\n<title><![CDATA[Ligny]]>, <!-- x -->1815</title>\n"
		"<description>\n  two\n  lines <![CDATA[a < b]]>\n</description>\n"
		"<deadline> +48h </deadline>\n<nmr policy=\"repeat\"/>\n"
		"<schedule every=\"48h\" at=\"18:00\" zone=\"Europe/Copenhagen\" remind=\"24h,2h\"/>\n"
		"<mail address=\"judge@example.org\" referee=\"ref@example.org\" replies-per-hour=\"9\"/>\n"
		"<side id=\"a\" name=\"  Armée   du Nord \" email=\"p@example.org\"/>\n"
		"<?pi between?>\n<side id='b' name='B'></side>\n"
		"<unit\n  id=\"U1\"\tname = 'Bn 1/é'\r\n side=\"a\"\n kind=\"line_infantry\" figures=\"24\" ></unit>\n"
		"<unit id=\"U2\" name=\"U2\" side=\"b\" kind=\"light_cavalry\" figures=\"6\">\n  </unit>\n"
		"\t<unit figures=\"8\" kind=\"skirmishers\" side=\"b\" name=\"U3\" id=\"U3\" />\n",
		"<title>T</title><side id=\"a\" name=\"A\"/><side id=\"b\" name=\"B\"/>"
		"<unit id=\"U1\" name=\"U1\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>",
		/* refused: by the schema, by the walk, by the checks after it */
		HEAD UNIT
		"<unit id=\"U1\" name=\"Other\" side=\"a\" kind=\"line_infantry\" figures=\"24\"/>\n",
		HEAD "<unit id=\"U1\" name=\"U1\" side=\"c\" kind=\"line_infantry\" figures=\"24\"/>\n",
		HEAD UNIT "text\n",
		HEAD UNIT "<side id=\"c\" name=\"C\"/>\n",
		HEAD "<unit id=\"U1\" name=\"U1\" side=\"a\" kind=\"line_infantry\">x</unit>\n",
		HEAD "<unit id=\"U1\" name=\"U1\" side=\"a\"><b/></unit>\n",
		"<side id=\"a\" name=\"A\"/>\n" UNIT,
		"<title>T</title>\n<side id=\"a\" name=\"A\"/>\n" UNIT,
		"<title>T</title>\n<title>U</title>\n",
		HEAD,
		HEAD UNIT "<unit xmlns=\"urn:x\" id=\"U2\" name=\"U2\" side=\"a\"/>\n",
		"<title>T</title>\n<deadline>someday</deadline>\n<side id=\"a\" name=\"A\"/>\n"
		"<side id=\"b\" name=\"B\"/>\n" UNIT,
		HEAD UNIT "<unit id=\"U2\" name=\"U2\" side=\"a\"",
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(bodies); i++) {
		char *xml = doc(bodies[i]), what[32];
		snprintf(what, sizeof(what), "document %zu", i + 1);
		expect_stream_as_tree(xml, strlen(xml), what);
		free(xml);
	}
	/* the example, and every fixture, good or bad */
	{
		static const char *const files[] = {
			EXAMPLE,
			FIXTURES "valid-minimal.xml",
			FIXTURES "bad-attrs.xml",
			FIXTURES "bad-duplicates.xml",
			FIXTURES "bad-one-side.xml",
			FIXTURES "malformed.xml",
			FIXTURES "hostile-xinclude.xml",
		};
		for (i = 0; i < ORD_ARRAY_SIZE(files); i++) {
			char *bytes;
			size_t len;
			ck_assert_int_eq(ord_read_file(&bytes, &len, files[i], 1 << 24), 0);
			expect_stream_as_tree(bytes, len, files[i]);
			free(bytes);
		}
	}
}
END_TEST

/* The scenario a game keeps: the sides' and the referee's addresses gone,
 * the rest as it was; a scenario without them is kept byte for byte. */
START_TEST(test_public)
{
	static const char with[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				   "<!-- a comment stays -->\n"
				   "<scenario ruleset=\"battalion\">\n"
				   "  <title>Mail &amp; mill</title>\n"
				   "  <mail address=\"judge@club.example\" referee=\"ref@club.example\" "
				   "replies-per-hour=\"20\"/>\n"
				   "  <side id=\"blue\" name=\"Blue\" email=\"anna@example.org\"/>\n"
				   "  <side id=\"red\" name=\"Red\"/>\n"
				   "  <unit id=\"B1\" name=\"Bn\" side=\"blue\" kind=\"line_infantry\"/>\n"
				   "  <unit id=\"R1\" name=\"Rn\" side=\"red\" kind=\"line_infantry\"/>\n"
				   "</scenario>\n";
	struct ord_scenario a, b;
	char *bytes = strdup(with), *same;
	size_t len = strlen(with);

	ck_assert_int_eq(ord_scenario_load(&a, bytes, len, "t.xml"), 0);
	ck_assert_int_eq(ord_scenario_public(&bytes, &len, "t.xml"), 0);
	ck_assert_uint_eq(len, strlen(bytes));
	ck_assert_ptr_null(strstr(bytes, "anna@"));
	ck_assert_ptr_null(strstr(bytes, "ref@"));
	ck_assert_ptr_nonnull(strstr(bytes, "address=\"judge@club.example\""));
	ck_assert_ptr_nonnull(strstr(bytes, "<!-- a comment stays -->"));
	ck_assert_ptr_nonnull(strstr(bytes, "<title>Mail &amp; mill</title>"));
	ck_assert_int_eq(ord_scenario_load(&b, bytes, len, "t.xml"), 0);
	ck_assert_ptr_null(b.sides[0].email);
	ck_assert_ptr_null(b.referee_email);
	ck_assert_str_eq(a.sides[0].email, "anna@example.org");
	ck_assert_str_eq(b.mail_address, a.mail_address);
	ck_assert_int_eq(b.replies_per_hour, a.replies_per_hour);
	ck_assert_uint_eq(b.nunits, a.nunits);
	ck_assert_str_eq(b.title, a.title);
	/* nothing left to take: the very same bytes */
	same = bytes;
	ck_assert_int_eq(ord_scenario_public(&bytes, &len, "t.xml"), 0);
	ck_assert_ptr_eq(bytes, same);
	ord_scenario_release(&a);
	ord_scenario_release(&b);
	free(bytes);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *load = tcase_create("load");
	TCase *errors = tcase_create("errors");
	TCase *attrs = tcase_create("attrs");
	TCase *hostile = tcase_create("hostile");

	tcase_add_test(load, test_example);
	tcase_add_test(load, test_minimal);
	tcase_add_test(load, test_public);
	tcase_add_test(load, test_nmr_and_description);
	tcase_add_test(load, test_missing_file);
	tcase_add_test(load, test_stream_as_tree);
	tcase_add_test(load, test_logged_refused_as_load);
	suite_add_tcase(s, load);

	tcase_add_test(errors, test_wrong_root);
	tcase_add_test(errors, test_names_apart);
	tcase_add_test(errors, test_names_alike_noted);
	tcase_add_test(errors, test_missing_title);
	tcase_add_test(errors, test_sides_and_units_needed);
	tcase_add_test(errors, test_sides_at_most);
	tcase_add_test(errors, test_duplicates_and_unknown_side);
	tcase_add_test(errors, test_name_is_another_id);
	tcase_add_test(errors, test_many_problems);
	tcase_add_test(errors, test_deadline);
	tcase_add_test(errors, test_deadline_clock_change);
	tcase_add_test(errors, test_bad_deadline_file);
	tcase_add_test(errors, test_pubkey);
	tcase_add_test(errors, test_order_of_elements);
	tcase_add_test(errors, test_content_of_elements);
	tcase_add_test(errors, test_root_attributes);
	tcase_add_test(errors, test_sides_attributes);
	tcase_add_test(errors, test_units_attributes);
	tcase_add_test(errors, test_title_length);
	tcase_add_test(errors, test_malformed);
	suite_add_tcase(s, errors);

	tcase_add_test(attrs, test_attrs_errors);
	tcase_add_test(attrs, test_load_checked);
	tcase_add_test(attrs, test_attrs_words_as_the_sheet);
	tcase_add_test(attrs, test_attrs_values);
	tcase_add_test(attrs, test_attrs_name_units);
	tcase_add_test(attrs, test_attrs_lists_met_again);
	tcase_add_test(attrs, test_attrs_read);
	tcase_add_test(attrs, test_attrs_no_specs);
	tcase_add_test(attrs, test_attrs_many);
	tcase_add_test(attrs, test_attrs_columns);
	tcase_add_test(attrs, test_tag_over_lines);
	suite_add_tcase(s, attrs);

	tcase_add_test(hostile, test_hostile_files);
	tcase_add_test(hostile, test_hostile_generated);
	suite_add_tcase(s, hostile);
	return s;
}
