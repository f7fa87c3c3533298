#!/usr/bin/env python3
"""Mates announced in a shogiarena run's games, and how many were not carried
through: after a side reports a mate score, a later move of the same side
reports none (it lost the line), and whether that side went on to win.

    python3 testing/mate_claims.py RUN [RUN...]

RUN is a run's directory (an SPRT, gauntlet or self-play run); its game.db is
read, nothing is written. shogiarena stores a mate in N plies as 32000 − N
from the mover's side.
"""

import sqlite3
import sys
from pathlib import Path

# shogiarena's stored value of a mate score: 32000 less the plies, at most 246.
MATE_FLOOR = 32000 - 246


def first_lost_mate(first_black: bool, evals: list[int | None]) -> str | None:
    """The side ("B" or "W") whose first announced mate a later move of its own
    reports no mate for; None if every announced mate was kept (or none was).
    `evals` are the moves' scores in order, each from its mover's side.

    White announces, then reports a plain score on its next move:
    >>> first_lost_mate(True, [10, 31995, -200, 300])
    'W'
    >>> first_lost_mate(True, [31993, -31994, 31995, None, 31999])
    >>> first_lost_mate(False, [None, 5, 20])
    """
    claimant = None
    for i, value in enumerate(evals):
        side = "B" if (i % 2 == 0) == first_black else "W"
        if value is None:
            continue
        if claimant is None and value >= MATE_FLOOR:
            claimant = side
        elif side == claimant and value < MATE_FLOOR:
            return side
    return None


def count(db: sqlite3.Connection) -> tuple[int, int, int, int]:
    """Games, games with an announced mate, games where the announcing side lost
    the line, and of those the games it did not win."""
    games = db.execute("select id, game_result, initial_position_sfen from game").fetchall()
    announced = lost_line = not_won = 0
    for game_id, result, sfen in games:
        first_black = sfen.split()[1] == "b"
        rows = db.execute("select eval from game_move where game_id = ? order by ply", (game_id,))
        evals = [value for (value,) in rows]
        announced += any(v is not None and v >= MATE_FLOOR for v in evals)
        side = first_lost_mate(first_black, evals)
        if side:
            lost_line += 1
            not_won += result != ("BLACK_WIN" if side == "B" else "WHITE_WIN")
    return len(games), announced, lost_line, not_won


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for run in sys.argv[1:]:
        path = Path(run) / "game.db"
        if not path.is_file():
            print(f"no game.db in {run}", file=sys.stderr)
            return 1
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            games, announced, lost_line, not_won = count(db)
        print(
            f"{run}: {games} games, a mate announced in {announced}, "
            f"its line lost afterwards in {lost_line}, {not_won} of them not won"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
