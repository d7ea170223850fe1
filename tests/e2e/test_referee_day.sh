#!/usr/bin/env bash
# test_referee_day.sh - what a new club referee met in a day's play (the
# hday session): each part a place where the tool surprised him, now said
# plainly.  --help in the man page's own letters; `help event` with the
# event command's usage; an event recorded with the number --void takes;
# a battalion charge's contact that no melee event fights holds the melee
# phase; an arrow typed "->" named as the arrow meant; a sheet headed with
# another turn warned of; `info` after an exchange naming the bundle;
# (hfin) `info` naming the sides the NMR policy would stand in for; a
# sheet's unknown unit with no near match told the side's units;
# (hday7) an event's unit and an order's target told every side's;
# info's next line naming the melee owed; a Krigsspil ^O (Ø as O) named.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TMP"

# ---- --help renders the man page's special characters, as man does
# (before: "skyttekde\tt", "KARR", "Blue [u041D]ussars")
run ord new --help
expect_eq "$RC" 0 "new --help"
expect_in "$OUT" '"skyttekæde tæt"'
expect_in "$OUT" 'formation="KARRÉ"'
expect_in "$OUT" "('Blue Нussars')"
expect_not_in "$OUT" "skyttekde"
expect_not_in "$OUT" "[u041D]"
run ord event --help
expect_in "$OUT" "with æ ø å ä ö é or ae"

# ---- help event gives the event command's usage first, with --void
run ord help event battalion
expect_eq "$RC" 0 "help event battalion"
expect_line "$(head -n 1 <<<"$OUT")" "^usage: orderly event GAME KIND key=value\\.\\.\\. .*--void SEQ --reason REASON$"
expect_in "$OUT" "'orderly event --help' describes its options (--file, --override, --void)"
expect_in "$OUT" "Events of the battalion ruleset"

# ---- a battalion turn: events said with their numbers
cp "$FIX/scenario.xml" scenario.xml
expect_exit 0 ord new g.game --scenario scenario.xml
printf '# Blue, turn 1\nB3: ↑-C 1\nB1: ↑ 1/2\n' >blue-1.txt
printf '# Red, turn 1\nR2 → 1/2\n' >red-1.txt
expect_exit 0 ord submit g.game --side blue blue-1.txt
expect_not_in "$ERR" "warning"
expect_exit 0 ord submit g.game --side red red-1.txt
expect_exit 0 ord seal g.game
run ord event g.game move unit=B3 distance=9 contact=R1
expect_eq "$RC" 0 "the charge into contact"
expect_eq "$OUT" "recorded move (#1)" "an event said with its number"
run ord event g.game move unit=B1 distance=4
expect_eq "$OUT" "recorded move (#2)" "the second event's number"
# the number said is the one --void takes
expect_exit 0 ord event g.game --void 2 --reason "measured 4, was 3"
run ord event g.game move unit=B1 distance=3
expect_eq "$OUT" "recorded move (#3)" "an event recorded again, after a void"
printf 'move unit=R2 distance=4\n' >moves.txt
run ord event g.game --file moves.txt
expect_eq "$OUT" "recorded 1 event(s) from moves.txt (#4 to #4)" "a file's events"
expect_exit 0 ord resolve g.game
expect_exit 0 ord resolve g.game --phase fire --empty
expect_exit 0 ord resolve g.game

# ---- the charge's contact holds the melee phase: a plain resolve is
# refused, naming the unit, and nothing changes; (hday7) info's next line
# names the melee owed before the resolve is typed
run ord info g.game
expect_line "$OUT" "^next: +the events of phase melee \\(melee: event, or event --file\\), then resolve; 1 unit still waits for an event of phase melee, by its sealed order or the rules \\(unit B3: melee\\): with no event of the phase recorded, resolve refuses it unless --empty$"
before=$(sha g.game)
run ord resolve g.game
expect_eq "$RC" 65 "the melee phase with a contact no melee event fights"
expect_in "$ERR" "phase melee has no events, but 1 unit waits for one in it"
expect_in "$ERR" "(unit B3: melee)"
expect_in "$ERR" "orderly resolve g.game --phase melee --empty"
expect_eq "$(sha g.game)" "$before" "the game file after a refused resolve"
# the melee recorded, the phase resolves
expect_exit 0 ord event g.game melee a=B3 b=R1
run ord info g.game
expect_line "$OUT" "^next: +the events of phase melee \\(melee: event, or event --file\\), then resolve$"
run ord resolve g.game
expect_eq "$RC" 0 "the melee phase with its melee"
expect_in "$OUT" "melee with B3"
expect_exit 0 ord resolve g.game
expect_exit 0 ord exchange g.game
expect_exit 0 ord audit g.game
# --empty resolves it without the melee, as the referee may mean
expect_exit 0 ord new e.game --scenario scenario.xml
expect_exit 0 ord submit e.game --side blue blue-1.txt
expect_exit 0 ord submit e.game --side red red-1.txt
expect_exit 0 ord seal e.game
expect_exit 0 ord event e.game move unit=B3 distance=9 contact=R1
expect_exit 0 ord resolve e.game
resolve_rest e.game 2
expect_exit 65 ord resolve e.game
expect_exit 0 ord resolve e.game --phase melee --empty
expect_exit 0 ord resolve e.game
expect_exit 0 ord exchange e.game
expect_exit 0 ord audit e.game

# ---- info after the exchange: the turn's bundle for the players, until
# a sheet of the next turn is in
run ord info g.game
expect_in "$OUT" "and turn 1's bundle for the players, if not yet sent: export --turn 1 -o FILE"

# ---- a sheet headed with another turn: a warning at the word, stored
printf '# Blue, turn 1\nB1: ↑ 1/4\n' >blue-old.txt
run ord submit g.game --side blue blue-old.txt
expect_eq "$RC" 0 "last turn's sheet sent again"
expect_in "$OUT" "receipt: turn 2 side blue version 1"
expect_in "$ERR" "orderly: warning: blue-old.txt:1:9: the sheet's heading says 'turn 1', but the game is at turn 2: is it the sheet of another turn?"
run ord info g.game
expect_not_in "$OUT" "bundle for the players"
# a byte order mark and CRLF, the Danish word, --check: the column in
# characters; a heading of this turn, or a turn named after the first
# order, says nothing
printf '\xef\xbb\xbf# Blå, træk 3\r\nB1: ↑ 1/4\r\n' >bom.txt
run ord submit g.game --side blue --check bom.txt
expect_eq "$RC" 0 "a sheet checked"
expect_in "$ERR" "warning: bom.txt:1:8: the sheet's heading says 'træk 3', but the game is at turn 2"
printf '# Blue, Turn 2\n\nB1: ↑ 1/4   # as in turn 1\n# turn 1 again\n' >now.txt
run ord submit g.game --side blue now.txt
expect_eq "$RC" 0 "this turn's sheet"
expect_not_in "$ERR" "warning"

# ---- an arrow typed on a keyboard: the arrow meant, in both notations
printf 'B1: -> 1/2\nB3: <- 1/4\n' >arrows.txt
run ord check arrows.txt --scenario scenario.xml --side blue
expect_eq "$RC" 65 "a battalion sheet with typed arrows"
expect_in "$ERR" "arrows.txt:1:5: unit 'B1': bad direction '->' (expected one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NE ^E ^SE ^S ^SW ^W ^NW or ^000 to ^359): did you mean '→' (^E)?"
expect_in "$ERR" "arrows.txt:2:5: unit 'B3': bad direction '<-' (expected"
expect_in "$ERR" "did you mean '←' (^W)?"
expect_not_in "$ERR" "empty token"
expect_not_in "$ERR" "unknown code '>'"
expect_in "$ERR" "2 problem(s)"
KS=$SRC/rulesets/krigsspil/examples
printf 'D1: M => 1\n' >pile.txt
run ord check pile.txt --scenario "$KS/scenario.xml" --side danske
expect_eq "$RC" 65 "a Krigsspil sheet with a typed arrow"
expect_in "$ERR" "pile.txt:1:7: unit 'D1': bad direction '=>' (expected one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NØ ^Ø ^SØ ^S ^SV ^V ^NV (in ASCII ^NOE ^OE ^SOE, or ^NE ^E ^SE ^SW ^W ^NW) or ^000 to ^359): did you mean '→' (^090)?"
expect_not_in "$ERR" "bad hex"
# (hday7) the list shows what a keyboard without Ø types (^OE, as the
# notation's ASCII forms write Ø, and the English points); ^O, Ø typed
# as a bare O, is no such form: refused, the form meant named
printf 'D1: M ^O 1\nD2: M ^soe 1\nD3: M ^SE 1\n' >oe.txt
run ord check oe.txt --scenario "$KS/scenario.xml" --side danske
expect_eq "$RC" 65 "a Krigsspil sheet with ^O"
expect_line "$ERR" "^oe\\.txt:1:7: unit 'D1': bad direction '\\^O' \\(expected one of .* \\(in ASCII \\^NOE \\^OE \\^SOE, or \\^NE \\^E \\^SE \\^SW \\^W \\^NW\\) or \\^000 to \\^359\\): did you mean '\\^OE' \\(→, \\^090: Ø in ASCII is OE\\)\\?$"
expect_in "$OUT" "D2: M ↘ 1"
expect_in "$OUT" "D3: M ↘ 1"
expect_in "$ERR" "1 problem(s)"
# a hex's minus is still a hex
printf 'D1: M -2,1 1\n' >hex.txt
run ord check hex.txt --scenario "$KS/scenario.xml" --side danske
expect_not_in "$ERR" "bad direction"

# ---- info names the sides the NMR policy stands in for at seal --force
# (before: "standing in for them"): one, then several as "X and Y"
sed -e 's|^\(  <side id="red".*\)$|\1\n  <side id="green" name="Green Army"/>|' \
	-e 's|</scenario>|  <unit id="G1" name="Green Foot" side="green" kind="line_infantry" formation="line" figures="24" class="C" weapon="musket"/>\n</scenario>|' \
	scenario.xml >three.xml
expect_exit 0 ord new three.game --scenario three.xml
expect_exit 0 ord submit three.game --side blue blue-1.txt
run ord info three.game
expect_eq "$RC" 0 "info with two sides missing"
expect_in "$OUT" "next:      the sheets of red, green (submit), then seal; or seal --force now, the NMR policy 'hold' standing in for red and green"
expect_not_in "$OUT" "standing in for them"
expect_exit 0 ord submit three.game --side red red-1.txt
run ord info three.game
expect_in "$OUT" "next:      the sheets of green (submit), then seal; or seal --force now, the NMR policy 'hold' standing in for green"
expect_exit 0 ord new none.game --scenario three.xml
run ord info none.game
expect_in "$OUT" "the NMR policy 'hold' standing in for blue, red and green"

# ---- a sheet's unknown unit with no near match says what was expected,
# as a near match says "did you mean" (before: only "unknown unit 'D99'");
# the side's units as a numbered run, listed, or the one
printf 'D99: ↑ 1/2\n' >far.txt
run ord check far.txt --scenario scenario.xml --side blue
expect_eq "$RC" 65 "a battalion sheet naming no unit of the game"
expect_line "$ERR" "^far\\.txt:1:1: unknown unit 'D99': expected one of side blue's units: 'B1' to 'B3' \\(orders\\)$"
run ord check far.txt --scenario three.xml --side green
expect_line "$ERR" "^far\\.txt:1:1: unknown unit 'D99': expected side green's unit 'G1' \\(orders\\)$"
sed 's|id="B2"|id="BB"|' scenario.xml >gap.xml
run ord check far.txt --scenario gap.xml --side blue
expect_line "$ERR" "^far\\.txt:1:1: unknown unit 'D99': expected one of side blue's units: 'B1', 'BB' or 'B3' \\(orders\\)$"
# a near match still says "did you mean", and nothing more
printf 'B4: ↑ 1/2\n' >near.txt
run ord check near.txt --scenario scenario.xml --side blue
expect_in "$ERR" "near.txt:1:1: unknown unit 'B4': did you mean 'B1' (1st Blue Foot)? (orders)"
expect_not_in "$ERR" "expected one of"
# Krigsspil's ordre sheets go through the same lookup
printf 'D99: M ↑ 1\n' >far-ks.txt
run ord check far-ks.txt --scenario "$KS/scenario.xml" --side danske
expect_eq "$RC" 65 "a Krigsspil sheet naming no unit of the game"
expect_line "$ERR" "^far-ks\\.txt:1:1: unknown unit 'D99': expected one of side danske's units: 'D1' to 'D8', 'K1' to 'K4' or 'A1' to 'A4' \\(4\\.3\\)$"

# ---- (hday7) a unit named with no side of its own, an event's unit= and
# an order's @target, says what was expected too: every side's units
# (before: only "unknown unit 'ZZ9'"); a near match still "did you mean"
expect_exit 0 ord new ev.game --scenario scenario.xml
expect_exit 0 ord submit ev.game --side blue blue-1.txt
expect_exit 0 ord submit ev.game --side red red-1.txt
expect_exit 0 ord seal ev.game
run ord event ev.game move unit=ZZ9 distance=1
expect_eq "$RC" 64 "an event naming no unit of the game"
expect_line "$ERR" "^orderly: unit: unknown unit 'ZZ9': expected a unit of the game: side blue's 'B1' to 'B3'; side red's 'R1' to 'R3'$"
printf 'move unit=B1 distance=1\nmove unit=Q77 distance=1\n' >far-ev.txt
run ord event ev.game --file far-ev.txt
expect_line "$ERR" "^far-ev\\.txt:2:6: unit: unknown unit 'Q77': expected a unit of the game: side blue's 'B1' to 'B3'; side red's 'R1' to 'R3'$"
run ord event ev.game move unit=R4 distance=1
expect_line "$ERR" "^orderly: unit: unknown unit 'R4': did you mean 'R1' \\(1st Red Foot\\)\\?$"
printf 'D1: A @ZZ99\nD2: A @F11\n' >far-target.txt
run ord check far-target.txt --scenario "$KS/scenario.xml" --side danske
expect_eq "$RC" 65 "a Krigsspil target naming no unit of the game"
expect_line "$ERR" "^far-target\\.txt:1:7: unit 'D1': unknown unit 'ZZ99' for 'A': expected a unit of the game: side danske's 'D1' to 'D8', 'K1' to 'K4' or 'A1' to 'A4'; side allierede's 'L1' to 'L14' \\(4\\.3\\)$"
expect_in "$ERR" "far-target.txt:2:7: unit 'D2': unknown unit 'F11' for 'A': did you mean 'L11' (Mecklenburg Jaegere)? (4.3)"
# battalion's @target the same, the ordering unit still named
printf 'B1 @Nobody\n' >far-bt.txt
run ord check far-bt.txt --scenario scenario.xml --side blue
expect_line "$ERR" "^far-bt\\.txt:1:4: unit 'B1': unknown target unit 'Nobody': expected a unit of the game: side blue's 'B1' to 'B3'; side red's 'R1' to 'R3' \\(fire\\)$"

# ---- (hday8, hday10) Krigsspil names typed on a keyboard without æ ø å,
# as the notation's ASCII forms write its words (ae oe aa), or in another
# case (SLESVIGSKE JÆGERKORPS): a game made since 2026-12-07 (made=) finds
# the one unit whose name reads so, as the notation reads its words, and
# every reader of it does the same (check, submit, seal, events, resolve,
# audit, verify, report); a game made before finds names as written (an
# older verify reads its stored sheets so) and refuses it, told the unit
# however many letters apart, the letters (or the case) and the id
sed 's|name="Holstenske Skarpskytter"|name="Søndre Jægerkorps"|' "$KS/scenario.xml" >ascii.xml
printf 'Soendre Jaegerkorps: M ↑ 1\nSLESVIGSKE JÆGERKORPS: M ↑ 1\nA1 IS @Hoejderyggen\n' >ascii.txt
printf 'L2: S @"SOENDRE JAEGERKORPS"\n' >ascii-allied.txt
# a player's check is of a game this orderly makes
run ord check ascii.txt --scenario ascii.xml --side danske
expect_eq "$RC" 0 "a Krigsspil name typed in ASCII forms, checked"
expect_in "$OUT" "Soendre Jaegerkorps: M ↑ 1"
run ord check ascii-allied.txt --scenario ascii.xml --side allierede --tables "$KS/map.xml"
expect_eq "$RC" 0 "a target typed in ASCII forms is the unit (a map names no such place)"
# without --side, the side of the units it names so
printf 'Soendre Jaegerkorps: M ↑ 1\n' >ascii-one.txt
run ord check ascii-one.txt --scenario ascii.xml
expect_eq "$RC" 0 "a sheet naming its unit in ASCII forms alone, no --side"
expect_in "$OUT" "side: danske (the side of the units it names)"
expect_exit 0 ord new ascii.game --scenario ascii.xml --tables "$KS/map.xml"
# an open turn's sides and the referee's next step in Danish too (before:
# "turn: 1 (åben)" and the rest English)
run ord info ascii.game
expect_in "$OUT" "  danske       ikke afleveret"
expect_in "$OUT" "next:      ordresedlerne fra danske, allierede (submit), derefter seal; eller seal --force nu, idet NMR-reglen 'hold' træder i stedet for danske og allierede"
run ord info ascii.game --lang en
expect_in "$OUT" "  danske       not submitted"
expect_in "$OUT" "next:      the sheets of danske, allierede (submit), then seal; or seal --force now, the NMR policy 'hold' standing in for danske and allierede"
expect_exit 0 ord submit ascii.game --side danske ascii.txt
run ord info ascii.game
expect_in "$OUT" "  danske       afleveret (version 1)"
expect_in "$OUT" "  allierede    ikke afleveret"
expect_exit 0 ord submit ascii.game --side allierede ascii-allied.txt
expect_exit 0 ord seal ascii.game
run ord info ascii.game --lang en
expect_in "$OUT" "D4: ordered to move ('march') but no move (flyt) was recorded"
expect_in "$OUT" "D3: ordered to move ('march') but no move (flyt) was recorded"
expect_in "$OUT" "L2: ordered to fire ('skydning') at "
expect_in "$OUT" "pending:   orders no event of the turn carries out so far:"
expect_in "$OUT" "phase:     reorganisering (0 of 5 resolved)"
# a Danish referee's day: the list of what he still has to record, and
# info's lines of the turn and his next step, in Danish by default as the
# report is (rulesets/krigsspil/words.xml), the commands named as typed
run ord info ascii.game
expect_eq "$RC" 0 "info of a Krigsspil game in Danish"
expect_in "$OUT" "pending:   ordrer, som ingen hændelse i trækket endnu udfører:
  D3: beordret til at flytte ('march'), men ingen flytning (flyt) er registreret"
expect_in "$OUT" "  D4: beordret til at flytte ('march'), men ingen flytning (flyt) er registreret"
expect_in "$OUT" "  L2: beordret til at skyde ('skydning') mod "
expect_in "$OUT" "turn:      1 (forseglet)"
expect_in "$OUT" "phase:     reorganisering (0 af 5 afgjort)"
expect_in "$OUT" "next:      hændelserne i fasen reorganisering ("
expect_not_in "$OUT" "ordered to"
run ord info ascii.game --lang da
expect_in "$OUT" "  D4: beordret til at flytte ('march'), men ingen flytning (flyt) er registreret"
run ord info ascii.game --lang all
expect_eq "$RC" 64 "info in every language at once is refused"
expect_in "$ERR" "language 'all' (info writes one language: the krigsspil ruleset writes da, en)"
run ord info ascii.game --lang sv
expect_eq "$RC" 64 "info in a language the ruleset does not write is refused"
expect_in "$ERR" "language 'sv' (info writes one language: the krigsspil ruleset writes da, en)"
run ord report ascii.game --referee
expect_in "$OUT" "ordrer, som ingen hændelse i trækket endnu udfører:
  D3: beordret til at flytte ('march'), men ingen flytning (flyt) er registreret"
run ord report ascii.game --referee --lang en
expect_in "$OUT" "  D4: ordered to move ('march') but no move (flyt) was recorded"
expect_exit 0 ord resolve ascii.game
# resolve's note of the orders left, in the referee's language as its results
expect_in "$ERR" "note: 3 ordrer, som ingen hændelse i trækket endnu udfører (orderly report --referee viser dem)"
expect_exit 0 ord resolve ascii.game --lang en
expect_in "$ERR" "note: 3 orders no event of the turn carries out so far (orderly report --referee lists them)"
# the referee's events name the units so too, on the line and in a file
expect_exit 0 ord event ascii.game flyt unit="Soendre Jaegerkorps" x=120 y=60
printf 'flyt unit="SLESVIGSKE JÆGERKORPS" x=90 y=68\n' >ascii-ev.txt
expect_exit 0 ord event ascii.game --file ascii-ev.txt
expect_exit 0 ord resolve ascii.game
run ord info ascii.game --lang en
expect_not_in "$OUT" "D4: ordered to move"
expect_not_in "$OUT" "D3: ordered to move"
run ord info ascii.game
expect_not_in "$OUT" "D4: beordret"
resolve_rest ascii.game
expect_exit 0 ord exchange ascii.game --head ascii-1.head
run ord audit ascii.game
expect_eq "$RC" 0 "the audit of a game whose sheets name units in ASCII forms"
expect_in "$OUT" "ok: replay: 5 phases replayed"
expect_not_in "$OUT" "execution: turn 1: unit 'D4'"
run ord report ascii.game --side danske --turn 1
expect_in "$OUT" "Soendre Jaegerkorps: M ↑ 1"
expect_in "$OUT" "[fredelige-flytninger #1] D4: flyttet 8 cm til x=120 y=60"
expect_in "$OUT" "[fredelige-flytninger #2] D3: flyttet"
# (hday10) a battery ranged on a place typed so holds the map's name of
# it, in its state and its report (sted_kortets_navn, 2026-12-07.2); the
# sheet keeps its spelling
expect_in "$OUT" "A1: IS @Hoejderyggen"
expect_in "$OUT" "indskudt på Højderyggen"
expect_not_in "$OUT" "indskudt på Hoejderyggen"
expect_exit 0 ord export ascii.game --turn 1 -o ascii-1.xml
KEY=$(ord info ascii.game | sed -n 's/^key: *//p')
run ord verify ascii-1.xml --pubkey "$KEY" --head ascii-1.head --report danske
expect_eq "$RC" 0 "verify of a game whose sheets name units in ASCII forms"
expect_in "$ERR" "verified: every check holds"
expect_in "$OUT" "[fredelige-flytninger #1] D4: flyttet 8 cm til x=120 y=60"
expect_in "$OUT" "indskudt på Højderyggen"

# a name that reads as two units' names is neither, and said so
sed 's|name="Slesvigske Jægerkorps"|name="Søndre Jaegerkorps"|' ascii.xml >ascii-two.xml
printf 'Soendre Jaegerkorps: M ↑ 1\n' >ascii-two.txt
run ord check ascii-two.txt --scenario ascii-two.xml --side danske
expect_eq "$RC" 65 "a name two units' names read as"
expect_line "$ERR" "^ascii-two\\.txt:1:1: unknown unit 'Soendre Jaegerkorps': as the notation reads its words, 'Soendre Jaegerkorps' is the name of more than one unit, 'D3' or 'D4': write the name as the scenario does, or the unit's id \\(4\\.3\\)$"

# a game made before 2026-12-07 (its made= taken out, as an orderly of
# then logged none) refuses them, its letters and its case said
need_forge
need_sqlite3
expect_exit 0 ord new old.game --scenario ascii.xml --tables "$KS/map.xml"
unmark old.game
sql old.game "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
[[ "$(sql old.game "SELECT count(*) FROM log WHERE body LIKE '%made=%'")" == 0 ]] ||
	fail "the log of 'old.game' still says made= (fix the test)"
"$FORGE" rechain old.game || fail "ord_forge rechain old.game"
before=$(sha old.game)
run ord submit old.game --side danske ascii.txt
expect_eq "$RC" 65 "a name typed in ASCII forms, in a game made before"
expect_line "$ERR" "^ascii\\.txt:1:1: unknown unit 'Soendre Jaegerkorps': did you mean 'D4' \\(Søndre Jægerkorps\\)\\? \\(in a name ø is not read from oe, nor æ from ae, as in the notation's words, in a game made before 2026-12-07: write them, or its id 'D4'\\) \\(4\\.3\\)$"
expect_line "$ERR" "^ascii\\.txt:2:1: unknown unit 'SLESVIGSKE JÆGERKORPS': did you mean 'D3' \\(Slesvigske Jægerkorps\\)\\? \\(in a name æ is not read from Æ, as in the notation's words, in a game made before 2026-12-07: write æ, or its id 'D3'\\) \\(4\\.3\\)$"
run ord submit old.game --side allierede ascii-allied.txt
expect_eq "$RC" 65 "a target typed in ASCII forms, in a game made before"
expect_in "$ERR" "'SOENDRE JAEGERKORPS' for 'S' is neither a unit nor a named place of the map: did you mean 'D4' (Søndre Jægerkorps)? (in a name ø is not read from oe, nor æ from ae"
expect_eq "$(sha old.game)" "$before" "the game file after refused sheets"
# the id the hint names is taken; the words in their ASCII forms are
printf 'D4: M ↑ 1\nD1 LOEB ^NOE\nD2 AENDR maal S @L1\nA1 AS KARDAESK @L1 OPHOER\nA2 PAAPRODSNING\nK2 STOETTE @K1\n' >ascii-ok.txt
run ord check ascii-ok.txt --scenario ascii.xml --side danske
expect_eq "$RC" 0 "the id, and the words in ASCII forms"
expect_in "$OUT" "D1: L ↗"
expect_in "$OUT" "D2: ÆNDR mål S @L1"
expect_in "$OUT" "A1: AS SK @L1 OPH"
# a place of the map, typed so, is the place (before: "neither a unit nor
# a named place of the map"); a place misspelt still is not
printf 'D1 S @Hoejderyggen\nA1 AS SF @"herregaardshaven"\nD2 S @NOERRESKOV\n' >place.txt
run ord check place.txt --scenario ascii.xml --side danske --tables "$KS/map.xml"
expect_eq "$RC" 0 "places of the map typed in ASCII forms"
expect_in "$OUT" "D1: S @Hoejderyggen"
printf 'D1 S @Hoederyggen\n' >place-bad.txt
run ord check place-bad.txt --scenario ascii.xml --side danske --tables "$KS/map.xml"
expect_eq "$RC" 65 "a place misspelt"
expect_in "$ERR" "'Hoederyggen' for 'S' is neither a unit nor a named place of the map"
# the referee's event in the game made before names a unit as written
expect_exit 0 ord submit old.game --side danske ascii-ok.txt
expect_exit 0 ord submit old.game --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal old.game
before=$(sha old.game)
run ord event old.game forstyrret unit="Soendre Jaegerkorps"
expect_eq "$RC" 64 "an event's unit typed in ASCII forms, in a game made before"
expect_line "$ERR" "^orderly: unit: unknown unit 'Soendre Jaegerkorps': did you mean 'D4' \\(Søndre Jægerkorps\\)\\? \\(in a name ø is not read from oe, nor æ from ae, as in the notation's words, in a game made before 2026-12-07: write them, or its id 'D4'\\)$"
expect_eq "$(sha old.game)" "$before" "the game file after a refused event"

# (hrev10) a game made on 2026-12-07 (made=) by an orderly of that day
# before names were read so: with no map, its sheet's ranging at
# "SOENDRE JAEGERKORPS" was aimed at an object of that name, which this
# orderly reads as D4.  Played here with made= hidden (the same length,
# so the entries keep their form), then said again; the audit shows the
# difference, and the revision of the core that changed (not only the
# Krigsspil rules: the entries name this orderly's) says why, where it
# said nothing of the kind when the core's revision did not change.  That
# orderly logged no core marker (made_core=, made_rules=): a game so is
# read by made='s day, as every orderly since core 2026-12-07.1 read it,
# and the audit says so
expect_exit 0 ord new early.game --scenario ascii.xml
unmark early.game
sql early.game "UPDATE log SET body = replace(body, 'made=2026-12-07', 'madx=2026-12-07') WHERE kind IN ('create', 'open')"
"$FORGE" rechain early.game || fail "ord_forge rechain early.game"
expect_exit 0 ord submit early.game --side danske "$KS/demo/turn1-danske.txt"
printf 'L9: IS @"SOENDRE JAEGERKORPS"\n' >early-allied.txt
expect_exit 0 ord submit early.game --side allierede early-allied.txt
expect_exit 0 ord seal early.game
resolve_rest early.game
run ord report early.game --referee --turn 1
expect_in "$OUT" "L9: indskudt på SOENDRE JAEGERKORPS"
CORE=$(ord version | sed -n 's/^core revision //p')
[[ -n "$CORE" ]] || fail "orderly version names no core revision"
sql early.game "UPDATE log SET body = replace(replace(body, 'madx=2026-12-07', 'made=2026-12-07'),
	'core_revision=$CORE', 'core_revision=2026-12-02.2')" >/dev/null
[[ "$(sql early.game "SELECT count(*) FROM log WHERE body LIKE '%madx=%'")" == 0 ]] ||
	fail "the log of 'early.game' still hides made= (fix the test)"
"$FORGE" rechain early.game || fail "ord_forge rechain early.game"
run ord audit early.game --turn 1
expect_eq "$RC" 1 "the audit of a game made on 2026-12-07 before names were read so"
expect_in "$OUT" "the result for L9 is recorded as \"indskudt på SOENDRE JAEGERKORPS\", but the rules give \"indskudt på D4\""
expect_in "$OUT" "phase 4 (skydninger) was resolved by krigsspil rules of $(ord version | sed -n 's/^krigsspil rules revision //p') (core 2026-12-02.2); this orderly replays it with krigsspil rules of"
expect_in "$OUT" "(core $CORE): a rule corrected between the two shows as a difference, which is no cheat by itself"
expect_in "$OUT" "note: made: 2026-12-07, its core revision not logged (made=2026-12-07 and no made_core= logged in the creation (entry 1) and every opening): an orderly of 2026-12-07 before it was logged (core revision 2026-12-07.1 or earlier) made it"

note "ok"
