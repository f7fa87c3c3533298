#!/usr/bin/env python3
"""`kyobo serve` in a real browser: headless Chromium driven by chromedriver
(WebDriver), with clicks and drags, as a person uses the page.

It starts `kyobo serve --port 0` in an empty folder (so Dobutsu is played by
the search) and chromedriver, then:

1. Shogi: moves by click (the legal destinations are highlighted) and by drag,
   an illegal move refused with its reason, a take-back, a second game refused
   while one runs, the engine's evaluation, depth and line shown as it thinks,
   a resignation, the KIF record the download link gives.
2. A promotion from a position (SFEN): the page asks, the answer is played.
3. Dobutsu shogi: a whole game by clicks (the person plays the first legal
   move each turn) until the page announces its end.
4. Review: a corrupt record refused with its reason, a record opened through
   the file input, stepped through, analysed with a progress bar, the graph
   clicked to jump to a move.

Everything the page loads must come from the server. Screenshots of the three
views go to --png-dir (docs/ by default; `--png-dir ''` takes none).

    apt-get install chromium chromium-driver fonts-noto-cjk
    python3 tools/check_serve.py [--kyobo target/release/kyobo] [--png-dir docs]
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
RECORD = os.path.join(ROOT, "crates/records/tests/fixtures/cshogi/game02.kif")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class Browser:
    """A WebDriver session: the few commands the check needs."""

    def __init__(self, driver_url, chromium):
        self.base = driver_url
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions",
                # Anything not on this machine goes to a dead proxy: the page must not need it.
                "--proxy-server=127.0.0.1:9"]}}}}
        self.session = self.cmd("POST", "/session", caps)["sessionId"]

    def cmd(self, method, path, body=None):
        url = self.base + (path if path.startswith("/session") and not hasattr(self, "session")
                           else f"/session/{self.session}{path}")
        status, raw = http(method, url, body if body is not None else ({} if method == "POST" else None))
        value = json.loads(raw or b"{}").get("value")
        if status != 200:
            raise Failure(f"webdriver {method} {path}: {status} {value}")
        return value

    def quit(self):
        try:
            http("DELETE", f"{self.base}/session/{self.session}")
        except OSError:
            pass

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self.cmd("POST", f"/element/{self.find(css)}/click")

    def text(self, css):
        return self.cmd("GET", f"/element/{self.find(css)}/text")

    def type_into(self, css, text):
        self.cmd("POST", f"/element/{self.find(css)}/value", {"text": text})

    def choose(self, select_id, value):
        self.click(f"#{select_id} option[value='{value}']")

    def centre(self, css):
        box = self.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                      "return [r.left + r.width / 2, r.top + r.height / 2];", css)
        return int(box[0]), int(box[1])

    def drag(self, from_css, to_css):
        """Press on one element, move to another and let go (the page redraws
        the board on the press, so the points are taken first)."""
        (x0, y0), (x1, y1) = self.centre(from_css), self.centre(to_css)
        self.cmd("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "origin": "viewport", "x": x0, "y": y0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "origin": "viewport", "x": x1, "y": y1, "duration": 200},
                {"type": "pointerUp", "button": 0}]}]})
        self.cmd("DELETE", "/actions")

    def click_at(self, css, x, y):
        """A click `x`, `y` pixels from the element's centre."""
        element = self.find(css)
        self.cmd("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "origin": {ELEMENT: element}, "x": x, "y": y},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})
        self.cmd("DELETE", "/actions")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.cmd("GET", "/screenshot")))

    def wait(self, what, script, *args, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.js(script, *args)
            if value:
                return value
            time.sleep(0.1)
        raise Failure(f"waited {timeout} s for {what}")


def game_state(b):
    return b.js("return game;")


def my_turn(b, plies=0):
    """The game once it is the person's turn (or over) with at least `plies` played."""
    return b.wait(f"the person's turn after {plies} plies",
                  "return game && (game.over || (game.moves.length >= arguments[0]"
                  " && !game.thinking && game.to_move === game.human)) ? game : null;", plies)


def moves_listed(b):
    return b.js("return [...document.querySelectorAll('#moves li')].map(li => li.textContent);")


def start_game(b, variant):
    """A new game of `variant` through the form: the person plays Black, the
    engine 0.3 s a move."""
    b.choose("variant", variant)
    b.choose("side", "black")
    b.choose("movetime", "300")
    b.click("#start")
    b.wait(f"a {variant} game", "return game && game.variant === arguments[0];", variant)


def play_shogi(b, png_dir):
    start_game(b, "shogi")
    # By clicks: the pawn, its one destination highlighted, then the destination.
    b.click("rect[data-sq='7g']")
    targets = b.js("return document.querySelectorAll('#board .target').length;")
    check(targets == 1, f"7g's pawn shows {targets} destinations, not 1")
    b.click("rect[data-sq='7f']")
    my_turn(b, 2)
    listed = moves_listed(b)
    check(len(listed) == 2 and listed[0] == "▲７六歩", f"moves after 7g7f: {listed}")
    # An illegal move: the page gives the rule and the board stays.
    b.click("rect[data-sq='2g']")
    b.click("rect[data-sq='2e']")
    b.wait("the refusal", "return document.getElementById('message').textContent.includes('cannot move there');")
    check(len(moves_listed(b)) == 2, "an illegal move changed the record")
    # By drag.
    b.drag("rect[data-sq='2g']", "rect[data-sq='2f']")
    b.wait("the dragged move and the reply",
           "return game.moves.length === 4 && !game.thinking;")
    check(moves_listed(b)[2] == "▲２六歩", f"the drag played {moves_listed(b)}")
    # The engine's thoughts were shown.
    depth = b.text("#think-depth")
    check(depth not in ("", "–"), f"no depth shown: {depth!r}")
    check(b.text("#think-pv").startswith("△"), f"no line shown: {b.text('#think-pv')!r}")
    bar = b.js("return document.getElementById('evalfill').style.height;")
    check(bar.endswith("%"), f"the evaluation bar: {bar!r}")
    # Take back: the person's move and the reply.
    b.click("#undo")
    b.wait("the take-back", "return game.moves.length === 2;")
    b.click("rect[data-sq='2g']")
    b.click("rect[data-sq='2f']")
    my_turn(b, 4)
    b.click("rect[data-sq='6i']")
    b.click("rect[data-sq='7h']")
    my_turn(b, 6)
    # A second game while this one runs.
    b.click("#start")
    b.wait("the refusal of a second game",
           "return document.getElementById('message').textContent.includes('a game is in progress');")
    if png_dir:
        b.screenshot(os.path.join(png_dir, "serve-play.png"))
    href = b.js("return document.getElementById('download-kif').href;")
    status, body = http("GET", href)
    text = body.decode("shift_jis")
    check(status == 200 and "先手：You" in text and "７六歩(77)" in text, f"the KIF record: {text[:300]}")
    b.click("#resign")
    b.wait("the resignation", "return game.over && document.getElementById('status').textContent.startsWith('Kyobo wins: you resigned');")


def promotion(b):
    b.choose("variant", "shogi")
    b.type_into("#sfen", "4k4/9/9/6S2/9/9/9/9/4K4 b - 1")
    b.click("#start")
    b.wait("the position", "return game && !game.over && game.sfen.startsWith('4k4/9/9/6S2');")
    b.click("rect[data-sq='3d']")
    b.click("rect[data-sq='3c']")
    b.wait("the question", "return !document.getElementById('promote').hidden;")
    b.click("#promote-yes")
    b.wait("the promoted silver", "return game.moves.length >= 1;")
    check(game_state(b)["moves"][0]["text"] == "▲３三銀成", f"promotion: {game_state(b)['moves']}")
    my_turn(b, 2)
    b.click("#resign")
    b.wait("the resignation", "return game.over;")
    b.js("document.getElementById('sfen').value = '';")


def play_dobutsu(b, png_dir):
    start_game(b, "dobutsu")
    pictures = b.js("return [...document.querySelectorAll('#board .animal-text')].map(t => t.textContent);")
    check(sorted(set(pictures)) == ["キリン", "ゾウ", "ヒヨコ", "ライオン"], f"the animals: {pictures}")
    plies = 0
    for ply in range(200):
        g = my_turn(b, plies)
        if g["over"]:
            break
        move = g["legal"][0]
        if move[1] == "*":
            b.click(f"g[data-hand='{g['human']}:{move[0]}'] rect")
            b.click(f"rect[data-sq='{move[2:4]}']")
        else:
            b.click(f"rect[data-sq='{move[0:2]}']")
            b.click(f"rect[data-sq='{move[2:4]}']")
        b.wait(f"move {move} played", "return game.moves.length > arguments[0];", len(g["moves"]))
        plies = len(g["moves"]) + 2
        if ply == 1 and png_dir:
            my_turn(b, plies)
            b.screenshot(os.path.join(png_dir, "serve-dobutsu.png"))
    status = b.text("#status")
    check(game_state(b)["over"] is not None and (status.startswith("Kyobo wins") or status.startswith("You win")
                                                 or status.startswith("A draw")), f"the end: {status!r}")
    return status


def review(b, png_dir, scratch):
    b.click("#tab-review")
    broken = os.path.join(scratch, "broken.kif")
    with open(broken, "w", encoding="utf-8") as f:
        f.write("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７六歩(77)\n")
    b.type_into("#record-file", broken)
    b.wait("the refusal", "return document.getElementById('review-message').textContent.includes('broken.kif: line 3');")
    b.js("document.getElementById('record-file').value = '';")
    b.type_into("#record-file", RECORD)
    b.wait("the record", "return review && review.name === 'game02.kif';")
    n = b.js("return review.plies.length;")
    listed = b.js("return document.querySelectorAll('#review-moves li').length;")
    check(listed == n and n > 10, f"{listed} moves listed of {n}")
    for _ in range(3):
        b.click("#next")
    check(b.text("#ply-label") == f"3 / {n}", f"after three steps: {b.text('#ply-label')}")
    b.choose("depth", "10")
    b.click("#analyse")
    b.wait("the analysis", "return review.analysis && document.getElementById('progress-text').textContent === 'analysed';",
           timeout=600)
    progress = b.js("const p = document.getElementById('progress'); return [p.value, p.max];")
    check(progress[0] == progress[1] == n, f"the progress bar: {progress}")
    check(b.js("return !!document.getElementById('graph-line');"), "no graph")
    marks = b.js("return document.querySelectorAll('#graph .graph-mark').length;")
    # A click three quarters of the way along the graph: that move is shown.
    width = b.js("return document.getElementById('graph').getBoundingClientRect().width;")
    left, right, full = 34, 8, 640
    x_view = left + 0.75 * (full - left - right)
    b.click_at("#graph", int(round(x_view / full * width - width / 2)), 0)
    ply = b.js("return reviewPly;")
    check(abs(ply - round(0.75 * n)) <= 1, f"the graph click went to move {ply}, not about {0.75 * n:.0f}")
    check(b.text("#ply-label") == f"{ply} / {n}", "the label did not follow the graph")
    check(b.text("#review-comment").startswith(f"{ply}. "), f"comment: {b.text('#review-comment')!r}")
    if png_dir:
        b.screenshot(os.path.join(png_dir, "serve-review.png"))
    return n, marks


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kyobo", default=os.path.join(ROOT, "target/release/kyobo"))
    p.add_argument("--png-dir", default=os.path.join(ROOT, "docs"))
    p.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    p.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    args = p.parse_args()
    if not args.chromium or not args.chromedriver:
        sys.exit("needs Chromium and chromedriver: apt-get install chromium chromium-driver fonts-noto-cjk")
    kyobo = os.path.abspath(args.kyobo)
    png_dir = os.path.abspath(args.png_dir) if args.png_dir else ""
    scratch = tempfile.mkdtemp(prefix="kyobo-serve-")
    server = driver = browser = None
    try:
        server = subprocess.Popen([kyobo, "serve", "--port", "0", "--hash", "16"], cwd=scratch,
                                  stdout=subprocess.PIPE, text=True)
        url = server.stdout.readline().split()[-1]
        check(url.startswith("http://127.0.0.1:"), f"the server said {url!r}")
        port = free_port()
        driver = subprocess.Popen([args.chromedriver, f"--port={port}"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while True:
            try:
                if http("GET", f"http://127.0.0.1:{port}/status")[0] == 200:
                    break
            except OSError:
                pass
            check(time.time() < deadline, "chromedriver did not start")
            time.sleep(0.2)
        browser = Browser(f"http://127.0.0.1:{port}", args.chromium)
        browser.go(url)
        browser.wait("the page", "return document.body.dataset.ready === 'true';")
        play_shogi(browser, png_dir)
        print("shogi: clicks, a drag, an illegal move refused, take-back, resignation, KIF: ok")
        promotion(browser)
        print("promotion asked and played: ok")
        end = play_dobutsu(browser, png_dir)
        print(f"dobutsu: a whole game by clicks: {end}")
        n, marks = review(browser, png_dir, scratch)
        print(f"review: {n} moves stepped, analysed at depth 10 ({marks} marked), graph clicked: ok")
        origin = url.rstrip("/")
        fetched = browser.js("return performance.getEntriesByType('resource').map(e => e.name);")
        foreign = [u for u in fetched if not u.startswith(origin)]
        check(not foreign, f"the page fetched from elsewhere: {foreign}")
        check(server.poll() is None, "the server stopped")
        check(http("GET", url + "api/state")[0] == 200, "the server does not answer")
        if png_dir:
            print(f"screenshots: {png_dir}/serve-play.png, serve-dobutsu.png, serve-review.png")
        print("kyobo serve in Chromium: ok")
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        if browser:
            browser.quit()
        for proc in (driver, server):
            if proc:
                proc.kill()
                proc.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
