#!/usr/bin/env python3
"""kyobo analyse's HTML report, rendered in a real browser: headless Chromium.

Analyses a record with `kyobo analyse --html`, has headless Chromium (the Debian
package `chromium`; `fonts-noto-cjk` draws the kanji) load the file with no network
and dump the document it built, and checks it: a title, the two evaluation graphs,
one board diagram per critical moment (each with 40 pieces and the last move's
squares), a row for every move, no script and nothing fetched from outside. Then
takes a screenshot of the page (docs/analyse-report.png for the README).

    apt-get install chromium fonts-noto-cjk
    python3 tools/check_report.py [--kyobo target/release/kyobo]
        [--record crates/records/tests/fixtures/cshogi/game04.kif] [--depth 10]
        [--png docs/analyse-report.png]
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("no Chromium: apt-get install chromium fonts-noto-cjk")


def browser(args, url, *extra):
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--disable-extensions", "--proxy-server=127.0.0.1:9",
           *extra, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, check=True)


def pieces_on(board):
    """Pieces on a board diagram and in its hands (0 without both kings)."""
    on_board = re.findall(r'class="piece[^"]*"[^>]*>(.)</text>', board)
    if "玉" not in on_board or "王" not in on_board:
        return 0
    total = len(on_board)
    for hand in re.findall(r'class="hand">[☗☖]持駒 (.*?)</text>', board):
        for token in hand.split():
            if token != "なし":
                total += int(token[1:] or 1)
    return total


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kyobo", default=os.path.join(ROOT, "target", "release", "kyobo"))
    p.add_argument("--record", default=os.path.join(
        ROOT, "crates", "records", "tests", "fixtures", "cshogi", "game04.kif"))
    p.add_argument("--depth", type=int, default=10)
    p.add_argument("--png", default=os.path.join(ROOT, "docs", "analyse-report.png"))
    p.add_argument("--width", type=int, default=1100)
    p.add_argument("--height", type=int, default=2400)
    p.add_argument("--timeout", type=int, default=120)
    args = p.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        html = os.path.join(tmp, "report.html")
        out = subprocess.run([args.kyobo, "analyse", "--depth", str(args.depth), "--html", html,
                              args.record], capture_output=True, text=True, check=True).stdout
        print(out, end="")
        page = open(html, encoding="utf-8").read()
        url = "file://" + html
        dom = browser(args, url, "--dump-dom").stdout

        problems = []
        def check(ok, what):
            print(("ok   " if ok else "FAIL ") + what)
            if not ok:
                problems.append(what)

        check("<title>Kyobo analysis:" in dom, "the browser built the document (title)")
        check(len(re.findall(r'<svg class="graph"', dom)) == 2, "two evaluation graphs")
        boards = re.findall(r'<svg class="board".*?</svg>', dom, re.S)
        critical = len(re.findall(r"<figure>", dom))
        check(critical >= 1 and len(boards) == critical, f"{critical} critical moments, a board each")
        check(all(pieces_on(b) == 40 and 'class="to"' in b for b in boards),
              "every board: 40 pieces on it and in hand, both kings, the last move")
        rows = len(re.findall(r"<tr class=", dom))
        check(rows > 0, f"{rows} moves listed")
        for outside in ("<script", "http://", "https://", " src="):
            check(outside not in page, f"self-contained: no {outside.strip()}")

        shot = os.path.join(tmp, "shot.png")
        browser(args, url, f"--window-size={args.width},{args.height}", f"--screenshot={shot}")
        w, h = png_size(shot)
        size = os.path.getsize(shot)
        check((w, h) == (args.width, args.height) and size > 50_000,
              f"screenshot {w}x{h}, {size} bytes")
        if args.png:
            os.makedirs(os.path.dirname(args.png), exist_ok=True)
            shutil.copy(shot, args.png)
            print(f"screenshot in {args.png}")
    if problems:
        sys.exit(f"{len(problems)} problem(s)")


if __name__ == "__main__":
    main()
