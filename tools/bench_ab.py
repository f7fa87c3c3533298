#!/usr/bin/env python3
"""Nodes per second of two Kyobo builds on `kyobo bench`, run alternately (the
order reversed every other round, so that a busy machine slows both alike);
prints every run, each build's median and the ratio new/old. A speed change must
keep the search: the tool stops if the two builds count different nodes.

    python3 tools/bench_ab.py OLD NEW [--rounds 5] [-- BENCH ARGS...]

e.g. `python3 tools/bench_ab.py old/kyobo target/release/kyobo -- --depth 12` (`old/kyobo`: a
build of the commit before the change).
"""

import argparse
import statistics
import subprocess
import sys


def bench(binary, args):
    """(nodes, nodes per second) of one `bench` run."""
    out = subprocess.run([binary, "bench", *args], capture_output=True, text=True, check=True)
    fields = {}
    for line in (out.stdout + out.stderr).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("nodes", "nps") and parts[1].isdigit():
            fields[parts[0]] = int(parts[1])
    if "nodes" not in fields or "nps" not in fields:
        sys.exit(f"{binary} bench printed no nodes and nps")
    return fields["nodes"], fields["nps"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="arguments after -- go to `kyobo bench`")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.bench_args = argv[cut + 1:]
    speeds = {a.old: [], a.new: []}
    nodes = {}
    for r in range(a.rounds):
        order = [a.old, a.new] if r % 2 == 0 else [a.new, a.old]
        for binary in order:
            n, nps = bench(binary, a.bench_args)
            nodes.setdefault(binary, n)
            if nodes[binary] != n:
                sys.exit(f"{binary}: {n} nodes, {nodes[binary]} before: the bench is not repeatable")
            speeds[binary].append(nps)
            print(f"round {r + 1} {binary}: {n:,} nodes, {nps:,} nodes/s", flush=True)
    if nodes[a.old] != nodes[a.new]:
        sys.exit(f"different searches: {nodes[a.old]:,} against {nodes[a.new]:,} nodes")
    old, new = statistics.median(speeds[a.old]), statistics.median(speeds[a.new])
    print(f"median old {old:,.0f}, new {new:,.0f} nodes/s; ratio {new / old:.3f}")


if __name__ == "__main__":
    main()
