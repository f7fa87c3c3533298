#!/usr/bin/env python3
"""Make tests/fixtures/oracle.tsv: positions with their exact values from an
independent solver, Robert Clausecker's Dobutsu tablebase
(https://github.com/clausecker/dobutsu).

Nothing of that program is in this repository: build it yourself, then run
this script with the path of its `dobutsu` program and of the tablebase its
`gentb` wrote, e.g.

    git clone https://github.com/clausecker/dobutsu /tmp/dobutsu-c
    cd /tmp/dobutsu-c && make CC="gcc -std=c99" INTLLDLIBS= gentb dobutsu
    ./gentb -j 2 dobutsu.tb
    crates/dobutsu/tools/oracle.py /tmp/dobutsu-c/dobutsu /tmp/dobutsu-c/dobutsu.tb \\
        > crates/dobutsu/tests/fixtures/oracle.tsv

The positions: the start, the positions of the reference's 78-ply perfect
game (checked first: the side to move there must win or lose in exactly 78
minus the ply), and positions of random games from the start (seeded, so the
file is reproducible), where each side avoids, most of the time, moves that
lose at once. Only positions where the game goes on (Tanaka's model: the side
to move cannot capture the opposing lion, and no lion stands on its far rank)
are kept: there the two programs' rules agree.

For each position the C program's `setup` (its position string,
`S/gle/-c-/-C-/ELG/-`: side, ranks 1 to 4 with files a to c, `-` empty, `R`
a hen, then the hands), `show eval` (the position's value) and `show lines`
(each move and the value of the position if that move is played) are asked.
Values are in plies as the C program prints them: `#n` the side to move wins
in n, `#-n` it loses in n, `0` a draw; the same as Kyobo's `Value` (win in n,
loss in n, draw). Moves are converted to Kyobo's USI-style notation:
`Gc4-c3` -> `c4c3`, `Cb2xb1+` -> `b2b1+`, `G  *b3` -> `G*b3`. Positions are
written as Kyobo's SFEN, converted from the same board.
"""

import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perft import FILES, LETTER, START, Pos, other  # noqa: E402  (the rules, in Python)

# The reference's perfect game (data/dobutsu/reference.txt), long notation.
REFERENCE = """
Lb4-a3 Ga1-a2 La3-b4 Cb2xb3 Ea4xb3 Ec1-b2 Eb3xa2 Lb1xa2 G*b3 E*c2
Gb3xb2 La2xb2 E*a3 Lb2-a2 Gc4-c3 C*b2 Ea3xb2 La2xb2 C*b3 Lb2-b1
Lb4-a3 G*a2 La3-b4 E*a3 Lb4-a4 Lb1-c1 Gc3-c4 Ea3-b2 Cb3xb2 Lc1xb2
E*c3 Lb2-a1 Ec3-b4 C*b3 Eb4-c3 La1-b1 C*a3 Ga2-a1 Ec3-b4 Cb3xb4+
La4xb4 Lb1-b2 Gc4-c3 E*b3 Gc3xc2 Lb2xc2 C*c3 Lc2-b2 E*c1 Lb2xc1
Lb4xb3 Lc1-b1 E*c2 Lb1-c1 Ca3-a2 G*b2 Lb3-b4 Ga1xa2 Ec2-b3 Lc1-b1
Eb3-c2 Gb2xc2 Cc3xc2 Lb1xc2 G*c3 Lc2-b1 Lb4-b3 E*a3 Lb3-a4 E*b2
La4-b3 Eb2xc3 Lb3xc3 C*c2 Lc3-b3 G*b4 Lb3xa2 Lb1xa2
""".split()

GAMES = 160
SEED = 20240611


def long_to_usi(m):
    """`Lb4-a3` -> `b4a3`, `Cb3xb4+` -> `b3b4+`, `G*b3` -> `G*b3`."""
    if m[1] == "*":
        return m
    return m[1:3] + m[4:6] + ("+" if m.endswith("+") else "")


def c_move_to_usi(m):
    """The C program's `Gc4-c3`, `Cb2xb1+`, `G  *b3` -> Kyobo's USI."""
    m = m.strip()
    drop = re.fullmatch(r"([GEC]) +\*([abc][1-4])", m)
    if drop:
        return f"{drop.group(1)}*{drop.group(2)}"
    board = re.fullmatch(r"[LGEC]([abc][1-4])[-x]([abc][1-4])(\+?)", m)
    if not board:
        raise ValueError(f"unknown move {m!r}")
    return board.group(1) + board.group(2) + board.group(3)


def letter(owner, name):
    ch = "R" if name == "hen" else LETTER[name]
    return ch if owner == "b" else ch.lower()


def to_sfen(pos):
    rows = []
    for rank in range(1, 5):
        row, empty = "", 0
        for f in FILES:
            piece = pos.board.get((f, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            owner, name = piece
            ch = LETTER["chick" if name == "hen" else name]
            ch = ch if owner == "b" else ch.lower()
            row += ("+" if name == "hen" else "") + ch
        rows.append(row + (str(empty) if empty else ""))
    hands = ""
    for owner in ("b", "w"):
        for name in ("giraffe", "elephant", "chick"):
            n = pos.hands[owner].get(name, 0)
            if n:
                ch = LETTER[name] if owner == "b" else LETTER[name].lower()
                hands += (str(n) if n > 1 else "") + ch
    return f"{'/'.join(rows)} {pos.turn} {hands or '-'} 1"


def to_c(pos):
    """The C program's position string."""
    rows = []
    for rank in range(1, 5):
        row = ""
        for f in FILES:
            piece = pos.board.get((f, rank))
            row += "-" if piece is None else letter(*piece)
        rows.append(row)
    hands = ""
    for owner in ("b", "w"):
        for name in ("giraffe", "elephant", "chick"):
            hands += letter(owner, name) * pos.hands[owner].get(name, 0)
    return f"{'S' if pos.turn == 'b' else 'G'}/{'/'.join(rows)}/{hands or '-'}"


def copy(pos):
    p = Pos(START)
    p.board = dict(pos.board)
    p.hands = {k: dict(v) for k, v in pos.hands.items()}
    p.turn = pos.turn
    return p


def loses_at_once(pos, m):
    """After `m` the opponent can capture the mover's lion."""
    saved = pos.play(m)
    mine = pos.lion(other(pos.turn))
    bad = mine is None or pos.attacked_by(mine, pos.turn)
    pos.undo(saved)
    return bad


def random_game(rng, max_plies):
    pos = Pos(START)
    line = [copy(pos)]
    for _ in range(max_plies):
        if pos.game_over():
            break
        moves = pos.moves()
        safe = [m for m in moves if not loses_at_once(pos, m)]
        pick = safe if safe and rng.random() < 0.93 else moves
        pos.play(rng.choice(pick))
        line.append(copy(pos))
    return line


def query(dobutsu, tb, positions):
    """(value, [(usi, value)]) of each position, from the C program."""
    script = []
    for pos in positions:
        script += [f"setup {to_c(pos)}", "show setup", "show eval", "show lines"]
    script.append("quit")
    out = subprocess.run(
        [dobutsu, "-q", "-t", tb],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    prompt = re.compile(r"^\d+\. ")
    results, i = [], 0
    while i < len(out):
        line = out[i]
        if prompt.match(line) and line.endswith("show setup"):
            setup = out[i + 1]
            assert prompt.match(out[i + 2]) and out[i + 2].endswith("show eval"), out[i + 2]
            value = out[i + 3].strip()
            assert prompt.match(out[i + 4]) and out[i + 4].endswith("show lines"), out[i + 4]
            i += 5
            lines = []
            while i < len(out) and not prompt.match(out[i]):
                m = re.fullmatch(r"(.{7}): (\S+) +\(.*\)", out[i])
                assert m, out[i]
                lines.append((c_move_to_usi(m.group(1)), m.group(2)))
                i += 1
            results.append((setup, value, lines))
        else:
            if line.startswith("Error"):
                raise RuntimeError(line)
            i += 1
    assert len(results) == len(positions), (len(results), len(positions))
    def same(a, b):  # the C program writes the hands in its own order
        (a_board, a_hand), (b_board, b_hand) = a.rsplit("/", 1), b.rsplit("/", 1)
        return a_board == b_board and sorted(a_hand) == sorted(b_hand)

    for (setup, _, _), pos in zip(results, positions):
        assert same(setup, to_c(pos)), (setup, to_c(pos))
    return [(value, lines) for _, value, lines in results]


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    dobutsu, tb = argv
    rng = random.Random(SEED)

    # The reference line first: the start is lost in 78, and every position
    # of the line is 78 - ply from the end.
    line = [Pos(START)]
    for m in REFERENCE:
        pos = copy(line[-1])
        assert long_to_usi(m) in pos.moves(), m
        pos.play(long_to_usi(m))
        line.append(pos)
    reference = [p for p in line if not p.game_over()]
    answers = query(dobutsu, tb, reference)
    for ply, (value, _) in enumerate(answers):
        expected = f"#-{78 - ply}" if ply % 2 == 0 else f"#{78 - ply}"
        if value != expected:
            sys.exit(f"reference line, ply {ply}: the C program says {value}, expected {expected}")
    print(f"reference line checked: {len(reference)} positions, 78 to 2 plies", file=sys.stderr)

    positions, seen = list(reference), {to_c(p) for p in reference}
    for _ in range(GAMES):
        game = [p for p in random_game(rng, 140) if not p.game_over()]
        for pos in rng.sample(game, min(2, len(game))):
            key = to_c(pos)
            if key not in seen:
                seen.add(key)
                positions.append(pos)
    answers = answers + query(dobutsu, tb, positions[len(reference):])

    print("# Dobutsu positions with exact values from an independent solver:")
    print("# Robert Clausecker's tablebase (github.com/clausecker/dobutsu,")
    print("# commit dfcf133355c80ccc85ae61b9c8ed864b316ac809, `gentb -j 2`), asked")
    print("# with its `dobutsu` program (`setup`, `show eval`, `show lines`) by")
    print("# crates/dobutsu/tools/oracle.py (see its documentation for how).")
    print(f"# The first {len(reference)} positions: the reference's 78-ply perfect game")
    print(f"# (plies 0 to {len(reference) - 1}); then positions of {GAMES} seeded random games.")
    print("# Columns: Kyobo SFEN, the C program's position string, the value for")
    print("# the side to move (#n: wins in n plies, #-n: loses in n plies, 0: draw),")
    print("# then every legal move (Kyobo's USI notation) with the value of the")
    print("# position for the side to move if that move is played, best first.")
    for pos, (value, lines) in zip(positions, answers):
        moves = " ".join(f"{m}:{v}" for m, v in lines)
        print(f"{to_sfen(pos)}\t{to_c(pos)}\t{value}\t{moves}")
    print(f"{len(positions)} positions", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
