#!/usr/bin/env python3
"""Nodes per second of Kyobo and YaneuraOu's NNUE edition side by side, on the same
`nn.bin` and the same positions: one thread each, `go movetime`, the two engines
alternated round by round (the machine is shared: compare the ratio, and its median
over the rounds).

Positions: every `--every`-th line of crates/shogi-game/tests/data/nnue_reference.txt
(positions of Kyobo's refereed games). Example, from the repository root:

    python3 tools/nnue_speed.py --yaneuraou PATH/YaneuraOu-by-gcc --eval-dir DIR \\
        --movetime 1000 --rounds 3

where DIR holds the network as `nn.bin` (`cargo run --release -p lab -- nnue-random
SEED DIR/nn.bin` writes a test net).
"""

import argparse
import os
import re
import statistics

from usi_engine import UsiEngine

NODES = re.compile(r"\bnodes (\d+)")
TIME = re.compile(r"\btime (\d+)")


def search(binary, options, sfens, movetime):
    """Total nodes and milliseconds over the positions, from each search's last info line."""
    nodes = millis = 0
    with UsiEngine(binary, options, name=binary) as engine:
        engine.handshake()
        for sfen in sfens:
            engine.send(f"position sfen {sfen}")
            engine.send(f"go movetime {movetime}")
            infos = [line for line in engine.wait_for("bestmove")
                     if line.startswith("info") and NODES.search(line) and TIME.search(line)]
            if not infos:  # answered without a search (one legal move, a mate found at once)
                continue
            nodes += int(NODES.search(infos[-1]).group(1))
            millis += int(TIME.search(infos[-1]).group(1))
    return nodes, millis


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaneuraou", required=True)
    parser.add_argument("--kyobo", default="target/release/kyobo")
    parser.add_argument("--eval-dir", required=True, help="the folder of nn.bin")
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "crates/shogi-game/tests/data/nnue_reference.txt")) as f:
        sfens = [line.split("\t")[0] for line in f if not line.startswith("#")][:: args.every]
    common = [("Threads", 1), ("USI_Hash", 64), ("EvalDir", args.eval_dir)]
    engines = [
        ("Kyobo", args.kyobo, common),
        ("YaneuraOu", args.yaneuraou,
         common + [("BookFile", "no_book"), ("NetworkDelay", 0), ("NetworkDelay2", 0)]),
    ]
    ratios = []
    for round_ in range(args.rounds):
        nps = {}
        order = engines if round_ % 2 == 0 else engines[::-1]
        for name, binary, options in order:
            nodes, millis = search(binary, options, sfens, args.movetime)
            nps[name] = nodes * 1000 / max(millis, 1)
        ratios.append(nps["Kyobo"] / nps["YaneuraOu"])
        print(f"round {round_ + 1}: Kyobo {nps['Kyobo']:.0f} nps, YaneuraOu {nps['YaneuraOu']:.0f} nps, "
              f"ratio {ratios[-1]:.3f}", flush=True)
    print(f"{len(sfens)} positions, {args.movetime} ms each; median ratio Kyobo/YaneuraOu "
          f"{statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
