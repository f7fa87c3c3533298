#!/usr/bin/env python3
"""Mates allowed in a shogiarena run's games: after each move, whether Kyobo's
checkmate solver proves a mate for the opponent, and what the mover's own
score for its move was. A mate allowed while the mover still valued its move
at 0 or more is one its search did not see; the report counts the games where
that happened first, by engine, and how many of them the mover lost.

    python3 testing/allowed_mates.py RUN [--kyobo BIN] [--movetime MS]
        [--sample SHARE] [--seed N]

RUN is a run's directory (an SPRT, gauntlet or self-play run); its game.db is
read. Left out: moves that give check, moves whose score is a mate or missing,
and every move after the opponent has announced a mate (the mover was lost
before it; a forced reply is played at once with a plain score). `--sample`
tests that share of the rest.
Each position is solved by `BIN mate --first` (default
target/release/kyobo) with MS milliseconds (default 50). Needs cshogi and
rsshogi (installed with shogiarena).
"""

import argparse
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

# shogiarena's stored value of a mate score: 32000 less the plies, at most 246.
MATE_FLOOR = 32000 - 246


class Tested(NamedTuple):
    """One move tested: its game, its index in the game, the mover's name and
    score, whether a mate was proven after it, and whether the mover lost."""

    game: int
    index: int
    mover: str
    score: int
    mated: bool
    mover_lost: bool


def first_oversights(tested: list[Tested], threshold: int = 0) -> dict[str, tuple[int, int]]:
    """By engine: (games where its first move allowing a mate was scored at
    `threshold` or more, how many of those it lost). Only the first move that
    allowed a mate in a game counts, whoever made it.

    >>> t = [Tested(1, 4, "a", 300, True, True), Tested(1, 9, "b", 5, True, False),
    ...      Tested(2, 3, "b", -800, True, True), Tested(3, 2, "a", 50, False, False)]
    >>> first_oversights(t)
    {'a': (1, 1)}
    >>> first_oversights(t, threshold=-1000)
    {'a': (1, 1), 'b': (1, 1)}
    """
    first: dict[int, Tested] = {}
    for t in sorted(tested, key=lambda t: (t.game, t.index)):
        if t.mated and t.game not in first:
            first[t.game] = t
    counts: dict[str, tuple[int, int]] = {}
    for t in first.values():
        if t.score >= threshold:
            games, lost = counts.get(t.mover, (0, 0))
            counts[t.mover] = (games + 1, lost + int(t.mover_lost))
    return counts


def positions(db: sqlite3.Connection, share: float, rng: random.Random):
    """(SFEN after the move, game, index, mover's name, score, mover lost) of
    the moves to test."""
    import cshogi
    import rsshogi.core as rc

    names = dict(db.execute("select id, player_name from player"))
    games = db.execute(
        "select id, game_result, black_player_id, white_player_id, initial_position_sfen from game"
    ).fetchall()
    for game_id, result, black, white, sfen in games:
        board = cshogi.Board(sfen)
        rows = db.execute(
            "select next_move, eval from game_move where game_id = ? order by ply", (game_id,)
        ).fetchall()
        announced = {True: False, False: False}  # by Black (True) and White
        for index, (move, score) in enumerate(rows):
            if move is None:
                break
            black_moved = board.turn == cshogi.BLACK
            board.push_usi(rc.Move(move).to_usi())
            announced[black_moved] |= score is not None and score >= MATE_FLOOR
            if announced[not black_moved]:
                break
            if score is None or abs(score) >= MATE_FLOOR or board.is_check():
                continue
            if rng.random() >= share:
                continue
            # WHITE_WIN, WHITE_WIN_BY_TIMEOUT, …: the winner comes first.
            lost = result.startswith("WHITE_WIN" if black_moved else "BLACK_WIN")
            mover = names[black if black_moved else white]
            yield board.sfen(), game_id, index, mover, score, lost


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path)
    default_kyobo = Path(__file__).resolve().parent.parent / "target/release/kyobo"
    ap.add_argument("--kyobo", default=str(default_kyobo))
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--sample", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    db_path = args.run / "game.db"
    if not db_path.exists():
        print(f"no game.db in {args.run}", file=sys.stderr)
        return 1
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    found = list(positions(db, args.sample, random.Random(args.seed)))
    if not found:
        print("no moves to test")
        return 0
    with tempfile.NamedTemporaryFile("w", suffix=".sfen") as f:
        f.write("".join(p[0] + "\n" for p in found))
        f.flush()
        command = [args.kyobo, "mate", "--file", f.name, "--first", "--hash", "16",
                   "--movetime", str(args.movetime), "--json"]
        solved = subprocess.run(command, capture_output=True, text=True, check=True)
        report = json.loads(solved.stdout)
    problems = report["problems"]
    tested = [
        Tested(game, index, mover, score, p["result"].startswith("mate"), lost)
        for (_, game, index, mover, score, lost), p in zip(found, problems)
    ]
    ms = [p["seconds"] * 1000 for p in problems]
    kinds = [p["result"].split()[0] for p in problems]
    print(f"positions {len(problems)}: mate {kinds.count('mate')}, "
          f"nomate {kinds.count('nomate')}, timeout {kinds.count('timeout')}; "
          f"solve median {statistics.median(ms):.2f} ms, mean {statistics.mean(ms):.2f} ms")
    games = len({t.game for t in tested})
    for threshold in (0, -1000):
        for mover, (count, lost) in sorted(first_oversights(tested, threshold).items()):
            print(f"{mover}: first mate allowed at a score of {threshold} or more in {count} "
                  f"of {games} games, {lost} of them lost")
    return 0


if __name__ == "__main__":
    sys.exit(main())
