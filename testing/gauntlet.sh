#!/usr/bin/env bash
# Kyobo's release build against GPS Shogi and Fairy-Stockfish on shogiarena.
#
#   testing/gauntlet.sh [shogiarena options...]
#
# 200 games against each at 1 s a move by default (`--tournament
# games_per_pair=N` for fewer). OPENINGS names the openings file as for
# testing/sprt.sh. GAUNTLET names another configuration in testing/:
# `GAUNTLET=gps-gauntlet.yaml` plays GPS Shogi alone;
# `GAUNTLET=abc-gauntlet.yaml` plays ABC mode against Fairy-Stockfish. Needs
# Debian's gpsshogi and fairy-stockfish packages.
set -euo pipefail
# Read whole before it runs (the braces and the exit below), so that an edit to
# this file during a long run cannot make bash run stray text (see spsa.sh).
{
source "$(dirname "$0")/common.sh"
run=$(new_run gauntlet)
# gpsusi writes each setoption into this file and reads it at its next start.
gps_conf=/usr/share/gpsshogi-data/gpsusi.conf
saved=$(mktemp)
if [ -e "$gps_conf" ]; then cp "$gps_conf" "$saved"; had_conf=1; else had_conf=0; fi
restore() {
  if [ "$had_conf" = 1 ]; then cp "$saved" "$gps_conf"; else rm -f "$gps_conf"; fi
  rm -f "$saved"
}
trap restore EXIT
build_release
arena tournament "${GAUNTLET:-gauntlet.yaml}" "$run" "$@"
# Nothing to show after --validate-only or --dry-run.
[ -f "$run/completion_status.json" ] || exit 0
cat "$run/completion_status.json"
echo
PYTHONWARNINGS=ignore shogiarena results summary "$run" || true
exit
}
