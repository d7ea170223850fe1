"""weblib.py - what the web tests share (tests/web, tests/bench/web_load.py):
making games in a temporary directory, starting `orderly serve` on a free
loopback port and stopping it, a small HTTP client with its own cookies that
reads CSRF tokens from forms, a W3C WebDriver client (plain HTTP to
chromedriver), and a PNG reader to tell a blank screenshot.  No framework:
the standard library only.
"""
import base64
import html
import http.cookiejar
import json
import os
import re
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

SRC = os.environ.get("SRC") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ORDERLY = os.path.abspath(os.environ.get("ORDERLY") or os.path.join(SRC, "build", "orderly"))
SCENARIO = os.path.join(SRC, "rulesets", "battalion", "examples", "scenario.xml")
DEMO = os.path.join(SRC, "rulesets", "battalion", "examples", "demo")
KS_DEMO = os.path.join(SRC, "rulesets", "krigsspil", "examples")

XSS = "<script>alert(1)</script>"
PASS = {"french": "vive l'empereur 1815", "allied": "hold the crossroads", "referee": "the umpire decides",
        "danske": "for konge og fædreland", "allierede": "wallmoden holds the line"}


def fail(msg):
    print("FAIL: %s" % msg, file=sys.stderr)
    sys.exit(1)


def run(*args, stdin=None, check=True):
    p = subprocess.run([ORDERLY] + list(args), input=stdin, capture_output=True, text=True)
    if check and p.returncode != 0:
        fail("orderly %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p


def command_words(cmd):
    """The words of a command a page shows, its lines joined as a shell
    joins those ending in a backslash."""
    return shlex.split(cmd.replace("\\\n", " "))


def run_command(cmd, cwd):
    """Run a command a page shows as a player pastes it into a shell (sh,
    its lines ending in backslashes), `orderly` in it being ORDERLY."""
    return subprocess.run(["sh", "-c", 'orderly() { "$ORDERLY_EXE" "$@"; }\n' + cmd], cwd=cwd,
                          env=dict(os.environ, ORDERLY_EXE=ORDERLY), capture_output=True, text=True)


def make_dir(prefix="orderly-web-"):
    return tempfile.mkdtemp(prefix=prefix)


def xss_scenario(dirname):
    """The battalion scenario with A10 renamed to the XSS canary."""
    with open(SCENARIO, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r'(<unit id="A10" name=")[^"]*"', r'\1&lt;script&gt;alert(1)&lt;/script&gt;"', text)
    if n != 1:
        fail("cannot rename unit A10 in %s" % SCENARIO)
    path = os.path.join(dirname, "scenario.xml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def make_game(games, name, scenario=None, passphrases=True, sides=("french", "allied"), extra=()):
    path = os.path.join(games, name + ".orderly")
    run("new", path, "--scenario", scenario or SCENARIO, *extra)
    if passphrases:
        for side in sides:
            run("register", path, "--side", side, "--passphrase-file", "-", stdin=PASS[side] + "\n")
        run("register", path, "--referee", "--passphrase-file", "-", stdin=PASS["referee"] + "\n")
    return path


def demo_sheet(turn, side):
    with open(os.path.join(DEMO, "turn%d-%s.txt" % (turn, side)), encoding="utf-8") as f:
        return f.read()


class Server:
    """`orderly serve DIR` on a free loopback port (--listen 127.0.0.1:0,
    or [::1]:0)."""

    def __init__(self, games, extra=(), threads=None, prefix=(), exe=None, listen="127.0.0.1:0", env=None):
        """prefix: a command the server runs under (another user's);
        exe: the orderly binary, when not ORDERLY; listen: its --listen;
        env: its environment, when not this one's."""
        args = list(prefix) + [exe or ORDERLY, "serve", games, "--listen", listen] + list(extra)
        if threads:
            args += ["--threads", str(threads)]
        self.log = open(os.path.join(os.path.dirname(games.rstrip("/")), "serve.log"), "w")
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        line = self.p.stdout.readline()
        m = re.search(r"at (https?://\S+/)", line or "")
        if not m:
            self.stop()
            fail("orderly serve did not start: %r (see %s)" % (line, self.log.name))
        self.url = m.group(1)

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.log.close()
        return self.p.returncode


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Client:
    """One browser's worth of HTTP: its cookies, the last page's CSRF token."""

    def __init__(self, base, follow=True, context=None, jar=None):
        self.base = base
        self.jar = jar if jar is not None else http.cookiejar.CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.jar)]
        if not follow:
            handlers.append(NoRedirect())
        if context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)
        self.csrf = None

    def request(self, path, data=None, headers=None):
        """(status, headers, body text); never raises on an HTTP status."""
        url = path if path.startswith("http") else self.base + path.lstrip("/")
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(url, data=body, headers=headers or {})
        try:
            with self.opener.open(req, timeout=60) as r:
                status, hdrs, raw = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            status, hdrs, raw = e.code, e.headers, e.read()
        text = raw.decode("utf-8", "replace")
        m = re.search(r'name="csrf" value="([0-9a-f]+)"', text)
        if m:
            self.csrf = m.group(1)
        return status, hdrs, text

    def get(self, path):
        return self.request(path)

    def post(self, path, fields, csrf=True, headers=None):
        data = dict(fields)
        if csrf and "csrf" not in data:
            data["csrf"] = self.csrf or ""
        return self.request(path, data, headers)

    def login(self, game, party):
        self.get("/g/%s/login?side=%s" % (game, party))
        st, _, text = self.post("/g/%s/login" % game, {"side": party, "passphrase": PASS[party]})
        if st != 200 or "Log out" not in text:
            fail("login of %s to %s: status %d" % (party, game, st))
        return text


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def text_of(page):
    """The visible text of an HTML page, roughly (tags out, entities decoded)."""
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


# ---- W3C WebDriver, through chromedriver ----

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
TAB, ENTER = "\ue004", "\ue007"  # WebDriver's key codes


class WebDriverError(Exception):
    pass


class Driver:
    """chromedriver on a free port; sessions are made with session()."""

    def __init__(self, workdir):
        exe = shutil.which("chromedriver")
        browser = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe or not browser:
            fail("chromium and chromedriver are needed (scripts/deps installs them: "
                 "apt-get install chromium chromium-driver)")
        self.browser = browser
        self.workdir = workdir
        self.port = free_port()
        self.log = open(os.path.join(workdir, "chromedriver.log"), "w")
        self.p = subprocess.Popen([exe, "--port=%d" % self.port], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = "http://127.0.0.1:%d" % self.port
        for _ in range(100):
            try:
                self.call("GET", "/status")
                return
            except Exception:
                time.sleep(0.1)
        fail("chromedriver did not start (see %s)" % self.log.name)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                out = json.loads(r.read().decode())
        except urllib.error.HTTPError as e:
            out = json.loads(e.read().decode() or "{}")
            raise WebDriverError("%s %s: %s" % (method, path, out.get("value", out)))
        return out.get("value")

    def session(self, name, width, height, mobile=False):
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                "--user-data-dir=" + os.path.join(self.workdir, "profile-" + name),
                "--window-size=%d,%d" % (width, height), "--lang=en-GB"]
        opts = {"binary": self.browser, "args": args}
        if mobile:
            opts["mobileEmulation"] = {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2,
                                                         "touch": True},
                                       "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) "
                                                    "AppleWebKit/537.36 (KHTML, like Gecko) "
                                                    "Chrome/120 Mobile Safari/537.36"}
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": opts,
                                                 "pageLoadStrategy": "normal"}}}
        v = self.call("POST", "/session", caps)
        return Session(self, v["sessionId"], name)

    def quit(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
        self.log.close()


class Session:
    def __init__(self, driver, sid, name):
        self.d = driver
        self.sid = sid
        self.name = name

    def call(self, method, path, body=None):
        return self.d.call(method, "/session/%s%s" % (self.sid, path), body)

    def go(self, url):
        self.call("POST", "/url", {"url": url})

    def url(self):
        return self.call("GET", "/url")

    def wait_url(self, part, wait=10.0):
        end = time.time() + wait
        while part not in self.url():
            if time.time() > end:
                return False
            time.sleep(0.1)
        return True

    def source(self):
        return self.call("GET", "/source")

    def find(self, css, wait=5.0):
        end = time.time() + wait
        while True:
            try:
                return self.call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]
            except WebDriverError:
                if time.time() > end:
                    raise WebDriverError("%s: no element %r on %s" % (self.name, css, self.url()))
                time.sleep(0.1)

    def finds(self, css):
        return [e[ELEMENT] for e in self.call("POST", "/elements", {"using": "css selector", "value": css})]

    def click(self, css):
        self.call("POST", "/element/%s/click" % self.find(css), {})

    def submit(self, css, wait=30.0):
        """Click css and wait until a new page replaced this one."""
        old = self.find("html")
        self.click(css)
        end = time.time() + wait
        while time.time() < end:
            try:
                self.call("GET", "/element/%s/name" % old)
            except WebDriverError:
                self.find("body")
                return
            time.sleep(0.05)
        raise WebDriverError("%s: clicking %s did not load a page" % (self.name, css))

    def type(self, css, text, clear=True):
        e = self.find(css)
        if clear:
            self.call("POST", "/element/%s/clear" % e, {})
        self.call("POST", "/element/%s/value" % e, {"text": text})

    def keys(self, *keys):
        """Press keys (WebDriver's codes: TAB, ENTER) one after the other at
        the element that has the focus, as a keyboard does."""
        acts = []
        for k in keys:
            acts += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        self.call("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": acts}]})
        self.call("DELETE", "/actions")

    def timezone(self, zone):
        """The zone the browser's clock is in (a tz database name)."""
        self.call("POST", "/goog/cdp/execute", {"cmd": "Emulation.setTimezoneOverride",
                                                "params": {"timezoneId": zone}})

    def select(self, css, value):
        self.click('%s option[value="%s"]' % (css, value))

    def text(self, css):
        return self.call("GET", "/element/%s/text" % self.find(css))

    def attr(self, css, name):
        return self.call("GET", "/element/%s/property/%s" % (self.find(css), name))

    def cookies(self):
        return self.call("GET", "/cookie")

    def script(self, js, args=None):
        return self.call("POST", "/execute/sync", {"script": js, "args": args or []})

    def alert_open(self):
        try:
            self.call("GET", "/alert/text")
            return True
        except WebDriverError:
            return False

    def images_in_view(self, wait=30.0):
        """Wait until every picture in the window has loaded (the pictures
        load lazily, and a picture made by a slow build may come after the
        page); fail when one cannot be shown (a broken image).  A picture
        in a folded <details> is not shown, and a lazy one not loaded."""
        js = ("return Array.from(document.images).filter(function (i) {"
              " var r = i.getBoundingClientRect();"
              " return r.bottom > 0 && r.top < window.innerHeight && r.width > 0 &&"
              " !i.closest('details:not([open])'); })"
              ".map(function (i) { return [i.currentSrc || i.src, i.complete, i.naturalWidth]; });")
        end = time.time() + wait
        while True:
            imgs = self.script(js)
            if all(done for _, done, _ in imgs):
                break
            if time.time() > end:
                fail("%s: pictures still loading after %.0f s: %s" % (
                    self.name, wait, [src for src, done, _ in imgs if not done]))
            time.sleep(0.2)
        broken = [src for src, _, width in imgs if not width]
        if broken:
            fail("%s: pictures that cannot be shown on %s: %s" % (self.name, self.url(), broken))

    def screenshot(self, path, css=None):
        self.images_in_view()
        if css:
            png = self.call("GET", "/element/%s/screenshot" % self.find(css))
        else:
            png = self.call("GET", "/screenshot")
        raw = base64.b64decode(png)
        with open(path, "wb") as f:
            f.write(raw)
        check_not_blank(path)
        return path

    def quit(self):
        try:
            self.call("DELETE", "")
        except Exception:
            pass


# ---- PNG: is a screenshot blank? ----

def png_pixels(path):
    """(width, height, channels, rows of bytes) of an 8-bit non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + n
    if w is None or depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        fail("%s: a PNG this reader does not know" % path)
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, ch, rows


def check_not_blank(path):
    """A screenshot shows something: many colours, and no one colour fills it."""
    w, h, ch, rows = png_pixels(path)
    counts = {}
    for y in range(0, h, 3):
        row = rows[y]
        for x in range(0, w, 3):
            px = row[x * ch:(x + 1) * ch]
            counts[px] = counts.get(px, 0) + 1
    total = sum(counts.values())
    top = max(counts.values())
    if len(counts) < 16 or top > 0.97 * total:
        fail("%s looks blank: %d colours, the commonest on %.1f%% of it" % (path, len(counts), 100.0 * top / total))
    return len(counts)
