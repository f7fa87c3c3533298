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
# Read whole before it runs (the braces and the exit below), so that an edit to
# this file during a long run cannot make bash run stray text (see spsa.sh).
{
source "$(dirname "$0")/common.sh"
run=$(new_run selfplay)
build_release
arena tournament selfplay.yaml "$run" "$@"
# Nothing to show after --validate-only or --dry-run.
[ -f "$run/completion_status.json" ] || exit 0
cat "$run/completion_status.json"
exit
}
