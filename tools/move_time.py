#!/usr/bin/env python3
"""How long USI engines take a move at a given byoyomi: each engine searches the
same positions (the ends of the first openings of a file), the engines taking
turns position by position, and the time from `go` to `bestmove` is measured
here, as a GUI's clock would see it.

    python3 tools/move_time.py --openings FILE [--positions 6] [--byoyomi-ms 1000] \\
        ENGINE [ENGINE ...]

ENGINE is a path, or `PATH:NAME=VALUE,NAME=VALUE` to set options first
(`target/release/kyobo:NetworkDelay2=20`). Say which match the times are for: an
engine's time a move is what a match's referee allows it (shogiarena allows 500 ms
past the period by default). Run it on an idle machine.
"""

import argparse
import statistics
import sys
import time

from usi_engine import UsiEngine


def parse_engine(text):
    """`PATH` or `PATH:NAME=VALUE,...` as (path, [(name, value), ...])."""
    path, _, options = text.partition(":")
    pairs = []
    for option in filter(None, options.split(",")):
        name, sep, value = option.partition("=")
        if not sep:
            raise SystemExit(f"an option needs NAME=VALUE: {option!r}")
        pairs.append((name, value))
    return path, pairs


def openings(path, count):
    """The first `count` lines of an openings file, as `position` arguments."""
    lines = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            lines.append(line if line.startswith(("startpos", "sfen")) else f"sfen {line}")
            if len(lines) == count:
                break
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="+", help="PATH or PATH:NAME=VALUE,...")
    parser.add_argument("--openings", required=True, help="one SFEN or `startpos moves` line each")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--byoyomi-ms", type=int, default=1000)
    args = parser.parse_args()

    positions = openings(args.openings, args.positions)
    engines = []
    try:
        for text in args.engines:
            path, options = parse_engine(text)
            engine = UsiEngine(path, options=options)
            engine.handshake(timeout=30)
            engine.new_game()
            engines.append((text, engine, []))
        timeout = args.byoyomi_ms / 1000 * 3 + 10
        for position in positions:
            for _, engine, times in engines:
                engine.send(f"position {position}")
                start = time.monotonic()
                engine.send(f"go btime 0 wtime 0 byoyomi {args.byoyomi_ms}")
                engine.wait_for("bestmove", timeout=timeout)
                times.append((time.monotonic() - start) * 1000)
    finally:
        for _, engine, _ in engines:
            engine.quit()
    for text, _, times in engines:
        ms = ", ".join(f"{t:.0f}" for t in times)
        print(f"{text}: median {statistics.median(times):.0f} ms, longest {max(times):.0f} ms ({ms})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
