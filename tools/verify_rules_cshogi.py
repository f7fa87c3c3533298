#!/usr/bin/env python3
"""Checks the hand-made expectations of rules.rs against cshogi.

Every `expect(sfen, &[present..], &[absent..])` and `expect_exact(sfen, &[..])`
call in rules.rs is extracted and compared with cshogi's legal moves (cshogi's
legal_moves includes the non-promotions we need). The repetition lines and the
declaration positions are re-played here by hand. Run: python3 verify_rules_cshogi.py
"""
import os
import re
import sys

import cshogi

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "..", "crates", "shogi", "tests", "rules.rs")).read()

consts = dict(re.findall(r'const (\w+): &str = "([^"]*)";', SRC))
failures = 0
checked = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def legal(sfen):
    b = cshogi.Board(sfen)
    return b, {cshogi.move_to_usi(m) for m in b.legal_moves}


def strings(text):
    return re.findall(r'"([^"]*)"', text)


# Walk the source in order so that `sfen` refers to the latest `let sfen = ..`.
token = re.compile(
    r'let sfen = "([^"]*)";|\bexpect(_exact)?\(\s*("[^"]*"|\w+)\s*,(.*?)\);', re.S
)
current = None
for m in token.finditer(SRC):
    if m.group(1) is not None:
        current = m.group(1)
        continue
    exact, first, rest = m.group(2), m.group(3), m.group(4)
    if first.startswith('"'):
        sfen = first[1:-1]
    elif first == "sfen":
        sfen = current
    else:
        sfen = consts[first]
    _, moves = legal(sfen)
    checked += 1
    if exact:
        want = set(strings(rest))
        if moves != want:
            fail(f"{sfen}: missing {want - moves} extra {moves - want}")
    else:
        present_text, absent_text = re.match(r"\s*&\[(.*?)\]\s*,\s*&\[(.*?)\]", rest, re.S).groups()
        for mv in strings(present_text):
            if mv not in moves:
                fail(f"{sfen}: {mv} should be legal")
        for mv in strings(absent_text):
            if mv in moves:
                fail(f"{sfen}: {mv} should be illegal")


def play(sfen, moves):
    b = cshogi.Board(sfen) if sfen else cshogi.Board()
    for mv in moves:
        m = b.move_from_usi(mv)
        if not b.is_legal(m):
            fail(f"{mv} illegal in {b.sfen()}")
        b.push(m)
    return b


# Repetition: cshogi's is_draw reports the nearest repetition like repetition().
shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"]
if play(None, shuffle).is_draw(16) != cshogi.REPETITION_DRAW:
    fail("shuffle is not a draw")
if play(None, shuffle[:3]).is_draw(16) != cshogi.NOT_REPETITION:
    fail("shuffle repeats too early")
perp = "8k/9/R8/9/9/9/9/9/4K4 b - 1"
cycle = ["1a1b", "9a9b", "1b1a", "9b9a"]
if play(perp, ["9c9a"] + cycle).is_draw(16) != cshogi.REPETITION_WIN:
    fail("perpetual: checked side should win")
if play(perp, ["9c9a"] + cycle + ["1a1b"]).is_draw(16) != cshogi.REPETITION_LOSE:
    fail("perpetual: checker should lose")
if play(perp, ["9c9a", "1a1b", "9a9c", "1b1a", "9c9a"]).is_draw(16) != cshogi.REPETITION_DRAW:
    fail("intermittent checks should draw")
sup = "8k/9/9/9/4R4/9/9/9/4K4 b p 1"
line = ["5e5d", "P*5c", "5d5c", "1a1b", "5c5e", "1b1a"]
if play(sup, line).is_draw(16) != cshogi.REPETITION_SUPERIOR:
    fail("superior")
if play(sup, line + ["5e5d"]).is_draw(16) != cshogi.REPETITION_INFERIOR:
    fail("inferior")
checked += 7

# Declaration (cshogi implements the CSA 27-point rule and the 24-point rule).
decl = [
    ("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 b RB 1", True, False),
    ("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 b R4P 1", False, False),
    ("4K4/9/9/9/9/9/b7r/4k4/ssss1gggg w r4p 1", True, False),
    ("GGGG1SSSS/9/R7B/4K4/9/9/9/9/4k4 b RB 1", False, False),
    ("GGGGpSSSS/4K4/R7B/9/9/9/9/9/4k4 b RB 1", False, False),
    ("GGGG2SSS/4K4/R7B/9/9/9/9/9/4k4 b RBS 1", False, False),
    ("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 b RB2P 1", True, False),
    ("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 b RB3P 1", True, True),
]
for sfen, win27, win24 in decl:
    b = cshogi.Board(sfen)
    if b.is_nyugyoku(cshogi.LAW_27) != win27 or b.is_nyugyoku(cshogi.LAW_24) != win24:
        fail(f"declaration {sfen}: cshogi says 27:{b.is_nyugyoku(cshogi.LAW_27)} "
             f"24:{b.is_nyugyoku(cshogi.LAW_24)}")
    checked += 1

# Perft of the kingless tsume position.
def perft(b, depth):
    if depth == 0:
        return 1
    n = 0
    for m in list(b.legal_moves):
        b.push(m)
        n += perft(b, depth - 1)
        b.pop()
    return n


tsume = cshogi.Board("4k4/9/4P4/9/9/9/9/9/9 b G 1")
if [perft(tsume, d) for d in (1, 2, 3)] != [81, 304, 2572]:
    fail("tsume perft")
checked += 1

print(f"{checked} expectations checked against cshogi, {failures} failures")
sys.exit(1 if failures else 0)
