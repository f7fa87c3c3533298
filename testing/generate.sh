#!/usr/bin/env bash
# Self-play positions for the NNUE trainer on shogiarena: Kyobo's release
# build against itself (testing/generate.yaml), then the records as the
# trainer's lines (tools/arena_positions.py).
#
#   testing/generate.sh [shogiarena options...]
#
# 1,000 games at 100 ms a move by default (`--generate games=N`). OPENINGS
# names the openings file as for testing/sprt.sh. The positions are written to
# RUN/positions.txt, for `kyobo-lab nnue-train --data` (docs/nnue.md). On SSH
# workers: testing/ssh-worker.sh generate.yaml --generate games=N.
set -euo pipefail
# Read whole before it runs (the braces and the exit below), so that an edit to
# this file during a long run cannot make bash run stray text (see spsa.sh).
{
source "$(dirname "$0")/common.sh"
run=$(new_run generate)
build_release
arena generate generate.yaml "$run" "$@"
python3 "$root/tools/arena_positions.py" "$run"/records/*.psv > "$run/positions.txt"
echo "positions: $run/positions.txt"
exit
}
