#!/usr/bin/env python3
"""Reference values for Kyobo's NNUE evaluation: YaneuraOu's NNUE edition's static
evaluation (USI command `e`) of positions from real games, with a network of random
weights that Kyobo writes (`kyobo-lab nnue-random`, the same seed the
test uses). The output is the fixture `crates/shogi-game/tests/data/nnue_reference.txt`
that `crates/eval/tests/nnue_reference.rs` checks, so the tests need neither
YaneuraOu nor Python.

Positions: every `--every`-th position of the games in data/matches/*.pgn (Kyobo's
refereed games against GPS Shogi, Fairy-Stockfish and itself), with the side to move
as the game had it (checks included).

YaneuraOu's NNUE edition is built from its public repository, e.g.

    cd YaneuraOu/source && make -j1 COMPILER=g++ TARGET_CPU=AVX2 \\
        YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE

and then, from Kyobo's repository root:

    cargo build --release -p lab
    python3 tools/nnue_reference.py --yaneuraou PATH/YaneuraOu-by-gcc \\
        > crates/shogi-game/tests/data/nnue_reference.txt

The script checks that YaneuraOu reads Kyobo's file without a warning.

With `--net FILE` it takes that network (one Kyobo's trainer wrote, say) instead of
the random one and, rather than printing a fixture, compares YaneuraOu's values with
Kyobo's (`eval` over USI, `nnue value V`) and prints how many agree:

    python3 tools/nnue_reference.py --yaneuraou PATH/YaneuraOu-by-gcc --net nets/nn.bin
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_positions import games  # noqa: E402

SEED = 20261203


def positions(paths, every, limit):
    out = []
    n = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, moves in games(text):
            board = cshogi.Board()
            for move in moves:
                if n % every == 0:
                    out.append(board.sfen())
                n += 1
                board.push_usi(move)
                if len(out) >= limit:
                    return out
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaneuraou", required=True, help="YaneuraOu's NNUE edition")
    parser.add_argument("--every", type=int, default=23)
    parser.add_argument("--limit", type=int, default=1200)
    parser.add_argument("--net", help="compare Kyobo and YaneuraOu on this nn.bin")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sfens = positions(sorted(glob.glob(os.path.join(root, "data/matches/*.pgn"))),
                      args.every, args.limit)
    with tempfile.TemporaryDirectory() as folder:
        net = os.path.join(folder, "nn.bin")
        if args.net:
            os.symlink(os.path.abspath(args.net), net)
        else:
            subprocess.run([os.path.join(root, "target/release/kyobo-lab"), "nnue-random", str(SEED),
                            net], check=True)
        commands = ["usi", f"setoption name EvalDir value {folder}", "setoption name Threads value 1",
                    "setoption name USI_Hash value 1", "setoption name BookFile value no_book",
                    "isready"]
        for sfen in sfens:
            commands += [f"position sfen {sfen}", "e"]
        commands.append("quit")
        run = subprocess.run([args.yaneuraou], input="\n".join(commands) + "\n",
                             capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    warnings = [line for line in lines if "Warning" in line or "Error" in line]
    if warnings:
        sys.exit(f"YaneuraOu: {warnings[0]}")
    values = [line.split("=")[1].strip() for line in lines if line.startswith("eval = ")]
    if len(values) != len(sfens):
        sys.exit(f"{len(values)} values for {len(sfens)} positions")
    if args.net:
        compare(root, args.net, sfens, values)
        return
    print(f"# YaneuraOu NNUE `e` of {len(sfens)} positions of data/matches/*.pgn, "
          f"network Network::random({SEED}); made by tools/nnue_reference.py")
    for sfen, value in zip(sfens, values):
        print(f"{sfen}\t{value}")


def compare(root, net, sfens, values):
    """Kyobo's `nnue value` of each position against YaneuraOu's."""
    commands = ["usi", f"setoption name EvalFile value {os.path.abspath(net)}", "isready"]
    for sfen in sfens:
        commands += [f"position sfen {sfen}", "eval"]
    commands.append("quit")
    run = subprocess.run([os.path.join(root, "target/release/kyobo")],
                         input="\n".join(commands) + "\n", capture_output=True, text=True,
                         check=True)
    ours = [line.split("nnue value")[1].split()[0] for line in run.stdout.splitlines()
            if "nnue value" in line]
    if len(ours) != len(sfens):
        sys.exit(f"Kyobo gave {len(ours)} values for {len(sfens)} positions")
    same = sum(a == b for a, b in zip(ours, values))
    print(f"{same} of {len(sfens)} positions: Kyobo's value equals YaneuraOu's on {net}")
    for sfen, a, b in zip(sfens, ours, values):
        if a != b:
            print(f"differs: {sfen}: Kyobo {a}, YaneuraOu {b}")
            break


if __name__ == "__main__":
    main()
