#!/usr/bin/env python3
"""Kyobo against another USI engine, refereed by cshogi (`python -m cshogi.cli`).

Openings come from ../shared/data/openings/taya36.sfen (36 plies each), each played
with both colours; with --startpos every game starts from the start position (colours
alternating), for the engines' own openings (an opening book, RandomOpeningPly). The summary adds the reliability counts: illegal
moves and time losses (cshogi's referee prints them in Japanese).

Examples (from the repository root, after `cargo build --release -p kyobo`):
    python3 tools/match.py --opponent gps --games 10 --byoyomi 1000
    python3 tools/match.py --opponent fairy --games 100 --byoyomi 1000
    python3 tools/match.py --opponent ./target/release/kyobo --games 20 --byoyomi 200
    python3 tools/match.py --opponent gps --games 50 --startpos \
        --kyobo-options USI_Hash:64,Threads:1,BookFile:book.db
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import gps_conf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "taya36.sfen")
KYOBO = os.path.join(ROOT, "target", "release", "kyobo")

OPPONENTS = {
    # name: (path, USI options, display name)
    # GPS Shogi on one thread, one each as fair matches ask (its default is
    # `Thread 2`; the earliest recorded matches ran with that default). It saves every `setoption` to
    # its configuration file and starts from there next time, so main() puts that
    # file back as it found it when the match ends (`gps_conf.kept`).
    "gps": ("/usr/games/gpsusi", "Thread:1", "GPSShogi"),
    "fairy": ("/usr/games/fairy-stockfish", "Threads:1,Hash:64", "FairyStockfish"),
}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--opponent", required=True, help="gps, fairy, or a path to a USI engine")
    p.add_argument("--games", type=int, default=10, help="games (even: every opening with both colours)")
    p.add_argument("--byoyomi", type=int, default=1000, help="milliseconds per move")
    p.add_argument("--time", type=int, help="main time in milliseconds (optional)")
    p.add_argument("--inc", type=int, help="Fischer increment in milliseconds (optional)")
    p.add_argument("--seed", type=int, default=1, help="opening shuffle seed")
    p.add_argument("--pairs", help="play only the openings FIRST:LAST (0-based, end excluded) of the "
                   "seed's shuffled order, e.g. 10:20 for games 21-40 of a 40-game run, so that "
                   "one run can be split across cores")
    p.add_argument("--startpos", action="store_true",
                   help="every game from the start position instead of taya36 openings")
    p.add_argument("--engine", default=KYOBO, help="the Kyobo binary")
    p.add_argument("--kyobo-options", default="USI_Hash:64,Threads:1,NetworkDelay:0,NetworkDelay2:80,MinimumThinkingTime:0")
    p.add_argument("--opponent-options", help="override the opponent's USI options")
    p.add_argument("--pgn", help="write the games to this PGN file")
    return p.parse_args()


def main():
    a = parse_args()
    if a.opponent != "gps":
        return play(a)
    with gps_conf.kept():
        return play(a)


def play(a):
    path, opts, name = OPPONENTS.get(a.opponent, (a.opponent, "", os.path.basename(a.opponent)))
    if a.opponent_options is not None:
        opts = a.opponent_options
    openings = OPENINGS
    if a.startpos and a.pairs:
        sys.exit("--pairs chooses taya36 openings; with --startpos give --games only")
    if a.pairs:
        # cshogi shuffles the openings' indices with the seed and plays pair n with the
        # n-th; the same shuffle here picks the openings of the pairs asked for. Their
        # order within the file written does not matter: each is played with both
        # colours once.
        first, last = (int(x) for x in a.pairs.split(":"))
        with open(OPENINGS) as f:
            lines = f.readlines()
        order = list(range(len(lines)))
        random.seed(a.seed)
        random.shuffle(order)
        subset = tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False)
        subset.writelines(lines[i] for i in order[first:last])
        subset.close()
        openings = subset.name
        a.games = 2 * (last - first)
    cmd = [
        sys.executable, "-m", "cshogi.cli", a.engine, path,
        "--name1", "Kyobo", "--name2", name,
        "--games", str(a.games),
        "--draw", "320",
        "--options1", a.kyobo_options,
    ]
    if not a.startpos:
        cmd += ["--opening", openings, "--opening-moves", "36", "--opening-seed", str(a.seed)]
    if opts:
        cmd += ["--options2", opts]
    if a.byoyomi:
        cmd += ["--byoyomi", str(a.byoyomi)]
    if a.time is not None:
        cmd += ["--time", str(a.time)]
    if a.inc is not None:
        cmd += ["--inc", str(a.inc)]
    if a.pgn:
        cmd += ["--pgn", a.pgn]
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    illegal = timeup = 0
    summary = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if "反則負け" in line:
            illegal += 1
        if "切れ負け" in line:
            timeup += 1
        if re.match(r"^(Kyobo vs|%s vs|Black vs White|Kyobo playing|%s playing|Elo difference)" % (re.escape(name), re.escape(name)), line):
            summary.append(line.rstrip())
    proc.wait()
    print("== summary ==")
    for line in summary[-7:]:
        print(line)
    print(f"illegal-move results: {illegal}, time losses: {timeup}, referee exit: {proc.returncode}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
