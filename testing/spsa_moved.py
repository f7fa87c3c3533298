#!/usr/bin/env python3
"""What an SPSA run has moved: each parameter's start, its value after the last
update, the value the engine is sent, the move in the parameter's own steps (the
`c_end` it declares), and how the move compares with noise, largest first.

    python3 testing/spsa_moved.py RUN

RUN is a run directory of testing/spsa.sh (SPSA_RUN). It reads only the run's
own files (spsa/space.normalized.json, spsa/accepted-best.json and, read-only,
the ledger spsa/ledger.sqlite3), so it works while the run goes on and after it.

The noise figure z is the parameter's whole move over the root of the sum of
its updates' squared moves. Were the parameter without effect on the results,
each update's move would be as likely up as down (the perturbation's sign is
drawn apart from the games), so z would be about normal with mean 0: |z| over 2
for about one parameter in twenty. Many more than that is signal.
"""

import json
import math
import sqlite3
import sys
from pathlib import Path


def noise_z(run: Path) -> dict[str, float]:
    """Each parameter's z over the committed updates (empty without a ledger)."""
    ledger = run / "spsa" / "ledger.sqlite3"
    if not ledger.exists():
        return {}
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "select theta_before_json, theta_final_json from updates "
            "where state = 'COMMITTED' order by update_idx"
        ).fetchall()
    finally:
        db.close()
    total: dict[str, float] = {}
    squares: dict[str, float] = {}
    for before, after in rows:
        before, after = json.loads(before), json.loads(after)
        for name, value in after.items():
            d = value - before[name]
            total[name] = total.get(name, 0.0) + d
            squares[name] = squares.get(name, 0.0) + d * d
    return {n: total[n] / math.sqrt(squares[n]) if squares[n] else 0.0 for n in total}


def moved(run: Path) -> tuple[int, list[tuple[str, float, float, int, float, float]]]:
    """The last update's index, and (name, start, value, sent, steps, z) per parameter."""
    space = json.loads((run / "spsa" / "space.normalized.json").read_text())
    best = json.loads((run / "spsa" / "accepted-best.json").read_text())
    start = {p["id"]: (p["initial"], p["schedule"]["c_end"]) for p in space["parameters"]}
    z = noise_z(run)
    rows = []
    for p in best["parameters"]:
        initial, step = start[p["parameter_id"]]
        steps = (p["value"] - initial) / step
        rows.append(
            (p["option_name"], initial, p["value"], p["wire_value"], steps,
             z.get(p["parameter_id"], math.nan))
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
    except (OSError, KeyError, ValueError, sqlite3.Error) as e:
        print(f"{run}: not an SPSA run with an update yet ({e})", file=sys.stderr)
        return 1
    print(f"after update {update} (largest move first; steps: the parameter's own; z: against noise):")
    for name, initial, value, sent, steps, z in rows:
        print(f"  {name:24} {initial:9.2f} -> {value:9.2f}  sent as {sent:<6} {steps:+.2f} steps  z {z:+.2f}")
    beyond = sum(1 for r in rows if abs(r[5]) > 2)
    print(f"{beyond} of {len(rows)} with |z| over 2 (noise alone: about {len(rows) / 20:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
