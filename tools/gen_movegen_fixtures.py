#!/usr/bin/env python3
"""Generate legal-move fixtures for Kyobo's move generator tests.

Output format (one position per line, UTF-8/ASCII):

    <SFEN: board side hands 1>\t<all legal moves in USI, sorted with Python's
                                  default string sort, separated by one space>

The first line of the main fixture is a comment starting with '#' that says how
the file was made.  SFENs are normalised: standard board text, hands in the
order R B G S N L P (black) then r b g s n l p (white), counts before letters
when > 1, '-' when both hands are empty, and the move-number field always "1".
A position without legal moves (checkmate, or very rarely no move at all
while not in check) has an empty move list: the line ends with the tab.

Legal moves come from cshogi's `Board.legal_moves`, which (cshogi >= 1.x,
`MoveList<LegalAll>`) already includes the optional non-promotions of pawns,
lances, knights, silvers, bishops and rooks.  A defensive completion step adds
any optional non-promotion that would be missing (and counts them; expected 0).
Every position is additionally cross-checked against an independent, slow,
pure-Python move generator in this file (`RefPos`), so two implementations
agree on every line that is written.

Positions come from:
  * random playouts from the start position, biased towards captures
    (a capture is chosen with probability 0.5 when one exists) and checks;
  * random continuations of a sample of the opening records in
    ../shared/data/openings/records2016.sfen (read at run time, relative to
    the repository root);
  * "king walk" playouts in which one side prefers advancing king moves
    (entering-king positions);
  * capture-heavy playouts (large hands);
  * constructed positions around a king in which a pawn drop gives check,
    with and without mate (uchifuzume).

Usage:
    python3 tools/gen_movegen_fixtures.py --out tools/fixtures/movegen.tsv.gz
    python3 tools/gen_movegen_fixtures.py --selfcheck          # perft checks
    python3 tools/gen_movegen_fixtures.py --selfcheck --deep   # + slower perfts

By default the small uchifuzume fixture is written next to --out as
uchifuzume.tsv (override with --uchi-out).  Output is byte-reproducible for a
given seed, cshogi version and openings file (gzip mtime is 0).
"""

import argparse
import gzip
import importlib.metadata
import os
import random
import sys
import time

import cshogi

DEFAULT_SEED = 20240611
DEFAULT_OPENINGS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "openings", "records2016.sfen"
)

# ---------------------------------------------------------------------------
# Board representation shared by the SFEN helpers and the reference generator.
# Square index = (file - 1) * 9 + (rank - 1), file 1..9, rank 1..9 (a..i);
# this is the same numbering cshogi uses (1a = 0, 1b = 1, ..., 9i = 80).
# A piece is (color, kind), color 0 = black (sente), 1 = white (gote), kind in
# P L N S G B R K +P +L +N +S +B +R.
# ---------------------------------------------------------------------------

BLACK, WHITE = 0, 1
RANK_LETTERS = "abcdefghi"
HAND_ORDER = "RBGSNLP"
PROMOTABLE = {"P", "L", "N", "S", "B", "R"}
FULL_SET = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}

ORTH = [(0, -1), (0, 1), (-1, 0), (1, 0)]
DIAG = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
KING_DIRS = ORTH + DIAG
GOLD_STEPS = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)]
KNIGHT_STEPS = [(-1, -2), (1, -2)]

# Vectors in the piece's own orientation: (dfile, drank), drank = -1 is forward
# for the piece's owner.  For a white piece the absolute vector is (df, -dr).
STEPS = {
    "P": [(0, -1)],
    "L": [],
    "N": KNIGHT_STEPS,
    "S": [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)],
    "G": GOLD_STEPS,
    "K": KING_DIRS,
    "B": [],
    "R": [],
    "+P": GOLD_STEPS,
    "+L": GOLD_STEPS,
    "+N": GOLD_STEPS,
    "+S": GOLD_STEPS,
    "+B": ORTH,
    "+R": DIAG,
}
SLIDES = {
    "P": [], "L": [(0, -1)], "N": [], "S": [], "G": [], "K": [],
    "B": DIAG, "R": ORTH, "+P": [], "+L": [], "+N": [], "+S": [],
    "+B": DIAG, "+R": ORTH,
}
STEP_SET = {k: set(v) for k, v in STEPS.items()}
SLIDE_SET = {k: set(v) for k, v in SLIDES.items()}


def sq_of(f0, r0):
    return f0 * 9 + r0


def sq_usi(sq):
    return "%d%s" % (sq // 9 + 1, RANK_LETTERS[sq % 9])


def in_zone(color, r0):
    return r0 <= 2 if color == BLACK else r0 >= 6


def dead_square(kind, color, r0):
    """True if an unpromoted `kind` of `color` on rank r0 could never move."""
    rel = r0 if color == BLACK else 8 - r0  # 0 = last rank for that color
    if kind in ("P", "L"):
        return rel == 0
    if kind == "N":
        return rel <= 1
    return False


def parse_sfen(sfen):
    fields = sfen.split()
    rows = fields[0].split("/")
    assert len(rows) == 9, sfen
    board = [None] * 81
    for r0, row in enumerate(rows):
        f0 = 8
        prom = False
        for ch in row:
            if ch.isdigit():
                f0 -= int(ch)
            elif ch == "+":
                prom = True
            else:
                color = BLACK if ch.isupper() else WHITE
                kind = ("+" if prom else "") + ch.upper()
                board[sq_of(f0, r0)] = (color, kind)
                f0 -= 1
                prom = False
        assert f0 == -1, sfen
    side = BLACK if fields[1] == "b" else WHITE
    hands = [dict.fromkeys(HAND_ORDER, 0), dict.fromkeys(HAND_ORDER, 0)]
    if fields[2] != "-":
        n = 0
        for ch in fields[2]:
            if ch.isdigit():
                n = n * 10 + int(ch)
            else:
                hands[BLACK if ch.isupper() else WHITE][ch.upper()] += n or 1
                n = 0
    return board, side, hands


def to_sfen(board, side, hands):
    rows = []
    for r0 in range(9):
        row = ""
        empty = 0
        for f0 in range(8, -1, -1):
            p = board[sq_of(f0, r0)]
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            color, kind = p
            row += kind if color == BLACK else kind.lower()
        if empty:
            row += str(empty)
        rows.append(row)
    hand = ""
    for color in (BLACK, WHITE):
        for k in HAND_ORDER:
            n = hands[color][k]
            if n:
                letter = k if color == BLACK else k.lower()
                hand += (str(n) if n > 1 else "") + letter
    return "%s %s %s 1" % ("/".join(rows), "bw"[side], hand or "-")


def normalise_sfen(sfen):
    return to_sfen(*parse_sfen(sfen))


# ---------------------------------------------------------------------------
# Independent reference move generator (slow, pure Python, written for
# clarity).  Used to cross-check every fixture line produced via cshogi.
# ---------------------------------------------------------------------------


class RefPos:
    __slots__ = ("board", "side", "hands")

    def __init__(self, board, side, hands):
        self.board = board
        self.side = side
        self.hands = hands

    @classmethod
    def from_sfen(cls, sfen):
        return cls(*parse_sfen(sfen))

    def king_sq(self, color):
        for sq, p in enumerate(self.board):
            if p == (color, "K"):
                return sq
        return None

    def attacked(self, sq, by):
        """Is square `sq` attacked by any piece of color `by`?"""
        board = self.board
        f, r = divmod(sq, 9)
        for df, dr in KING_DIRS:
            f2, r2, dist = f + df, r + dr, 1
            while 0 <= f2 < 9 and 0 <= r2 < 9:
                p = board[f2 * 9 + r2]
                if p is not None:
                    if p[0] == by:
                        # vector from the piece to sq, in the piece's orientation
                        v = (-df, -dr) if by == BLACK else (-df, dr)
                        if v in SLIDE_SET[p[1]] or (dist == 1 and v in STEP_SET[p[1]]):
                            return True
                    break
                f2 += df
                r2 += dr
                dist += 1
        for df, dr in KNIGHT_STEPS:
            adr = dr if by == BLACK else -dr
            f2, r2 = f - df, r - adr
            if 0 <= f2 < 9 and 0 <= r2 < 9 and board[f2 * 9 + r2] == (by, "N"):
                return True
        return False

    def in_check(self, color=None):
        color = self.side if color is None else color
        k = self.king_sq(color)
        return k is not None and self.attacked(k, 1 - color)

    def pseudo_board_moves(self, color):
        """Yield (from, to, promote) for every pseudo-legal board move."""
        board = self.board
        for sq, p in enumerate(board):
            if p is None or p[0] != color:
                continue
            kind = p[1]
            f, r = divmod(sq, 9)
            targets = []
            for df, dr in STEPS[kind]:
                adr = dr if color == BLACK else -dr
                f2, r2 = f + df, r + adr
                if 0 <= f2 < 9 and 0 <= r2 < 9:
                    q = board[f2 * 9 + r2]
                    if q is None or q[0] != color:
                        targets.append(f2 * 9 + r2)
            for df, dr in SLIDES[kind]:
                adr = dr if color == BLACK else -dr
                f2, r2 = f + df, r + adr
                while 0 <= f2 < 9 and 0 <= r2 < 9:
                    q = board[f2 * 9 + r2]
                    if q is None or q[0] != color:
                        targets.append(f2 * 9 + r2)
                    if q is not None:
                        break
                    f2 += df
                    r2 += adr
            for to in targets:
                if kind in PROMOTABLE and (in_zone(color, r) or in_zone(color, to % 9)):
                    yield (sq, to, True)
                if not (kind in PROMOTABLE and dead_square(kind, color, to % 9)):
                    yield (sq, to, False)

    def pseudo_drops(self, color):
        """Yield (kind, to) for every pseudo-legal drop (nifu excluded)."""
        board = self.board
        hand = self.hands[color]
        pawn_files = set()
        for sq, p in enumerate(board):
            if p == (color, "P"):
                pawn_files.add(sq // 9)
        for kind in HAND_ORDER:
            if not hand[kind]:
                continue
            for to in range(81):
                if board[to] is not None:
                    continue
                if dead_square(kind, color, to % 9):
                    continue
                if kind == "P" and (to // 9) in pawn_files:
                    continue
                yield (kind, to)

    def make(self, move):
        """Return a new RefPos after `move` (('m', from, to, promote) or ('d', kind, to))."""
        board = self.board[:]
        hands = [dict(self.hands[0]), dict(self.hands[1])]
        color = self.side
        if move[0] == "d":
            _, kind, to = move
            hands[color][kind] -= 1
            board[to] = (color, kind)
        else:
            _, fr, to, prom = move
            p = board[fr]
            cap = board[to]
            if cap is not None:
                base = cap[1][-1]
                if base != "K":
                    hands[color][base] += 1
            board[fr] = None
            board[to] = (color, "+" + p[1]) if prom else p
        return RefPos(board, 1 - color, hands)

    def has_legal_board_move(self):
        """Does the side to move have a legal non-drop move? (drops ignored)"""
        color = self.side
        for fr, to, prom in self.pseudo_board_moves(color):
            if not self.make(("m", fr, to, prom)).in_check(color):
                return True
        return False

    def pawn_drop_mates(self, to):
        """For a pseudo-legal pawn drop on `to` by the side to move that does
        not leave its own king in check: does it checkmate the opponent?
        Only contact checks are possible, so interposing drops are irrelevant
        and only board moves need to be tried for the defender."""
        color = self.side
        after = self.make(("d", "P", to))
        front = to - 1 if color == BLACK else to + 1
        if after.board[front] != (1 - color, "K"):
            return False
        return not after.has_legal_board_move()

    def legal_moves_usi(self):
        color = self.side
        out = []
        for fr, to, prom in self.pseudo_board_moves(color):
            if not self.make(("m", fr, to, prom)).in_check(color):
                out.append(sq_usi(fr) + sq_usi(to) + ("+" if prom else ""))
        for kind, to in self.pseudo_drops(color):
            after = self.make(("d", kind, to))
            if after.in_check(color):
                continue
            if kind == "P" and self.pawn_drop_mates(to):
                continue  # uchifuzume
            out.append(kind + "*" + sq_usi(to))
        out.sort()
        return out

    def pinned_pieces(self, color):
        """Squares of `color`'s pieces absolutely pinned to its king."""
        k = self.king_sq(color)
        if k is None:
            return []
        enemy = 1 - color
        f, r = divmod(k, 9)
        pinned = []
        for df, dr in KING_DIRS:
            f2, r2 = f + df, r + dr
            first = None
            while 0 <= f2 < 9 and 0 <= r2 < 9:
                q = self.board[f2 * 9 + r2]
                if q is not None:
                    if first is None:
                        if q[0] != color:
                            break
                        first = f2 * 9 + r2
                    else:
                        if q[0] == enemy:
                            v = (-df, -dr) if enemy == BLACK else (-df, dr)
                            if v in SLIDE_SET[q[1]]:
                                pinned.append(first)
                        break
                f2 += df
                r2 += dr
        return pinned


# ---------------------------------------------------------------------------
# The move-list function used for the fixtures (cshogi based).
# ---------------------------------------------------------------------------

STATS_ADDED_NONPROMOTIONS = [0]


def legal_moves(board):
    """All legal moves of a cshogi Board as a list of (usi, move_int), sorted
    by USI string.  cshogi's legal_moves is MoveList<LegalAll>, which already
    contains optional non-promotions; the completion loop below only adds
    (and counts) ones that would be missing, after confirming legality with
    cshogi.  It never fires with cshogi 1.1.0."""
    moves = {}
    for m in board.legal_moves:
        moves[cshogi.move_to_usi(m)] = m
    for usi, m in list(moves.items()):
        if not usi.endswith("+"):
            continue
        plain = usi[:-1]
        if plain in moves:
            continue
        fr = cshogi.move_from(m)
        to = cshogi.move_to(m)
        pt = cshogi.move_from_piece_type(m)  # cshogi: 1 P, 2 L, 3 N, 4 S, 5 B, 6 R
        kind = "_PLNSBR"[pt] if 1 <= pt <= 6 else "?"
        color = board.turn
        if kind in PROMOTABLE and not dead_square(kind, color, to % 9):
            nm = board.move(fr, to, False)
            if board.is_legal(nm):
                moves[plain] = nm
                STATS_ADDED_NONPROMOTIONS[0] += 1
            else:
                raise RuntimeError("non-promotion %s rejected by cshogi in %s" % (plain, board.sfen()))
    return sorted(moves.items())


def legal_usi_list(board):
    return [u for u, _ in legal_moves(board)]


# ---------------------------------------------------------------------------
# Self-check (perft).
# ---------------------------------------------------------------------------


def perft(board, depth):
    ms = legal_moves(board)
    if depth == 1:
        return len(ms)
    n = 0
    for _, m in ms:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def ref_perft(pos, depth):
    if depth == 0:
        return 1
    n = 0
    color = pos.side
    # same move set as RefPos.legal_moves_usi, but walking positions
    for fr, to, prom in pos.pseudo_board_moves(color):
        after = pos.make(("m", fr, to, prom))
        if not after.in_check(color):
            n += 1 if depth == 1 else ref_perft(after, depth - 1)
    for kind, to in pos.pseudo_drops(color):
        after = pos.make(("d", kind, to))
        if after.in_check(color) or (kind == "P" and pos.pawn_drop_mates(to)):
            continue
        n += 1 if depth == 1 else ref_perft(after, depth - 1)
    return n


STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
POS2 = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
POS3 = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"


def selfcheck(deep):
    cases = [
        (STARTPOS, 1, 30), (STARTPOS, 2, 900), (STARTPOS, 3, 25470),
        (POS2, 1, 207), (POS2, 2, 28684),
        (POS3, 1, 593),
    ]
    if deep:
        cases += [(STARTPOS, 4, 719731), (POS2, 3, 4809015)]
    ok = True
    for sfen, depth, want in cases:
        t = time.time()
        got = perft(cshogi.Board(sfen), depth)
        status = "ok" if got == want else "MISMATCH"
        ok &= got == want
        print("perft(cshogi+completion) %-72s d=%d  %9d (expected %9d) %s  %.1fs"
              % (sfen, depth, got, want, status, time.time() - t))
    # the independent reference generator, on the cheaper cases
    ref_cases = [(STARTPOS, 1, 30), (STARTPOS, 2, 900), (STARTPOS, 3, 25470),
                 (POS2, 1, 207), (POS2, 2, 28684), (POS3, 1, 593)]
    if deep:
        ref_cases += [(STARTPOS, 4, 719731), (POS2, 3, 4809015)]
    for sfen, depth, want in ref_cases:
        t = time.time()
        got = ref_perft(RefPos.from_sfen(sfen), depth)
        status = "ok" if got == want else "MISMATCH"
        ok &= got == want
        print("perft(reference)         %-72s d=%d  %9d (expected %9d) %s  %.1fs"
              % (sfen, depth, got, want, status, time.time() - t))
    # move-by-move agreement on the three root positions
    for sfen in (STARTPOS, POS2, POS3):
        a = legal_usi_list(cshogi.Board(sfen))
        b = RefPos.from_sfen(sfen).legal_moves_usi()
        same = a == b
        ok &= same
        print("root move lists agree (cshogi vs reference): %s  %s" % (same, sfen))
    print("non-promotions added by completion step:", STATS_ADDED_NONPROMOTIONS[0])
    print("SELFCHECK", "PASSED" if ok else "FAILED")
    return ok


# ---------------------------------------------------------------------------
# Position sources.
# ---------------------------------------------------------------------------


class Collector:
    def __init__(self):
        self.seen = set()
        self.sfens = []
        self.origin = {}

    def add(self, sfen, origin):
        s = normalise_sfen(sfen)
        if s in self.seen:
            return False
        self.seen.add(s)
        self.sfens.append(s)
        self.origin[s] = origin
        return True

    def __len__(self):
        return len(self.sfens)


def king_advance(board, m, color):
    """How many ranks a king move advances towards the opponent (else None)."""
    if cshogi.move_is_drop(m) or cshogi.move_from_piece_type(m) != cshogi.KING:
        return None
    fr, to = cshogi.move_from(m) % 9, cshogi.move_to(m) % 9
    return (fr - to) if color == BLACK else (to - fr)


def stm_has_pin(board):
    return bool(RefPos.from_sfen(board.sfen()).pinned_pieces(board.turn))


def playout(rng, board, coll, origin, max_plies, record_prob, capture_bias,
            check_bias=0.2, pin_bias=0.3, kingwalk=None, budget=None):
    """Random playout on `board` (modified in place).  Records positions:
    each visited one with probability record_prob, or 0.9 if the side to move
    is in check or has a pinned piece.  Move choice: optional king walk, then a
    capture with probability capture_bias, a checking move with probability
    check_bias, a move that pins an opponent piece with probability pin_bias,
    else uniform."""
    added = 0
    for _ in range(max_plies):
        if budget is not None and added >= budget:
            break
        ms = [m for _, m in legal_moves(board)]
        if not ms:
            if coll.add(board.sfen(), origin + "-mated"):
                added += 1
            break
        special = board.is_check() or stm_has_pin(board)
        if rng.random() < (0.9 if special else record_prob):
            if coll.add(board.sfen(), origin):
                added += 1
        color = board.turn
        choice = None
        if kingwalk is not None and color == kingwalk and rng.random() < 0.6:
            adv = [m for m in ms if (king_advance(board, m, color) or 0) > 0]
            if adv:
                choice = rng.choice(adv)
        if choice is None and rng.random() < capture_bias:
            caps = [m for m in ms if cshogi.move_cap(m)]
            if caps:
                choice = rng.choice(caps)
        if choice is None and rng.random() < check_bias:
            checks = []
            for m in ms:
                board.push(m)
                if board.is_check():
                    checks.append(m)
                board.pop()
            if checks:
                choice = rng.choice(checks)
        if choice is None and rng.random() < pin_bias:
            pins = []
            for m in rng.sample(ms, min(30, len(ms))):
                board.push(m)
                if stm_has_pin(board):
                    pins.append(m)
                board.pop()
            if pins:
                choice = rng.choice(pins)
        if choice is None:
            choice = rng.choice(ms)
        board.push(choice)
    return added


def load_openings(path):
    out = []
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) >= 2 and t[0] == "startpos" and t[1] == "moves":
                out.append(t[2:])
    return out


def gen_from_startpos(rng, coll, target, origin="startpos", capture_bias=0.5,
                      kingwalk_prob=0.0, record_prob=0.3, check_bias=0.2):
    goal = len(coll) + target
    while len(coll) < goal:
        board = cshogi.Board()
        kw = None
        if rng.random() < kingwalk_prob:
            kw = rng.choice([BLACK, WHITE])
        playout(rng, board, coll, origin, rng.randint(30, 260), record_prob,
                capture_bias, check_bias=check_bias, kingwalk=kw,
                budget=goal - len(coll))


def gen_from_openings(rng, coll, target, openings):
    goal = len(coll) + target
    while len(coll) < goal:
        rec = rng.choice(openings)
        board = cshogi.Board()
        n = rng.randint(0, len(rec))
        ok = True
        for i, u in enumerate(rec[:n]):
            m = board.move_from_usi(u)
            if not m or not board.is_legal(m):
                ok = False
                break
            board.push(m)
            if rng.random() < 0.04 and len(coll) < goal:
                coll.add(board.sfen(), "opening")
        if not ok or len(coll) >= goal:
            continue
        coll.add(board.sfen(), "opening")
        playout(rng, board, coll, "opening+playout", rng.randint(5, 120), 0.3, 0.5,
                kingwalk=rng.choice([None, None, None, BLACK, WHITE]),
                budget=goal - len(coll))


# --- constructed pawn-drop-check positions ---------------------------------

ATTACK_KINDS = ["G", "G", "S", "S", "N", "L", "B", "R", "+R", "+B", "+P", "P", "+S"]
DEFEND_KINDS = ["G", "S", "N", "L", "B", "R", "+R", "+B", "P", "+P"]


def _base(kind):
    return kind[-1]


def construct_pawn_drop_position(rng):
    """Build (in black-attacker orientation) a random position where black may
    drop a pawn directly in front of the white king, giving check.  Returns
    (RefPos, drop_square) or None if the random attempt was invalid."""
    board = [None] * 81
    pool = dict(FULL_SET)
    kf = rng.randrange(9)
    kr = rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 5])
    wk = sq_of(kf, kr)
    ps = wk + 1  # the square in front of the white king, from black's side
    board[wk] = (WHITE, "K")
    # black king far away
    for _ in range(50):
        bk = rng.randrange(81)
        if board[bk] is None and bk != ps and max(abs(bk // 9 - kf), abs(bk % 9 - kr)) >= 3:
            break
    else:
        return None
    board[bk] = (BLACK, "K")
    pawn_files = {BLACK: set(), WHITE: set()}

    def place(color, kind, near, radius):
        if pool[_base(kind)] == 0:
            return False
        for _ in range(30):
            if near is None:
                sq = rng.randrange(81)
            else:
                f = near // 9 + rng.randint(-radius, radius)
                r = near % 9 + rng.randint(-radius, radius)
                if not (0 <= f < 9 and 0 <= r < 9):
                    continue
                sq = sq_of(f, r)
            if board[sq] is not None or sq == ps:
                continue
            if dead_square(kind, color, sq % 9):
                continue
            if kind == "P":
                if sq // 9 in pawn_files[color]:
                    continue
                if color == BLACK and sq // 9 == ps // 9:
                    continue  # keep the pawn drop free of nifu
            board[sq] = (color, kind)
            pool[_base(kind)] -= 1
            if kind == "P":
                pawn_files[color].add(sq // 9)
            return True
        return False

    if rng.random() < 0.3:
        # A white piece that could take the pawn on ps but is pinned to its king:
        # a gold/silver beside the king pinned along the rank by a rook, or a
        # knight diagonally behind the king pinned by a bishop.
        if rng.random() < 0.5:
            d = rng.choice([-1, 1])
            f = kf + d
            if 0 <= f < 9 and board[sq_of(f, kr)] is None:
                board[sq_of(f, kr)] = (WHITE, rng.choice(["G", "S", "+P"]))
                pool[_base(board[sq_of(f, kr)][1])] -= 1
                rf = f + d * rng.randint(1, 4)
                if 0 <= rf < 9 and all(board[sq_of(x, kr)] is None for x in range(min(f, rf) + 1, max(f, rf))) \
                        and board[sq_of(rf, kr)] is None:
                    board[sq_of(rf, kr)] = (BLACK, rng.choice(["R", "+R"]))
                    pool["R"] -= 1
        else:
            d = rng.choice([-1, 1])
            f, r = kf + d, kr - 1
            if 0 <= f < 9 and r >= 0 and board[sq_of(f, r)] is None:
                board[sq_of(f, r)] = (WHITE, "N")
                pool["N"] -= 1
                k = rng.randint(1, 4)
                bf, br = f + d * k, r - k
                if 0 <= bf < 9 and br >= 0 and board[sq_of(bf, br)] is None and \
                        all(board[sq_of(f + d * j, r - j)] is None for j in range(1, k)):
                    board[sq_of(bf, br)] = (BLACK, rng.choice(["B", "+B"]))
                    pool["B"] -= 1
    for _ in range(rng.randint(1, 4)):
        k = rng.choice(ATTACK_KINDS)
        if k in ("B", "R", "+B", "+R", "L") and rng.random() < 0.5:
            place(BLACK, k, None, 0)
        else:
            place(BLACK, k, wk, 2)
    for _ in range(rng.randint(0, 4)):
        place(WHITE, rng.choice(DEFEND_KINDS), wk, 2)
    for _ in range(rng.randint(0, 8)):  # scenery
        place(rng.choice([BLACK, WHITE]), rng.choice(DEFEND_KINDS + ["P", "P"]), None, 0)
    for _ in range(rng.randint(0, 3)):  # a little scenery near the black king
        place(rng.choice([BLACK, WHITE]), rng.choice(DEFEND_KINDS), bk, 2)
    if pool["P"] == 0:
        return None
    hands = [dict.fromkeys(HAND_ORDER, 0), dict.fromkeys(HAND_ORDER, 0)]
    hands[BLACK]["P"] = 1
    pool["P"] -= 1
    for kind, n in pool.items():  # every remaining piece goes to a hand
        for _ in range(n):
            hands[BLACK if rng.random() < 0.4 else WHITE][kind] += 1
    pos = RefPos(board, BLACK, hands)
    if pos.in_check(WHITE) or pos.in_check(BLACK):
        return None
    return pos, ps


def flip(pos):
    """Rotate 180 degrees and swap colours."""
    board = [None] * 81
    for sq, p in enumerate(pos.board):
        if p is not None:
            board[80 - sq] = (1 - p[0], p[1])
    return RefPos(board, 1 - pos.side, [dict(pos.hands[1]), dict(pos.hands[0])])


def classify_legal_drop(pos, ps):
    """For a legal (non-mating) checking pawn drop: how does the defender
    answer?  Returns 'king-takes', 'piece-takes' or 'king-escapes'."""
    color = pos.side
    after = pos.make(("d", "P", ps))
    reasons = set()
    for fr, to, prom in after.pseudo_board_moves(1 - color):
        if after.make(("m", fr, to, prom)).in_check(1 - color):
            continue
        if to == ps:
            reasons.add("king-takes" if after.board[fr][1] == "K" else "piece-takes")
        elif after.board[fr][1] == "K":
            reasons.add("king-escapes")
    for r in ("piece-takes", "king-takes", "king-escapes"):
        if r in reasons:
            return r
    return "other"


def illegal_drop_has_pinned_capturer(pos, ps):
    after = pos.make(("d", "P", ps))
    for fr, to, prom in after.pseudo_board_moves(1 - pos.side):
        if to == ps and after.board[fr][1] != "K":
            return True
    return False


def gen_constructed(rng, n_illegal, n_legal):
    """Returns lists of (sfen, drop_usi) for mating (illegal) and checking
    but non-mating (legal) pawn drops."""
    illegal, legal = [], []
    seen = set()
    tries = 0
    while len(illegal) < n_illegal or len(legal) < n_legal:
        tries += 1
        r = construct_pawn_drop_position(rng)
        if r is None:
            continue
        pos, ps = r
        if pos.make(("d", "P", ps)).in_check(BLACK):
            continue
        mates = pos.pawn_drop_mates(ps)
        if rng.random() < 0.5:
            pos = flip(pos)
            ps = 80 - ps
        sfen = to_sfen(pos.board, pos.side, pos.hands)
        if sfen in seen:
            continue
        if mates and len(illegal) < n_illegal:
            seen.add(sfen)
            illegal.append((sfen, "P*" + sq_usi(ps)))
        elif not mates and len(legal) < n_legal:
            seen.add(sfen)
            legal.append((sfen, "P*" + sq_usi(ps)))
    return illegal, legal, tries


# ---------------------------------------------------------------------------
# Statistics.
# ---------------------------------------------------------------------------


def position_stats(sfen, moves):
    """Category flags for one position (computed with the reference board)."""
    pos = RefPos.from_sfen(sfen)
    color = pos.side
    st = {}
    st["in_check"] = pos.in_check(color)
    st["mated"] = not moves
    st["pinned"] = bool(pos.pinned_pieces(color))
    bk, wk = pos.king_sq(BLACK), pos.king_sq(WHITE)
    st["king_in_zone_any"] = in_zone(BLACK, bk % 9) or in_zone(WHITE, wk % 9)
    st["king_in_zone_stm"] = in_zone(color, (bk if color == BLACK else wk) % 9)
    mset = set(moves)
    promos = [m for m in moves if m.endswith("+")]
    st["may_promote"] = any(m[:-1] in mset for m in promos)
    st["must_promote"] = any(m[:-1] not in mset for m in promos)
    st["has_drops"] = any("*" in m for m in moves)
    st["no_moves_not_in_check"] = not moves and not st["in_check"]
    # optional non-promotions present in the list, by piece kind
    for m in promos:
        plain = m[:-1]
        if plain not in mset:
            continue
        fr = (int(m[0]) - 1) * 9 + RANK_LETTERS.index(m[1])
        to = (int(m[2]) - 1) * 9 + RANK_LETTERS.index(m[3])
        kind = pos.board[fr][1]
        rel_to = to % 9 if color == BLACK else 8 - to % 9
        if kind == "L" and rel_to == 1:
            st["nonpromo_L_rank2"] = True
        elif kind == "N" and rel_to == 2:
            st["nonpromo_N"] = True
        elif kind in ("P", "B", "R", "S"):
            st["nonpromo_" + kind] = True
    hand_total = sum(pos.hands[0].values()) + sum(pos.hands[1].values())
    st["hand_ge_10"] = hand_total >= 10
    st["hand_ge_20"] = hand_total >= 20
    st["stm_hand_all7"] = all(pos.hands[color][k] for k in HAND_ORDER)
    st["ge_200_moves"] = len(moves) >= 200
    # uchifuzume: a pseudo-legal pawn drop in front of the enemy king that mates
    enemy_k = wk if color == BLACK else bk
    ps = enemy_k + 1 if color == BLACK else enemy_k - 1
    uchi = False
    drop_check_legal = False
    if (pos.hands[color]["P"] and 0 <= ps < 81 and ps // 9 == enemy_k // 9
            and pos.board[ps] is None and not dead_square("P", color, ps % 9)
            and not any(pos.board[(ps // 9) * 9 + r] == (color, "P") for r in range(9))):
        usi = "P*" + sq_usi(ps)
        if not pos.make(("d", "P", ps)).in_check(color):
            if pos.pawn_drop_mates(ps):
                uchi = True
                assert usi not in mset, (sfen, usi)
            else:
                drop_check_legal = True
                assert usi in mset, (sfen, usi)
    st["uchifuzume"] = uchi
    st["pawn_drop_check_legal"] = drop_check_legal
    st["n_moves"] = len(moves)
    return st


def cshogi_confirms_uchifuzume(sfen, usi):
    """Independent confirmation with cshogi: push the drop (built with
    drop_move, since move_from_usi refuses illegal moves) and check that the
    opponent is in check with no legal reply."""
    b = cshogi.Board(sfen)
    m = b.drop_move(_drop_sq(usi), cshogi.PAWN)
    b.push(m)
    mated = b.is_check() and len(list(b.legal_moves)) == 0
    b.pop()
    return mated


# ---------------------------------------------------------------------------
# Main.
# ---------------------------------------------------------------------------


def write_gzip(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    data = text.encode("ascii")
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tools/fixtures/movegen.tsv.gz")
    ap.add_argument("--uchi-out", default=None,
                    help="small uchifuzume fixture (default: uchifuzume.tsv next to --out)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--count", type=int, default=24000, help="approximate number of positions")
    ap.add_argument("--openings", default=DEFAULT_OPENINGS)
    ap.add_argument("--selfcheck", action="store_true", help="run perft checks and exit")
    ap.add_argument("--deep", action="store_true", help="with --selfcheck: also the slow perfts")
    ap.add_argument("--no-crosscheck", action="store_true",
                    help="skip the (slow) comparison with the reference generator")
    args = ap.parse_args()

    if args.selfcheck:
        sys.exit(0 if selfcheck(args.deep) else 1)

    t0 = time.time()
    cshogi_version = importlib.metadata.version("cshogi")
    rng = random.Random(args.seed)
    openings = load_openings(args.openings)
    coll = Collector()

    # Budget shares of --count.
    c = args.count
    n_constructed_illegal = max(50, c // 55)   # ~436 at 24,000
    n_constructed_legal = max(50, c // 55)
    gen_from_startpos(rng, coll, int(c * 0.36), origin="startpos")
    print("startpos playouts: %d positions (%.0fs)" % (len(coll), time.time() - t0), file=sys.stderr)
    gen_from_openings(rng, coll, int(c * 0.32), openings)
    print("+ openings: %d positions (%.0fs)" % (len(coll), time.time() - t0), file=sys.stderr)
    gen_from_startpos(rng, coll, int(c * 0.12), origin="kingwalk", kingwalk_prob=1.0)
    print("+ king walks: %d positions (%.0fs)" % (len(coll), time.time() - t0), file=sys.stderr)
    gen_from_startpos(rng, coll, int(c * 0.12), origin="capture-heavy", capture_bias=0.9,
                      check_bias=0.25, record_prob=0.4)
    print("+ capture-heavy: %d positions (%.0fs)" % (len(coll), time.time() - t0), file=sys.stderr)
    illegal, legal, tries = gen_constructed(rng, n_constructed_illegal, n_constructed_legal)
    for sfen, _ in illegal:
        coll.add(sfen, "constructed-uchifuzume")
    for sfen, _ in legal:
        coll.add(sfen, "constructed-pawn-drop-check")
    print("+ constructed: %d positions (%d attempts, %.0fs)" % (len(coll), tries, time.time() - t0),
          file=sys.stderr)
    # fill up to the requested count with more mixed playouts
    if len(coll) < c:
        gen_from_startpos(rng, coll, c - len(coll), origin="startpos")

    # Compute move lists, cross-check, gather statistics.
    lines = []
    totals = {}
    mismatches = 0
    move_total = 0
    max_moves = 0
    for i, sfen in enumerate(coll.sfens):
        board = cshogi.Board(sfen)
        moves = legal_usi_list(board)
        if not args.no_crosscheck:
            ref = RefPos.from_sfen(sfen).legal_moves_usi()
            if ref != moves:
                mismatches += 1
                print("MISMATCH %s\n  cshogi-only: %s\n  reference-only: %s"
                      % (sfen, sorted(set(moves) - set(ref)), sorted(set(ref) - set(moves))),
                      file=sys.stderr)
        st = position_stats(sfen, moves)
        for k, v in st.items():
            if isinstance(v, bool):
                totals[k] = totals.get(k, 0) + int(v)
        move_total += len(moves)
        max_moves = max(max_moves, len(moves))
        lines.append(sfen + "\t" + " ".join(moves))
        if (i + 1) % 5000 == 0:
            print("  checked %d/%d (%.0fs)" % (i + 1, len(coll), time.time() - t0), file=sys.stderr)
    if mismatches:
        print("ERROR: %d positions disagree between cshogi and the reference generator" % mismatches,
              file=sys.stderr)
        sys.exit(1)

    # Confirm every uchifuzume / legal-drop example with cshogi as well.
    for sfen, usi in illegal:
        assert usi not in legal_usi_list(cshogi.Board(sfen)), (sfen, usi)
        assert cshogi_confirms_uchifuzume(sfen, usi), (sfen, usi)
    for sfen, usi in legal:
        assert usi in legal_usi_list(cshogi.Board(sfen)), (sfen, usi)
        assert not cshogi_confirms_uchifuzume(sfen, usi), (sfen, usi)

    header = ("# movegen fixture generated by tools/gen_movegen_fixtures.py; cshogi %s; seed %d; "
              "count %d; openings sample from %s; format: <sfen board side hands 1>\\t<sorted USI "
              "legal moves, space separated; empty if no legal moves>; %s" % (
                  cshogi_version, args.seed, len(lines), os.path.basename(args.openings),
                  "not cross-checked" if args.no_crosscheck else
                  "cross-checked against an independent reference generator"))
    write_gzip(args.out, header + "\n" + "\n".join(lines) + "\n")

    # Small uchifuzume fixture: ~50 illegal + ~50 legal, diverse.
    uchi_path = args.uchi_out or os.path.join(os.path.dirname(args.out) or ".", "uchifuzume.tsv")
    urng = random.Random(args.seed + 1)
    pinned_cap = [x for x in illegal if illegal_drop_has_pinned_capturer(RefPos.from_sfen(x[0]), _drop_sq(x[1]))]
    plain_mate = [x for x in illegal if x not in pinned_cap]
    pick_illegal = _pick_balanced(urng, [pinned_cap, plain_mate], 50)
    by_reason = {}
    for x in legal:
        r = classify_legal_drop(RefPos.from_sfen(x[0]), _drop_sq(x[1]))
        by_reason.setdefault(r, []).append(x)
    pick_legal = _pick_balanced(urng, [by_reason.get(r, []) for r in
                                       ("king-takes", "piece-takes", "king-escapes", "other")], 50)
    ulines = []
    for (sfen, usi), verdict in [(x, "illegal") for x in pick_illegal] + [(x, "legal") for x in pick_legal]:
        ulines.append("%s\t%s\t%s\t%s" % (sfen, " ".join(legal_usi_list(cshogi.Board(sfen))), usi, verdict))
    with open(uchi_path, "w", newline="\n") as f:
        f.write("# pawn-drop check fixtures generated by tools/gen_movegen_fixtures.py; cshogi %s; seed %d; "
                "format: <sfen>\\t<sorted legal moves>\\t<pawn drop>\\t<illegal (drop mates: uchifuzume) "
                "| legal (check, not mate)>\n" % (cshogi_version, args.seed))
        f.write("\n".join(ulines) + "\n")

    # Summary.
    origins = {}
    for s in coll.sfens:
        o = coll.origin[s]
        origins[o] = origins.get(o, 0) + 1
    print("wrote %s: %d positions, %d moves in total (max %d in one position), %d bytes"
          % (args.out, len(lines), move_total, max_moves, os.path.getsize(args.out)))
    print("wrote %s: %d illegal (%d with a pinned would-be capturer) + %d legal pawn drops %s"
          % (uchi_path, len(pick_illegal), sum(1 for x in pick_illegal if x in pinned_cap), len(pick_legal),
             {r: sum(1 for x in pick_legal if x in v) for r, v in by_reason.items()}))
    print("cshogi %s, seed %d, cross-check %s, non-promotions added by completion step: %d"
          % (cshogi_version, args.seed, "skipped" if args.no_crosscheck else "passed (0 mismatches)",
             STATS_ADDED_NONPROMOTIONS[0]))
    print("sources:", ", ".join("%s=%d" % kv for kv in sorted(origins.items())))
    labels = [
        ("in_check", "side to move in check"),
        ("mated", "no legal moves (empty move list)"),
        ("no_moves_not_in_check", "no legal moves without being in check"),
        ("pinned", "side to move has a pinned piece"),
        ("uchifuzume", "pawn drop in front of enemy king would mate (absent: uchifuzume)"),
        ("pawn_drop_check_legal", "pawn drop in front of enemy king checks, no mate (present)"),
        ("king_in_zone_any", "a king in its entering zone"),
        ("king_in_zone_stm", "side to move's king in its entering zone"),
        ("may_promote", "optional promotion available"),
        ("must_promote", "mandatory promotion available"),
        ("nonpromo_P", "optional pawn non-promotion listed"),
        ("nonpromo_L_rank2", "lance non-promotion to 2nd-to-last rank listed"),
        ("nonpromo_N", "optional knight non-promotion listed"),
        ("nonpromo_S", "optional silver non-promotion listed"),
        ("nonpromo_B", "optional bishop non-promotion listed"),
        ("nonpromo_R", "optional rook non-promotion listed"),
        ("has_drops", "drops available"),
        ("hand_ge_10", ">= 10 pieces in hands (both sides)"),
        ("hand_ge_20", ">= 20 pieces in hands (both sides)"),
        ("stm_hand_all7", "side to move holds all 7 hand piece kinds"),
        ("ge_200_moves", ">= 200 legal moves"),
    ]
    for key, text in labels:
        print("  %-22s %6d  %s" % (key, totals.get(key, 0), text))
    print("done in %.0fs" % (time.time() - t0))


def _drop_sq(usi):
    return (int(usi[2]) - 1) * 9 + RANK_LETTERS.index(usi[3])


def _pick_balanced(rng, groups, n):
    groups = [list(g) for g in groups]
    for g in groups:
        rng.shuffle(g)
    out = []
    while len(out) < n and any(groups):
        for g in groups:
            if g and len(out) < n:
                out.append(g.pop())
    return out


if __name__ == "__main__":
    main()
