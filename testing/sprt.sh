#!/usr/bin/env bash
# An SPRT of the work tree against a base commit, on shogiarena.
#
#   testing/sprt.sh [BASE] [shogiarena options...]
#
# BASE defaults to main. The openings default to ../shared/data/openings/taya36.sfen
# beside the repository; set OPENINGS to a file of your own (one SFEN or
# `startpos moves ...` line each). GAMES caps the run (default 2000). Further
# arguments go to `shogiarena run sprt`, e.g.
# `--rules time_control.time_ms=10000 time_control.byoyomi_ms=0 time_control.increment_ms=100`.
# Both engines are release builds; the run's directory is printed at the start.
set -euo pipefail
source "$(dirname "$0")/common.sh"
base=${1:-main}
shift || true
games=${GAMES:-2000}
out=$root/target/sprt
mkdir -p "$out"

build_release
cp "$root/target/release/kyobo" "$out/kyobo-new"

tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree"' EXIT
git -C "$root" worktree add --quiet --detach "$tree" "$base"
CARGO_TARGET_DIR=$out/base-build cargo build --release --quiet --manifest-path "$tree/Cargo.toml" -p kyobo
cp "$out/base-build/release/kyobo" "$out/kyobo-base"

arena sprt sprt.yaml "$(new_run sprt)" --games "$games" "$@"
