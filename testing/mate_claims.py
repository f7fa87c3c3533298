#!/usr/bin/env python3
"""Mates announced in a shogiarena run's games, and how many were not carried
through: after a side reports a mate score, a later move of the same side
reports none (it lost the line), and whether that side went on to win. The lost
lines are also counted by the move that announced them: one with no node count
is Kyobo's mate probe (its `info` has none), one with a count its search.

    python3 testing/mate_claims.py RUN [RUN...]
    python3 testing/mate_claims.py --replay ENGINE RUN

RUN is a run's directory (an SPRT, gauntlet or self-play run); its game.db is
read, nothing is written. shogiarena stores a mate in N plies as 32000 − N
from the mover's side.

`--replay ENGINE` plays each game where a mate was announced and lost back to
ENGINE (a USI engine, Kyobo's options): the position of the announcement at
1 s a move, then, when ENGINE announces a mate there too and plays the game's
move, the position after the game's answer at 100 ms. It counts the second
moves that keep a mate score. Reading the moves needs rsshogi (installed with
shogiarena).
"""

import argparse
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

# shogiarena's stored value of a mate score: 32000 less the plies, at most 246.
MATE_FLOOR = 32000 - 246


class Announcement(NamedTuple):
    """The first mate announced in a game: by which side ("B" or "W"), at which
    move (its index), and whether a later move of that side reported no mate."""

    side: str
    at: int
    lost: bool


def first_announcement(first_black: bool, evals: list[int | None]) -> Announcement | None:
    """The game's first announced mate, None if no move announced one. `evals`
    are the moves' scores in order, each from its mover's side.

    White announces, then reports a plain score on its next move:
    >>> first_announcement(True, [10, 31995, -200, 300])
    Announcement(side='W', at=1, lost=True)
    >>> first_announcement(True, [31993, -31994, 31995, None, 31999])
    Announcement(side='B', at=0, lost=False)
    >>> first_announcement(False, [None, 5, 20])
    """
    first = None
    for i, value in enumerate(evals):
        side = "B" if (i % 2 == 0) == first_black else "W"
        if value is None:
            continue
        if first is None and value >= MATE_FLOOR:
            first = Announcement(side, i, False)
        elif first and side == first.side and value < MATE_FLOOR:
            return first._replace(lost=True)
    return first


def lost_mates(db: sqlite3.Connection):
    """(initial SFEN, USI moves, index of the announcing move) of each game
    where a mate was announced and its line lost afterwards."""
    import rsshogi.core as rc

    games = db.execute("select id, initial_position_sfen from game").fetchall()
    for game_id, sfen in games:
        first_black = sfen.split()[1] == "b"
        rows = db.execute(
            "select next_move, eval from game_move where game_id = ? order by ply", (game_id,)
        ).fetchall()
        first = first_announcement(first_black, [value for _, value in rows])
        if first and first.lost:
            moves = [rc.Move(m).to_usi() for m, _ in rows if m is not None]
            yield sfen, moves, first.at


def replay(engine: str, sfen: str, moves: list[str], at: int) -> str:
    """"kept", "lost" or "other" (ENGINE announced no mate at the first
    position, or played another move there)."""
    process = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def ask(n: int, byoyomi_ms: int) -> tuple[str, bool]:
        position = f"position sfen {sfen} moves {' '.join(moves[:n])}".rstrip()
        process.stdin.write(f"{position}\ngo btime 0 wtime 0 byoyomi {byoyomi_ms}\n")
        process.stdin.flush()
        mate = False
        for line in process.stdout:
            mate = mate or " score mate " in line and " score mate -" not in line
            if line.startswith("bestmove"):
                return line.split()[1], mate
        raise RuntimeError(f"{engine} ended without a bestmove")

    try:
        process.stdin.write("usi\nsetoption name NetworkDelay2 value 20\nisready\nusinewgame\n")
        process.stdin.flush()
        first, mate = ask(at, 1000)
        if not mate or first != moves[at] or at + 2 > len(moves):
            return "other"
        _, mate = ask(at + 2, 100)
        return "kept" if mate else "lost"
    finally:
        process.stdin.write("quit\n")
        process.stdin.flush()
        process.wait()


def count(db: sqlite3.Connection) -> tuple[int, dict[str, list[int]]]:
    """Games, and by the engine that announced a mate first: the games it
    announced one in, those where it lost the line, of those the games it did
    not win, and the lost lines announced by a move with no node count (Kyobo's
    mate probe reports none; its search does)."""
    names = dict(db.execute("select id, player_name from player"))
    games = db.execute(
        "select id, game_result, initial_position_sfen, black_player_id, white_player_id from game"
    ).fetchall()
    by_engine: dict[str, list[int]] = {}
    for game_id, result, sfen, black, white in games:
        first_black = sfen.split()[1] == "b"
        rows = db.execute(
            "select eval, nodes from game_move where game_id = ? order by ply", (game_id,)
        ).fetchall()
        first = first_announcement(first_black, [value for value, _ in rows])
        if first is None:
            continue
        tally = by_engine.setdefault(names[black if first.side == "B" else white], [0, 0, 0, 0])
        tally[0] += 1
        if first.lost:
            tally[1] += 1
            tally[2] += result != ("BLACK_WIN" if first.side == "B" else "WHITE_WIN")
            tally[3] += rows[first.at][1] is None
    return len(games), by_engine


def main() -> int:
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("--replay", metavar="ENGINE")
    parser.add_argument("runs", nargs="+", metavar="RUN")
    args = parser.parse_args()
    for run in args.runs:
        path = Path(run) / "game.db"
        if not path.is_file():
            print(f"no game.db in {run}", file=sys.stderr)
            return 1
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            try:
                games, by_engine = count(db)
            except sqlite3.Error as e:
                print(f"{path} is not a shogiarena game record: {e}", file=sys.stderr)
                return 1
            print(f"{run}: {games} games")
            if len(by_engine) > 4:
                # An SPSA run names its engines anew for each update.
                totals = [sum(column) for column in zip(*by_engine.values())]
                by_engine = {f"its {len(by_engine)} engines together": totals}
            for engine, (announced, lost_line, not_won, no_nodes) in sorted(by_engine.items()):
                print(
                    f"  {engine} announced a mate first in {announced}, lost its line "
                    f"afterwards in {lost_line} ({no_nodes} announced with no node count), "
                    f"{not_won} of them not won"
                )
            if args.replay:
                tally = {"kept": 0, "lost": 0, "other": 0}
                try:
                    for sfen, moves, at in lost_mates(db):
                        tally[replay(args.replay, sfen, moves, at)] += 1
                except (OSError, RuntimeError) as e:
                    print(f"cannot replay with {args.replay}: {e}", file=sys.stderr)
                    return 1
                print(
                    f"replayed with {args.replay}: the mate kept at the next move in "
                    f"{tally['kept']}, lost in {tally['lost']}; {tally['other']} where it "
                    "announced no mate first or played another move"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
