#!/usr/bin/env bash
# Kyobo's release build against itself on shogiarena, for reliability.
#
#   testing/selfplay.sh [shogiarena options...]
#
# 1,000 games at 1 s + 0.1 s by default (`--tournament games_per_pair=N` for
# fewer). OPENINGS names the openings file as for testing/sprt.sh. At the end
# it prints the run's status: completed and error games, and time losses by
# side (`timeouts_by_origin`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
openings=$(realpath "${OPENINGS:-$root/../shared/data/openings/taya36.sfen}")
run=$root/target/selfplay/run-$(date +%Y%m%d-%H%M%S)
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p kyobo
cd "$here"
shogiarena run tournament selfplay.yaml --run-dir "$run" \
  --rules "initial_positions.source=$openings" "$@"
cat "$run/completion_status.json"
