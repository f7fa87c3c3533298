#!/usr/bin/env python3
"""How many games an SPRT is expected to take, to plan a run before starting it.

    python3 tools/sprt_length.py --elo0 0 --elo1 5 --games-per-minute 1.4

For each true difference (by default 0, elo1 / 2, elo1 and 2 × elo1) it prints
the chance that the SPRT accepts the change and the expected number of games,
and, given a rate, the hours they take. It uses Wald's approximation with the
normal model of a game's score (the model of the trinomial GSPRT): the log-
likelihood ratio drifts by (s1 − s0) / σ² × (s − (s0 + s1) / 2) a game, where
s0, s1 and s are the expected scores at elo0, elo1 and the true difference and
σ² a game's score variance (s (1 − s) less a quarter of the draw rate). A
pentanomial SPRT on paired openings, as testing/sprt.yaml runs, usually needs
somewhat fewer games; these figures are a planning estimate, not a bound.
"""

import argparse
import math


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_length(
    elo0: float, elo1: float, true_elo: float, alpha: float, beta: float, draw_rate: float
) -> tuple[float, float]:
    """(the chance of accepting H1, the expected number of games)."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    s0, s1, s = expected_score(elo0), expected_score(elo1), expected_score(true_elo)
    variance = s * (1 - s) - draw_rate / 4
    # The LLR's drift and diffusion per game.
    drift = (s1 - s0) / variance * (s - (s0 + s1) / 2)
    diffusion = (s1 - s0) ** 2 / variance
    if abs(drift) < 1e-12:
        return (-lower) / (upper - lower), -lower * upper / diffusion
    h = -2 * drift / diffusion
    p = (1 - math.exp(h * lower)) / (math.exp(h * upper) - math.exp(h * lower))
    return p, (p * upper + (1 - p) * lower) / drift


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=5.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--draw-rate", type=float, default=0.02, help="share of drawn games")
    parser.add_argument("--games-per-minute", type=float, help="the rate the machines play at")
    parser.add_argument("--true", type=float, nargs="*", help="true differences (Elo)")
    args = parser.parse_args()
    if not args.elo1 > args.elo0:
        parser.error("elo1 must be above elo0")
    truths = args.true or [args.elo0, (args.elo0 + args.elo1) / 2, args.elo1, 2 * args.elo1]
    print(f"SPRT [{args.elo0:g}, {args.elo1:g}], alpha {args.alpha:g}, beta {args.beta:g}, "
          f"draws {args.draw_rate:.0%}")
    for elo in truths:
        p, games = sprt_length(args.elo0, args.elo1, elo, args.alpha, args.beta, args.draw_rate)
        line = f"  true {elo:+6.1f} Elo: accepts {p:6.1%}, about {games:8,.0f} games"
        if args.games_per_minute:
            line += f", {games / args.games_per_minute / 60:7.1f} h"
        print(line)


if __name__ == "__main__":
    main()
