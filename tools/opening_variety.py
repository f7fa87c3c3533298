#!/usr/bin/env python3
"""How many different ways the games of a match opened: the distinct move
sequences of the first PLIES plies, and for each ply the distinct positions.

Reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena); with several files the
games are taken in the order given. For the book's variety figure:

    python3 tools/opening_variety.py /tmp/book-on.pgn --games 50 --plies 16

The most frequent openings are printed with their counts.
"""

import argparse
from collections import Counter

from pgn_positions import games


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pgn", nargs="+")
    p.add_argument("--games", type=int, help="only the first GAMES games")
    p.add_argument("--plies", type=int, default=16)
    p.add_argument("--player", help="also count separately the games where this player "
                   "(a PGN name) had Sente and those where it had Gote")
    a = p.parse_args()
    all_games = []
    for path in a.pgn:
        with open(path, encoding="utf-8") as f:
            all_games.extend(games(f.read(), with_tags=True))
    if a.games is not None:
        all_games = all_games[: a.games]
    openings = Counter(tuple(moves[: a.plies]) for _, _, moves in all_games)
    print(f"{len(all_games)} games, {len(openings)} different openings by ply {a.plies}")
    for ply in (2, 4, 8, 12, a.plies):
        distinct = len({tuple(moves[:ply]) for _, _, moves in all_games})
        print(f"  by ply {ply:2}: {distinct} different")
    if a.player:
        # cshogi's PGN names Sente "White".
        for side, tag in (("Sente", "White"), ("Gote", "Black")):
            mine = [moves for tags, _, moves in all_games if tags.get(tag) == a.player]
            distinct = len({tuple(moves[: a.plies]) for moves in mine})
            first = 0 if side == "Sente" else 1
            own = len({tuple(moves[first: a.plies: 2]) for moves in mine})
            print(f"  {a.player} as {side}: {len(mine)} games, {distinct} different by ply "
                  f"{a.plies}; {own} different sequences of its own moves in them")
    most = openings.most_common(3)
    for moves, n in most:
        print(f"  {n} games: {' '.join(moves)}")


if __name__ == "__main__":
    main()
