#!/usr/bin/env python3
"""How far each king walked in refereed games, and how those games ended.

Many of Kyobo's losses to GPS Shogi were once put down to the enemy king running
out of its castle and into Kyobo's camp, where it can no longer be mated; counted,
it was about a tenth of them (docs/BENCHMARKS.md). This counts that
pattern in the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena): for each game, the furthest
rank each king reached (0: its own back rank, 6-8: the enemy camp) and the result
for the named engine, counted by whose king got at least `--ranks` ranks out.

    python3 tools/king_walks.py data/matches/gps-*.pgn
    python3 tools/king_walks.py --ranks 4 data/matches/gps-*.pgn
"""

import argparse
import collections

import cshogi

from pgn_positions import games


def advance(square, colour):
    """Ranks from `colour`'s own back rank to `square` (cshogi: rank 0 is 'a')."""
    rank = square % 9
    return 8 - rank if colour == cshogi.BLACK else rank


def walk(moves):
    """The furthest advance of Sente's and Gote's king over the game."""
    board = cshogi.Board()
    furthest = [0, 0]
    for move in moves:
        board.push_usi(move)
        for colour in (cshogi.BLACK, cshogi.WHITE):
            furthest[colour] = max(furthest[colour], advance(board.king_square(colour), colour))
    return furthest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--name", default="Kyobo", help="the engine whose results are counted")
    parser.add_argument("--ranks", type=int, default=6,
                        help="how far from its back rank a king must get to count (6: the enemy camp)")
    args = parser.parse_args()
    # whose king got `--ranks` out ("own", "enemy", "both", "neither") -> [wins, losses, draws]
    table = collections.defaultdict(lambda: [0, 0, 0])
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, result, moves in games(text, with_tags=True):
            # cshogi's PGN calls Sente "White".
            ours = cshogi.BLACK if tags.get("White") == args.name else cshogi.WHITE
            if ours == cshogi.WHITE and tags.get("Black") != args.name:
                continue
            score = result if ours == cshogi.BLACK else 1 - result
            furthest = walk(moves)
            own, enemy = furthest[ours] >= args.ranks, furthest[1 - ours] >= args.ranks
            key = {(True, True): "both", (True, False): "own", (False, True): "enemy"}.get(
                (own, enemy), "neither")
            table[key][0 if score == 1 else 1 if score == 0 else 2] += 1
    print(f"king {args.ranks}+ ranks from its back rank at some point | games | {args.name} W-L-D")
    for key in ("neither", "own", "enemy", "both"):
        w, l, d = table[key]
        print(f"{key:>8} | {w + l + d:5} | {w}-{l}-{d}")


if __name__ == "__main__":
    main()
