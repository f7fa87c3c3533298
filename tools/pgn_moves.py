#!/usr/bin/env python3
"""The positions where one player of refereed games was to move, with the move it played.

Reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena) and prints, for every move of
the named player (the PGN's "White" or "Black" tag: cshogi calls Sente "White") from
the given ply on, the position before it and the move:

    SFEN<TAB>USI_MOVE

the format `crates/eval/examples/kept_moves.rs` reads (does ABC's forward pruning
keep the move a stronger engine chose?):

    python3 tools/pgn_moves.py data/matches/abc-asp-fairy-0-25.pgn --player FairyStockfish > /tmp/fairy-moves.txt
"""

import argparse
import os
import sys

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_positions import games  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", required=True, help="the name in the PGN's tags")
    parser.add_argument("--from-ply", type=int, default=36, help="skip the opening")
    args = parser.parse_args()
    count = 0
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, _result, moves in games(text, with_tags=True):
            if args.player not in (tags.get("White"), tags.get("Black")):
                continue
            sente = tags.get("White") == args.player
            board = cshogi.Board()
            for ply, move in enumerate(moves):
                if ply >= args.from_ply and (ply % 2 == 0) == sente:
                    print(f"{board.sfen()}\t{move}")
                    count += 1
                board.push_usi(move)
    print(f"{count} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
