#!/usr/bin/env python3
"""Generate short-mate fixtures for Kyobo's search and mate-solver tests.

Output format (UTF-8/ASCII; lines starting with '#' are comments, the first one
says how the file was made):

    <SFEN: board side hands 1>\t<shortest mate in plies: 1, 3 or 5>\t<one mating
                                                          line in USI, space separated>

The positions are made here, independently of any published problem set:
random "tsume-like" positions with the defending White king on or near its
edge (ranks a-c), a few Black pieces around it (and now and then a White
defender), zero to three pieces in Black's hand and every other piece in
White's hand.  As in tsume there is no Black king, so White can never give
check.  Black is to move and White is not in check.  Each candidate is first
filtered by cshogi's df-pn (`cshogi.DfPn`, depth limited to 5 plies); a
candidate it marks as a mate is then solved by an exhaustive search written in
this file on top of cshogi's rules (`Board.legal_moves`, `push`/`pop`,
`is_check`):

  * the length is the SHORTEST forced mate counting every ply (no
    futile-interposition rule): there is no mate at any shorter odd length,
    the attacker's moves being checks, and every defence, interpositions
    included, counts;
  * for 5-ply positions there is no mate in 3 even with a quiet (non-checking)
    first move, so an ordinary alpha-beta engine also sees exactly mate in 5
    (a quiet move can never mate in 1);
  * the line is a principal variation: each Black move keeps the shortest
    mate (so the side to move after Black's first move of a 3-ply mate is
    mated in 2 whatever it plays), and each White reply is one that delays the
    mate longest.  Ties are broken by the USI text, so the output is
    reproducible.  Every line is replayed in a fresh cshogi board: each move is
    legal, each Black move gives check and the last position is checkmate.

cshogi's own mate finders (`mate_move_in_1ply`, `mate_move(3)`, `mate_move(5)`)
are run on every written position as a cross-check; disagreements with the
exhaustive search are counted and printed (they are reported, not fatal, since
those finders are known to be incomplete heuristics in some engines).

Usage:
    python3 tools/gen_mate_fixtures.py --out tools/fixtures/mates.tsv
    python3 tools/gen_mate_fixtures.py --selfcheck            # small known cases
    python3 tools/gen_mate_fixtures.py --selfcheck --verify tools/fixtures/mates.tsv

Output is byte-reproducible for a given seed and cshogi version.
"""

import argparse
import importlib.metadata
import os
import random
import sys
import time

import cshogi

DEFAULT_SEED = 20240907
DEFAULT_COUNTS = (60, 40, 20)  # mates in 1, 3 and 5 plies

RANK_LETTERS = "abcdefghi"
HAND_ORDER = "RBGSNLP"
FULL_SET = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
BLACK, WHITE = 0, 1

# ---------------------------------------------------------------------------
# Positions.  A board is a dict {(file0, rank0): (color, kind)}, file0 0..8 is
# file 1..9, rank0 0..8 is rank a..i; kind is one of P L N S G B R K +P +L +N
# +S +B +R.
# ---------------------------------------------------------------------------


def base_kind(kind):
    return kind[-1]


def to_sfen(board, side, hands):
    rows = []
    for r0 in range(9):
        row = ""
        empty = 0
        for f0 in range(8, -1, -1):
            p = board.get((f0, r0))
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
            n = hands[color].get(k, 0)
            if n:
                letter = k if color == BLACK else k.lower()
                hand += (str(n) if n > 1 else "") + letter
    return "%s %s %s 1" % ("/".join(rows), "bw"[side], hand or "-")


def dead_square(kind, color, r0):
    """True if an unpromoted `kind` of `color` on rank r0 could never move."""
    rel = r0 if color == BLACK else 8 - r0  # 0 = last rank for that color
    if kind in ("P", "L"):
        return rel == 0
    if kind == "N":
        return rel <= 1
    return False


def weighted(rng, table):
    total = sum(w for _, w in table)
    x = rng.random() * total
    for item, w in table:
        x -= w
        if x < 0:
            return item
    return table[-1][0]


ATTACKERS = [("P", 2), ("L", 1), ("N", 2), ("S", 3), ("G", 3), ("B", 1), ("R", 1),
             ("+P", 1), ("+S", 1), ("+B", 1), ("+R", 1)]
DEFENDERS = [("P", 3), ("L", 1), ("N", 1), ("S", 2), ("G", 3), ("B", 1), ("R", 1)]
HAND = [("R", 1), ("B", 1), ("G", 3), ("S", 3), ("N", 2), ("L", 2), ("P", 2)]


def random_position(rng):
    """A random tsume-like SFEN (Black to move), or None if the draw was unusable."""
    stock = dict(FULL_SET)
    board = {}
    pawn_files = [set(), set()]

    def place(color, kind, near, radius):
        if stock[base_kind(kind)] == 0:
            return False
        for _ in range(20):
            f0 = near[0] + rng.randint(-radius, radius)
            r0 = near[1] + rng.randint(-radius, radius)
            if not (0 <= f0 <= 8 and 0 <= r0 <= 8) or (f0, r0) in board:
                continue
            if dead_square(kind, color, r0):
                continue
            if kind == "P" and f0 in pawn_files[color]:
                continue
            board[(f0, r0)] = (color, kind)
            stock[base_kind(kind)] -= 1
            if kind == "P":
                pawn_files[color].add(f0)
            return True
        return False

    king = (rng.randint(0, 8), weighted(rng, [(0, 6), (1, 3), (2, 1)]))
    board[king] = (WHITE, "K")
    for _ in range(weighted(rng, [(0, 3), (1, 3), (2, 2), (3, 1)])):
        place(WHITE, weighted(rng, DEFENDERS), king, 1 if rng.random() < 0.6 else 2)
    n_att = weighted(rng, [(1, 2), (2, 4), (3, 3), (4, 1)])
    for _ in range(n_att):
        kind = weighted(rng, ATTACKERS)
        radius = 4 if base_kind(kind) in "BRL" and rng.random() < 0.5 else 2
        place(BLACK, kind, king, radius)
    hands = [{}, {}]
    for _ in range(weighted(rng, [(0, 1), (1, 4), (2, 4), (3, 2)])):
        k = weighted(rng, HAND)
        if stock[k]:
            stock[k] -= 1
            hands[BLACK][k] = hands[BLACK].get(k, 0) + 1
    hands[WHITE] = {k: n for k, n in stock.items() if n}
    sfen = to_sfen(board, BLACK, hands)
    # White must not be in check with Black to move (the position would be illegal).
    as_white = cshogi.Board(sfen.replace(" b ", " w ", 1))
    if as_white.is_check():
        return None
    b = cshogi.Board(sfen)
    if b.is_check() or not any(True for _ in b.legal_moves):
        return None
    return sfen


# ---------------------------------------------------------------------------
# Exhaustive mate search on cshogi's rules.
# ---------------------------------------------------------------------------


def usi(m):
    return cshogi.move_to_usi(m)


def by_usi(moves):
    return sorted(moves, key=usi)


def gives_check(b, m):
    b.push(m)
    c = b.is_check()
    b.pop()
    return c


def checks(b):
    return [m for m in b.legal_moves if gives_check(b, m)]


def is_checkmate(b):
    return b.is_check() and not any(True for _ in b.legal_moves)


class Searcher:
    """Can the side to move mate within n plies?  Memoised on (zobrist key, n)."""

    def __init__(self):
        self.attack = {}
        self.defend = {}

    def mate_in(self, b, n, quiet=False):
        """The side to move mates within n plies (n odd).  With `quiet`, the first
        move may be any move, not only a check (later attacker moves stay checks,
        which loses nothing at n = 3: only a check can mate in one)."""
        if n < 1:
            return False
        key = (b.zobrist_hash(), n, quiet)
        hit = self.attack.get(key)
        if hit is not None:
            return hit
        moves = list(b.legal_moves) if quiet else checks(b)
        found = False
        for m in moves:
            b.push(m)
            ok = self.all_mated(b, n - 1)
            b.pop()
            if ok:
                found = True
                break
        self.attack[key] = found
        return found

    def all_mated(self, b, n):
        """Every reply of the side to move is mated within n plies (n even), or it
        is checkmated already (not in check and no move cannot happen here: White
        always has drops)."""
        key = (b.zobrist_hash(), n)
        hit = self.defend.get(key)
        if hit is not None:
            return hit
        replies = list(b.legal_moves)
        if not replies:
            result = b.is_check()
        elif n == 0:
            result = False
        else:
            result = True
            for r in replies:
                b.push(r)
                ok = self.mate_in(b, n - 1)
                b.pop()
                if not ok:
                    result = False
                    break
        self.defend[key] = result
        return result

    def shortest(self, b, limit):
        """The shortest mate (odd plies) up to `limit`, or None."""
        for n in range(1, limit + 1, 2):
            if self.mate_in(b, n):
                return n
        return None

    def line(self, b, n):
        """A principal variation of a mate whose shortest length is exactly n."""
        pv = []
        pushed = 0
        while True:
            move = None
            for m in by_usi(checks(b)):
                b.push(m)
                ok = self.all_mated(b, n - 1)
                b.pop()
                if ok:
                    move = m
                    break
            assert move is not None, b.sfen()
            b.push(move)
            pushed += 1
            pv.append(usi(move))
            if n == 1:
                break
            # The reply that holds out longest: after it, no mate shorter than n - 2.
            reply = None
            for r in by_usi(b.legal_moves):
                b.push(r)
                longest = not self.mate_in(b, n - 4) if n >= 5 else True
                b.pop()
                if longest:
                    reply = r
                    break
            assert reply is not None, b.sfen()
            b.push(reply)
            pushed += 1
            pv.append(usi(reply))
            n -= 2
        for _ in range(pushed):
            b.pop()
        return pv


def replay_is_mate(sfen, line):
    """The line replays in a fresh board: legal moves, every attacker move a check,
    the defender's moves answers to check, and the end checkmate."""
    b = cshogi.Board(sfen)
    for i, text in enumerate(line):
        legal = {usi(m): m for m in b.legal_moves}
        if text not in legal:
            return "move %d (%s) is not legal" % (i + 1, text)
        b.push(legal[text])
        if i % 2 == 0 and not b.is_check():
            return "move %d (%s) is not a check" % (i + 1, text)
    if not is_checkmate(b):
        return "the line does not end in checkmate"
    return None


def classify(sfen, searcher, wanted):
    """(length, line) for a mate of a length still wanted, else None."""
    b = cshogi.Board(sfen)
    df = cshogi.DfPn(max(wanted), 20000)
    if not df.search(b):
        return None
    n = searcher.shortest(b, max(wanted))
    if n is None or n not in wanted:
        return None
    if n == 5 and searcher.mate_in(b, 3, quiet=True):
        return None  # a quiet first move mates in 3: not a clean 5-ply mate
    return n, searcher.line(b, n)


def cshogi_finders(sfen):
    """The shortest length cshogi's own mate-move finders report (1, 3, 5 or None)."""
    b = cshogi.Board(sfen)
    if b.mate_move_in_1ply():
        return 1
    if b.mate_move(3):
        return 3
    if b.mate_move(5):
        return 5
    return None


def verify_line(sfen, n, line, searcher):
    """Problems with one fixture line (empty if none)."""
    problems = []
    if len(line) != n:
        problems.append("line of %d plies for a mate in %d" % (len(line), n))
    err = replay_is_mate(sfen, line)
    if err:
        problems.append(err)
    b = cshogi.Board(sfen)
    got = searcher.shortest(b, n)
    if got != n:
        problems.append("exhaustive search: shortest mate %s, not %d" % (got, n))
    if n == 5 and searcher.mate_in(b, 3, quiet=True):
        problems.append("a quiet first move mates in 3")
    if n >= 3 and len(line) == n:
        # After the line's first move every reply is mated within n - 1 plies.
        b.push_usi(line[0])
        if not searcher.all_mated(b, n - 1):
            problems.append("the first move %s does not force mate in %d" % (line[0], n))
    return problems


# ---------------------------------------------------------------------------
# Self-check and main.
# ---------------------------------------------------------------------------

KNOWN = [
    # (sfen, shortest mate in plies or None within 5)
    ("4k4/9/4P4/9/9/9/9/9/9 b G 1", 1),                      # G*5b
    ("4k4/9/9/9/9/9/9/9/9 b G 1", None),                     # a lone gold
    ("kn7/9/1G7/9/9/9/9/9/9 b P 1", None),                   # P*9b would be uchifuzume
    ("kn7/9/P1G6/L8/9/9/9/9/9 b - 1", 1),                    # pushing the pawn mates
    ("8k/9/8P/9/9/9/9/9/9 b 2G 1", 1),                       # G*1b
    ("7nk/9/8P/9/9/9/9/9/9 b G 1", 1),                       # G*1b, the knight cannot take
    ("8k/9/9/9/9/9/9/9/9 b 2G 1", None),                     # the king escapes to 2a
]


def selfcheck(verify_path):
    ok = True
    searcher = Searcher()
    for sfen, want in KNOWN:
        got = searcher.shortest(cshogi.Board(sfen), 5)
        status = "ok" if got == want else "FAIL"
        ok &= got == want
        print("%-4s %s: shortest %s (expected %s)" % (status, sfen, got, want))
        if got:
            line = searcher.line(cshogi.Board(sfen), got)
            err = replay_is_mate(sfen, line)
            print("     line %s: %s" % (" ".join(line), err or "replays to mate"))
            ok &= err is None
    if verify_path:
        n_lines = 0
        for sfen, n, line in read_fixture(verify_path):
            problems = verify_line(sfen, n, line, searcher)
            n_lines += 1
            if problems:
                ok = False
                print("FAIL %s (%d): %s" % (sfen, n, "; ".join(problems)))
        print("%s: %d lines checked" % (verify_path, n_lines))
    print("selfcheck %s" % ("passed" if ok else "FAILED"))
    return ok


def read_fixture(path):
    with open(path, encoding="ascii") as f:
        for text in f:
            text = text.rstrip("\n")
            if not text or text.startswith("#"):
                continue
            sfen, n, line = text.split("\t")
            yield sfen, int(n), line.split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tools/fixtures/mates.tsv")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--counts", default=",".join(map(str, DEFAULT_COUNTS)),
                    help="how many mates in 1, 3 and 5 plies (default %(default)s)")
    ap.add_argument("--max-tries", type=int, default=3_000_000,
                    help="give up after this many random positions")
    ap.add_argument("--selfcheck", action="store_true",
                    help="check the exhaustive search on known positions and exit")
    ap.add_argument("--verify", default=None,
                    help="with --selfcheck: also re-verify every line of this fixture")
    args = ap.parse_args()

    if args.selfcheck:
        sys.exit(0 if selfcheck(args.verify) else 1)

    t0 = time.time()
    cshogi_version = importlib.metadata.version("cshogi")
    rng = random.Random(args.seed)
    quota = dict(zip((1, 3, 5), map(int, args.counts.split(","))))
    found = {1: [], 3: [], 5: []}
    seen = set()
    tries = 0
    while any(len(found[n]) < quota[n] for n in quota) and tries < args.max_tries:
        tries += 1
        sfen = random_position(rng)
        if sfen is None or sfen in seen:
            continue
        seen.add(sfen)
        wanted = [n for n in (1, 3, 5) if len(found[n]) < quota[n]]
        # Searches stay small: a fresh table per position.
        got = classify(sfen, Searcher(), wanted)
        if got is None:
            continue
        n, line = got
        found[n].append((sfen, line))
        if sum(map(len, found.values())) % 10 == 0:
            print("  %d tries: %s (%.0fs)" % (tries, {k: len(v) for k, v in found.items()},
                                              time.time() - t0), file=sys.stderr)
    short = {n: quota[n] - len(found[n]) for n in quota if len(found[n]) < quota[n]}
    if short:
        print("ERROR: gave up after %d tries, missing %s" % (tries, short), file=sys.stderr)
        sys.exit(1)

    # Verify everything once more from scratch and cross-check cshogi's finders.
    searcher = Searcher()
    rows = []
    disagreements = 0
    for n in (1, 3, 5):
        for sfen, line in found[n]:
            problems = verify_line(sfen, n, line, searcher)
            if problems:
                print("ERROR %s: %s" % (sfen, "; ".join(problems)), file=sys.stderr)
                sys.exit(1)
            finder = cshogi_finders(sfen)
            if finder != n:
                disagreements += 1
                print("note: cshogi's mate_move finders say %s for %s (exhaustive: %d)"
                      % (finder, sfen, n), file=sys.stderr)
            rows.append("%s\t%d\t%s" % (sfen, n, " ".join(line)))

    header = [
        "# mate fixture generated by tools/gen_mate_fixtures.py; cshogi %s; seed %d; counts %s; "
        "command: python3 tools/gen_mate_fixtures.py --out tools/fixtures/mates.tsv"
        % (cshogi_version, args.seed, args.counts),
        "# format: <sfen>\\t<shortest forced mate in plies, every ply counted>\\t<a mating "
        "line in USI: each Black move a check, each White reply one that lasts longest>",
        "# random tsume-like positions (no Black king, all other pieces in White's hand), "
        "lengths proven by exhaustive search on cshogi's move generator; 5-ply ones have no "
        "3-ply mate even with a quiet first move",
    ]
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(header + rows) + "\n")
    print("wrote %s: %s positions after %d tries; cshogi finder disagreements: %d (%.0fs)"
          % (args.out, {k: len(v) for k, v in found.items()}, tries, disagreements,
             time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
