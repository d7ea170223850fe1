#!/usr/bin/env python3
"""mail.py - the mail judge's benchmark (issue 12, item 9): mail-in
messages per second for a 2-side and a 16-side game, and `orderly tick`
over directories of 1,000 and 10,000 games, each against the raw cost
measured in the same run: a durable SQLite insert of the same message
(bench_raw insert), and reading the header of every game file; and the
inbox (issue 15): what storing N mails of BYTES and marking each done
write, against the mails' own bytes (bench_ops inbox).
scripts/bench-mail builds the programs and calls this.

    mail.py --build DIR [--messages 40] [--games 1000,10000]
            [--inbox 100,20480] [--cases mail-in,tick,inbox] [--work DIR]
            [--markdown FILE]

mail-in is run as the MTA runs it, one process per message, each with the
passphrase proof (Argon2id, libsodium's interactive limits: the cost a
player's proof is meant to have) and, for comparison, with orders signed by
`orderly sign` (Ed25519).  Replies are queued, not sent.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

PASS = "bench passphrase %d"


def run(cmd, stdin=None, env=None):
    p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env)
    if p.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                p.stderr.decode()[-2000:]))
    return p.stdout.decode()


def scenario(path, sides, keys=None):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<scenario ruleset="battalion">\n'
                "  <title>Mail bench, %d sides</title>\n" % sides)
        f.write('  <mail address="orderly@judge.test" referee="ref@club.test"/>\n')
        for s in range(sides):
            key = ' pubkey="%s"' % keys[s] if keys else ""
            f.write('  <side id="s%d" name="Side %d" email="p%d@club.test"%s/>\n'
                    % (s, s, s, key))
        for s in range(sides):
            f.write('  <unit id="U%d" name="Unit %d" side="s%d" kind="line_infantry" '
                    'formation="line" figures="24" class="C" weapon="musket"/>\n' % (s, s, s))
        f.write("</scenario>\n")


def message(i, side, body, game):
    return ("From: Player %d <p%d@club.test>\nTo: orderly+%s@judge.test\nSubject: orders\n"
            "Message-ID: <bench-%d@club.test>\nContent-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit\n\n%s" % (side, side, game, i, body)).encode()


class Bench:
    def __init__(self, a):
        self.a = a
        self.b = os.path.abspath(a.build)
        self.orderly = os.path.join(self.b, "orderly")
        self.raw = os.path.join(self.b, "bench_raw")
        self.ops = os.path.join(self.b, "bench_ops")
        self.work = os.path.abspath(a.work or os.path.join(self.b, "bench-mail"))
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.rows = []

    def mail_in(self, sides, proof):
        d = os.path.join(self.work, "mail-%d-%s" % (sides, proof))
        os.makedirs(d)
        game = "g%d" % sides
        gpath = os.path.join(d, game + ".orderly")
        keys = None
        if proof == "signature":
            keys = []
            for s in range(sides):
                kf = os.path.join(d, "s%d.key" % s)
                run([self.orderly, "keygen", kf])
                keys.append([l.split(": ")[1] for l in open(kf + ".pub")
                             if l.startswith("public: ")][0].strip())
        scenario(os.path.join(d, "scenario.xml"), sides, keys)
        run([self.orderly, "new", gpath, "--scenario", os.path.join(d, "scenario.xml")])
        gid = run([self.orderly, "info", gpath]).split("game id:")[1].split()[0]
        if proof == "passphrase":
            for s in range(sides):
                subprocess.run([self.orderly, "register", gpath, "--side", "s%d" % s,
                                "--passphrase-file", "-"], input=(PASS % s).encode(),
                               stdout=subprocess.DEVNULL, check=True)
        msgs = []
        for i in range(self.a.messages):
            s = i % sides
            sheet = "U%d ↑ 1/2\n" % s
            if proof == "passphrase":
                body = "Passphrase: %s\nORDERS\n%sEND\n" % (PASS % s, sheet)
            else:
                sf = os.path.join(d, "sheet-%d.txt" % i)
                open(sf, "w").write(sheet)
                lines = run([self.orderly, "sign", "--game-id", gid, "--turn", "1", "--side",
                             "s%d" % s, "--key", os.path.join(d, "s%d.key" % s), sf])
                body = "%s\nORDERS\n%sEND\n" % (lines, sheet)
            m = os.path.join(d, "m%d.eml" % i)
            open(m, "wb").write(message(i, s, body, game))
            msgs.append(m)
        t0 = time.perf_counter()
        for m in msgs:
            with open(m, "rb") as f:
                run([self.orderly, "mail-in", "--games", d], stdin=f)
        secs = time.perf_counter() - t0
        n = int(run(["sqlite3", gpath, "SELECT count(*) FROM sheet"]).strip())
        if n != len(msgs):
            sys.exit("bench: %d sheets stored for %d messages" % (n, len(msgs)))
        raw = self.raw_insert(msgs[0])
        self.rows.append(("mail-in, %d sides, %s proof" % (sides, proof),
                          "%.1f msg/s (%.1f ms each)" % (len(msgs) / secs, 1000 * secs / len(msgs)),
                          "%.0f inserts/s (%.2f ms)" % (1 / raw, 1000 * raw),
                          "%.0fx" % (secs / len(msgs) / raw)))

    def raw_insert(self, msg):
        db = os.path.join(self.work, "raw.db")
        out = run([self.raw, "insert", db, msg, "20"])
        vals = dict(l.split("=", 1) for l in out.split() if "=" in l)
        return float(vals["seconds"])

    def tick(self, n):
        d = os.path.join(self.work, "tick-%d" % n)
        os.makedirs(d)
        src = os.path.join(self.work, "tick-src")
        if not os.path.exists(src + ".orderly"):
            scenario(src + ".xml", 2)
            run([self.orderly, "new", src + ".orderly", "--scenario", src + ".xml"])
            run([self.orderly, "schedule", src + ".orderly", "every", "48h", "remind", "24h",
                 "autoseal", "on"])
        for i in range(n):
            shutil.copyfile(src + ".orderly", os.path.join(d, "g%05d.orderly" % i))
        env = dict(os.environ, ORDERLY_SENDMAIL="cat >/dev/null")
        t0 = time.perf_counter()
        run([self.orderly, "tick", d], env=env)
        first = time.perf_counter() - t0
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            run([self.orderly, "tick", d], env=env)
            times.append(time.perf_counter() - t0)
        idle = statistics.median(times)
        # the raw cost: open every game file and read its 100-byte header
        rt = []
        for _ in range(3):
            t0 = time.perf_counter()
            for name in os.listdir(d):
                if name.endswith(".orderly"):
                    fd = os.open(os.path.join(d, name), os.O_RDONLY)
                    os.read(fd, 100)
                    os.close(fd)
            rt.append(time.perf_counter() - t0)
        raw = statistics.median(rt)
        self.rows.append(("tick, %d games, nothing due" % n, "%.2f s (%.0f µs a game)"
                          % (idle, 1e6 * idle / n), "%.3f s (%.0f µs a game)"
                          % (raw, 1e6 * raw / n), "%.0fx" % (idle / raw)))
        self.rows.append(("tick, %d games, first look (every game opened)" % n,
                          "%.2f s (%.1f ms a game)" % (first, 1e3 * first / n), "", ""))

    def inbox(self, n, size):
        d = os.path.join(self.work, "inbox")
        os.makedirs(d)
        scenario(os.path.join(d, "scenario.xml"), 2)
        gpath = os.path.join(d, "inbox.orderly")
        run([self.orderly, "new", gpath, "--scenario", os.path.join(d, "scenario.xml")])
        out = run([self.ops, "inbox", gpath, str(n), str(size)])
        v = dict(l.split("=", 1) for l in out.split("\n") if "=" in l)
        mails = n * size
        kb = int(v["file_kb_before"])
        for what, name in (("in", "%d mails of %d bytes stored" % (n, size)),
                           ("done", "each marked done")):
            grown = int(v[what + "_file_kb"]) - kb
            kb = int(v[what + "_file_kb"])
            self.rows.append(("inbox: %s" % name,
                              "%s pages, %.2f MB written, file +%d KiB, %.1f ms"
                              % (v[what + "_pages"], int(v[what + "_wchar"]) / 1e6, grown,
                                 1000 * float(v[what + "_seconds"])),
                              "the mails: %.2f MB" % (mails / 1e6),
                              "%.2fx" % (int(v[what + "_wchar"]) / mails)))
        self.rows.append(("inbox: the results searched once (a nonce's check)",
                          "%.2f ms" % (1000 * float(v["said_seconds"])), "", ""))

    def report(self):
        lines = ["| what | orderly | raw cost, same run | ratio |", "|---|---|---|---|"]
        for r in self.rows:
            lines.append("| %s |" % " | ".join(r))
        text = "\n".join(lines) + "\n"
        sys.stdout.write(text)
        if self.a.markdown:
            open(self.a.markdown, "w").write(text)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--messages", type=int, default=40)
    p.add_argument("--games", default="1000,10000")
    p.add_argument("--inbox", default="100,20480", help="N,BYTES: mails and their size")
    p.add_argument("--cases", default="mail-in,tick,inbox")
    p.add_argument("--work")
    p.add_argument("--markdown")
    a = p.parse_args()
    b = Bench(a)
    cases = a.cases.split(",")
    if "mail-in" in cases:
        for sides in (2, 16):
            for proof in ("passphrase", "signature"):
                b.mail_in(sides, proof)
    if "tick" in cases:
        for n in [int(x) for x in a.games.split(",") if x]:
            b.tick(n)
    if "inbox" in cases:
        n, size = (int(x) for x in a.inbox.split(","))
        b.inbox(n, size)
    b.report()


if __name__ == "__main__":
    main()
