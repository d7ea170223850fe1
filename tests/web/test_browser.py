#!/usr/bin/env python3
"""test_browser.py - a whole turn played from browsers alone: `orderly serve`
on a free loopback port, headless Chromium driven through chromedriver over
the W3C WebDriver protocol (plain HTTP calls, weblib.Driver).

Two players in two browser sessions (phones) log in (one by the secret link,
one by typing the passphrase), check their sheets (one with errors, fixed)
and submit them; the referee (a tablet) seals, records the events of the
phases through the forms made from the ruleset's event kinds (one refused
by the checks), resolves every phase and exchanges; both players read their
reports; the French player downloads the bundle and the heads and runs the
`orderly verify` command his page shows, with the receipt and the game's
key his receipt showed when he submitted put in for RECEIPT and GAME-KEY.  A side with
a key (another game) has a Check with his signature refused unread and
his signed sheet taken.  A screenshot of each page is saved (SHOTS, or the
test's directory) and checked not to be blank.  The unit named
<script>alert(1)</script> is shown as text and no alert opens.

Environment: ORDERLY, SRC (CTest sets them); SHOTS, where the screenshots go.
Without chromium or chromedriver the test fails (scripts/deps installs them).
"""
import base64
import http.client
import os
import re
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import weblib as W  # noqa: E402

CANARY = "HOOKWORM"  # a word of the allied sheet: never on a French page before the exchange
# the French sheet of turn 1: the demo's, with a comment too long for a
# phone's line and blank lines, eleven lines in all (numbers of two digits)
FR1 = (W.demo_sheet(1, "french") + "\n# the Guard waits behind Gemioncourt farm; nobody moves it without the "
       "Emperor's own word, whatever an aide-de-camp may say\n\n# end of the sheet\n")

# What sticks out of the box css on this page, or makes the page scroll
# sideways: a phone's page must do neither.
OVERFLOW_JS = """
var box = document.querySelector(arguments[0]), r = box.getBoundingClientRect(), out = [];
var page = document.documentElement.scrollWidth;
if (page > window.innerWidth + 1) out.push('the page is ' + page + ' px wide, the screen ' + window.innerWidth);
box.querySelectorAll('*').forEach(function (e) {
  var b = e.getBoundingClientRect(), name = e.tagName.toLowerCase() + (e.className ? '.' + e.className : '');
  if (b.width > 0 && (b.right > r.right + 1 || b.left < r.left - 1)) out.push(name + ' runs out of its box');
  if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) out.push(name + ' scrolls sideways');
});
return out;"""

# The layout of this turn's sheet under "Your side's sheets" and of
# orderly's reading under it: where the text of each line starts (its
# first character; its number before it), where each order of the
# reading starts, whether the comments are drawn apart from the orders,
# and the lines of which a wrapped part starts left of the text's column
# (under the numbers).
SHEET_JS = """
function first(el) {
  var w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), n, rg = document.createRange();
  while ((n = w.nextNode())) {
    var i = n.textContent.search(/\\S/);
    if (i >= 0) { rg.setStart(n, i); rg.setEnd(n, i + 1); return Math.round(rg.getBoundingClientRect().left); }
  }
  return null;
}
var d = document.querySelector('#receipts details[open]'), out = {text: [], reading: [], apart: [], under: []};
d.querySelectorAll('pre.sheet-text .line').forEach(function (l, i) {
  if (/^\\s/.test(l.textContent)) return;  /* an indented line starts further right */
  var at = first(l);
  if (at === null) return;
  out.text.push(at);
  var c = l.querySelector('.comment');
  if (c) {
    var cs = getComputedStyle(c), ls = getComputedStyle(l);
    out.apart.push(cs.color != ls.color && cs.fontStyle == 'italic');
    var rg = document.createRange();
    rg.selectNodeContents(c);
    Array.prototype.forEach.call(rg.getClientRects(), function (b) {
      if (b.width > 0 && b.left < at - 1) out.under.push(i + 1);
    });
  }
});
d.querySelectorAll('ol.orders li').forEach(function (li) { out.reading.push(first(li)); });
return out;"""


# The open event forms in css on a tablet's two columns: the fields of
# one row whose keys or boxes are not level (a key beside a longer line
# stood lower than its neighbour's), and the kinds whose line of what
# they are, wrapped, does not go on under the kind's name (it went on
# under the marker).
FORMS_JS = """
var out = {rows: [], summaries: []};
document.querySelectorAll(arguments[0] + ' details.event').forEach(function (d) {
  var s = d.querySelector('summary'), m = s.querySelector('.muted');
  if (m) {
    var r = document.createRange(), name = s.firstChild, rects;
    r.setStart(name, 0); r.setEnd(name, 1);
    var at = r.getBoundingClientRect().left;
    r.selectNodeContents(m); rects = Array.prototype.filter.call(r.getClientRects(), function (b) { return b.width > 0; });
    rects.forEach(function (b, i) {
      if (i && Math.round(b.top) > Math.round(rects[0].top) && Math.abs(b.left - at) > 2)
        out.summaries.push(d.id + ': a line at ' + Math.round(b.left) + ', the name at ' + Math.round(at));
    });
  }
  if (!d.open) return;
  var rows = {};
  d.querySelectorAll('.fields .field').forEach(function (f) {
    var box = f.querySelector('input, select').getBoundingClientRect(), key = f.querySelector('.key').getBoundingClientRect();
    var row = Math.round(f.getBoundingClientRect().top);
    (rows[row] = rows[row] || []).push([Math.round(key.top), Math.round(box.top), f.querySelector('.key').textContent]);
  });
  Object.keys(rows).forEach(function (k) {
    var r = rows[k];
    if (r.length > 1 && (r[0][0] != r[1][0] || r[0][1] != r[1][1]))
      out.rows.push(d.id + ': ' + r[0][2] + ' and ' + r[1][2] + ' keys at ' + r[0][0] + ', ' + r[1][0] + ', boxes at ' + r[0][1] + ', ' + r[1][1]);
  });
});
return out;"""


def wrong_login(base, game, side, ip, passphrase):
    """A login with a wrong passphrase from loopback address ip (127.x.y.z):
    its form's token, then the POST; the status."""
    u = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60, source_address=(ip, 0))
    try:
        conn.request("GET", "/g/%s/login?side=%s" % (game, side))
        r = conn.getresponse()
        page = r.read().decode("utf-8", "replace")
        cookie = (r.getheader("Set-Cookie") or "").split(";")[0]
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        body = urllib.parse.urlencode({"side": side, "passphrase": passphrase, "csrf": csrf})
        conn.request("POST", "/g/%s/login" % game, body=body,
                     headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def lines_shown(s, css):
    """The lines the text of css takes on the screen."""
    return s.script("var r = document.createRange(), tops = {};"
                    " r.selectNodeContents(document.querySelector(arguments[0]));"
                    " Array.prototype.forEach.call(r.getClientRects(), function (b) {"
                    " if (b.width > 0) tops[Math.round(b.top)] = 1; });"
                    " return Object.keys(tops).length", [css])


def main():
    work = W.make_dir("orderly-browser-")
    shots = os.environ.get("SHOTS") or os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    games = os.path.join(work, "games")
    os.makedirs(games)
    W.make_game(games, "quatre-bras", W.xss_scenario(work))
    srv = W.Server(games)
    drv = W.Driver(work)
    sessions = []
    n = [0]

    def shot(s, name, css=None):
        n[0] += 1
        p = os.path.join(shots, "%02d-%s.png" % (n[0], name))
        s.screenshot(p, css)
        return p

    def no_canary(s, where):
        if CANARY in s.source():
            W.fail("%s: the allied sheet's word %s is on %s before the exchange" % (s.name, CANARY, where))

    try:
        ref = drv.session("referee", 820, 1180, mobile=True)   # a tablet
        fr = drv.session("french", 390, 844, mobile=True)       # phones
        al = drv.session("allied", 412, 915, mobile=True)
        desk = drv.session("desktop", 1280, 900)
        sessions += [ref, fr, al, desk]
        base = srv.url
        game = base + "g/quatre-bras"

        # the games, on a desktop and on a phone
        desk.go(base)
        if "Quatre Bras" not in desk.text("table.games"):
            W.fail("the games list does not show the game")
        shot(desk, "games-desktop")
        fr.go(base)
        shot(fr, "games-phone")

        # French: the secret link (the passphrase after '#' never reaches the server)
        fr.go(game + "/login?side=french#" + W.PASS["french"].replace(" ", "%20").replace("'", "%27"))
        if fr.attr("#passphrase", "value") != W.PASS["french"]:
            W.fail("the secret link did not fill in the passphrase")
        shot(fr, "login-phone")
        fr.submit("form.login button[type=submit]")
        if not fr.wait_url("/side/french"):
            W.fail("french: not on his page after logging in: %s" % fr.url())
        shot(fr, "player-phone")

        # a sheet with two errors, checked: every problem at its line and column
        bad = W.demo_sheet(1, "french").replace("F2: ↑ 1/2", "F2: ↑ 7/2").replace("F9: ↑ 1", "F99: ↑ 1")
        fr.type("#sheet-text", bad)
        fr.submit('button[value="check"]')
        problems = fr.text("ol.problems")
        if "line 3" not in problems or "line 7" not in problems:
            W.fail("french: the check does not name lines 3 and 7:\n" + problems)
        if "orderly's reading" not in fr.source():
            W.fail("french: the check shows no reading")
        # on a phone the reading's long lines wrap: none is cut off at the box
        cut = fr.script("var p = document.querySelector('pre.reading');"
                        " return p.scrollWidth > p.clientWidth + 1")
        if cut:
            W.fail("french: a line of orderly's reading runs out of its box on a phone")
        # the line with an unknown unit is not read as accepted, and the
        # line not understood is struck out with its words too
        struck = fr.script("return Array.from(document.querySelectorAll('pre.reading .refused'),"
                           " function (e) { return e.textContent; })")
        if not any("F99" in t and "not accepted" in t for t in struck):
            W.fail("french: line 7 (F99) is shown as accepted in the reading:\n" + fr.text("pre.reading"))
        if not any("F2: ↑ 7/2" in t and "line 3 not understood" in t for t in struck):
            W.fail("french: line 3 (F2: ↑ 7/2) is not struck out in the reading:\n" + fr.text("pre.reading"))
        # the sheet's long lines wrap in the box on a phone
        cut = fr.script("var a = document.getElementById('sheet-text');"
                        " return a.scrollWidth > a.clientWidth + 1")
        if cut:
            W.fail("french: the sheet's box does not wrap its long lines on a phone")
        # his units beside the box, the help as text with tables, not Markdown
        if "F9" not in fr.text("ul.units") or "2/1er Artillerie à cheval" not in fr.text("ul.units"):
            W.fail("french: his units are not listed beside the sheet")
        helptext = fr.script("return document.getElementById('help').textContent")
        if "`" in helptext or "|---" in helptext or "###" in helptext:
            W.fail("french: the notation's help shows raw Markdown")
        shot(fr, "player-check-errors")
        # the problem's link puts the cursor on its line (the script)
        fr.click("ol.problems a.at")
        fr.script("document.querySelectorAll('#help details').forEach(function (d) { d.open = true; });"
                  " document.querySelector('#help table').scrollIntoView()")
        shot(fr, "player-notation-help")
        # fixed, checked, submitted
        fr.type("#sheet-text", FR1)
        fr.submit('button[value="check"]')
        if "Checked: no problem" not in fr.text(".result"):
            W.fail("french: the fixed sheet does not check clean")
        fr.submit('button[value="submit"]')
        receipt = fr.text("#receipt .commitment").strip()
        gamekey = fr.text("#receipt .gamekey").strip()
        if len(gamekey) != 64:
            W.fail("french: the receipt does not give the game's key: %r" % gamekey)
        if len(receipt) != 64 or fr.text("#receipt .version").strip() != "1":
            W.fail("french: no receipt after submitting: %r" % receipt)
        shot(fr, "player-receipt")
        # the receipt's page opens at #receipt with its heading below the
        # sticky bar, not under it (a phone's bar is two lines)
        clear = fr.script("var h = document.querySelector('#receipt h2').getBoundingClientRect(),"
                          " b = document.querySelector('header.bar').getBoundingClientRect();"
                          " return [h.top, b.bottom, window.scrollY];")
        if not (clear[2] > 0 and clear[0] >= clear[1]):
            W.fail("french: the receipt's heading opens under the sticky bar (heading top, bar "
                   "bottom, scrolled): %r" % clear)
        shot(fr, "player-receipt-viewport-phone")
        # a sheet over the server's 1 MiB is not sent: the server would drop
        # it past the limit and could not give it back; it stays in its box
        big = W.demo_sheet(1, "french") + ("# " + "x" * 200 + "\n") * 6000
        fr.script("document.getElementById('sheet-text').value = arguments[0]", [big])
        before = fr.url()
        fr.click('button[value="submit"]')
        time.sleep(1)
        if (fr.url() != before or "Too large to send" not in fr.text("#too-large") or
                "1048576" not in fr.text("#too-large") or
                fr.script("return document.getElementById('sheet-text').value.length") != len(big)):
            W.fail("french: a sheet over 1 MiB was sent, or its text left the box: %s %s" %
                   (fr.url(), fr.text("main")[:300]))
        shot(fr, "player-sheet-too-large-phone")
        # his sheet as the game file holds it, on a phone: every line's
        # text at one column after its number (one digit or two), each
        # order of orderly's reading under that column, the comments
        # drawn apart and a long one wrapped under the text, never under
        # the numbers; nothing wider than the screen (the reading was set
        # in another font and size, its numbers elsewhere, and a comment
        # looked like an order)
        fr.script("document.getElementById('receipts').scrollIntoView()")
        lay = fr.script(SHEET_JS)
        if len(lay["text"]) < 9 or len(set(lay["text"])) != 1:
            W.fail("french: the lines of his sheet do not start at one column after their numbers: %r" % lay)
        orders = [ln for ln in FR1.split("\n") if ln.split("#")[0].strip()]
        if len(lay["reading"]) != len(orders) or set(lay["reading"]) != set(lay["text"]):
            W.fail("french: orderly's reading does not stand under his sheet's column: %r" % lay)
        if len(lay["apart"]) != FR1.count("#") or not all(lay["apart"]):
            W.fail("french: the comments of his sheet are not drawn apart from its orders: %r" % lay)
        if lay["under"]:
            W.fail("french: a long comment wraps under the line numbers (lines %r)" % lay["under"])
        out = fr.script(OVERFLOW_JS, ["#receipts"])
        if out:
            W.fail("french: his side's sheets do not fit a phone: %s" % "; ".join(out))
        fr.script("document.querySelector('#receipts details[open]').scrollIntoView()")
        shot(fr, "player-sheet-held-phone")
        no_canary(fr, "his page")

        # Allied: the login form, typed
        al.go(game)
        shot(al, "status-phone")
        al.go(game + "/login?side=allied")
        al.type("#passphrase", W.PASS["allied"])
        al.submit("form.login button[type=submit]")
        sheet = W.demo_sheet(1, "allied") + "# %s: the reserve waits behind the ridge\n" % CANARY
        al.type("#sheet-text", sheet)
        al.submit('button[value="submit"]')
        if len(al.text("#receipt .commitment").strip()) != 64:
            W.fail("allied: no receipt")
        clear = al.script("var h = document.querySelector('#receipt h2').getBoundingClientRect(),"
                          " b = document.querySelector('header.bar').getBoundingClientRect();"
                          " return [h.top, b.bottom];")
        if clear[0] < clear[1]:
            W.fail("allied: the receipt's heading opens under the sticky bar: %r" % clear)
        # a reload of the receipt (a phone's pull-to-refresh) shows the
        # same receipt and stores nothing: the Submit was answered with a
        # page to GET, not re-posted (a second version made his receipt
        # of version 1 fail verify after the exchange)
        old = al.find("html")
        al.call("POST", "/refresh", {})
        al.find("body")
        if al.text("#receipt .version").strip() != "1" or al.find("html") == old:
            W.fail("allied: a reload of the receipt does not show version 1 again: " + al.text("main")[:300])
        if "allied       submitted (version 1)" not in W.run("info", os.path.join(games, "quatre-bras.orderly")).stdout:
            W.fail("allied: a reload of the receipt stored another version: " +
                   W.run("info", os.path.join(games, "quatre-bras.orderly")).stdout)
        # the XSS canary: the unit's name is text, no script ran
        al.go(game + "/side/allied/report/1")
        if W.XSS not in al.text("pre.report"):
            W.fail("allied: the report does not show the unit named %s as text" % W.XSS)
        if al.alert_open():
            W.fail("allied: an alert opened: the unit's name ran as a script")
        shot(al, "report-xss-as-text")

        # the status page: who has a sheet, never what it says
        fr.go(game)
        if fr.text("ul.sides").count("sheet in") != 2:
            W.fail("status: both sides should have a sheet in")
        no_canary(fr, "the status page")
        shot(fr, "status-both-in")

        # the referee, on a tablet
        # the French player has his page open and types again; the seal
        # comes before he sends it
        fr.go(game + "/side/french")
        fr.type("#sheet-text", W.demo_sheet(1, "french") + "F9: ↑ 1/2  # on second thoughts\n")
        ref.go(game + "/referee")
        ref.type("#passphrase", W.PASS["referee"])
        ref.submit("form.login button[type=submit]")
        if not ref.wait_url("/referee"):
            W.fail("referee: not on his page: %s" % ref.url())
        shot(ref, "referee-open-tablet")
        # a deadline already past, typed by mistake: refused, with the
        # button that would set it (not taken)
        ref.type("#when", "2025-12-05T18:00Z")
        ref.submit("form.deadline button[type=submit]")
        yes = ref.text("#done form.deadline-past button[type=submit]")
        if "not after now" not in ref.text("#done") or yes != "Yes, set 2025-12-05T18:00:00Z, already past":
            W.fail("referee: a deadline already past is not refused with the button that sets it: " +
                   ref.text("#done"))
        shot(ref, "referee-deadline-past-refused", "#done")
        # Seal, Resolve and Exchange each ask first: one tap does nothing
        ref.submit("form.seal button[type=submit]")
        if "Seal turn 1?" not in ref.text("#confirm") or "sealed" in ref.text("p.turnline"):
            W.fail("referee: Seal did not ask to be confirmed: " + ref.text("main"))
        shot(ref, "referee-confirm-seal")
        ref.submit("form.confirm button[type=submit]")
        if "sealed" not in ref.text("#done"):
            W.fail("referee: the seal did not happen: " + ref.text("#done"))
        fr.submit('button[value="submit"]')
        if ("Nothing you sent was stored" not in fr.text("#sheet .result") or
                "on second thoughts" not in fr.attr("#sheet-text", "value")):
            W.fail("french: a sheet after the seal is not said to be lost, or its text is gone: " +
                   fr.text("main")[:800])
        shot(fr, "player-submit-after-seal")
        fr.go(game + "/side/french")
        no_canary(fr, "his page after the seal")

        def event(kind, values, expect_ok=True):
            det = 'details.event:has(input[name="kind"][value="%s"])' % kind
            if not ref.attr(det, "open"):
                ref.click(det + " > summary")
            form = 'details.event:has(input[name="kind"][value="%s"]) ' % kind
            for k, v in values.items():
                sel = form + '[name="k_%s"]' % k
                tag = ref.call("GET", "/element/%s/name" % ref.find(sel))
                if tag == "select":
                    ref.select(sel, v)
                else:
                    ref.type(sel, v)
            ref.submit(form + "button[type=submit]")
            src = ref.source()
            if expect_ok and not (ref.finds("#done") and ref.text("#done").startswith("Recorded")):
                W.fail("referee: event %s %s not recorded:\n%s" % (kind, values, W.text_of(src)[:3000]))
            # the form is open again and in view, ready for the next unit
            # (the browser scrolls to the anchor once the page is laid out)
            for _ in range(30):
                at = ref.script("var d = document.querySelector(arguments[0]), r = d.getBoundingClientRect();"
                                " return [d.open, r.top, window.innerHeight, window.scrollY];", [det])
                if at[0] and 0 <= at[1] < at[2] / 2:
                    break
                W.time.sleep(0.1)
            else:
                W.fail("referee: after an event the %s form is not open in view: %r" % (kind, at))
            return src

        # movement: one event the orders do not allow is refused, with the rule
        src = event("move", {"unit": "F1", "distance": "40"}, expect_ok=False)
        if "Not recorded" not in src:
            W.fail("referee: a 40-inch move of a unit ordered half a move was not refused")
        shot(ref, "referee-event-refused")
        # on a phone (the bar two lines high) the page of a refused event
        # opens with the heading "Record what you measured" clear of the bar
        # (the bar covered it); a refused event changes nothing
        refp = drv.session("referee-phone", 390, 844, mobile=True)
        sessions.append(refp)
        refp.go(game + "/login?side=referee")
        refp.type("#passphrase", W.PASS["referee"])
        refp.submit("form.login button[type=submit]")
        if not refp.wait_url("/referee"):
            W.fail("referee on a phone: not on his page: %s" % refp.url())
        det = 'details.event:has(input[name="kind"][value="move"])'
        refp.click(det + " > summary")
        refp.type(det + ' [name="k_unit"]', "F1")
        refp.type(det + ' [name="k_distance"]', "40")
        refp.submit(det + " button[type=submit]")
        for _ in range(30):
            at = refp.script("var h = document.getElementById('record').getBoundingClientRect(),"
                             " b = document.querySelector('.bar').getBoundingClientRect(),"
                             " d = document.querySelector(arguments[0]).getBoundingClientRect();"
                             " return [h.top, b.bottom, d.top, window.innerHeight];", [det])
            if 0 <= at[2] < at[3] / 2:
                break
            W.time.sleep(0.1)
        if "Not recorded" not in refp.text(det) or at[0] < at[1] - 0.5:
            W.fail("referee on a phone: after a refused event the heading 'Record what you measured' "
                   "is under the bar (heading at %.1f, bar to %.1f, form at %.1f)" % tuple(at[:3]))
        refp.quit()
        sessions.remove(refp)
        event("move", {"unit": "F1", "distance": "5"})
        shot(ref, "referee-move-again")
        # the move form on the tablet's two columns: each row's keys and
        # boxes level (terrain stood lower than charge beside it)
        laid = ref.script(FORMS_JS, ["#phase"])
        if laid["rows"] or laid["summaries"]:
            W.fail("referee on a tablet: the event forms are not laid out level: %r" % laid)
        # the list of what is still to record, on the tablet: every line
        # whole, the Record buttons one column ("Record form…" stood out of
        # line under "Record move…")
        ref.script("var d = document.querySelector('details.pending');"
                   " window.scrollTo(0, d.getBoundingClientRect().top + window.scrollY - 100)")
        cols = ref.script("return Array.from(document.querySelectorAll('ul.pending a.record')).map(function (a) {"
                          " var r = a.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.width),"
                          " a.textContent]; })")
        if (len({c[2] for c in cols}) < 2 or len({(c[0], c[1]) for c in cols}) != 1 or
                ref.script(OVERFLOW_JS, ["details.pending"])):
            W.fail("referee on a tablet: the pending list's Record buttons are not one column, or the "
                   "list runs out of its box: %r %r" % (cols, ref.script(OVERFLOW_JS, ["details.pending"])))
        shot(ref, "referee-pending-tablet")
        # a pending order's Record opens the move form with its unit filled in
        ref.submit('ul.pending a.record[href*="unit=F2&"]')
        if ref.attr('#ev-move-unit', "value") != "F2" or not ref.attr("#kind-move", "open"):
            W.fail("referee: Record of F2's move did not open the move form with F2")
        shot(ref, "referee-record-pending")
        event("move", {"distance": "3,5"})  # a decimal comma, as a phone offers it
        if "distance=3.5" not in ref.text("ul.events"):
            W.fail("referee: a distance of 3,5 was not recorded as 3.5: " + ref.text("ul.events"))
        event("form", {"unit": "A4", "formation": "line"})
        event("move", {"unit": "A7", "distance": "3"})
        # a wrong measurement, voided from the list of the phase's events
        event("move", {"unit": "F3", "distance": "2"})
        shot(ref, "referee-movement")
        ref.type('ul.events li:last-child input[name="reason"]', "measured from the wrong stand")
        ref.submit("ul.events li:last-child button[type=submit]")
        if "voided" not in ref.text("#done") or "unit=F3" in ref.text("ul.events"):
            W.fail("referee: the event was not voided: " + ref.text("#done"))
        phases = 0
        while True:
            ref.go(game + "/referee")
            if not ref.finds("form.resolve"):
                break
            if phases == 1:  # fire
                # a Resolve of fire before its events is refused, in the
                # page's words, with Resolve fire empty offered (not taken)
                ref.submit("form.resolve button[type=submit]")
                ref.submit("form.confirm button[type=submit]")
                said = ref.text("#done")
                if ("resolve it empty (the button below)" not in said or "orderly" in said or
                        ref.text("#done form.confirm button[type=submit]") != "Resolve fire empty"):
                    W.fail("referee: a Resolve of fire with no event is not refused in the page's words, "
                           "with Resolve fire empty: " + said)
                shot(ref, "referee-resolve-empty-refused", "#done")
                event("fire", {"unit": "A5", "target": "F1", "range": "11"})
                event("artillery", {"unit": "A9", "target": "F2", "range": "14"})
                event("artillery", {"unit": "F8", "target": "A1", "range": "22"})
            ref.submit("form.resolve button[type=submit]")
            if not ref.finds("#confirm"):
                W.fail("referee: Resolve did not ask to be confirmed")
            if phases == 0:
                # what no event carries out so far, shown before confirming
                if "F6 ordered to move" not in ref.text("#confirm ul.pending"):
                    W.fail("referee: the confirmation of Resolve does not list what is "
                           "still to record: " + ref.text("#confirm"))
                shot(ref, "referee-confirm-resolve")
            ref.submit("form.confirm button[type=submit]")
            if "resolved" not in ref.text("#done"):
                W.fail("referee: phase %d not resolved: %s" % (phases + 1, ref.text("#done")))
            phases += 1
            if phases in (1, 2):
                shot(ref, "referee-resolved-%d" % phases)
            fr.go(game + "/side/french")
            no_canary(fr, "his page during phase %d" % phases)
        if phases != 5:
            W.fail("referee: %d phases resolved, the battalion rules have 5" % phases)
        ref.submit("form.inline button[type=submit]:not(.secondary)")
        if "Exchange turn 1?" not in ref.text("#confirm"):
            W.fail("referee: Exchange did not ask to be confirmed")
        shot(ref, "referee-confirm-exchange")
        ref.submit("form.confirm button[type=submit]")
        if "Exchanged" not in ref.text("#done"):
            W.fail("referee: no exchange: " + ref.text("#done"))
        shot(ref, "referee-exchanged")
        # the referee audits the game file from his page, when he asks
        ref.submit("#audit a.button")
        if ("Clean: no sheet" not in ref.text("#audit .result") or
                "ok: replay: 5 phases replayed" not in ref.script(
                    "return document.querySelector('#audit pre').textContent")):
            W.fail("referee: the page's audit of the exchanged turn is not clean: " + ref.text("#audit"))
        ref.script("document.querySelector('#audit details').open = true")
        shot(ref, "referee-audit", "#audit")

        # both read their reports of turn 1
        for s, side in ((fr, "french"), (al, "allied")):
            s.go(game + "/side/" + side)
            s.submit('ul.reports a[href$="/report/1?lang=en"]')
            rep = s.text("pre.report")
            if "turn 1" not in rep or side not in rep:
                W.fail("%s: the report of turn 1 is not there:\n%s" % (side, rep[:500]))
            # the exchanged turn's report lists the void of F3's move, to
            # the French (whose unit it named) only, with the reason given
            void = ("events the referee voided (they count for nothing):\n  [movement] move unit=F3 "
                    "distance=2 terrain=open charge=no, voided: measured from the wrong stand")
            if (void in rep) != (side == "french"):
                W.fail("%s: the report of turn 1 %s the voided move of F3:\n%s" %
                       (side, "lacks" if side == "french" else "shows", rep))
            shot(s, "report-%s" % side)
            if side == "french":  # its end, where the void is listed
                s.script("window.scrollTo(0, document.body.scrollHeight)")
                shot(s, "report-french-end")

        # the French player downloads the bundle and the heads and verifies
        fr.go(game + "/side/french")
        fr.script("document.getElementById('bundles').scrollIntoView()")
        shot(fr, "player-bundles")
        cmd = fr.text("#turn-1 pre.command").strip()
        # the page fills in nothing the player holds himself (a server that
        # swapped his sheet would fill in its commitment): he puts in his
        # own receipt and the key he kept; the file's are shown apart
        if "--receipt RECEIPT" not in cmd or "--pubkey GAME-KEY" not in cmd:
            W.fail("french: the verify command does not leave his receipt and key to him:\n%s" % cmd)
        if re.search(r"[0-9a-f]{64}", cmd):
            W.fail("french: the verify command carries a value from the server:\n%s" % cmd)
        # an argument a line, and on a phone no line of it broken in two
        # (a file's name was cut anywhere, '--pub' and 'key' on two lines)
        shown = fr.script("var r = document.createRange(), tops = {};"
                          " r.selectNodeContents(document.querySelector('#turn-1 pre.command code'));"
                          " Array.prototype.forEach.call(r.getClientRects(), function (b) {"
                          " if (b.width > 0) tops[Math.round(b.top)] = 1; });"
                          " return Object.keys(tops).length")
        if cmd.count("\n") < 3 or shown != cmd.count("\n") + 1:
            W.fail("french: the verify command's %d lines take %d on a phone:\n%s" % (cmd.count("\n") + 1, shown, cmd))
        if receipt not in fr.text("#turn-1 ul.versions"):
            W.fail("french: the page does not list the version of his receipt for comparison")
        cmd = cmd.replace("RECEIPT", receipt).replace("GAME-KEY", gamekey)
        # the versions the file holds, and his side's sheets as it holds
        # them, each said not to be his receipt
        fr.script("document.querySelector('#turn-1 ul.versions').scrollIntoView({block: 'center'})")
        shot(fr, "player-versions")
        if "Not your receipts" not in fr.text("#receipts"):
            W.fail("french: his side's sheets are not said to be the file's, not his receipts")
        fr.script("document.getElementById('receipts').scrollIntoView({block: 'center'})")
        shot(fr, "player-sheets-held")
        cookie = "; ".join("%s=%s" % (c["name"], c["value"]) for c in fr.cookies())
        dl = os.path.join(work, "download")
        os.makedirs(dl)
        hrefs = [fr.call("GET", "/element/%s/property/href" % e) for e in fr.finds("#turn-1 ul.files a")]
        for href in hrefs:
            fname = "quatre-bras-" + href.rsplit("/", 1)[1]
            req = W.urllib.request.Request(href, headers={"Cookie": cookie})
            with W.urllib.request.urlopen(req) as r:
                with open(os.path.join(dl, fname), "wb") as f:
                    f.write(r.read())
        words = W.command_words(cmd)
        if words[0] != "orderly" or words[1] != "verify":
            W.fail("the page's command is not 'orderly verify ...': %s" % cmd)
        for w in words:
            if w.endswith(".xml") or w.endswith(".head"):
                if not os.path.exists(os.path.join(dl, w)):
                    W.fail("the command names %s, which the page does not offer" % w)
        p = W.run_command(cmd, dl)
        print(p.stdout)
        if p.returncode != 0 or "verified: every check holds" not in p.stdout:
            W.fail("orderly verify failed (exit %d):\n%s%s" % (p.returncode, p.stdout, p.stderr))
        if "receipt %s" % receipt[:8] not in p.stdout and receipt not in p.stdout:
            W.fail("verify did not check the receipt:\n" + p.stdout)
        # after the exchange the allied sheet is in the bundle, as it should be
        with open(os.path.join(dl, "quatre-bras-turn-1.xml"), encoding="utf-8") as f:
            sheets = [base64.b64decode(m).decode("utf-8", "replace")
                      for m in re.findall(r'<sheet side="allied"[^>]*enc="base64">([^<]*)<', f.read())]
            if not any(CANARY in s for s in sheets):
                W.fail("the bundle after the exchange lacks the allied sheet")
        # turn 2 is open again
        fr.go(game + "/side/french")
        if "Your sheet for turn 2" not in fr.source():
            W.fail("french: turn 2 is not open for his sheet")
        # a phone's page must not scroll sideways
        wide = fr.script("return document.documentElement.scrollWidth > window.innerWidth + 1")
        if wide:
            W.fail("french: the phone page is wider than the screen")
        fr.go(game + "/side/french")
        shot(fr, "player-turn2-phone")
        # the chart on a phone: drawn at its own size, its labels as large
        # as it made them (shrunk to the screen they were 4 px high), in a
        # box that scrolls sideways while the page does not
        fr.script("document.querySelector('figure.chart').scrollIntoView()")
        chart = fr.script("var i = document.querySelector('figure.chart img'), b = i.getBoundingClientRect(),"
                          " s = i.closest('.scroll');"
                          " return [b.width, Number(i.getAttribute('width')), s.scrollWidth > s.clientWidth,"
                          " document.documentElement.scrollWidth > window.innerWidth + 1];")
        if not (chart[1] > 390 and abs(chart[0] - chart[1]) < 1 and chart[2] and not chart[3]):
            W.fail("french: the chart on a phone is not at its own size in a box that scrolls "
                   "(drawn %.0f px of %d, box scrolls %r, page wider than the screen %r)" % tuple(chart))
        shot(fr, "player-chart-phone")
        ref.go(game + "/referee")
        shot(ref, "referee-turn2-tablet")

        # a side with a key signs his sheet on his own machine and gives the
        # page its nonce and signature: a Check with them is refused unread
        # (a signed sheet is one he commits to), Submit takes them
        keyf = os.path.join(work, "french.key")
        W.run("keygen", keyf)
        with open(keyf + ".pub", encoding="utf-8") as f:
            pk = re.search(r"public: ([0-9a-f]{64})", f.read()).group(1)
        with open(W.SCENARIO, encoding="utf-8") as f:
            sc, nsub = re.subn(r'(<side id="french"[^>]*?)(/?>)', r'\1 pubkey="%s"\2' % pk, f.read(), count=1)
        if nsub != 1:
            W.fail("cannot give the french side a key in %s" % W.SCENARIO)
        with open(os.path.join(work, "signed.xml"), "w", encoding="utf-8") as f:
            f.write(sc)
        W.make_game(games, "signed", os.path.join(work, "signed.xml"))
        headf = os.path.join(work, "signed-open-1.head")
        with W.urllib.request.urlopen(base + "g/signed/head/open-1.head") as r, open(headf, "wb") as f:
            f.write(r.read())
        sheetf = os.path.join(W.DEMO, "turn1-french.txt")
        signed = W.run("sign", "--head", headf, "--side", "french", "--key", keyf, sheetf).stdout
        nonce = re.search(r"^nonce: ([0-9a-f]{64})$", signed, re.M).group(1)
        sig = re.search(r"^signature: ([0-9a-f]{128})$", signed, re.M).group(1)
        fr.go(base + "g/signed/login?side=french#" + urllib.parse.quote(W.PASS["french"]))
        fr.submit("form.login button[type=submit]")
        if not fr.wait_url("/side/french"):
            W.fail("french: not on his page of the signed game: %s" % fr.url())
        if "Your side has a key" not in fr.text("fieldset.signed"):
            W.fail("french: the page of a side with a key asks for no signature")
        for box, value in (("#sheet-text", W.demo_sheet(1, "french")), ("#nonce", nonce), ("#signature", sig)):
            fr.type(box, value)
        fr.submit('button[value="check"]')
        res = fr.text("main")
        if ("Not checked" not in res or "Check takes no signature" not in res or
                "No order could be read" in res or "Checked:" in res):
            W.fail("french: a Check with a signature was not refused unread:\n" + res[:1500])
        shot(fr, "player-signed-check-refused")
        for box, value in (("#nonce", nonce), ("#signature", sig)):
            fr.type(box, value)
        fr.submit('button[value="submit"]')
        if len(fr.text("#receipt .commitment").strip()) != 64:
            W.fail("french: no receipt for his signed sheet:\n" + fr.text("main")[:1500])
        if "french       submitted (version 1)" not in W.run("info", os.path.join(games, "signed.orderly")).stdout:
            W.fail("french: his signed sheet is not stored")
        shot(fr, "player-signed-receipt")

        # the referee's card of the logins refused, on a tablet and a
        # phone: strangers gave 20 wrong passphrases for the allied side of
        # another game, 10 from each of two addresses; the card says who,
        # for how long, and what the referee can do, with the command that
        # gives the side a new passphrase (it said "register a new
        # passphrase (orderly register)" and no more), each of its lines
        # whole on a phone
        W.make_game(games, "locked")
        codes = [wrong_login(base, "locked", "allied", ip, "guess %d" % i)
                 for ip in ("127.0.0.2", "127.0.0.3") for i in range(10)]
        if codes != [403] * 20:
            W.fail("20 wrong passphrases for the allied side: %r" % codes)
        command = "orderly register locked.orderly \\\n  --side allied \\\n  --passphrase-file -"
        refp = drv.session("referee-phone-locked", 390, 844, mobile=True)
        sessions.append(refp)
        for s, how in ((ref, "tablet"), (refp, "phone")):
            s.go(base + "g/locked/login?side=referee")
            s.type("#passphrase", W.PASS["referee"])
            s.submit("form.login button[type=submit]")
            if not s.wait_url("/g/locked/referee"):
                W.fail("referee: not on the page of the game 'locked': %s" % s.url())
            card = s.text("#locked")
            if (not re.search(r"allied\s*: 20 wrong passphrases in 10 minutes", card) or
                    "What you can do" not in card or s.text("#locked pre.command") != command):
                W.fail("referee (%s): the card of the logins refused does not say who and what "
                       "to do:\n%s" % (how, card))
            if lines_shown(s, "#locked pre.command code") != command.count("\n") + 1:
                W.fail("referee (%s): a line of the register command is broken in two" % how)
            out = s.script(OVERFLOW_JS, ["#locked"])
            if out:
                W.fail("referee (%s): the card of the logins refused does not fit: %s" % (how, "; ".join(out)))
            s.script("document.getElementById('locked').scrollIntoView()")
            shot(s, "referee-logins-refused-" + how)
        refp.quit()
        sessions.remove(refp)

        # a player at a laptop, his browser's clock in New York: the
        # deadline (and the grace's end) in UTC as the page gives it, and in
        # his own time beside it (the script)
        lap = W.make_game(games, "laptop")
        W.run("schedule", lap, "every", "48h", "at", "18:00", "in", "UTC", "grace", "1h")
        W.run("deadline", lap, "2030-12-10T18:00Z")
        desk.timezone("America/New_York")
        desk.go(base + "g/laptop/login?side=french#" + urllib.parse.quote(W.PASS["french"]))
        desk.submit("form.login button[type=submit]")
        if not desk.wait_url("/side/french"):
            W.fail("french at a laptop: not on his page: %s" % desk.url())
        line = desk.text("p.turnline")
        times = desk.script("return Array.from(document.querySelectorAll('p.turnline time'), function (t) {"
                            " var l = t.nextElementSibling; return [t.getAttribute('datetime'), t.textContent,"
                            " l && l.className == 'local' ? l.textContent : null]; })")
        if (times != [["2030-12-10T18:00:00Z", "Tue 10 Dec 2030, 18:00 UTC", times[0][2]],
                      ["2030-12-10T19:00:00Z", "Tue 10 Dec 2030, 19:00 UTC", times[1][2]]] or
                not re.search(r"^ \(your time: .*\b(13:00|0?1:00\sPM)\b.*\)$", times[0][2] or "") or
                not re.search(r"^ \(your time: .*\b(14:00|0?2:00\sPM)\b.*\)$", times[1][2] or "")):
            W.fail("french at a laptop in New York: the deadline is not given in his time too "
                   "(13:00, the grace's end 14:00):\n%s\n%r" % (line, times))
        # Tab then Enter in the sheet's box does not hand a half sheet in:
        # without the script the first button after the box is Check (it
        # stores nothing); with it, Submit pressed from the keyboard a
        # moment after typing asks first, its first button keeping the
        # text in the box
        desk.type("#sheet-text", "F1: ↑ 1/2\nF2: ↑")
        desk.keys(W.TAB)
        if desk.script("return document.activeElement.value") != "check":
            W.fail("french at a laptop: Tab from the sheet's box goes to %r, not to Check" %
                   desk.script("return document.activeElement.outerHTML"))
        desk.click("#sheet-text")
        before = desk.url()
        desk.keys(W.TAB, W.TAB, W.ENTER)
        time.sleep(1)
        stored = W.run("info", lap).stdout
        if (desk.url() != before or not desk.finds("#submit-ask") or "french       not submitted" not in stored or
                desk.script("return document.activeElement.textContent") != "Keep writing"):
            W.fail("french at a laptop: Tab, Tab, Enter after typing submitted, or did not ask "
                   "with Keep writing first: %s %s\n%s" % (desk.url(), desk.text("main")[:300], stored))
        desk.script("document.getElementById('submit-ask').scrollIntoView({block: 'center'})")
        shot(desk, "laptop-submit-asked")
        desk.keys(W.ENTER)
        time.sleep(0.5)
        if (desk.finds("#submit-ask") or desk.script("return document.activeElement.id") != "sheet-text" or
                desk.attr("#sheet-text", "value") != "F1: ↑ 1/2\nF2: ↑" or desk.url() != before):
            W.fail("french at a laptop: Keep writing did not go back to the box, text kept")
        # the sheet finished; Submit from the keyboard at once: asked, and
        # "Submit it" stores it
        desk.type("#sheet-text", " 1/2\n", clear=False)
        desk.keys(W.TAB, W.TAB, W.ENTER)
        if not desk.finds("#submit-ask"):
            W.fail("french at a laptop: Submit from the keyboard right after typing did not ask")
        desk.submit("#submit-ask button.go")
        if desk.text("#receipt .version").strip() != "1" or \
                "french       submitted (version 1)" not in W.run("info", lap).stdout:
            W.fail("french at a laptop: Submit it did not store his sheet: " + desk.text("main")[:300])
        # the receipt's time too, in UTC and in his own time beside it
        stored = desk.script("var t = document.querySelector('#receipt dd time.utc');"
                             " var l = t && t.nextElementSibling;"
                             " return t ? [t.getAttribute('datetime'), t.textContent,"
                             " l && l.className == 'local' ? l.textContent : null] : null;")
        if (not stored or not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", stored[0]) or
                stored[1] != stored[0] or not re.search(r"^ \(your time: .*\)$", stored[2] or "")):
            W.fail("french at a laptop in New York: the receipt's time is not given in his time "
                   "too: %r" % (stored,))
        # a while after the last keystroke Submit from the keyboard is his
        # deliberate act: not asked
        desk.go(base + "g/laptop/side/french")
        desk.type("#sheet-text", "F1: ↑ 1/2\nF2: ↑ 1/2\nF3: ↑ 1/2\n")
        time.sleep(3.5)
        desk.keys(W.TAB, W.TAB)
        old = desk.find("html")
        desk.keys(W.ENTER)
        for _ in range(100):
            try:
                desk.call("GET", "/element/%s/name" % old)
            except W.WebDriverError:
                break
            time.sleep(0.1)
        if desk.text("#receipt .version").strip() != "2":
            W.fail("french at a laptop: Submit from the keyboard a while after typing was not "
                   "stored: " + desk.text("main")[:300])

        # a Krigsspil side's map as the browser draws it (the SVG image, its
        # text at the size its boxes were made for)
        W.make_game(games, "sehested", os.path.join(W.KS_DEMO, "scenario.xml"),
                    sides=("danske", "allierede"), extra=("--tables", os.path.join(W.KS_DEMO, "map.xml")))
        desk.go(base + "g/sehested/login?side=danske#" + urllib.parse.quote(W.PASS["danske"]))
        desk.submit("form.login button[type=submit]")
        if not desk.wait_url("/side/danske"):
            W.fail("danske: not on his page after logging in: %s" % desk.url())
        desk.script("document.getElementById('pictures').scrollIntoView()")
        shot(desk, "krigsspil-map-danske", "#pictures figure")
        # the referee's map at the table: right after the phase's forms,
        # the report folded below it (it is thousands of lines)
        ks = os.path.join(games, "sehested.orderly")
        for side in ("danske", "allierede"):
            W.run("submit", ks, "--side", side, os.path.join(W.KS_DEMO, "demo", "turn1-%s.txt" % side))
        W.run("seal", ks)
        ref.go(base + "g/sehested/login?side=referee")
        ref.type("#passphrase", W.PASS["referee"])
        ref.submit("form.login button[type=submit]")
        if not ref.wait_url("/referee"):
            W.fail("referee: not on the sehested referee page: %s" % ref.url())
        order = ref.script("var p = document.getElementById('phase'), m = document.getElementById('pictures'),"
                           " r = document.getElementById('report');"
                           " return [!!(p.compareDocumentPosition(m) & 4), !!(m.compareDocumentPosition(r) & 4),"
                           " r.querySelector('details').open];")
        if order != [True, True, False]:
            W.fail("referee: the map is not between the forms and a folded report: %r" % order)
        ref.click("#phase a.jump")
        shot(ref, "krigsspil-referee-map")
        # the event forms' help in Danish, the ruleset's first language, and
        # in English (the page's "What the forms say, in: da en"), on the
        # tablet: marked Danish, its letters (æ ø å) as written, the kinds'
        # wrapped lines under their names, each row's keys and boxes level,
        # nothing out of the card
        for lang, said, hint in (("da", "da en", "enheden der ikke kan reorganisere i dette træk"),
                                 ("en", "da en", "the unit that cannot reorganise this turn")):
            ref.go(base + "g/sehested/referee?lang=%s#record" % lang)
            ref.script("document.querySelectorAll('#phase details.event').forEach(function (d) { d.open = true; });"
                       " var h = document.getElementById('record');"
                       " window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 90)")
            laid = ref.script(FORMS_JS, ["#phase"])
            marked = ref.script("return Array.from(document.querySelectorAll('#phase .hint, #phase summary .muted'))"
                                ".map(function (e) { return e.lang; })")
            if (ref.text("#phase p.langs") != "What the forms say, in: " + said or
                    hint not in ref.text("#kind-forstyrret") or laid["rows"] or laid["summaries"] or
                    set(marked) != {"da" if lang == "da" else ""} or ref.script(OVERFLOW_JS, ["#phase"])):
                W.fail("referee: the krigsspil event forms in %s are not laid out or marked as they should: "
                       "%r %r %r %r" % (lang, ref.text("#phase p.langs"), laid, set(marked),
                                        ref.script(OVERFLOW_JS, ["#phase"])))
            shot(ref, "krigsspil-referee-forms-" + lang)
    finally:
        for s in sessions:
            s.quit()
        drv.quit()
        rc = srv.stop()
    if rc != 0:
        W.fail("orderly serve exited %d on SIGTERM" % rc)
    print("screenshots: %d in %s" % (n[0], shots))
    if os.environ.get("SHOTS"):  # the screenshots are elsewhere; kept when the test fails
        W.shutil.rmtree(work, ignore_errors=True)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
