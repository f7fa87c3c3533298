#!/usr/bin/env python3
"""Positions of refereed games, as training or calibration data for the tuners.

Reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena) (Sente is
"White", squares as file letter a-i for files 9-1 and rank digit 1-9 for ranks i-a,
drops as `P@d9`, promotion as a trailing `+`), replays every game with cshogi and
prints one line per position from the given ply on, not in check:

    SFEN<TAB>result

with the result from Black's (Sente's) side: 1 won, 0 lost, 0.5 drawn. That is the
format `kyobo-lab tune` and `tune-danger` read, so the evaluation
can be checked against games with another engine, e.g.:

    python3 tools/pgn_positions.py /tmp/matches/gps-1s.pgn > /tmp/gps-positions.txt
    cargo run --release -p lab -- tune-danger --data /tmp/gps-positions.txt --k 1500
"""

import argparse
import re
import sys

import cshogi

MOVE = re.compile(r"\+?[PLNSGBRK]([a-i])([1-9])([a-i])([1-9])(\+?)")
DROP = re.compile(r"([PLNSGBRK])@([a-i])([1-9])")
NOT_A_MOVE = re.compile(r"\d+\.|1-0|0-1|1/2-1/2|\*")


def square(file_letter, rank_digit):
    """A PGN square as USI: file letter a-i is file 9-1, rank digit 1-9 is rank i-a."""
    return str(9 - (ord(file_letter) - ord("a"))) + chr(ord("a") + 9 - int(rank_digit))


def usi_move(token):
    m = DROP.fullmatch(token)
    if m:
        return m.group(1) + "*" + square(m.group(2), m.group(3))
    m = MOVE.fullmatch(token)
    if m:
        return square(m.group(1), m.group(2)) + square(m.group(3), m.group(4)) + m.group(5)
    raise ValueError(f"not a move: {token!r}")


def games(text, with_tags=False):
    """(result from Sente's side, USI moves) for each game of a PGN text; with
    `with_tags`, (tags, result, moves)."""
    for block in text.split("[Event")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        body = block[block.index("\n\n"):] if "\n\n" in block else ""
        tokens = [t for t in body.split() if not NOT_A_MOVE.fullmatch(t)]
        result = {"1-0": 1.0, "0-1": 0.0}.get(tags.get("Result", ""), 0.5)
        moves = [usi_move(t) for t in tokens]
        yield (tags, result, moves) if with_tags else (result, moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--from-ply", type=int, default=36, help="skip the opening")
    parser.add_argument("--quiet", action="store_true",
                        help="only positions whose game move is neither a capture nor a promotion")
    args = parser.parse_args()
    count = 0
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for result, moves in games(text):
            board = cshogi.Board()
            for ply, move in enumerate(moves):
                noisy = move.endswith("+") or (
                    "*" not in move and board.piece(cshogi.move_to(board.move_from_usi(move))) != 0)
                if ply >= args.from_ply and not board.is_check() and not (args.quiet and noisy):
                    print(f"{board.sfen()}\t{result:g}")
                    count += 1
                board.push_usi(move)
    print(f"{count} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
