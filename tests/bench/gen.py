#!/usr/bin/env python3
"""gen.py - a battalion scenario of N units over S sides, a valid order sheet
for every side and the referee's events of one turn, for the benchmarks.

    gen.py --units N --sides S --out DIR

writes
    DIR/scenario.xml                 N units, S sides (2 to 8), hold NMR
    DIR/sheets/SIDE.txt              one order per unit of the side (turn 1)
    DIR/events/PHASE.txt             the referee's events of each phase that
                                     has any, in `orderly event --file` form
    DIR/meta.txt                     counts, key=value

Every unit gets an order, and the orders and events agree with the rules, so
the sheets are accepted and the events pass their checks.  Units are drawn
from a fixed pattern of 20 (half line infantry, then light infantry,
skirmishers, light and heavy cavalry, foot and horse artillery), so a
larger game is the same army repeated.  Side k's partner is side k^1 (the
last side of an odd count takes side 0): each unit fires at, or charges,
the unit with the same number in the partner side.  Only even sides charge,
so no unit is charged twice.

The sizes stay under orderly's 16 MiB limit on a scenario file (100,000
units is about 12 MiB).
"""
import argparse
import os
import sys

PATTERN = (["line_infantry"] * 10 + ["light_infantry"] * 2 + ["skirmishers"] * 2 +
           ["light_cavalry"] * 2 + ["heavy_cavalry"] + ["foot_artillery"] * 2 +
           ["horse_artillery"])
FORMATION = {
    "line_infantry": "column", "light_infantry": "column", "skirmishers": "skirmish",
    "light_cavalry": "column", "heavy_cavalry": "column",
    "foot_artillery": "unlimbered", "horse_artillery": "limbered",
}
FIGURES = {
    "line_infantry": 24, "light_infantry": 24, "skirmishers": 8, "light_cavalry": 6,
    "heavy_cavalry": 8, "foot_artillery": 10, "horse_artillery": 8,
}
QUALITY = ["line", "line", "elite", "militia"]
CLASS = ["C", "B", "A", "D"]


def side_id(k):
    return "s%d" % (k + 1)


def unit_id(k, i):
    # A1, B1 ... H1: short ids keep 100,000 units under 16 MiB of XML
    return "%s%d" % (chr(ord("A") + k), i + 1)


def partner(k, nsides):
    p = k ^ 1
    return p if p < nsides else 0


def plan(k, i, nsides):
    """The order line and events of unit i of side k: (order, [(phase, event)])."""
    kind = PATTERN[i % len(PATTERN)]
    me = unit_id(k, i)
    enemy = unit_id(partner(k, nsides), i)
    charges = k % 2 == 0 and k + 1 < nsides
    if kind == "line_infantry":
        r = (i // len(PATTERN) + i) % 4
        if r == 0:
            return "↑ 1/2", [("movement", "move unit=%s distance=4" % me)]
        if r == 1:
            return "FLn", [("movement", "form unit=%s formation=line" % me)]
        if r == 2:
            return "@%s" % enemy, [("fire", "fire unit=%s target=%s range=4" % (me, enemy))]
        return "↑ 1/4", [("movement", "move unit=%s distance=2 terrain=road" % me)]
    if kind == "light_infantry":
        return "↗ 1/2", [("movement", "move unit=%s distance=3" % me)]
    if kind == "skirmishers":
        return "@%s" % enemy, [("fire", "fire unit=%s target=%s range=3" % (me, enemy))]
    if kind == "light_cavalry":
        if charges:
            return "↑-C 1", [("movement", "move unit=%s distance=16 charge=yes contact=%s" % (me, enemy)),
                             ("melee", "melee a=%s b=%s" % (me, enemy))]
        return "↖ 1/2", [("movement", "move unit=%s distance=7" % me)]
    if kind == "heavy_cavalry":
        return "→ 1/4", [("movement", "move unit=%s distance=3" % me)]
    if kind == "foot_artillery":
        return "Fb @%s" % enemy, [("fire", "artillery unit=%s target=%s range=10" % (me, enemy))]
    return "UL", [("movement", "unlimber unit=%s" % me)]


PHASES = ["movement", "fire", "fire-morale", "melee", "melee-morale"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--units", type=int, required=True)
    ap.add_argument("--sides", type=int, default=4)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if not 2 <= a.sides <= 8:
        sys.exit("gen.py: --sides must be 2 to 8")
    if a.units < a.sides:
        sys.exit("gen.py: at least one unit per side")
    os.makedirs(os.path.join(a.out, "sheets"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "events"), exist_ok=True)
    per = [a.units // a.sides + (1 if k < a.units % a.sides else 0) for k in range(a.sides)]
    # the partner of a side may have fewer units: only pair numbers both have
    events = {p: [] for p in PHASES}
    sheets = {}
    with open(os.path.join(a.out, "scenario.xml"), "w", encoding="utf-8") as x:
        x.write('<?xml version="1.0" encoding="UTF-8"?>\n<scenario ruleset="battalion">\n')
        x.write("  <title>Benchmark: %d units, %d sides</title>\n" % (a.units, a.sides))
        x.write('  <nmr policy="hold"/>\n')
        for k in range(a.sides):
            x.write('  <side id="%s" name="Army %d"/>\n' % (side_id(k), k + 1))
        for k in range(a.sides):
            lines = ["# order sheet of %s, turn 1 (benchmark)\n" % side_id(k)]
            for i in range(per[k]):
                kind = PATTERN[i % len(PATTERN)]
                q = (i // len(PATTERN)) % 4
                extra = ""
                if q:
                    extra = ' quality="%s" class="%s"' % (QUALITY[q], CLASS[q])
                x.write('  <unit id="%s" name="Bn %d/%d" side="%s" kind="%s" formation="%s" figures="%d"%s/>\n'
                        % (unit_id(k, i), k + 1, i + 1, side_id(k), kind, FORMATION[kind],
                           FIGURES[kind], extra))
                order, evs = plan(k, i, a.sides)
                if i >= per[partner(k, a.sides)] and ("@" in order or "C" in order):
                    order, evs = "↑ 1/4", [("movement", "move unit=%s distance=1" % unit_id(k, i))]
                lines.append("%s %s\n" % (unit_id(k, i), order))
                for phase, ev in evs:
                    events[phase].append(ev)
            sheets[side_id(k)] = "".join(lines)
        x.write("</scenario>\n")
    for side, text in sheets.items():
        with open(os.path.join(a.out, "sheets", side + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
    for phase in PHASES:
        with open(os.path.join(a.out, "events", phase + ".txt"), "w", encoding="utf-8") as f:
            f.write("".join(e + "\n" for e in events[phase]))
    with open(os.path.join(a.out, "meta.txt"), "w") as f:
        f.write("units=%d\nsides=%d\n" % (a.units, a.sides))
        f.write("side_units=%d\n" % per[0])
        f.write("sheet_bytes=%d\n" % len(sheets[side_id(0)].encode("utf-8")))
        for phase in PHASES:
            f.write("events.%s=%d\n" % (phase, len(events[phase])))
        f.write("events=%d\n" % sum(len(v) for v in events.values()))


if __name__ == "__main__":
    main()
