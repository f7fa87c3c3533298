#!/usr/bin/env bash
# SPSA over PVS's parameters and the evaluation's king-danger scales on
# shogiarena, with Kyobo's tuning build.
#
#   testing/spsa.sh [shogiarena options...]
#
# 2,000 updates of one game pair each at 100 ms a move by default
# (`--spsa num_updates=N` for fewer). OPENINGS names the openings file as for
# testing/sprt.sh. The tuned values (RUN/spsa/accepted-best.json) are printed
# at the end, and at any time during a run by `testing/spsa_moved.py RUN`; they
# join the defaults (`testing/spsa_apply.py RUN`, docs/tuning.md) only after
# testing/sprt.sh accepts them.
#
# SPSA_CONFIG=abc-spsa.yaml tunes ABC's numbers instead (SearchAlgorithm ABC).
#
# A run longer than one sitting: SPSA_RUN=DIR names its directory. Stopped
# (Ctrl-C) and started again with the same SPSA_RUN and the same options, it
# goes on from its last update, with the engine it started with (kept beside
# the run as DIR.kyobo), whatever the work tree holds by then.
set -euo pipefail
# The whole script is read before it runs (the braces and the exit below): a run
# lasts hours, and bash reads a script as it goes, so an edit to this file
# during a run would otherwise run whatever then stands at its offset.
{
source "$(dirname "$0")/common.sh"
run=$(realpath -m "${SPSA_RUN:-$(new_run spsa)}")
engine="$run.kyobo"
if [[ -f $engine ]]; then
  mkdir -p "$root/target/spsa/bin"
  cp "$engine" "$root/target/spsa/bin/kyobo"
else
  build_tune_engine
  mkdir -p "$(dirname "$run")"
  cp "$root/target/spsa/bin/kyobo" "$engine"
fi
arena spsa "${SPSA_CONFIG:-spsa.yaml}" "$run" "$@"
# The tuned values: each parameter, where it started, its value and what the
# engine is sent, and how far it moved in its own steps.
python3 "$root/testing/spsa_moved.py" "$run"
exit
}
