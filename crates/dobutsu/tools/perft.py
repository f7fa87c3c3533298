#!/usr/bin/env python3
"""Independent Dobutsu shogi perft, to check the Rust move generator's counts.

Written from the rules, not from the Rust code: a dict board keyed by
(file letter, rank number), pieces as (owner, name), hands as dicts, moves as
USI strings. The end of the game follows Tanaka's model, as the crate does: at
the start of a turn the side to move has won if it can capture the opposing
lion, has lost if the opposing lion stands on its back rank (a try that
survived), and (set-up positions only) has won if its own lion stands on the
far rank. Such positions are not expanded. A line of exactly `depth` plies is
counted once; terminal positions at depth 0 count as leaves.

Usage:
  tools/perft.py [DEPTH] [SFEN]            perft 1..DEPTH (default 7, start position)
  tools/perft.py --divide DEPTH [SFEN]     count per root move
  tools/perft.py --moves [SFEN]            the legal moves, sorted
"""

import sys

FILES = "abc"
START = "gle/1c1/1C1/ELG b - 1"

# Steps (file delta, rank delta) as seen by Sente, whose forward is rank - 1.
FORWARD = -1
STEPS = {
    "lion": [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)],
    "giraffe": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "elephant": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "chick": [(0, FORWARD)],
    # A gold: the three forward squares, both sides, straight back.
    "hen": [(-1, FORWARD), (0, FORWARD), (1, FORWARD), (-1, 0), (1, 0), (0, -FORWARD)],
}
LETTER = {"lion": "L", "giraffe": "G", "elephant": "E", "chick": "C"}
NAME = {v: k for k, v in LETTER.items()}


def steps(owner, name):
    """Steps of a piece of `owner` ('b' Sente, 'w' Gote): Gote's are mirrored."""
    sign = 1 if owner == "b" else -1
    return [(df, dr * sign) for df, dr in STEPS[name]]


def far_rank(owner):
    return 1 if owner == "b" else 4


def other(owner):
    return "w" if owner == "b" else "b"


class Pos:
    def __init__(self, sfen):
        fields = sfen.split()
        rows = fields[0].split("/")
        assert len(rows) == 4
        self.board = {}
        for rank, row in enumerate(rows, start=1):
            file_index = 0
            promoted = False
            for ch in row:
                if ch.isdigit():
                    file_index += int(ch)
                elif ch == "+":
                    promoted = True
                else:
                    owner = "b" if ch.isupper() else "w"
                    name = NAME[ch.upper()]
                    if promoted:
                        assert name == "chick"
                        name = "hen"
                        promoted = False
                    self.board[(FILES[file_index], rank)] = (owner, name)
                    file_index += 1
            assert file_index == 3
        self.turn = fields[1]
        self.hands = {"b": {}, "w": {}}
        if fields[2] != "-":
            count = 1
            for ch in fields[2]:
                if ch.isdigit():
                    count = int(ch)
                    continue
                owner = "b" if ch.isupper() else "w"
                self.hands[owner][NAME[ch.upper()]] = count
                count = 1

    def lion(self, owner):
        for sq, piece in self.board.items():
            if piece == (owner, "lion"):
                return sq
        return None

    def targets(self, sq):
        owner, name = self.board[sq]
        f, r = FILES.index(sq[0]), sq[1]
        out = []
        for df, dr in steps(owner, name):
            nf, nr = f + df, r + dr
            if 0 <= nf < 3 and 1 <= nr <= 4:
                out.append((FILES[nf], nr))
        return out

    def attacked_by(self, target, owner):
        return any(
            piece[0] == owner and target in self.targets(sq)
            for sq, piece in list(self.board.items())
        )

    def game_over(self):
        me, them = self.turn, other(self.turn)
        theirs, mine = self.lion(them), self.lion(me)
        if mine is None or theirs is None:
            return True
        if self.attacked_by(theirs, me):
            return True  # the side to move captures the lion: won
        if theirs[1] == far_rank(them):
            return True  # the opponent's try survived: lost
        if mine[1] == far_rank(me):
            return True  # own try survived (set-up positions only): won
        return False

    def moves(self):
        """USI strings of every move (own lion exposure allowed)."""
        me = self.turn
        out = []
        for sq, (owner, name) in list(self.board.items()):
            if owner != me:
                continue
            for to in self.targets(sq):
                dest = self.board.get(to)
                if dest is not None and dest[0] == me:
                    continue
                promo = "+" if name == "chick" and to[1] == far_rank(me) else ""
                out.append(f"{sq[0]}{sq[1]}{to[0]}{to[1]}{promo}")
        for name, count in self.hands[me].items():
            if count == 0:
                continue
            for f in FILES:
                for r in range(1, 5):
                    if (f, r) not in self.board:
                        out.append(f"{LETTER[name]}*{f}{r}")
        return out

    def play(self, usi):
        """Returns what is needed to take the move back."""
        me = self.turn
        saved = (dict(self.board), {k: dict(v) for k, v in self.hands.items()}, self.turn)
        if usi[1] == "*":
            name = NAME[usi[0]]
            self.hands[me][name] -= 1
            self.board[(usi[2], int(usi[3]))] = (me, name)
        else:
            src, dst = (usi[0], int(usi[1])), (usi[2], int(usi[3]))
            owner, name = self.board.pop(src)
            captured = self.board.get(dst)
            if captured is not None and captured[1] != "lion":
                base = "chick" if captured[1] == "hen" else captured[1]
                self.hands[me][base] = self.hands[me].get(base, 0) + 1
            if usi.endswith("+"):
                name = "hen"
            self.board[dst] = (owner, name)
        self.turn = other(me)
        return saved

    def undo(self, saved):
        self.board, self.hands, self.turn = saved


def perft(pos, depth):
    if depth == 0:
        return 1
    if pos.game_over():
        return 0
    total = 0
    for m in pos.moves():
        saved = pos.play(m)
        total += perft(pos, depth - 1)
        pos.undo(saved)
    return total


def main(argv):
    if argv and argv[0] == "--moves":
        pos = Pos(" ".join(argv[1:]) or START)
        print(" ".join(sorted(pos.moves())))
    elif argv and argv[0] == "--divide":
        depth = int(argv[1])
        pos = Pos(" ".join(argv[2:]) or START)
        for m in sorted(pos.moves()):
            saved = pos.play(m)
            print(m, perft(pos, depth - 1))
            pos.undo(saved)
    else:
        depth = int(argv[0]) if argv else 7
        pos = Pos(" ".join(argv[1:]) or START)
        for d in range(1, depth + 1):
            print(d, perft(pos, d), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
