#!/usr/bin/env python3
"""How close a shogiarena run's engines came to losing on time: the games by
result, the moves searched, the longest move, and the closest call, found by
replaying each side's clock from shogiarena's wall time of each move; and
each engine's time a move (median, 90th percentile, longest), to see whether the
engines of a match think equally long.

shogiarena counts time losses (`completion_status.json`, `timeouts_by_origin`);
this says how much room was left where none happened. Give the run's time
control (a main time and an increment, or a byoyomi): a move's room is the main
time left plus the byoyomi, and the increment is added after the move.

    python3 tools/arena_clock.py RUN [--time-ms 1000] [--increment-ms 100] [--byoyomi-ms 0]

Reads RUN/game.db (shogiarena's SQLite record of the games); Python's standard
library only.
"""

import argparse
import collections
import sqlite3
import statistics
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a shogiarena run's folder (holding game.db)")
    parser.add_argument("--time-ms", type=int, default=1000, help="main time a side")
    parser.add_argument("--increment-ms", type=int, default=100, help="added after each move")
    parser.add_argument("--byoyomi-ms", type=int, default=0, help="a move's byoyomi")
    args = parser.parse_args()

    db = sqlite3.connect(f"file:{args.run}/game.db?mode=ro", uri=True)
    results = collections.Counter(r for (r,) in db.execute("select game_result from game"))
    # The last row of a game is its end (a resignation or a win), with no time.
    rows = db.execute(
        "select game_id, ply, wall_time_ms from game_move"
        " where wall_time_ms is not null order by game_id, ply"
    )
    clocks = {}
    moves = 0
    longest = (0, None)
    closest = (None, None)
    for game, ply, used in rows:
        # Sides alternate by ply; which is Black does not matter for the room.
        side = (game, ply % 2)
        clock = clocks.get(side, args.time_ms)
        room = clock + args.byoyomi_ms
        moves += 1
        if used > longest[0]:
            longest = (used, (game, ply))
        left = room - used
        if closest[0] is None or left < closest[0]:
            closest = (left, (game, ply, used, room))
        clocks[side] = max(clock - used, 0) + args.increment_ms

    print(f"games {sum(results.values())}: " + ", ".join(f"{r} {n}" for r, n in results.most_common()))
    print(f"moves searched {moves}")
    if moves:
        game, ply = longest[1]
        print(f"longest move {longest[0]} ms (game {game}, ply {ply})")
        game, ply, used, room = closest[1]
        print(f"closest call {closest[0]} ms left: {used} ms of {room} (game {game}, ply {ply})")
    by_engine = collections.defaultdict(list)
    # A game's plies count from the start position: Black moves at even plies.
    rows = db.execute(
        "select b.player_name, w.player_name, m.ply, m.wall_time_ms from game_move m"
        " join game g on g.id = m.game_id"
        " join player b on b.id = g.black_player_id join player w on w.id = g.white_player_id"
        " where m.wall_time_ms is not null"
    )
    for black, white, ply, used in rows:
        by_engine[white if ply % 2 else black].append(used)
    for engine, times in sorted(by_engine.items()):
        tenths = statistics.quantiles(times, n=10) if len(times) > 1 else times * 9
        print(
            f"{engine}: {len(times)} moves, median {statistics.median(times):.0f} ms,"
            f" 90th percentile {tenths[-1]:.0f} ms, longest {max(times)} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
