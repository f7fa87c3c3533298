#!/usr/bin/env python3
"""Self-play records of shogiarena (`shogiarena run generate` with
`records_output: {format: psv}`) as the lines Kyobo's NNUE trainer and tuner
read: `SFEN<TAB>result<TAB>score`, both from Black's side (result 1, 0.5 or 0;
score in centipawns), as `kyobo-lab selfplay` writes them.

A psv record is YaneuraOu's PackedSfenValue (40 bytes): the packed position,
the search's score and move for the side to move, the ply, and the game's
result, which shogiarena writes as rsshogi's `GameResult` code (BLACK_WIN,
WHITE_WIN_BY_DECLARATION, DRAW_BY_REPETITION, …). Kept, as `kyobo-lab selfplay`
keeps them: quiet positions (side to move not in check, the move played neither
a capture nor a promotion) whose score is not decided (at most 3,000), from
games with a result (not an error or an interrupted game).

    python3 tools/arena_positions.py RUN/records/*.psv > positions.txt

Needs rsshogi (installed with shogiarena) and numpy.
"""

import argparse
import sys

import numpy as np
import rsshogi.core
import rsshogi.numpy
import rsshogi.record

# Scores beyond this are mates or lost positions: no use to a trainer.
DECIDED = 3000


def black_result(code):
    """Black's result (1, 0.5, 0) of a GameResult code, or None without one."""
    name = rsshogi.record.GameResult(code).name if code in RESULT_CODES else ""
    if name.startswith("BLACK_WIN"):
        return 1.0
    if name.startswith("WHITE_WIN"):
        return 0.0
    if name.startswith("DRAW"):
        return 0.5
    return None


RESULT_CODES = {int(getattr(rsshogi.record.GameResult, n)) for n in dir(rsshogi.record.GameResult)
                if n.isupper()}


def lines(path, counts):
    records = np.fromfile(path, dtype=rsshogi.numpy.PackedSfenValue)
    board = rsshogi.core.Board()
    for r in records:
        counts["read"] += 1
        result = black_result(int(r["game_result"]))
        if result is None:
            counts["no result"] += 1
            continue
        board.set_packed_sfen(bytes(r["sfen"]))
        move = rsshogi.core.Move(int(r["move"]))
        score = int(r["score"])
        capture = not move.is_drop() and board.piece_on(move.to_sq).value != 0
        if board.is_in_check() or capture or move.is_promotion() or abs(score) > DECIDED:
            counts["not quiet or decided"] += 1
            continue
        if board.turn.is_white():
            score = -score
        counts["kept"] += 1
        yield f"{board.to_sfen()}\t{result:g}\t{score}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("psv", nargs="+", help="psv files of a generate run (RUN/records/*.psv)")
    args = p.parse_args()
    counts = {"read": 0, "no result": 0, "not quiet or decided": 0, "kept": 0}
    out = sys.stdout
    for path in args.psv:
        for line in lines(path, counts):
            out.write(line + "\n")
    print(", ".join(f"{k} {v:,}" for k, v in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
