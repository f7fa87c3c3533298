#!/usr/bin/env python3
"""What an SPSA run has moved: each parameter's start, its value after the last
update, the value the engine is sent, and the move in the parameter's own steps
(the `c_end` it declares), largest first.

    python3 testing/spsa_moved.py RUN

RUN is a run directory of testing/spsa.sh (SPSA_RUN). It reads only the run's
own files (spsa/space.normalized.json, spsa/accepted-best.json), so it works
while the run goes on and after it ends.
"""

import json
import sys
from pathlib import Path


def moved(run: Path) -> tuple[int, list[tuple[str, float, float, int, float]]]:
    """The last update's index, and (name, start, value, sent, steps) per parameter."""
    space = json.loads((run / "spsa" / "space.normalized.json").read_text())
    best = json.loads((run / "spsa" / "accepted-best.json").read_text())
    start = {p["id"]: (p["initial"], p["schedule"]["c_end"]) for p in space["parameters"]}
    rows = []
    for p in best["parameters"]:
        initial, step = start[p["parameter_id"]]
        rows.append(
            (p["option_name"], initial, p["value"], p["wire_value"], (p["value"] - initial) / step)
        )
    rows.sort(key=lambda r: -abs(r[4]))
    return best["update_idx"], rows


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run = Path(sys.argv[1])
    try:
        update, rows = moved(run)
    except (OSError, KeyError, ValueError) as e:
        print(f"{run}: not an SPSA run with an update yet ({e})", file=sys.stderr)
        return 1
    print(f"after update {update} (largest move first, in the parameter's steps):")
    for name, initial, value, sent, steps in rows:
        print(f"  {name:24} {initial:9.2f} -> {value:9.2f}  sent as {sent:<6} {steps:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
