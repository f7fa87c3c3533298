#!/usr/bin/env python3
"""A suite of game positions where a player went wrong, and how an engine's moves fare on it.

Games take hours to say whether a change of search helps; the positions where the
player lost ground say it in minutes. Three commands:

`make` reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena), and for every move of the
named player from `--from-ply` on, while the game is still open (the reference
engine's value before the move within `--open` of even), has the reference engine
(Kyobo in PVS mode, a fixed number of nodes, tables cleared: deterministic) value
the position before and after the move. The loss is the value before less the
value after, from the mover's side. The positions fall in three strata by the
game move's loss: `blunder` (at least `--min-loss`), `mid` (100 up to that) and
`control` (under 100). It writes every blunder and `--sample` positions drawn
from each of the other two, one a line, after a header with each stratum's size:

    # strata blunder N mid N control N
    STRATUM<TAB>value before<TAB>game move<TAB>USI moves from startpos

`run` asks the engine under test for a move in each position (`go movetime`,
with the USI options given) and has the reference engine judge it the same way.
It prints, per stratum, the mean loss, the moves losing 300 or more and how often
the game's move was played again, and the mean loss over all the open positions
(each stratum weighted by its size, so that the blunders, chosen by the player's
own mistakes, do not favour a search that merely plays other moves), e.g.:

    python3 tools/move_suite.py make data/matches/abc-asp-fairy-0-25.pgn \\
        --player Kyobo --out /tmp/abc-suite.txt
    python3 tools/move_suite.py run /tmp/abc-suite.txt --engine BIN --movetime 1000 \\
        --options SearchAlgorithm:ABC,ABC_Width1:20 --verbose > /tmp/width.log

`compare` reads the `--verbose` output of two runs on the same suite and prints the
difference of the second from the first, position by position and weighted by
stratum, with its 95 % interval:

    python3 tools/move_suite.py compare /tmp/abc-suite.txt /tmp/default.log /tmp/width.log
"""

import argparse
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_positions import games  # noqa: E402
from score_games import Engine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KYOBO = os.path.join(ROOT, "target", "release", "kyobo")
CAP = 3000


def parse_options(text):
    return [tuple(kv.split(":", 1)) for kv in text.split(",") if kv]


def reference(args):
    return Engine(args.judge, [("USI_Hash", 16), ("Threads", 1)])


def loss_of(judge, moves, move, before, nodes):
    """What `move` loses in the position after `moves`, judged by `judge`."""
    if move in ("resign", "win"):
        return CAP
    _, after = judge.go(moves + [move], f"nodes {nodes}", new_game=True)
    if after is None:
        return 0
    return max(0, min(CAP, before + after))


def make(args):
    judge = reference(args)
    strata = {"blunder": [], "mid": [], "control": []}
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, _, moves in games(text, with_tags=True):
            sente = tags.get("White") == args.player  # cshogi's PGN calls Sente "White"
            for ply in range(args.from_ply, len(moves)):
                if (ply % 2 == 0) != sente:
                    continue
                _, before = judge.go(moves[:ply], f"nodes {args.nodes}", new_game=True)
                if before is None or abs(before) > args.open:
                    break
                loss = loss_of(judge, moves[:ply], moves[ply], before, args.nodes)
                kind = "blunder" if loss >= args.min_loss else "mid" if loss >= 100 else "control"
                strata[kind].append((before, moves[ply], " ".join(moves[:ply])))
            sizes = ", ".join(f"{k} {len(v)}" for k, v in strata.items())
            print(f"{path}: {sizes} so far", file=sys.stderr, flush=True)
    judge.quit()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("# strata " + " ".join(f"{k} {len(v)}" for k, v in strata.items()) + "\n")
        for kind, lines in strata.items():
            if kind != "blunder":
                seed = args.seed + (kind == "mid")
                lines = random.Random(seed).sample(lines, min(args.sample, len(lines)))
            for before, move, moves in lines:
                out.write(f"{kind}\t{before}\t{move}\t{moves}\n")
    print(f"-> {args.out}", file=sys.stderr)


def read_suite(path):
    """The suite's rows and each stratum's size (summed over concatenated files)."""
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    sizes = {}
    for line in lines:
        if line.startswith("# strata "):
            words = line.split()[2:]
            for kind, n in zip(words[0::2], words[1::2]):
                sizes[kind] = sizes.get(kind, 0) + int(n)
    return [line.split("\t") for line in lines if not line.startswith("#")], sizes


def run(args):
    rows, sizes = read_suite(args.suite)
    engine = Engine(args.engine, [("USI_Hash", 64), ("Threads", 1)] + parse_options(args.options))
    judge = reference(args)
    totals = {}
    for kind, before, game_move, moves in rows:
        moves = moves.split()
        move, _ = engine.go(moves, f"movetime {args.movetime}", new_game=True)
        loss = loss_of(judge, moves, move, int(before), args.nodes)
        t = totals.setdefault(kind, [0, 0, 0, 0])
        t[0] += 1
        t[1] += loss
        t[2] += loss >= 300
        t[3] += move == game_move
        if args.verbose:
            print(f"{kind} {move} (game {game_move}) loss {loss}", flush=True)
    engine.quit()
    judge.quit()
    for kind, (n, loss, bad, same) in sorted(totals.items()):
        print(f"{kind}: {n} positions, mean loss {loss / n:.0f}, "
              f"losing 300+ {bad}, the game's move {same}")
    if sizes and all(k in sizes for k in totals):
        weight = sum(sizes[k] for k in totals)
        mean = sum(sizes[k] * t[1] / t[0] for k, t in totals.items()) / weight
        print(f"all {weight} open positions, by stratum: mean loss {mean:.0f}")


LOSS = re.compile(r"(\w+) \S+ \(game \S+\) loss (\d+)")


def losses(path):
    """Each stratum's losses, in the suite's order, from a `run --verbose` output."""
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LOSS.match(line)
            if m:
                found.setdefault(m.group(1), []).append(int(m.group(2)))
    return found


def compare(args):
    _, sizes = read_suite(args.suite)
    first, second = losses(args.first), losses(args.second)
    unsized = [k for k in first if k not in sizes]
    if unsized or not first:
        raise SystemExit(f"{args.suite} gives no size for {unsized or 'any stratum'}: "
                         "compare needs a suite made by `make` and runs with --verbose")
    total = sum(sizes[k] for k in first)
    diff, variance = 0.0, 0.0
    for kind, a in first.items():
        b = second.get(kind, [])
        if len(a) != len(b) or len(a) < 2:
            raise SystemExit(f"{kind}: {len(a)} and {len(b)} positions: not runs of one suite")
        d = [y - x for x, y in zip(a, b)]
        mean = sum(d) / len(d)
        var = sum((v - mean) ** 2 for v in d) / (len(d) - 1)
        w = sizes[kind] / total
        diff += w * mean
        variance += w * w * var / len(d)
        print(f"{kind}: {len(d)} positions, mean loss {sum(a) / len(a):.0f} -> {sum(b) / len(b):.0f}")
    print(f"all {total} open positions, by stratum: {diff:+.1f} ± {1.96 * math.sqrt(variance):.1f} (95 %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="positions from match PGNs")
    m.add_argument("pgn", nargs="+")
    m.add_argument("--player", default="Kyobo", help="the PGN name whose moves are looked at")
    m.add_argument("--from-ply", type=int, default=36)
    m.add_argument("--open", type=int, default=800, help="the game is open while |value| <= this")
    m.add_argument("--min-loss", type=int, default=300)
    m.add_argument("--sample", type=int, default=40, help="positions drawn from each other stratum")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--out", required=True)
    r = sub.add_parser("run", help="an engine's moves on a suite")
    r.add_argument("suite")
    r.add_argument("--engine", default=KYOBO)
    r.add_argument("--options", default="", help="USI options as NAME:VALUE,...")
    r.add_argument("--movetime", type=int, default=1000)
    r.add_argument("--verbose", action="store_true")
    c = sub.add_parser("compare", help="the paired difference of two runs")
    c.add_argument("suite")
    c.add_argument("first", help="a run's --verbose output")
    c.add_argument("second")
    for p in (m, r):
        p.add_argument("--judge", default=KYOBO, help="the reference engine (PVS mode)")
        p.add_argument("--nodes", type=int, default=200000, help="the reference's nodes a position")
    args = parser.parse_args()
    {"make": make, "run": run, "compare": compare}[args.command](args)


if __name__ == "__main__":
    main()
