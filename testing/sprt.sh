#!/usr/bin/env bash
# An SPRT of the work tree against a base commit, on shogiarena.
#
#   testing/sprt.sh [BASE] [shogiarena options...]
#
# BASE defaults to main. The openings default to ../shared/data/openings/taya36.sfen
# beside the repository; set OPENINGS to a file of your own (one SFEN or
# `startpos moves ...` line each). GAMES caps the run (default 20000; fixed
# when a run starts). Further arguments go to `shogiarena run sprt`, e.g.
# `--rules time_control.time_ms=10000 time_control.byoyomi_ms=0 time_control.increment_ms=100`.
# NEW_OPTIONS gives the change's engine USI options the base lacks
# (`NEW_OPTIONS="BadShapeCheck=true" testing/sprt.sh HEAD` tests an option
# against the same build without it). BOTH_OPTIONS gives options to both engines
# (`BOTH_OPTIONS="NetworkDelay2=20"` for a short byoyomi, as the SPSA run plays).
# Both engines are release builds; the run's directory is printed at the start.
# FEATURES builds both with cargo features: `FEATURES=tune
# NEW_OPTIONS="Tune_CorrectionWeight=50" testing/sprt.sh HEAD` tests a value of
# a tuning parameter against the same build with its default.
#
# An SPRT longer than one sitting: SPRT_RUN=DIR names its directory. Stopped
# (Ctrl-C) and started again with the same SPRT_RUN and options, it goes on
# with the two engines it started with (kept beside the run as DIR.new and
# DIR.base; BASE and the work tree are then not built again).
# `testing/sprt_status.py RUN` says where a run stands, during it or after;
# the script prints it at the end. A test that meets its run's cap goes on in a
# new run with the same engines (copy DIR.new and DIR.base to DIR2.new and
# DIR2.base, then SPRT_RUN=DIR2 with the same options and a new seed);
# `testing/sprt_status.py DIR DIR2` pools the two.
set -euo pipefail
# Read whole before it runs (the braces and the exit below), so that an edit to
# this file during a long run cannot make bash run stray text (see spsa.sh).
{
source "$(dirname "$0")/common.sh"
base=${1:-main}
shift || true
games=${GAMES:-20000}
out=$root/target/sprt
mkdir -p "$out"

run=$(realpath -m "${SPRT_RUN:-$(new_run sprt)}")
if [[ -f $run.new && -f $run.base ]]; then
  cp "$run.new" "$out/kyobo-new"
  cp "$run.base" "$out/kyobo-base"
else
  features=()
  [ -n "${FEATURES:-}" ] && features=(--features "$FEATURES")
  build_release "${features[@]}"
  cp "$root/target/release/kyobo" "$out/kyobo-new"
  tree=$(mktemp -d)
  trap 'git -C "$root" worktree remove --force "$tree"' EXIT
  git -C "$root" worktree add --quiet --detach "$tree" "$base"
  CARGO_TARGET_DIR=$out/base-build cargo build --release --quiet --manifest-path "$tree/Cargo.toml" -p kyobo "${features[@]}"
  cp "$out/base-build/release/kyobo" "$out/kyobo-base"
  if [[ -n ${SPRT_RUN:-} ]]; then
    mkdir -p "$(dirname "$run")"
    cp "$out/kyobo-new" "$run.new"
    cp "$out/kyobo-base" "$run.base"
  fi
fi

config=sprt.yaml
if [ -n "${NEW_OPTIONS:-}${BOTH_OPTIONS:-}" ]; then
  # Each engine with its options, and a configuration that names them.
  for side in new base; do
    cp "$here/engines/kyobo-$side.yaml" "$out/kyobo-$side.yaml"
    sed -i "s#^engine_path: .*#engine_path: \"$out/kyobo-$side\"#" "$out/kyobo-$side.yaml"
    options=${BOTH_OPTIONS:-}
    [ "$side" = new ] && options="$options ${NEW_OPTIONS:-}"
    for option in $options; do
      echo "  ${option%%=*}: ${option#*=}" >>"$out/kyobo-$side.yaml"
    done
  done
  # A configuration's paths are read from its own folder.
  sed -e "s#engines/kyobo-new.yaml#$out/kyobo-new.yaml#" \
    -e "s#engines/kyobo-base.yaml#$out/kyobo-base.yaml#" "$here/sprt.yaml" >"$out/sprt.yaml"
  config=$out/sprt.yaml
fi
# shogiarena reads --games only without a configuration: the cap is the schedule's.
arena sprt "$config" "$run" --tournament "games_per_pair=$games" "$@"
# The games, the log-likelihood ratio against its bounds, the Elo difference.
python3 "$here/sprt_status.py" "$run"
exit
}
