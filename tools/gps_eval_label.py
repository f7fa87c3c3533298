#!/usr/bin/env python3
"""Labels positions with GPS Shogi's static evaluation, for distilling its evaluation
into Kyobo's (`crates/eval/examples/tune.rs --score-column 3`).

`tools/gps_label.py` asks `gpsusi` for a depth-4 search: about ten positions a second
on two cores. This asks `gpsshell` (the same library's command shell) for its `eval`
of each position instead: about 1,500 a second per core, so that one run can label
the hundreds of thousands of positions that fitting richer terms needs. On quiet
positions of Kyobo-GPS games the static evaluation correlates 0.95 with the depth-4
scores. Reads lines `SFEN<TAB>result[<TAB>...]` (result from Black's side) and writes

    SFEN<TAB>result<TAB><TAB>gps-eval<TAB>gps-progress

(the layout `gps_label.py` writes, plus a column): the evaluation from Black's side in
GPS Shogi's centipawns (pawn = 100), and the progress (0-510) by which GPS Shogi blends
its opening, middle-game and endgame weights.

`gpsshell` reads no configuration file. Its `qsearch` is no substitute for a search
(its values correlate 0.1 with the depth-4 scores). It wants all forty pieces in every
position (a piece missing from both the board and the hands gives nonsense values), so
such positions are left out; so is any position the shell does not take (each answer
is checked against the position it echoes back with `usishow`).

    python3 tools/gps_eval_label.py --input /tmp/sp.txt --output /tmp/sp-eval.tsv --workers 2
"""

import argparse
import multiprocessing
import re
import subprocess
import sys

CHUNK = 2000
EVAL = re.compile(r"評価値: -?\d+ \(centipawn (-?\d+)\)")
PROGRESS = re.compile(r"進行度: (\d+) / 510")
# Pieces per kind in a full set (king, rook, bishop, gold, silver, knight, lance, pawn).
FULL_SET = {"k": 2, "r": 2, "b": 2, "g": 4, "s": 4, "n": 4, "l": 4, "p": 18}


def complete(sfen):
    """Whether the board and hands hold all forty pieces."""
    fields = sfen.split()
    if len(fields) < 3:
        return False
    counts = dict.fromkeys(FULL_SET, 0)
    for c in fields[0]:
        if c.lower() in counts:
            counts[c.lower()] += 1
    if fields[2] != "-":
        for number, kind in re.findall(r"(\d*)([A-Za-z])", fields[2]):
            if kind.lower() in counts:
                counts[kind.lower()] += int(number) if number else 1
    return counts == FULL_SET


def label_chunk(args):
    gpsshell, sfens = args
    script = "".join(f"position sfen {s}\nusishow\neval\n" for s in sfens)
    try:
        run = subprocess.run([gpsshell], input=script, capture_output=True, text=True,
                             timeout=60 + len(sfens))
    except subprocess.TimeoutExpired:
        return []
    answers, current = [], None
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith("position sfen "):
            current = {"sfen": line[len("position sfen "):]}
            answers.append(current)
        elif current is None:
            continue
        elif (m := EVAL.search(line)) and "eval" not in current:
            current["eval"] = int(m.group(1))
        elif (m := PROGRESS.search(line)) and "progress" not in current:
            current["progress"] = int(m.group(1))
    # One answer per input, in order; `usishow` echoes the position the shell holds,
    # which is the previous one when it refused the input.
    if len(answers) != len(sfens):
        return []
    labels = []
    for sfen, answer in zip(sfens, answers):
        same = answer["sfen"].split()[:2] == sfen.split()[:2]
        known = same and "eval" in answer and "progress" in answer
        labels.append((answer["eval"], answer["progress"]) if known else None)
    return labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--gpsshell", default="/usr/games/gpsshell")
    opts = parser.parse_args()
    rows = []
    with open(opts.input) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2 and complete(fields[0]):
                rows.append((fields[0], fields[1]))
    chunks = [rows[i:i + CHUNK] for i in range(0, len(rows), CHUNK)]
    jobs = [(opts.gpsshell, [sfen for sfen, _ in chunk]) for chunk in chunks]
    written = 0
    with multiprocessing.Pool(opts.workers) as pool, open(opts.output, "w") as out:
        for chunk, labels in zip(chunks, pool.imap(label_chunk, jobs)):
            for (sfen, result), label in zip(chunk, labels):
                if label is not None:
                    out.write(f"{sfen}\t{result}\t\t{label[0]}\t{label[1]}\n")
                    written += 1
            out.flush()
    print(f"labelled {written} of {len(rows)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
