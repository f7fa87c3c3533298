#!/usr/bin/env python3
"""Nodes per second of Kyobo and another USI engine (YaneuraOu's material
edition, say) on the same positions: one thread and 64 MiB each, `go movetime`
per position, the engines alternated round by round (the order reversed every
other round); prints every run, each position's medians and their ratio.

    python3 tools/nps_compare.py --other /path/to/YaneuraOu-by-gcc \\
        [--kyobo target/release/kyobo] [--movetime 5000] [--rounds 2]

The other engine is sent YaneuraOu's `BookFile no_book` and zero network delays
as well (any engine ignores options it does not have). YaneuraOu's material
edition is built from its own sources, apart from this repository:
`make YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL TARGET_CPU=AVX2 COMPILER=g++`.
"""

import argparse
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The start, and two middlegames of `kyobo bench`.
POSITIONS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lr5nl/3g1kg2/2n1pps1p/p1ps2p2/1p5P1/P1PSP1P1P/1PS2P3/2GK1G3/LN5RL b Bbnp 41",
    "ln5nl/2r2gk2/p2pppsp1/2p3p1p/1p5P1/2P1P1P1P/PPS2PS2/2G2K3/LN5RL b BGSbgnp 45",
]
COMMON = [("USI_Hash", "64"), ("Threads", "1")]
OTHER = COMMON + [("BookFile", "no_book"), ("NetworkDelay", "0"), ("NetworkDelay2", "0")]


def nps(path, options, sfen, movetime):
    """The last `nps` an engine reports searching `sfen` for `movetime` ms."""
    # Run from the engine's own folder (YaneuraOu reads its files there), so the
    # path is made absolute first: a relative one would not be found from it.
    path = os.path.abspath(path)
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         cwd=os.path.dirname(path))

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(word):
        for line in p.stdout:
            if line.startswith(word):
                return

    send("usi")
    until("usiok")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    send("usinewgame")
    send(f"position sfen {sfen}")
    send(f"go movetime {movetime}")
    last = None
    for line in p.stdout:
        tokens = line.split()
        if "nps" in tokens:
            last = int(tokens[tokens.index("nps") + 1])
        if line.startswith("bestmove"):
            break
    send("quit")
    p.wait(timeout=30)
    return last


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kyobo", default=os.path.join(ROOT, "target/release/kyobo"))
    ap.add_argument("--other", required=True, help="the other USI engine's binary")
    ap.add_argument("--movetime", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    engines = {"kyobo": (a.kyobo, COMMON), "other": (a.other, OTHER)}
    runs = {name: [[] for _ in POSITIONS] for name in engines}
    for rnd in range(a.rounds):
        for i, sfen in enumerate(POSITIONS):
            order = list(engines) if rnd % 2 == 0 else list(reversed(list(engines)))
            for name in order:
                value = nps(*engines[name], sfen, a.movetime)
                runs[name][i].append(value)
                print(f"round {rnd + 1} position {i + 1} {name}: {value:,} nodes/s", flush=True)
    ratios = []
    for i in range(len(POSITIONS)):
        k, o = statistics.median(runs["kyobo"][i]), statistics.median(runs["other"][i])
        ratios.append(k / o)
        print(f"position {i + 1}: kyobo {k:,.0f}, other {o:,.0f}, ratio {k / o:.2f}")
    print(f"median ratio {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
