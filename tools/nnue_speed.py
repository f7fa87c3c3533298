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
import subprocess

NODES = re.compile(r"\bnodes (\d+)")
TIME = re.compile(r"\btime (\d+)")


def search(binary, setup, sfens, movetime):
    """Total nodes and milliseconds over the positions, from each search's last info line."""
    commands = ["usi"] + setup + ["isready"]
    for sfen in sfens:
        commands += [f"position sfen {sfen}", f"go movetime {movetime}", "WAIT"]
    nodes = millis = 0
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(prefix):
        last = None
        for line in proc.stdout:
            if line.startswith("info") and NODES.search(line) and TIME.search(line):
                last = line
            if line.startswith(prefix):
                return last
        raise RuntimeError(f"{binary} ended before '{prefix}'")

    for command in commands:
        if command == "WAIT":
            last = until("bestmove")
            if last is None:  # answered without a search (one legal move, a mate found at once)
                continue
            nodes += int(NODES.search(last).group(1))
            millis += int(TIME.search(last).group(1))
            continue
        send(command)
        if command == "usi":
            until("usiok")
        elif command == "isready":
            until("readyok")
    send("quit")
    proc.wait()
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
    common = ["setoption name Threads value 1", "setoption name USI_Hash value 64"]
    engines = [
        ("Kyobo", args.kyobo, common + [f"setoption name EvalDir value {args.eval_dir}"]),
        ("YaneuraOu", args.yaneuraou,
         common + [f"setoption name EvalDir value {args.eval_dir}",
                   "setoption name BookFile value no_book", "setoption name NetworkDelay value 0",
                   "setoption name NetworkDelay2 value 0"]),
    ]
    ratios = []
    for round_ in range(args.rounds):
        nps = {}
        order = engines if round_ % 2 == 0 else engines[::-1]
        for name, binary, setup in order:
            nodes, millis = search(binary, setup, sfens, args.movetime)
            nps[name] = nodes * 1000 / max(millis, 1)
        ratios.append(nps["Kyobo"] / nps["YaneuraOu"])
        print(f"round {round_ + 1}: Kyobo {nps['Kyobo']:.0f} nps, YaneuraOu {nps['YaneuraOu']:.0f} nps, "
              f"ratio {ratios[-1]:.3f}", flush=True)
    print(f"{len(sfens)} positions, {args.movetime} ms each; median ratio Kyobo/YaneuraOu "
          f"{statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
