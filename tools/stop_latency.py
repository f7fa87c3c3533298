#!/usr/bin/env python3
"""How fast Kyobo answers `stop`: the time from writing `stop` to reading
`bestmove`, over many searches (`go infinite` from positions of the start of a
game, stopped after a random 0.2-0.6 s). USI GUIs expect the answer at once; the
promise is 50 ms. Prints the median, the 90th percentile and the worst.

    python3 tools/stop_latency.py --tries 50
"""

import argparse
import os
import random
import statistics
import sys
import time

from usi_engine import EngineError, UsiEngine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KYOBO = os.path.join(ROOT, "target", "release", "kyobo")


def measure(e, tries, rng):
    """The milliseconds from `stop` to `bestmove` of each try."""
    openings = ["", "7g7f", "7g7f 3c3d", "2g2f 8c8d", "7g7f 8c8d 2g2f"]
    took = []
    for _ in range(tries):
        moves = rng.choice(openings)
        e.send(f"position startpos moves {moves}" if moves else "position startpos")
        e.send("go infinite")
        time.sleep(rng.uniform(0.2, 0.6))
        start = time.monotonic()
        e.send("stop")
        e.wait_for("bestmove")
        took.append((time.monotonic() - start) * 1000)
    return took


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tries", type=int, default=50)
    p.add_argument("--engine", default=KYOBO)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    e = UsiEngine(a.engine)
    try:
        e.handshake()
        took = measure(e, a.tries, rng)
    except EngineError as ex:
        sys.exit(str(ex))
    finally:
        e.quit()
    took.sort()
    p90 = took[int(0.9 * (len(took) - 1))]
    print(f"stop -> bestmove over {len(took)} tries: median {statistics.median(took):.1f} ms, "
          f"90th percentile {p90:.1f} ms, worst {took[-1]:.1f} ms")
    return 0 if statistics.median(took) <= 50 else 1


if __name__ == "__main__":
    sys.exit(main())
