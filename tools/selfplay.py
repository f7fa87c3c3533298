#!/usr/bin/env python3
"""Self-play reliability: Kyobo against itself on a real game clock, refereed here.

Every move is checked with cshogi for legality. Each side has a clock kept as a
GUI keeps it: main time (`--time`), then byoyomi (`--byoyomi`) per move, and a
Fischer increment (`--inc`) added after each move; a move is timed from `go` to
`bestmove` (pipes and process lag included) and a side whose move takes more
than its main time plus byoyomi (plus `--tolerance`) loses on time. An engine
that dies or stops answering is a crash. Games start from taya36 openings and
end by mate/resign, declaration, fourfold repetition or the move limit. The
summary gives the closest call: the least time a side had left after a move.

    python3 tools/selfplay.py --games 200 --time 10000 --jobs 2      # 10 s sudden death
    python3 tools/selfplay.py --games 200 --time 2000 --inc 1000 --jobs 2
    python3 tools/selfplay.py --games 100 --byoyomi 100              # 0.1 s a move

The engines run with their own defaults unless `--options NAME:VALUE,...` says
otherwise (USI_Hash 16 and Threads 1 always).
"""

import argparse
import concurrent.futures
import os
import random
import sys
import threading
import time

import cshogi

from usi_engine import UsiEngine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "taya36.sfen")
KYOBO = os.path.join(ROOT, "target", "release", "kyobo")


def play(engines, opening, clock, tolerance_ms, max_plies, stats, lock):
    """One game; `clock` is (main ms, byoyomi ms, increment ms)."""
    main, byoyomi, inc = clock
    board = cshogi.Board()
    moves = opening.split()[2:]
    for m in moves:
        board.push_usi(m)
    for e in engines:
        e.new_game()
    left = [main, main]  # by cshogi colour: 0 Black, 1 White
    reps = {}
    while True:
        if board.move_number > max_plies:
            return "draw (move limit)"
        side = board.turn
        e = engines[side]
        e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        go = f"go btime {left[0]} wtime {left[1]} byoyomi {byoyomi}"
        if inc:
            go = f"go btime {left[0]} wtime {left[1]} binc {inc} winc {inc}"
        available = left[side] + byoyomi
        start = time.monotonic()
        e.send(go)
        line = e.wait_for("bestmove", available / 1000 + 10)[-1]
        took = (time.monotonic() - start) * 1000
        margin = available - took
        with lock:
            stats["moves"] += 1
            if took > stats["max_ms"]:
                stats["max_ms"] = took
                stats["max_of"] = available
            stats["max_share"] = max(stats["max_share"], took / max(available, 1))
            if margin < stats["closest"][0]:
                stats["closest"] = (margin, took, available, board.move_number)
        if took > available + tolerance_ms:
            with lock:
                stats["time_losses"] += 1
            return f"time loss ({took:.0f} ms of {available} ms)"
        left[side] = max(0, int(left[side] - took)) + inc
        best = line.split()[1]
        if best == "resign":
            return "resign"
        if best == "win":
            return "declaration"
        move = board.move_from_usi(best)
        if move == 0 or not board.is_legal(move):
            with lock:
                stats["illegal"] += 1
            return f"illegal move {best}"
        board.push(move)
        moves.append(best)
        key = board.zobrist_hash()
        reps[key] = reps.get(key, 0) + 1
        if reps[key] >= 4:
            return "repetition"
        if board.is_game_over():
            return "mate"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--time", type=int, default=0, help="main time per side, ms")
    p.add_argument("--byoyomi", type=int, default=0, help="byoyomi, ms")
    p.add_argument("--inc", type=int, default=0, help="Fischer increment, ms")
    p.add_argument("--tolerance", type=int, default=0, help="ms over the clock still accepted")
    p.add_argument("--max-plies", type=int, default=320)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="games played at once")
    p.add_argument("--engine", default=KYOBO)
    p.add_argument("--options", default="", help="NAME:VALUE,... for both engines")
    a = p.parse_args()
    if a.time == 0 and a.byoyomi == 0:
        p.error("give --time and/or --byoyomi")
    openings = [l.strip() for l in open(OPENINGS) if l.strip()]
    random.Random(a.seed).shuffle(openings)
    opts = {"USI_Hash": 16, "Threads": 1}
    for item in filter(None, a.options.split(",")):
        k, v = item.split(":", 1)
        opts[k] = v
    stats = {"moves": 0, "max_ms": 0.0, "max_of": 0, "max_share": 0.0, "time_losses": 0,
             "illegal": 0, "crashes": 0, "closest": (float("inf"), 0, 0, 0)}
    endings = {}
    lock = threading.Lock()

    def one(g):
        engines = []
        try:
            engines = [UsiEngine(a.engine, opts), UsiEngine(a.engine, opts)]
            for e in engines:
                e.handshake(timeout=30)
            result = play(engines, openings[g % len(openings)], (a.time, a.byoyomi, a.inc),
                          a.tolerance, a.max_plies, stats, lock)
        except Exception as ex:  # a dead or silent engine
            with lock:
                stats["crashes"] += 1
            result = f"crash: {ex}"
        finally:
            for e in engines:
                e.quit()
        kind = result.split(" (")[0].split(":")[0]
        with lock:
            endings[kind] = endings.get(kind, 0) + 1
            closest = stats["closest"][0]
        print(f"game {g + 1}: {result} (moves so far {stats['moves']}, closest call so far {closest:.0f} ms)",
              flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(one, range(a.games)))
    margin, took, available, ply = stats["closest"]
    print(f"clock: main {a.time} ms, byoyomi {a.byoyomi} ms, increment {a.inc} ms; {a.jobs} games at once")
    print(f"games {a.games}, moves {stats['moves']}, illegal {stats['illegal']}, "
          f"time losses {stats['time_losses']}, crashes {stats['crashes']}, endings {endings}")
    print(f"longest move {stats['max_ms']:.0f} ms of {stats['max_of']} ms on the clock; "
          f"largest share of the clock in one move {stats['max_share'] * 100:.1f} %")
    print(f"closest call: {margin:.0f} ms left after a move of {took:.0f} ms "
          f"with {available} ms on the clock (move {ply})")
    return 0 if stats["illegal"] == stats["time_losses"] == stats["crashes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
