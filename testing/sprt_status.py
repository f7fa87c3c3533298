#!/usr/bin/env python3
"""Where an SPRT run stands: its games, the log-likelihood ratio shogiarena keeps
for it against the bounds it stops at, and the Elo difference with its 95 %
interval from the pairs of games.

    python3 testing/sprt_status.py [--earlier W-L-D:P0,P1,P2,P3,P4] RUN [RUN...]

RUN is the run's directory (`testing/sprt.sh` prints it; `SPRT_RUN` names it).
It reads RUN/state.json and writes nothing, so it can be run while the SPRT
plays. shogiarena 1.3.2's `results summary` gives the games but not the ratio.

Several RUNs are one test continued: the same two engines, options and bounds,
played on in a new run after the first met its cap (shogiarena fixes a run's
games when it starts). Their pairs are pooled and the ratio is computed again
from the pooled pairs, with the formula shogiarena uses for one run.

--earlier adds the counts of a run of the same test whose folder is gone, as
its report gave them: wins-losses-draws, then the five pair bins, e.g.
`--earlier 272-205-13:41,6,119,3,76`. The bounds are the RUNs'.
"""

import json
import math
import sys
from pathlib import Path

# The logistic Elo-to-score map, from the SPRT planner beside the other tools.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from sprt_length import expected_score  # noqa: E402

# A pair's score, by the pentanomial bin shogiarena counts it in: 0, ½, 1, 1½, 2
# points of two, as a share.
PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]


def elo(score: float) -> float:
    """The Elo difference a score share means (logistic).

    >>> round(elo(0.75), 1)
    190.8
    """
    return -400.0 * math.log10(1.0 / score - 1.0)


def pair_interval(bins: list[int]) -> tuple[float, float, float] | None:
    """The mean pair score and its 95 % interval, as Elo; None without pairs or
    while every pair has scored alike (no spread to measure).

    Two pairs split and two won: a mean of 3/4, a spread of 1/4 a pair.
    >>> [round(x, 1) for x in pair_interval([0, 0, 2, 0, 2])]
    [190.8, 3.5, 919.5]
    >>> pair_interval([0, 0, 5, 0, 0]) is None
    True
    """
    pairs = sum(bins)
    if pairs < 2:
        return None
    mean = sum(b * s for b, s in zip(bins, PAIR_SCORES)) / pairs
    var = sum(b * (s - mean) ** 2 for b, s in zip(bins, PAIR_SCORES)) / pairs
    half = 1.96 * math.sqrt(var / pairs)
    lo, hi = mean - half, mean + half
    if var == 0 or not 0 < lo < hi < 1:
        return None
    return elo(mean), elo(lo), elo(hi)


def pentanomial_llr(bins: list[int], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of pair counts (the Brownian
    approximation fishtest and shogiarena use): pairs × the drift
    (mean − (s0 + s1)/2)·(s1 − s0)/variance, each empty bin counted as 0.001.

    shogiarena 1.3.2 gave −0.4448 for these pairs with bounds [0, 10]:
    >>> round(pentanomial_llr([189, 14, 433, 14, 194], 0.0, 10.0), 4)
    -0.4448
    """
    counts = [b if b else 1e-3 for b in bins]
    total = sum(counts)
    mean = sum(c * s for c, s in zip(counts, PAIR_SCORES)) / total
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, PAIR_SCORES)) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return total * (mean - (s0 + s1) / 2.0) * (s1 - s0) / var


def pooled(states: list[dict]) -> dict:
    """One SPRT state from the states of runs that continue one test: the
    counts summed and the ratio computed from the pooled pairs. Runs with
    different bounds or error rates are not one test.

    >>> a = {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "model": "m",
    ...      "games_played": 4, "wins": 2, "losses": 2, "draws": 0,
    ...      "penta_bins": [1, 0, 0, 0, 1], "llr": 0.0}
    >>> b = dict(a, games_played=2, wins=1, losses=1, penta_bins=[0, 0, 1, 0, 0])
    >>> p = pooled([{"sprt_state": a}, {"sprt_state": b}])["sprt_state"]
    >>> p["games_played"], p["wins"], p["penta_bins"]
    (6, 3, [1, 0, 1, 0, 1])
    >>> pooled([{"sprt_state": a}, {"sprt_state": dict(b, elo1=5)}])
    Traceback (most recent call last):
    ValueError: the runs are not one test: their bounds or error rates differ
    """
    runs = [state["sprt_state"] for state in states]
    first = runs[0]
    if len(runs) == 1:
        return states[0]
    keys = ("elo0", "elo1", "alpha", "beta", "model")
    if any(any(run[k] != first[k] for k in keys) for run in runs):
        raise ValueError("the runs are not one test: their bounds or error rates differ")
    total = dict(first)
    for key in ("games_played", "wins", "losses", "draws"):
        total[key] = sum(run[key] for run in runs)
    total["penta_bins"] = [sum(bins) for bins in zip(*(run["penta_bins"] for run in runs))]
    total["llr"] = pentanomial_llr(total["penta_bins"], first["elo0"], first["elo1"])
    return {"sprt_state": total}


def earlier_state(counts: str, like: dict) -> dict:
    """A state of the test `like` is a run of, from the counts of an earlier run
    written `W-L-D:P0,P1,P2,P3,P4`.

    >>> like = {"sprt_state": {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "model": "m"}}
    >>> s = earlier_state("3-1-0:0,1,0,0,1", like)["sprt_state"]
    >>> s["games_played"], s["wins"], s["losses"], s["draws"], s["penta_bins"], s["elo1"]
    (4, 3, 1, 0, [0, 1, 0, 0, 1], 10)
    >>> earlier_state("3-1-0:0,1,0,1", like)
    Traceback (most recent call last):
    ValueError: --earlier wants W-L-D:P0,P1,P2,P3,P4 with games = 2 x pairs, not 3-1-0:0,1,0,1
    """
    try:
        games, bins = counts.split(":")
        wins, losses, draws = (int(x) for x in games.split("-"))
        penta = [int(x) for x in bins.split(",")]
    except ValueError:
        penta = []
    if len(penta) != 5 or wins + losses + draws != 2 * sum(penta):
        raise ValueError(f"--earlier wants W-L-D:P0,P1,P2,P3,P4 with games = 2 x pairs, not {counts}")
    state = dict(like["sprt_state"], wins=wins, losses=losses, draws=draws, penta_bins=penta)
    state["games_played"] = wins + losses + draws
    state["llr"] = pentanomial_llr(penta, state["elo0"], state["elo1"])
    return {"sprt_state": state}


def status(state: dict) -> list[str]:
    """The report's lines; the verdict from the ratio and the bounds
    ln((1 − β)/α) and ln(β/(1 − α)).

    >>> s = {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05, "model": "m",
    ...      "games_played": 8, "wins": 5, "losses": 1, "draws": 2,
    ...      "penta_bins": [0, 0, 2, 0, 2], "llr": 2.95}
    >>> status({"sprt_state": s})[3]
    'LLR 2.95 within [-2.94, 2.94]: accepted (H1: the change gains)'
    >>> status({"sprt_state": dict(s, llr=-2.95)})[3]
    'LLR -2.95 within [-2.94, 2.94]: rejected (H0: no gain)'
    """
    s = state["sprt_state"]
    upper = math.log((1 - s["beta"]) / s["alpha"])
    lower = math.log(s["beta"] / (1 - s["alpha"]))
    llr = s["llr"]
    if llr >= upper:
        verdict = "accepted (H1: the change gains)"
    elif llr <= lower:
        verdict = "rejected (H0: no gain)"
    else:
        verdict = "undecided"
    lines = [
        f"SPRT [{s['elo0']:g}, {s['elo1']:g}] Elo, alpha {s['alpha']:g}, beta {s['beta']:g} ({s['model']})",
        f"games {s['games_played']}: +{s['wins']} -{s['losses']} ={s['draws']}",
        f"pairs by points of 2 (0, 1/2, 1, 3/2, 2): {s['penta_bins']}",
        f"LLR {llr:.2f} within [{lower:.2f}, {upper:.2f}]: {verdict}",
    ]
    interval = pair_interval(s["penta_bins"])
    if interval:
        lines.append(f"Elo {interval[0]:+.1f} ({interval[1]:+.1f} ... {interval[2]:+.1f}, 95 %, from the pairs)")
    return lines


def main() -> int:
    args = sys.argv[1:]
    earlier = []
    while len(args) >= 2 and args[0] == "--earlier":
        earlier.append(args[1])
        args = args[2:]
    if not args or any(a.startswith("--") for a in args):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        states = [json.loads((Path(run) / "state.json").read_text()) for run in args]
        states += [earlier_state(counts, states[0]) for counts in earlier]
        print("\n".join(status(pooled(states))))
    except (OSError, ValueError, KeyError) as e:
        print(f"no SPRT state in {' '.join(args)}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
