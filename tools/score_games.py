#!/usr/bin/env python3
"""Kyobo's own score along refereed games, to see where it misjudged a game it lost.

Reads the PGNs of Kyobo's earlier matches (`data/matches/*.pgn`, written by cshogi's referee before the matches moved to shogiarena), and for every position from
the given ply on where the named player was to move, asks the engine for a search of
a fixed number of nodes (deterministic) and records the score from that player's
side (mates as +/-30000). Prints one line per game:

    GAME SIDE RESULT  PLY:SCORE PLY:SCORE ...

then, over the games the player lost, how many had positions it scored at or above
`--optimistic` (default +400), e.g.:

    python3 tools/score_games.py /tmp/matches/gps-s4.pgn --engine /tmp/kyobo-58ce6ab
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_positions import games  # noqa: E402
from usi_engine import EngineError, UsiEngine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORE = re.compile(r"score (cp|mate) (-?\d+)")


class Engine(UsiEngine):
    """A USI engine with the given options (`(name, value)` pairs), ready to search."""

    def __init__(self, path, options=(("USI_Hash", 64),)):
        super().__init__(path, options)
        self.handshake()

    def wait_for(self, prefix, timeout=None):
        try:
            return super().wait_for(prefix, timeout)
        except EngineError as e:
            raise SystemExit(str(e)) from None

    def go(self, moves, limit, new_game=False):
        """The best move and the last score (the mover's side, mates as +/-30000)
        of a search of the position after `moves` with `go LIMIT`."""
        if new_game:
            self.new_game()
        self.send("position startpos moves " + " ".join(moves))
        self.send("go " + limit)
        score = None
        lines = self.wait_for("bestmove")
        for line in lines:
            m = SCORE.search(line)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (30000 if v > 0 else -30000)
        return lines[-1].split()[1], score

    def score(self, moves, nodes):
        return self.go(moves, f"nodes {nodes}")[1]


def game_arguments(parser, nodes):
    """The arguments every per-move tool over a match PGN takes."""
    parser.add_argument("pgn")
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "kyobo"))
    parser.add_argument("--player", default="Kyobo", help="the PGN name whose moves are looked at")
    parser.add_argument("--nodes", type=int, default=nodes)
    parser.add_argument("--from-ply", type=int, default=36)
    parser.add_argument("--max-games", type=int, default=None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_arguments(parser, 100000)
    parser.add_argument("--optimistic", type=int, default=400)
    args = parser.parse_args()
    with open(args.pgn, encoding="utf-8") as f:
        text = f.read()
    engine = Engine(args.engine)
    lost, misjudged = 0, []
    for index, (tags, result, moves) in enumerate(games(text, with_tags=True)):
        if args.max_games is not None and index >= args.max_games:
            break
        sente = tags.get("White") == args.player  # cshogi's PGN calls Sente "White"
        won = result == (1.0 if sente else 0.0)
        engine.new_game()
        scores = []
        for ply in range(args.from_ply, len(moves)):
            if (ply % 2 == 0) == sente:
                scores.append((ply, engine.score(moves[:ply], args.nodes)))
        outcome = "win" if won else ("draw" if result == 0.5 else "loss")
        line = " ".join(f"{p}:{s}" for p, s in scores)
        print(f"{index} {'B' if sente else 'W'} {outcome} {line}", flush=True)
        if outcome == "loss":
            lost += 1
            high = sum(1 for _, s in scores if s is not None and s >= args.optimistic)
            if high:
                misjudged.append(high)
    engine.quit()
    print(
        f"lost {lost}; scored >= {args.optimistic} in {len(misjudged)} of them "
        f"(positions so scored per game: {sorted(misjudged)})"
    )


if __name__ == "__main__":
    main()
