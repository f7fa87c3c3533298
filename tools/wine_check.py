"""The release check of a Windows build under wine: `kyobo.exe` speaks USI as a GUI
drives it (usi, isready, position, go byoyomi 500, a legal bestmove, quit) and
counts perft 5 of the start (19,861,490). Exits non-zero with the reason on
failure.

    python3 tools/wine_check.py target/x86_64-pc-windows-gnu/release/kyobo.exe

Needs wine (Debian's wine64) and mingw-w64 (gcc-mingw-w64-x86-64): wine 8 lacks
bcryptprimitives.dll, which Rust's standard library loads on Windows 10 and later, so
a stand-in (tools/wine/bcryptprimitives.c) is built and put beside a copy of the
executable for the check. The legal moves of the start position to check the
bestmove against are the 30 every shogi program agrees on.
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from usi_engine import EngineError, UsiEngine  # noqa: E402

START_MOVES = set(
    "1g1f 2g2f 3g3f 4g4f 5g5f 6g6f 7g7f 8g8f 9g9f 1i1h 9i9h 2h1h 2h3h 2h4h 2h5h 2h6h "
    "2h7h 3i3h 3i4h 4i3h 4i4h 4i5h 5i4h 5i5h 5i6h 6i5h 6i6h 6i7h 7i6h 7i7h".split()
)
PERFT_5 = 19_861_490


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory(prefix="kyobo-wine-") as folder:
        exe = os.path.join(folder, "kyobo.exe")
        shutil.copy(sys.argv[1], exe)
        stand_in = os.path.join(os.path.dirname(__file__), "wine", "bcryptprimitives.c")
        subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o",
                        os.path.join(folder, "bcryptprimitives.dll"), stand_in, "-ladvapi32"],
                       check=True)
        check(exe)
    print(f"{sys.argv[1]}: perft 5 = {PERFT_5:,} and a legal bestmove over USI under wine")


def check(exe):
    env = dict(os.environ, WINEDEBUG="-all")
    # perft 5: the count, in the Windows build.
    run = subprocess.run(["wine", exe, "perft", "5"], capture_output=True, text=True,
                         timeout=600, env=env)
    counted = [line for line in run.stdout.splitlines() if line.startswith("nodes ")]
    if run.returncode != 0 or counted != [f"nodes {PERFT_5}"]:
        sys.exit(f"perft 5 under wine: exit {run.returncode}, {counted or run.stdout!r}")
    # USI as a GUI drives it.
    os.environ["WINEDEBUG"] = "-all"
    engine = UsiEngine("wine", args=[exe], name="kyobo.exe under wine",
                       stderr=subprocess.DEVNULL)
    try:
        engine.handshake(timeout=120)
        engine.send("usinewgame")
        engine.send("position startpos")
        engine.send("go btime 0 wtime 0 byoyomi 500")
        best = engine.wait_for("bestmove", timeout=30)[-1].split()
        if len(best) < 2 or best[1] not in START_MOVES:
            sys.exit(f"under wine: illegal or no bestmove: {' '.join(best)}")
        engine.quit(timeout=30)
    except EngineError as e:
        sys.exit(f"under wine: {e}")


if __name__ == "__main__":
    main()
