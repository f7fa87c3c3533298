#!/usr/bin/env python3
"""Labels training positions with GPS Shogi's search score, for distilling its
evaluation into Kyobo's (`crates/eval/examples/tune.rs --score-column`).

Reads lines `SFEN<TAB>result[<TAB>...]` (the format `selfplay` and
`tools/pgn_positions.py` write, result from Black's side) and writes

    SFEN<TAB>result<TAB>kyobo-score-or-empty<TAB>gps-score

with GPS Shogi's score from Black's side in its own centipawns (pawn = 100, its
`UsiOutputPawnValue` default). GPS Shogi answers `go` with at least a depth-6 search
whatever the byoyomi, so the depth is limited with its `LimitDepth` option (4 by
default), and its search is stopped after `--seconds` (0.3; a depth-4 search takes up
to about a second on middle-game positions). About 11 positions a second with two
workers on two cores. Positions it scores as a mate or beyond ±5000, or does not
score, are left out.

GPS Shogi saves every `setoption` to its configuration file (`--gps-conf`) and starts
from it the next time, so the file is put back as it was when the run ends (removed
if there was none): otherwise a later match would play against a depth-4, one-thread
GPS Shogi that writes its search log to stderr. For the same reason, do not start a
match against GPS Shogi while this runs.

Each worker runs its own `gpsusi` (one thread, no book) on every `--workers`-th block
of 500 lines (about ten games), and the output keeps each block's lines together, so
games rarely straddle the tuner's validation split. An interrupted run leaves its
finished blocks in `OUTPUT.partN`:

    python3 tools/gps_label.py --input /tmp/sp.txt --output /tmp/sp-gps.txt --workers 2
"""

import argparse
import multiprocessing
import os
import subprocess
import sys
import threading

import gps_conf
from usi_engine import EngineError, UsiEngine

BLOCK = 500
# Scores beyond this are decided games (or GPS Shogi's internal mate values).
MAX_SCORE = 5000


class Gps:
    def __init__(self, path, depth, seconds):
        self.seconds = seconds
        # The timer's `stop` and the main thread's next commands must not interleave,
        # and a `stop` must not reach the search of the next position.
        self.lock = threading.Lock()
        self.searching = False
        self.engine = UsiEngine(path, [("Verbose", 1), ("Thread", 1), ("BookDepth", 0),
                                       ("LimitDepth", depth)], stderr=subprocess.DEVNULL)
        self.engine.handshake()
        self.engine.new_game()

    def score(self, sfen):
        """GPS Shogi's score for the side to move, or None (mate, resign, no info)."""
        self.engine.send(f"position sfen {sfen}")
        with self.lock:
            self.engine.send("go btime 0 wtime 0 byoyomi 100")
            self.searching = True
        # GPS Shogi takes about a second on middle-game positions even at depth 4; a
        # `stop` bounds that, and it answers with its last finished iteration.
        timer = threading.Timer(self.seconds, self.stop_search)
        timer.start()
        try:
            return self.read_score()
        finally:
            with self.lock:
                self.searching = False
            timer.cancel()

    def stop_search(self):
        with self.lock:
            if self.searching:
                self.engine.send("stop")

    def read_score(self):
        score = None
        for line in self.engine.wait_for("bestmove"):
            if line.startswith("info") and " score " in line:
                words = line.split()
                i = words.index("score")
                score = int(words[i + 2]) if words[i + 1] == "cp" else None
            elif line.startswith("bestmove"):
                return score if "resign" not in line and "win" not in line else None

    def close(self):
        self.engine.quit()


def label(args):
    worker, lines, out_path, gps_path, depth, seconds, workers = args
    gps = Gps(gps_path, depth, seconds)
    written = 0
    with open(out_path, "w") as out:
        for block_start in range(worker * BLOCK, len(lines), BLOCK * workers):
            for line in lines[block_start:block_start + BLOCK]:
                fields = line.rstrip("\n").split("\t")
                if len(fields) < 2:
                    continue
                sfen, result = fields[0], fields[1]
                ours = fields[2] if len(fields) > 2 else ""
                try:
                    score = gps.score(sfen)
                except EngineError:  # gpsusi exited
                    gps = Gps(gps_path, depth, seconds)
                    continue
                if score is None or abs(score) > MAX_SCORE:
                    continue
                black = score if sfen.split()[1] == "b" else -score
                out.write(f"{sfen}\t{result}\t{ours}\t{black}\n")
                written += 1
            out.flush()
    gps.close()
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--depth", type=int, default=4, help="GPS Shogi's LimitDepth (4-10)")
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="stop GPS Shogi's search after this long")
    parser.add_argument("--limit", type=int, default=0, help="label only the first N lines")
    parser.add_argument("--gps", default="/usr/games/gpsusi")
    parser.add_argument("--gps-conf", default=gps_conf.DEFAULT)
    opts = parser.parse_args()
    with gps_conf.kept(opts.gps_conf):
        label_all(opts)


def label_all(opts):
    with open(opts.input) as f:
        lines = f.readlines()
    if opts.limit:
        lines = lines[:opts.limit]
    parts = [f"{opts.output}.part{w}" for w in range(opts.workers)]
    jobs = [(w, lines, parts[w], opts.gps, opts.depth, opts.seconds, opts.workers)
            for w in range(opts.workers)]
    with multiprocessing.Pool(opts.workers) as pool:
        counts = pool.map(label, jobs)
    # Worker by worker; the lines of each block stay together.
    per_worker = []
    for part in parts:
        with open(part) as f:
            per_worker.append(f.readlines())
        os.remove(part)
    with open(opts.output, "w") as out:
        for part_lines in per_worker:
            out.writelines(part_lines)
    print(f"labelled {sum(counts)} of {len(lines)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
