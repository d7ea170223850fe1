#!/usr/bin/env python3
"""web_load.py - a bounded load test of `orderly serve` on loopback.

N clients (threads, default 200) for S seconds (default 30) against a server
on a free 127.0.0.1 port serving G battalion games (default 4): a quarter of
the clients are players (each logged in as a side of a game; sheets checked
and submitted again and again), the rest read the games list, the status
pages and the style sheet, as a club's players would.  Meanwhile the command
line submits sheets to the same files and reads them (`orderly submit`,
`orderly info`), as a referee or the mail judge would.

It reports the requests made, the rate and the latency percentiles per kind
of request (reported, not asserted: the machine is shared), and it fails
(exit 1) on any error (a status other than the one expected, a broken
connection) or any lost sheet: for each game and side, the versions of the
receipts handed out (web and command line) must be exactly 1..N, with N the
latest version the game file holds, and every game's audit must be clean.

Usage: web_load.py [--clients N] [--seconds S] [--games G] [--threads T]
Environment: ORDERLY, SRC.  Only loopback addresses are used.
"""
import argparse
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))
import weblib as W  # noqa: E402


def pct(values, p):
    if not values:
        return 0.0
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()
    if not (1 <= a.clients <= 1000 and 0 < a.seconds <= 600 and 1 <= a.games <= 50):
        W.fail("bounds: 1..1000 clients, at most 600 s, 1..50 games")

    work = W.make_dir("orderly-load-")
    games = os.path.join(work, "games")
    os.makedirs(games)
    names = ["game%02d" % i for i in range(a.games)]
    paths = {n: W.make_game(games, n) for n in names}
    # every client is on loopback: no cap on one address's connections
    srv = W.Server(games, threads=a.threads, extra=["--per-address", "0"])
    lock = threading.Lock()
    lat = {}             # kind -> [seconds]
    errors = []
    receipts = {}        # (game, side) -> [versions]

    def note(kind, t, ok, what=""):
        with lock:
            lat.setdefault(kind, []).append(t)
            if not ok:
                errors.append("%s: %s" % (kind, what))

    def timed(kind, fn, expect=200):
        t0 = time.perf_counter()
        try:
            st, hdrs, body = fn()
        except Exception as e:  # a broken connection is an error too
            note(kind, time.perf_counter() - t0, False, repr(e))
            return None
        why = ""
        if st != expect:
            m = re.search(r'role="alert"[^>]*>(.*?)</', body, re.S) or re.search(r"<p>(.*?)</p>", body, re.S)
            why = W.html.unescape(m.group(1)) if m else body[:200]
        note(kind, time.perf_counter() - t0, st == expect, "status %d %s" % (st, why))
        return body if st == expect else None

    # the players' sessions: one login per (game, side), shared by its clients
    # (tabs of one browser), made before the clock starts
    jars = {}
    for n in names:
        for side in ("french", "allied"):
            c = W.Client(srv.url)
            c.login(n, side)
            jars[(n, side)] = c.jar
    # the clock starts after the logins (each a passphrase check): on a
    # busy machine they took the whole of a short run, and it failed with
    # no request made
    stop = time.time() + a.seconds

    def player(i):
        n = names[i % len(names)]
        side = ("french", "allied")[(i // len(names)) % 2]
        c = W.Client(srv.url, jar=jars[(n, side)])
        sheet = W.demo_sheet(1, side)
        k = 0
        while time.time() < stop:
            body = timed("player page", lambda: c.get("/g/%s/side/%s" % (n, side)))
            if body is None:
                continue
            tok = re.search(r'name="csrf" value="([0-9a-f]+)"', body).group(1)
            turn = re.search(r'name="turn" value="([0-9]+)"', body).group(1)
            k += 1
            text = sheet + "# client %d, sheet %d\n" % (i, k)
            if k % 2:
                timed("check", lambda: c.post("/g/%s/side/%s" % (n, side),
                                               {"csrf": tok, "turn": turn, "action": "check", "sheet": text}))
            body = timed("submit", lambda: c.post("/g/%s/side/%s" % (n, side),
                                                   {"csrf": tok, "turn": turn, "action": "submit", "sheet": text}))
            if body is not None:
                m = re.search(r'class="version">(\d+)<', body)
                if not m:
                    note("submit", 0, False, "no receipt on the page")
                    continue
                with lock:
                    receipts.setdefault((n, side), []).append(int(m.group(1)))

    def reader(i):
        c = W.Client(srv.url)
        n = names[i % len(names)]
        while time.time() < stop:
            timed("games list", lambda: c.get("/"))
            timed("status page", lambda: c.get("/g/%s" % n))
            timed("static file", lambda: c.get("/static/orderly.css"))

    def cli():
        k = 0
        while time.time() < stop:
            n = names[k % len(names)]
            side = ("french", "allied")[k % 2]
            k += 1
            t0 = time.perf_counter()
            p = W.subprocess.run([W.ORDERLY, "submit", paths[n], "--side", side, "-"],
                                 input=W.demo_sheet(1, side) + "# the command line, %d\n" % k,
                                 capture_output=True, text=True)
            m = re.search(r"version (\d+)", p.stdout)
            note("cli submit", time.perf_counter() - t0, p.returncode == 0 and m is not None, p.stderr.strip())
            if m:
                with lock:
                    receipts.setdefault((n, side), []).append(int(m.group(1)))
            t0 = time.perf_counter()
            p = W.subprocess.run([W.ORDERLY, "info", paths[n]], capture_output=True, text=True)
            note("cli info", time.perf_counter() - t0, p.returncode == 0, p.stderr.strip())

    nplayers = max(1, a.clients // 4)
    threads = [threading.Thread(target=player if i < nplayers else reader, args=(i,)) for i in range(a.clients)]
    threads.append(threading.Thread(target=cli))
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - t0
    with open("/proc/%d/stat" % srv.p.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    server_cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    client_cpu = time.process_time()
    rc = srv.stop()
    if rc != 0:
        errors.append("orderly serve exited %d" % rc)

    # no lost sheet: versions 1..N, N what the file holds
    lost = []
    for n in names:
        out = W.run("info", paths[n]).stdout
        for side in ("french", "allied"):
            m = re.search(r"%s\s+submitted \(version (\d+)\)" % side, out)
            held = int(m.group(1)) if m else 0
            got = sorted(receipts.get((n, side), []))
            if got != list(range(1, held + 1)):
                lost.append("%s %s: the file holds %d versions, receipts %s" % (n, side, held, got[:10]))
        if W.run("audit", paths[n], check=False).returncode != 0:
            lost.append("%s: audit is not clean" % n)

    total = sum(len(v) for v in lat.values())
    sheets = sum(len(v) for v in receipts.values())
    print("web load: %d clients (%d players, %d readers) + the command line, %.0f s, %d games, %d server threads"
          % (a.clients, nplayers, a.clients - nplayers, elapsed, a.games, a.threads))
    print("%-12s %8s %8s %8s %8s %8s %8s" % ("request", "count", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms"))
    allv = []
    for kind in sorted(lat):
        v = lat[kind]
        allv += v
        print("%-12s %8d %8.1f %8.1f %8.1f %8.1f %8.1f" % (kind, len(v), len(v) / elapsed, 1000 * pct(v, 50),
                                                          1000 * pct(v, 90), 1000 * pct(v, 99), 1000 * max(v)))
    print("%-12s %8d %8.1f %8.1f %8.1f %8.1f %8.1f" % ("all", total, total / elapsed, 1000 * pct(allv, 50),
                                                      1000 * pct(allv, 90), 1000 * pct(allv, 99),
                                                      1000 * max(allv) if allv else 0))
    print("CPU: the server %.1f s, this client %.1f s, in %.0f s on %d cores (load average %.1f)"
          % (server_cpu, client_cpu, elapsed, os.cpu_count(), os.getloadavg()[0]))
    print("sheets stored: %d (web and command line); errors: %d; lost sheets: %d" % (sheets, len(errors), len(lost)))
    for e in (errors[:10] + lost[:10]):
        print("  " + e)
    if not (errors or lost or sheets == 0):
        W.shutil.rmtree(work, ignore_errors=True)  # kept when it fails
    if errors or lost or sheets == 0:
        print("0 passed, 1 failed")
        sys.exit(1)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
