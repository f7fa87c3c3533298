#!/usr/bin/env python3
"""Mates an engine announces in the last plies of games, under two settings, judged.

A change that touches how a search proves mates (which moves a mated node must
have tried, say) shows in the mates it announces long before it shows in games.
This reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`), takes every
position from the last `--tail` plies of each game where `--player` was to move,
and asks the engine for a move in each under setting A and under setting B (the
same `--options` plus each one's own, `go movetime`, two processes at once, a new
game each time). A result is a mate for the side to move (`win`), against it
(`lose`) or neither (`cp`). Where A and B disagree, and in `--sample` positions
where they agree on a mate, a judge (Kyobo in PVS mode, `--judge-movetime`)
searches the position; its mate or its absence is taken as the truth. Prints the
counts of each (A, B) pair of results, then of each (A, B, judge) triple, e.g.:

    python3 tools/mate_suite.py data/matches/abc-null-fairy-*.pgn \\
        --options SearchAlgorithm:ABC --a ABC_MateWidth:0 --b ABC_MateWidth:1

The judge is a search, not a proof: a long mate it misses reads as `cp`.
"""

import argparse
import os
import random
import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from move_suite import parse_options  # noqa: E402
from pgn_positions import games  # noqa: E402
from usi_engine import UsiEngine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORE = re.compile(r"score (cp|mate) (-?\d+)")


def kind(lines):
    """`win`, `lose` or `cp` from the last score of a search's output.

    >>> kind(["info depth 3 score mate 5 pv 7g7f", "bestmove 7g7f"])
    'win'
    >>> kind(["info score mate -2", "info score cp -300", "bestmove 7g7f"])
    'cp'
    >>> kind(["info score mate -0", "bestmove resign"])
    'lose'
    """
    last = "cp"
    for line in lines:
        m = SCORE.search(line)
        if m:
            mate = m.group(1) == "mate"
            # `mate -0`, `mate -N`: mated; `mate N`: mates.
            last = "cp" if not mate else ("lose" if m.group(2).startswith("-") else "win")
    return last


def positions(paths, player, tail):
    """USI move lists of the positions in the last `tail` plies where `player` moves."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, _, moves in games(text, with_tags=True):
            first = tags.get("White") == player  # cshogi's PGN calls Sente "White"
            for ply in range(max(0, len(moves) - tail), len(moves)):
                if (ply % 2 == 0) == first:
                    out.append(moves[:ply])
    return out


def results(engine, options, positions, movetime):
    """The kind of result for each position, one engine process."""
    e = UsiEngine(engine, options=[("Threads", 1), ("USI_Hash", 64)] + options)
    try:
        e.handshake(30)
        out = []
        for moves in positions:
            e.send("usinewgame")
            e.send("position startpos moves " + " ".join(moves))
            e.send(f"go movetime {movetime}")
            out.append(kind(e.wait_for("bestmove", 60 + movetime / 1000)))
        e.send("quit")
        return out
    finally:
        e.proc.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "kyobo"))
    parser.add_argument("--player", default="Kyobo")
    parser.add_argument("--tail", type=int, default=24, help="plies at each game's end")
    parser.add_argument("--movetime", type=int, default=300)
    parser.add_argument("--options", default="", help="NAME:VALUE,... for both settings")
    parser.add_argument("--a", default="", help="setting A's own options")
    parser.add_argument("--b", default="", help="setting B's own options")
    parser.add_argument("--judge-movetime", type=int, default=3000)
    parser.add_argument("--sample", type=int, default=60,
                        help="positions where both announce the same mate, judged too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    todo = positions(args.pgn, args.player, args.tail)
    print(f"{len(todo)} positions", flush=True)
    both = parse_options(args.options)
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(results, args.engine, both + parse_options(own), todo, args.movetime)
                for own in (args.a, args.b)]
        a, b = (r.result() for r in runs)
    print("A, B:", dict(Counter(zip(a, b))))

    apart = [i for i in range(len(todo)) if a[i] != b[i]]
    agreed = [i for i in range(len(todo)) if a[i] == b[i] != "cp"]
    random.seed(args.seed)
    judged = apart + random.sample(agreed, min(args.sample, len(agreed)))
    with ThreadPoolExecutor(2) as pool:
        halves = [judged[0::2], judged[1::2]]
        runs = [pool.submit(results, args.engine, [], [todo[i] for i in half],
                            args.judge_movetime) for half in halves]
        truth = {}
        for half, run in zip(halves, runs):
            truth.update(zip(half, run.result()))
    triples = Counter((a[i], b[i], truth[i]) for i in judged)
    print("A, B, judge:")
    for key in sorted(triples):
        print(f"  {key}: {triples[key]}")


if __name__ == "__main__":
    main()
