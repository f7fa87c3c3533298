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
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
base=${1:-main}
shift || true
openings=$(realpath "${OPENINGS:-$root/../shared/data/openings/taya36.sfen}")
games=${GAMES:-2000}
out=$root/target/sprt
mkdir -p "$out"

cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p kyobo
cp "$root/target/release/kyobo" "$out/kyobo-new"

tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree"' EXIT
git -C "$root" worktree add --quiet --detach "$tree" "$base"
CARGO_TARGET_DIR=$out/base-build cargo build --release --quiet --manifest-path "$tree/Cargo.toml" -p kyobo
cp "$out/base-build/release/kyobo" "$out/kyobo-base"

cd "$here"
shogiarena run sprt sprt.yaml --games "$games" \
  --run-dir "$out/run-$(date +%Y%m%d-%H%M%S)" \
  --rules "initial_positions.source=$openings" "$@"
