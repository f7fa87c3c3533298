#!/usr/bin/env python3
"""Self-play reliability: Kyobo against itself at a short byoyomi, refereed here.

Every move is checked with cshogi for legality; its thinking time is measured from
`go` to `bestmove` and must stay within the byoyomi plus a tolerance; an engine
that dies or stops answering is a crash. Games start from taya36 openings and end
by mate/resign, declaration, fourfold repetition or the move limit.

    python3 tools/selfplay.py --games 100 --byoyomi 100
"""

import argparse
import os
import random
import subprocess
import sys
import time

import cshogi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "taya36.sfen")
KYOBO = os.path.join(ROOT, "target", "release", "kyobo")


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok", 10)
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait("readyok", 30)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line.strip()
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {prefix} within {timeout}s")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def play(engines, opening, byoyomi, tolerance_ms, max_plies, stats):
    board = cshogi.Board()
    moves = opening.split()[2:]
    for m in moves:
        board.push_usi(m)
    for e in engines:
        e.send("usinewgame")
    reps = {}
    while True:
        if board.move_number > max_plies:
            return "draw (move limit)"
        e = engines[board.turn]
        e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        start = time.monotonic()
        e.send(f"go btime 0 wtime 0 byoyomi {byoyomi}")
        line = e.wait("bestmove", byoyomi / 1000 + 10)
        took = (time.monotonic() - start) * 1000
        stats["moves"] += 1
        stats["max_ms"] = max(stats["max_ms"], took)
        if took > byoyomi + tolerance_ms:
            stats["time_losses"] += 1
            return f"time loss ({took:.0f} ms)"
        best = line.split()[1]
        if best == "resign":
            return "resign"
        if best == "win":
            return "declaration"
        move = board.move_from_usi(best)
        if move == 0 or not board.is_legal(move):
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
    p.add_argument("--byoyomi", type=int, default=100)
    p.add_argument("--tolerance", type=int, default=50, help="ms over byoyomi still accepted (pipe and process lag)")
    p.add_argument("--max-plies", type=int, default=320)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine", default=KYOBO)
    p.add_argument("--network-delay2", type=int, default=40)
    a = p.parse_args()
    openings = [l.strip() for l in open(OPENINGS) if l.strip()]
    random.Random(a.seed).shuffle(openings)
    opts = {"USI_Hash": 16, "Threads": 1, "NetworkDelay": 0, "NetworkDelay2": a.network_delay2, "MinimumThinkingTime": 0}
    stats = {"moves": 0, "max_ms": 0.0, "time_losses": 0, "illegal": 0, "crashes": 0}
    endings = {}
    for g in range(a.games):
        engines = []
        try:
            engines = [Engine(a.engine, opts), Engine(a.engine, opts)]
            result = play(engines, openings[g % len(openings)], a.byoyomi, a.tolerance, a.max_plies, stats)
        except Exception as ex:  # a dead or silent engine
            stats["crashes"] += 1
            result = f"crash: {ex}"
        finally:
            for e in engines:
                e.close()
        kind = result.split(" (")[0].split(":")[0]
        endings[kind] = endings.get(kind, 0) + 1
        print(f"game {g + 1}: {result}", flush=True)
    print(f"games {a.games}, moves {stats['moves']}, longest move {stats['max_ms']:.0f} ms "
          f"(byoyomi {a.byoyomi} ms), illegal {stats['illegal']}, time losses {stats['time_losses']}, "
          f"crashes {stats['crashes']}, endings {endings}")
    return 0 if stats["illegal"] == stats["time_losses"] == stats["crashes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
