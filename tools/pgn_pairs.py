#!/usr/bin/env python3
"""Kyobo's score in a match's PGN files over a slice of the shuffled openings.

`match.py --pairs A:B --seed S` plays the openings A..B of taya36 as shuffled with S;
this picks the games of a longer run that started from those same openings (the
first 36 plies), so that two engines can be compared on identical openings and
colours, e.g. a 100-game run against the 40 games of `--pairs 0:20`:

    python3 tools/pgn_pairs.py --pairs 0:20 /tmp/matches/gps-t1-0-25.pgn

cshogi writes PGN with chess conventions: "White" is the first mover (Black in
shogi), "1-0" a win for it; squares are file letters a-i for files 9-1 and ranks
1-9 counted from the first mover's side.
"""

import argparse
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "taya36.sfen")
OPENING_PLIES = 36


def square(file_letter, rank_digit):
    return str(9 - (ord(file_letter) - ord("a"))) + chr(ord("a") + 9 - int(rank_digit))


def to_usi(token):
    """A cshogi PGN move (`Ph3h4`, `P@f4`, `Bh8c3+`) as a USI move, or None."""
    drop = re.match(r"^([A-Z])@([a-i])([1-9])$", token)
    if drop:
        return drop.group(1) + "*" + square(drop.group(2), drop.group(3))
    move = re.match(r"^\+?[A-Z]([a-i])([1-9])([a-i])([1-9])(\+?)$", token)
    if move:
        return square(move.group(1), move.group(2)) + square(move.group(3), move.group(4)) + move.group(5)
    return None


def games(path):
    """(tags, USI moves) for every game in a cshogi PGN file."""
    with open(path) as f:
        text = f.read()
    for chunk in text.split("[Event")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        moves = []
        for token in body.split():
            token = re.sub(r"^\d+\.", "", token)
            usi = to_usi(token) if token else None
            if usi:
                moves.append(usi)
        yield tags, moves


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pgn", nargs="+", help="cshogi PGN files")
    p.add_argument("--pairs", default="0:20", help="openings FIRST:LAST of the shuffle (end excluded)")
    p.add_argument("--seed", type=int, default=1, help="the match's opening seed")
    p.add_argument("--name", default="Kyobo", help="the player to score")
    a = p.parse_args()
    first, last = (int(x) for x in a.pairs.split(":"))
    with open(OPENINGS) as f:
        lines = f.read().splitlines()
    order = list(range(len(lines)))
    random.seed(a.seed)
    random.shuffle(order)
    wanted = {" ".join(lines[i].split()[2 : 2 + OPENING_PLIES]) for i in order[first:last]}
    wins = losses = draws = 0
    for path in a.pgn:
        for tags, moves in games(path):
            if " ".join(moves[:OPENING_PLIES]) not in wanted or a.name not in (tags.get("White"), tags.get("Black")):
                continue
            result = tags.get("Result")
            first_mover = tags.get("White") == a.name
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == first_mover and result in ("1-0", "0-1"):
                wins += 1
            elif result in ("1-0", "0-1"):
                losses += 1
    total = wins + losses + draws
    print(f"{a.name} on openings {a.pairs} (seed {a.seed}): {total} games, W-L-D {wins}-{losses}-{draws}")
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
