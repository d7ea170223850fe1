#!/usr/bin/env python3
"""run.py - the benchmark: every operation of a turn at every game size,
against baselines measured in the same run.  scripts/bench builds the
programs and calls this; see docs/benchmarks.md.

    run.py --build DIR [--sizes 100,1000,10000,100000] [--sides 4]
           [--work DIR] [--json FILE] [--markdown FILE]

For each size: generate a scenario, sheets and events (gen.py), create the
game, submit every side's sheet, seal, record and resolve the five phases,
report for one side, audit, exchange, audit again.  Each operation is timed
in process by bench_ops (opening the game not counted), each repetition on
a fresh copy of the game file when the operation changes it.  The
baselines (bench_raw) get the same bytes: the sheet for submit, the rows a
phase wrote for resolve, the game file for audit.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PHASES = ["movement", "fire", "fire-morale", "melee", "melee-morale"]
SAMPLE = 5             # events of a phase recorded through `orderly event`
# the operations whose peak memory is the game's (verify: a player's, of
# the turn's bundle, as a process; export: the referee's, to a file, the
# bundle written as it is made and verified from the file)
PEAK_OPS = ("submit", "seal", "resolve", "report", "audit", "exchange", "export", "verify")
AUDIT_LIMIT = 120      # seconds: the execution check is O(N x E), see the doc


def kv(text):
    out = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
    return out


def run(cmd, timeout=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        sys.stderr.write("bench: %s failed (%d):\n%s%s" % (" ".join(cmd), p.returncode,
                                                           p.stdout[-2000:], p.stderr[-2000:]))
        sys.exit(1)
    return p.stdout


class Bench:
    def __init__(self, a):
        self.a = a
        self.b = os.path.abspath(a.build)
        self.orderly = os.path.join(self.b, "orderly")
        self.ops = os.path.join(self.b, "bench_ops")
        self.raw = os.path.join(self.b, "bench_raw")
        self.results = {}

    def op(self, *args, timeout=None):
        return kv(run([self.ops] + list(args), timeout=timeout))

    def process(self, cmd):
        """A command as a process: its wall time and its own peak RSS."""
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, ru = os.wait4(p.pid, 0)
        t = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.stderr.write("bench: %s failed (%d):\n%s" % (" ".join(cmd), p.returncode,
                                                           p.stderr.read().decode()[-2000:]))
            sys.exit(1)
        p.stderr.close()
        return t, ru.ru_maxrss

    def rawb(self, *args):
        return kv(run([self.raw] + list(args)))

    def reps(self, n):
        # small games take milliseconds: more runs, or noise sets the ratios
        if n <= 1000:
            return 3 * self.a.reps
        # at 100,000 units the median of three: one run moves by 30 % here
        return self.a.reps if n < 100000 else max(min(3, self.a.reps), self.a.reps // 3)

    def mutating(self, game, n, *args):
        """Time an operation that changes the game: the repetitions run on
        copies; the last run is on the game itself.  Median of all."""
        outs = []
        for _ in range(self.reps(n) - 1):
            shutil.copy(game, game + ".try")
            outs.append(self.op(args[0], game + ".try", *args[1:]))
            os.remove(game + ".try")
        outs.append(self.op(args[0], game, *args[1:]))
        last = outs[-1]
        last["seconds"] = "%.6f" % statistics.median(float(o["seconds"]) for o in outs)
        last["maxrss_kb"] = str(max(int(o["maxrss_kb"]) for o in outs))
        return last

    def readonly(self, game, n, *args):
        outs = [self.op(args[0], game, *args[1:]) for _ in range(self.reps(n))]
        last = outs[-1]
        last["seconds"] = "%.6f" % statistics.median(float(o["seconds"]) for o in outs)
        last["maxrss_kb"] = str(max(int(o["maxrss_kb"]) for o in outs))
        return last

    def size(self, n, nsides=None, full=True):
        a = self.a
        nsides = nsides or a.sides
        d = os.path.join(a.work, "n%d-s%d" % (n, nsides))
        shutil.rmtree(d, ignore_errors=True)
        r = {"units": n, "sides": nsides}
        t0 = time.time()
        run([sys.executable, os.path.join(HERE, "gen.py"), "--units", str(n), "--sides",
             str(nsides), "--out", d])
        meta = kv(open(os.path.join(d, "meta.txt")).read())
        r["meta"] = meta
        game = os.path.join(d, "game")
        log("  %d units, %d sides: generated in %.1f s" % (n, nsides, time.time() - t0))

        t0 = time.time()
        run([self.orderly, "new", game, "--scenario", os.path.join(d, "scenario.xml")])
        r["new"] = time.time() - t0
        r["size_created"] = os.path.getsize(game)

        # submit: every side once (each the first write of its process);
        # then side s1 again and again in one process, on a copy, as the
        # baseline commits again and again: the figure is that median
        sides = ["s%d" % (k + 1) for k in range(nsides)]
        sheet = os.path.join(d, "sheets", "s1.txt")
        first = []
        for s in sides:
            first.append(self.op("submit", game, s, os.path.join(d, "sheets", s + ".txt")))
        shutil.copy(game, game + ".try")
        rep = self.op("submit", game + ".try", "s1", sheet, str(15 if n < 100000 else 5))
        os.remove(game + ".try")
        r["submit"] = {"seconds": float(rep["seconds"]), "bytes": int(first[0]["bytes"]),
                       "first": statistics.median(float(o["seconds"]) for o in first),
                       "maxrss_kb": max(int(o["maxrss_kb"]) for o in first + [rep]),
                       "open": float(first[0]["open"])}
        base = self.rawb("insert", os.path.join(d, "raw.db"), sheet, "31")
        r["submit"]["baseline"] = float(base["seconds"])
        log("  submit %.4f s, raw insert %.4f s" % (r["submit"]["seconds"], r["submit"]["baseline"]))

        o = self.mutating(game, n, "seal")
        r["seal"] = {"seconds": float(o["seconds"]), "maxrss_kb": int(o["maxrss_kb"])}
        base = self.rawb("rows", os.path.join(d, "raw.db"), "1", "64", "31")
        r["seal"]["baseline"] = float(base["seconds"])
        r["size_sealed"] = os.path.getsize(game)

        r["phases"] = {}
        for phase in PHASES:
            ev = os.path.join(d, "events", phase + ".txt")
            lines = open(ev, encoding="utf-8").read().splitlines()
            ph = {"events": len(lines)}
            if lines:
                # all but a sample as one file through ord_game_events (what
                # `orderly event --file` does: every line checked, then one
                # transaction); the sample one event a process, as a referee
                # at the table records them with `orderly event`
                k = min(SAMPLE, len(lines))
                bulk, sample = lines[:-k], lines[-k:]
                with open(ev + ".bulk", "w", encoding="utf-8") as f:
                    f.write("".join(x + "\n" for x in bulk))
                if bulk:
                    o = self.op("events", game, ev + ".bulk")
                    ph["events_file"] = float(o["seconds"])
                    ph["events_file_n"] = len(bulk)
                each = []
                for x in sample:
                    t0 = time.time()
                    run([self.orderly, "event", game] + x.split())
                    each.append(time.time() - t0)
                ph["event_cli"] = statistics.median(each)
            o = self.mutating(game, n, "resolve")
            ph.update({"seconds": float(o["seconds"]), "rows": int(o["rows"]),
                       "row_bytes": int(o["row_bytes"]), "maxrss_kb": int(o["maxrss_kb"]),
                       "summary": o.get("summary", "")})
            rows = max(1, ph["rows"])
            base = self.rawb("rows", os.path.join(d, "raw.db"), str(rows),
                             str(max(1, ph["row_bytes"] // rows)), "3" if n < 100000 else "1")
            ph["baseline"] = float(base["seconds"])
            r["phases"][phase] = ph
            log("  resolve %-12s %6d events: %.3f s (raw insert of its %d rows %.3f s)"
                % (phase, ph["events"], ph["seconds"], ph["rows"], ph["baseline"]))
        r["resolve"] = {"seconds": sum(p["seconds"] for p in r["phases"].values()),
                        "baseline": sum(p["baseline"] for p in r["phases"].values()),
                        "maxrss_kb": max(p["maxrss_kb"] for p in r["phases"].values())}

        o = self.readonly(game, n, "report", "s1")
        r["report"] = {"seconds": float(o["seconds"]), "bytes": int(o["report_bytes"]),
                       "maxrss_kb": int(o["maxrss_kb"])}

        # audit of the resolved turn: chain, commitments, digests, dice
        o = self.readonly(game, n, "audit")
        r["audit"] = {"seconds": float(o["seconds"]), "maxrss_kb": int(o["maxrss_kb"])}
        fsize = os.path.getsize(game)
        base = self.rawb("hash", game, "5")
        r["audit"]["baseline"] = float(base["seconds"])
        r["audit"]["bytes"] = fsize
        base = self.rawb("scan", game, "3")
        r["audit"]["scan"] = float(base["seconds"])
        r["report"]["baseline"] = float(base["seconds"])

        if not full:
            shutil.rmtree(d, ignore_errors=True)
            return r
        o = self.mutating(game, n, "exchange")
        r["exchange"] = {"seconds": float(o["seconds"]), "maxrss_kb": int(o["maxrss_kb"])}
        r["size_turn"] = os.path.getsize(game)

        # audit again: the exchanged turn adds the check of execution
        try:
            o = self.op("audit", game, timeout=AUDIT_LIMIT)
            r["audit_exec"] = {"seconds": float(o["seconds"]), "maxrss_kb": int(o["maxrss_kb"])}
        except subprocess.TimeoutExpired:
            r["audit_exec"] = {"seconds": None, "limit": AUDIT_LIMIT}

        # a player's verify of the turn's bundle, as he runs it: a process
        bundle = os.path.join(d, "turn1.bundle")
        # the referee's export of it, as a process: the bundle made, checked
        # by the verifier (what verify checks) and written
        outs = [self.process([self.orderly, "export", game, "--turn", "1", "-o", bundle])
                for _ in range(self.reps(n))]
        r["export"] = {"seconds": statistics.median(o[0] for o in outs),
                       "maxrss_kb": max(o[1] for o in outs)}
        outs = [self.process([self.orderly, "verify", bundle]) for _ in range(self.reps(n))]
        r["verify"] = {"seconds": statistics.median(o[0] for o in outs),
                       "maxrss_kb": max(o[1] for o in outs), "bytes": os.path.getsize(bundle),
                       "baseline": float(self.rawb("hash", bundle, "5")["seconds"])}
        r["export"]["baseline"] = r["verify"]["baseline"]
        for f in os.listdir(d):
            if f.startswith("raw.db"):
                os.remove(os.path.join(d, f))
        return r


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def fmt_t(s):
    if s is None:
        return "—"
    if s < 0.001:
        return "%.0f µs" % (s * 1e6)
    if s < 1:
        return "%.1f ms" % (s * 1e3)
    return "%.2f s" % s


def fmt_ratio(x):
    return "—" if x is None else ("%.1f" % x if x < 100 else "%.0f" % x)


def fmt_pct(x):
    if x is None:
        return "—"
    return "%.0f%%" % (100 * x) if x >= 0.01 else "%.2f%%" % (100 * x)


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = "%.0f GiB" % (int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    sqlite = subprocess.run(["sqlite3", "--version"], stdout=subprocess.PIPE, text=True).stdout.split(" ")[0] \
        if shutil.which("sqlite3") else "?"
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "kernel": platform.release(),
            "sqlite": sqlite, "load": os.getloadavg()[0]}


def table(res, sides):
    """The markdown tables: one row per operation and size."""
    sizes = sorted(res)
    out = []
    ops = [
        ("submit (one side's sheet)", lambda r: r["submit"]["seconds"], lambda r: r["submit"].get("baseline"),
         "raw durable insert of the sheet"),
        ("seal", lambda r: r["seal"]["seconds"], lambda r: r["seal"]["baseline"], "raw durable commit of one row"),
    ]
    for ph in PHASES:
        ops.append(("resolve %s" % ph, (lambda p: lambda r: r["phases"][p]["seconds"])(ph),
                    (lambda p: lambda r: r["phases"][p]["baseline"])(ph), "raw durable insert of the rows it wrote"))
    ops += [
        ("resolve the whole turn", lambda r: r["resolve"]["seconds"], lambda r: r["resolve"]["baseline"],
         "raw durable insert of the rows it wrote"),
        ("report (one side)", lambda r: r["report"]["seconds"], lambda r: r["report"]["baseline"],
         "raw read of every row of the file"),
        ("audit (resolved turn)", lambda r: r["audit"]["seconds"], lambda r: r["audit"]["baseline"],
         "BLAKE2b of the game file"),
        ("audit (exchanged turn)", lambda r: r["audit_exec"]["seconds"], lambda r: r["audit"]["baseline"],
         "BLAKE2b of the game file"),
        ("exchange", lambda r: r["exchange"]["seconds"], lambda r: r["seal"]["baseline"],
         "raw durable commit of one row"),
        ("export (the turn's bundle, checked, a process)", lambda r: r["export"]["seconds"],
         lambda r: r["export"]["baseline"], "BLAKE2b of the bundle"),
        ("verify (the turn's bundle, a process)", lambda r: r["verify"]["seconds"],
         lambda r: r["verify"]["baseline"], "BLAKE2b of the bundle"),
    ]
    out.append("| operation | units | events | time | baseline | of baseline | time(10N)/time(N) | peak RSS |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, t, b, _ in ops:
        prev = None
        for n in sizes:
            r = res[n]
            tt, bb = t(r), b(r)
            ev = ""
            if name.startswith("resolve "):
                ph = name.split(" ", 1)[1]
                ev = str(r["phases"][ph]["events"]) if ph in r["phases"] else str(r["meta"]["events"])
            ratio = tt / prev if tt is not None and prev else None
            frac = bb / tt if tt and bb else None
            rss = None
            key = {"submit (one side's sheet)": "submit", "seal": "seal", "report (one side)": "report",
                   "audit (resolved turn)": "audit", "audit (exchanged turn)": "audit_exec",
                   "exchange": "exchange", "resolve the whole turn": "resolve",
                   "export (the turn's bundle, checked, a process)": "export",
                   "verify (the turn's bundle, a process)": "verify"}.get(name)
            if key:
                rss = r[key].get("maxrss_kb")
            elif name.startswith("resolve "):
                rss = r["phases"][name.split(" ", 1)[1]]["maxrss_kb"]
            tcell = fmt_t(tt) if tt is not None else "> %d s" % r["audit_exec"].get("limit", 0)
            out.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
                name if n == sizes[0] else "", n, ev, tcell, fmt_t(bb), fmt_pct(frac),
                fmt_ratio(ratio), "%.1f MiB" % (rss / 1024) if rss else "—"))
            prev = tt
    out.append("")
    out.append("Baselines: submit — %s; seal, exchange — %s; resolve — %s; report — %s; audit — %s; export, verify — %s."
               % (ops[0][3], ops[1][3], ops[2][3], ops[-6][3], ops[-5][3], ops[-1][3]))
    out.append("")
    # the game file, memory, and recording events
    out.append("| units | sheet of one side | submit, first of its process | game file created | after one turn | per turn | per unit and turn | peak RSS | peak RSS growth per unit since the size before | `orderly event`, one event a process | a phase's events as one file, per event |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rss0 = None
    for n in sizes:
        r = res[n]
        peak = max(r[k]["maxrss_kb"] for k in PEAK_OPS)
        if "maxrss_kb" in r["audit_exec"]:
            peak = max(peak, r["audit_exec"]["maxrss_kb"])
        per_unit = (peak - rss0[1]) * 1024 / (n - rss0[0]) if rss0 and n > rss0[0] else None
        rss0 = (n, peak)
        turn = r["size_turn"] - r["size_created"]
        evc = [p["event_cli"] for p in r["phases"].values() if "event_cli" in p]
        evf = sum(p.get("events_file", 0) for p in r["phases"].values())
        evn = sum(p.get("events_file_n", 0) for p in r["phases"].values())
        out.append("| %d | %s | %s | %s | %s | %s | %.0f B | %.1f MiB | %s | %s | %s |" % (
            n, human(r["submit"]["bytes"]), fmt_t(r["submit"]["first"]), human(r["size_created"]), human(r["size_turn"]), human(turn),
            turn / n, peak / 1024, "%.0f B" % per_unit if per_unit is not None else "—",
                        fmt_t(statistics.median(evc)) if evc else "—",
            fmt_t(evf / evn) + " (%d in %s)" % (evn, fmt_t(evf)) if evn else "—"))
    return "\n".join(out)


def sides_table(sweep):
    """The same game size over 2 to 8 sides: one side's sheet shrinks, the
    whole game does not."""
    out = ["| sides | units | sheet of one side | submit | submit, first of its process | raw insert | of baseline | seal | resolve the whole turn | report (one side) | audit (resolved turn) |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k in sorted(sweep):
        r = sweep[k]
        out.append("| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k, r["units"], human(r["submit"]["bytes"]), fmt_t(r["submit"]["seconds"]), fmt_t(r["submit"]["first"]),
            fmt_t(r["submit"]["baseline"]), fmt_pct(r["submit"]["baseline"] / r["submit"]["seconds"]),
            fmt_t(r["seal"]["seconds"]), fmt_t(r["resolve"]["seconds"]), fmt_t(r["report"]["seconds"]),
            fmt_t(r["audit"]["seconds"])))
    return "\n".join(out)


def human(b):
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if b < 1024 or unit == "GiB":
            return ("%.0f %s" if unit == "B" else "%.1f %s") % (b, unit)
        b /= 1024.0


def targets(res):
    sizes = sorted(res)
    lines = []
    worst = {}
    for name, get in [("submit", lambda r: r["submit"]["seconds"]), ("seal", lambda r: r["seal"]["seconds"]),
                      ("resolve (turn)", lambda r: r["resolve"]["seconds"]),
                      ("report", lambda r: r["report"]["seconds"]), ("audit (resolved)", lambda r: r["audit"]["seconds"]),
                      ("audit (exchanged)", lambda r: r["audit_exec"]["seconds"]),
                      ("exchange", lambda r: r["exchange"]["seconds"]),
                      ("verify", lambda r: r["verify"]["seconds"])]:
        ratios = []
        for a, b in zip(sizes, sizes[1:]):
            if b == 10 * a and get(res[a]) and get(res[b]):
                ratios.append(get(res[b]) / get(res[a]))
            elif b == 10 * a and get(res[a]) and get(res[b]) is None:
                ratios.append(float("inf"))
        if ratios:
            worst[name] = max(ratios)
    big = sizes[-1]
    r = res[big]
    sub = r["submit"]["baseline"] / r["submit"]["seconds"]
    aud = r["audit"]["baseline"] / r["audit"]["seconds"]
    # the slope between the two largest sizes: below it the constant
    # (libraries, SQLite's page cache filling up to its 2 MiB) dominates
    small = sizes[-2] if len(sizes) > 1 else sizes[0]
    peak = max(r[k]["maxrss_kb"] for k in PEAK_OPS)
    p0 = max(res[small][k]["maxrss_kb"] for k in PEAK_OPS)
    per_unit = (peak - p0) * 1024 / (big - small) if big > small else 0
    lines.append("| target | measured | met |")
    lines.append("|---|---|---|")
    for name, w in worst.items():
        lines.append("| %s: time(10N)/time(N) ≤ 12 | worst %s | %s |" % (
            name, "∞ (timed out)" if w == float("inf") else "%.1f" % w, "yes" if w <= 12 else "no"))
    # one event as a process: O(1), so at most twice the time at a tenth
    def event_cli(x):
        evc = [p["event_cli"] for p in x["phases"].values() if "event_cli" in p]
        return statistics.median(evc) if evc else None
    for a, b in zip(sizes, sizes[1:]):
        if b == 10 * a and b >= 10000 and event_cli(res[a]) and event_cli(res[b]):
            q = event_cli(res[b]) / event_cli(res[a])
            lines.append("| `orderly event`, one event a process: time(%d) ≤ 2 × time(%d) | %.2f× | %s |" % (
                b, a, q, "yes" if q <= 2 else "no"))
    for n, want in ((1000, 0.5), (10000, 0.25)):
        if n in res:
            q = res[n]["submit"]["baseline"] / res[n]["submit"]["seconds"]
            lines.append("| submit ≥ %d%% of the raw durable insert rate (%d units) | %s | %s |" % (
                want * 100, n, fmt_pct(q), "yes" if q >= want else "no"))
    lines.append("| submit ≥ 50%% of the raw durable insert rate (%d units) | %s | %s |" % (
        big, fmt_pct(sub), "yes" if sub >= 0.5 else "no"))
    if r["audit"].get("scan"):
        q = r["audit"]["scan"] / r["audit"]["seconds"]
        lines.append("| audit ≥ 50%% of the rate of reading every row (%d units) | %s | %s |" % (
            big, fmt_pct(q), "yes" if q >= 0.5 else "no"))
    lines.append("| audit beside the raw BLAKE2b rate of the file (%d units; the physical reference) | %s | — |" % (
        big, fmt_pct(aud)))
    longest = max(p["seconds"] for p in r["phases"].values())
    lines.append("| a %d-unit turn resolved in seconds (each phase under 10 s, the turn under a minute) "
                 "| the longest phase %s, all five %s | %s |" % (
                     big, fmt_t(longest), fmt_t(r["resolve"]["seconds"]),
                     "yes" if longest < 10 and r["resolve"]["seconds"] < 60 else "no"))
    lines.append("| peak memory ≤ 1 KiB per unit + a constant | %.0f B per unit (%d to %d units) | %s |" % (
        per_unit, small, big, "yes" if per_unit <= 1024 else "no"))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="orderly benchmarks")
    ap.add_argument("--build", required=True)
    ap.add_argument("--sizes", default="100,1000,10000,100000")
    ap.add_argument("--sides", type=int, default=4)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--work", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--markdown", default=None)
    ap.add_argument("--sweep", default="2,4,8", help="side counts compared at --sweep-units")
    ap.add_argument("--sweep-units", type=int, default=10000)
    a = ap.parse_args()
    a.work = os.path.abspath(a.work or os.path.join(a.build, "bench-work"))
    os.makedirs(a.work, exist_ok=True)
    b = Bench(a)
    t0 = time.time()
    m = machine()
    log("bench: %s, %s cores, %s; load %.1f" % (m["cpu"], m["cores"], m["memory"], m["load"]))
    res = {}
    for n in [int(x) for x in a.sizes.split(",")]:
        res[n] = b.size(n)
    sweep = {}
    if a.sweep:
        n = a.sweep_units
        for k in [int(x) for x in a.sweep.split(",")]:
            sweep[k] = res[n] if k == a.sides and n in res else b.size(n, k, full=False)
    m["load_end"] = os.getloadavg()[0]
    m["seconds"] = time.time() - t0
    text = ["orderly benchmark: %s sides, sizes %s, %.0f s, %s (%s cores, %s), kernel %s, SQLite %s, load %.1f–%.1f"
            % (a.sides, a.sizes, m["seconds"], m["cpu"], m["cores"], m["memory"], m["kernel"], m["sqlite"],
               m["load"], m["load_end"]), "", table(res, a.sides), "", targets(res)]
    if sweep:
        text += ["", sides_table(sweep)]
    out = "\n".join(text) + "\n"
    sys.stdout.write(out)
    if a.markdown:
        open(a.markdown, "w").write(out)
    if a.json:
        json.dump({"machine": m, "sides": a.sides, "results": {str(k): v for k, v in res.items()},
                   "sides_sweep": {str(k): v for k, v in sweep.items()}},
                  open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
