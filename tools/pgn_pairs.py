#!/usr/bin/env python3
"""Kyobo's score in a match's PGN files over a slice of the shuffled openings.

The referee of Kyobo's earlier matches (`data/matches/*.pgn`) played, with `--pairs A:B
--seed S`, the openings A..B of taya36 as shuffled with S;
this picks the games of a longer run that started from those same openings (the
first 36 plies), so that two engines can be compared on identical openings and
colours, e.g. a 100-game run against the 40 games of `--pairs 0:20`:

    python3 tools/pgn_pairs.py --pairs 0:20 /tmp/matches/gps-t1-0-25.pgn

`--same-games OTHER.pgn ...` keeps only the games whose opening and colour the other
files also hold: a run stopped early against the same games of a complete one.

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


def kyobo_score(tags, name):
    """`name`'s score in a game (1, 0.5 or 0), or None when it did not play or the
    game has no result."""
    first_mover = tags.get("White") == name
    if not first_mover and tags.get("Black") != name:
        return None
    result = tags.get("Result")
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    return 1.0 if (result == "1-0") == first_mover else 0.0


def game_key(tags, moves, name):
    """A game's opening and which side `name` had in it."""
    return " ".join(moves[:OPENING_PLIES]), tags.get("White") == name


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pgn", nargs="+", help="cshogi PGN files")
    p.add_argument("--pairs", default="0:20", help="openings FIRST:LAST of the shuffle (end excluded)")
    p.add_argument("--seed", type=int, default=1, help="the match's opening seed")
    p.add_argument("--name", default="Kyobo", help="the player to score")
    p.add_argument("--same-games", nargs="+", default=None, metavar="PGN",
                   help="count only games whose opening and colour these files also hold")
    a = p.parse_args()
    first, last = (int(x) for x in a.pairs.split(":"))
    with open(OPENINGS) as f:
        lines = f.read().splitlines()
    order = list(range(len(lines)))
    random.seed(a.seed)
    random.shuffle(order)
    wanted = {" ".join(lines[i].split()[2 : 2 + OPENING_PLIES]) for i in order[first:last]}
    also = None
    if a.same_games:
        also = {game_key(t, m, a.name) for path in a.same_games for t, m in games(path)}
    scores = []
    for path in a.pgn:
        for tags, moves in games(path):
            key = game_key(tags, moves, a.name)
            score = kyobo_score(tags, a.name)
            if key[0] not in wanted or score is None or (also is not None and key not in also):
                continue
            scores.append(score)
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = len(scores) - wins - draws
    print(f"{a.name} on openings {a.pairs} (seed {a.seed}): {len(scores)} games, W-L-D {wins}-{losses}-{draws}")
    return 0 if scores else 1


if __name__ == "__main__":
    sys.exit(main())
