#!/usr/bin/env python3
"""Random legal games as a USI list (`startpos moves …`, one game a line), with cshogi.

For measuring how fast a big opening book opens: nearly every position of these
games is new, so `kyobo book build` makes a book of about GAMES × PLIES positions.

    python3 tools/random_games.py --games 50000 --plies 40 --seed 1 > random.sfen
    kyobo book build random.sfen --out big.db --depth 40
    kyobo book probe big.db --moves 7g7f
"""

import argparse
import random
import sys

import cshogi


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    out = sys.stdout
    for _ in range(a.games):
        board = cshogi.Board()
        moves = []
        for _ in range(a.plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(cshogi.move_to_usi(move))
            board.push(move)
        out.write("startpos moves " + " ".join(moves) + "\n")


if __name__ == "__main__":
    main()
