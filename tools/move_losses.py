#!/usr/bin/env python3
"""What each of one player's moves lost, by a reference search: where a weaker engine goes wrong.

Reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena). For every move of the named
player from the given ply on, a reference engine (Kyobo in PVS mode by default) searches
the position before the move and the position after it to a fixed number of nodes
(deterministic), and the move's loss is the value before less the value after, both
from the mover's side (mates count as +/-30000, losses are capped at 3000). Prints one
line per game with the plies where a move lost at least `--blunder` (default 300):

    GAME SIDE RESULT moves N  blunders PLY:LOSS ...

then the share of moves by loss (0-99, 100-299, 300-999, 1000 and more), the mean
loss, and in how many lost games the first blunder came before ply 60, 60-99, 100 on:

    python3 tools/move_losses.py data/matches/abc-fairy-0-25.pgn --nodes 200000
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_positions import games  # noqa: E402
from score_games import Engine, game_arguments  # noqa: E402

CAP = 3000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_arguments(parser, 200000)
    parser.add_argument("--blunder", type=int, default=300)
    args = parser.parse_args()
    with open(args.pgn, encoding="utf-8") as f:
        text = f.read()
    engine = Engine(args.engine)
    buckets = [0, 0, 0, 0]
    total_loss, judged = 0, 0
    first_blunder = {"before 60": 0, "60-99": 0, "100 on": 0, "none": 0}
    for index, (tags, result, moves) in enumerate(games(text, with_tags=True)):
        if args.max_games is not None and index >= args.max_games:
            break
        sente = tags.get("White") == args.player  # cshogi's PGN calls Sente "White"
        won = result == (1.0 if sente else 0.0)
        outcome = "win" if won else ("draw" if result == 0.5 else "loss")
        engine.send("usinewgame")
        blunders = []
        count = 0
        for ply in range(args.from_ply, len(moves)):
            if (ply % 2 == 0) != sente:
                continue
            before = engine.score(moves[:ply], args.nodes)
            after = engine.score(moves[: ply + 1], args.nodes)
            if before is None or after is None:
                continue
            loss = max(0, min(CAP, before + after))
            count += 1
            judged += 1
            total_loss += loss
            buckets[0 if loss < 100 else 1 if loss < 300 else 2 if loss < 1000 else 3] += 1
            if loss >= args.blunder:
                blunders.append((ply + 1, loss))
        if outcome == "loss":
            if not blunders:
                first_blunder["none"] += 1
            else:
                ply = blunders[0][0]
                key = "before 60" if ply < 60 else "60-99" if ply < 100 else "100 on"
                first_blunder[key] += 1
        line = " ".join(f"{p}:{v}" for p, v in blunders)
        print(f"{index} {'B' if sente else 'W'} {outcome} moves {count}  blunders {line}", flush=True)
    engine.quit()
    if judged:
        shares = " ".join(
            f"{name} {100.0 * n / judged:.1f}%"
            for name, n in zip(["0-99", "100-299", "300-999", "1000+"], buckets)
        )
        print(f"moves {judged}; by loss: {shares}; mean loss {total_loss / judged:.0f}")
    print("first blunder in lost games: " + ", ".join(f"{k} {v}" for k, v in first_blunder.items()))


if __name__ == "__main__":
    main()
