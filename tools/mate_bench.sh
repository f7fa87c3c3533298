#!/usr/bin/env bash
# Runs `kyobo mate` over the tsume problem sets and prints the figures recorded in
# docs/BENCHMARKS.md ("Checkmate solver"). One thread; each set's full output is
# kept in $OUT.
#
#   tools/mate_bench.sh              # the 3..11-ply sets and long.txt
#   MICRO=1 tools/mate_bench.sh      # also Microcosmos (4 GiB table, up to 10 min)
#
# Environment: DATA (default ../shared/data/tsume), OUT (target/mate-bench),
# HASH (MiB for the short sets, 256), LONG_TIME (seconds per long problem, 60),
# LONG_HASH (MiB, 1024), MICRO_TIME (600).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data/tsume}
OUT=${OUT:-target/mate-bench}
HASH=${HASH:-256}
LONG_TIME=${LONG_TIME:-60}
LONG_HASH=${LONG_HASH:-1024}
MICRO_TIME=${MICRO_TIME:-600}
mkdir -p "$OUT"
cargo build --release -p kyobo >&2
KYOBO=./target/release/kyobo

field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

echo "| set | problems | solved | shortest | wrong | unsolved | time |"
echo "|---|---|---|---|---|---|---|"
for n in 3 5 7 9 11; do
    out="$OUT/tsume_${n}ply.txt"
    "$KYOBO" mate --file "$DATA/tsume_${n}ply.txt" --hash "$HASH" --movetime 10000 >"$out"
    echo "| ${n}-ply | $(field problems "$out") | $(field solved "$out") | $(field shortest "$out") \
| $(field wrong "$out") | $(field unsolved "$out") | $(field time "$out") s |"
done

echo
echo "long.txt, ${LONG_TIME} s and ${LONG_HASH} MiB per problem (peak memory of the whole run below):"
long="$OUT/long.txt"
/usr/bin/time -f "peak RSS %M KiB" "$KYOBO" mate --file "$DATA/long.txt" --hash "$LONG_HASH" \
    --movetime "$((LONG_TIME * 1000))" --verbose >"$long" 2>"$OUT/long.time"
grep -v '^wrong:' "$long" | cut -c1-160
cat "$OUT/long.time"

if [ "${MICRO:-0}" = 1 ]; then
    echo
    echo "Microcosmos, 4096 MiB, ${MICRO_TIME} s:"
    micro="$OUT/microcosmos.txt"
    /usr/bin/time -f "peak RSS %M KiB" "$KYOBO" mate --file "$DATA/microcosmos.txt" --hash 4096 \
        --movetime "$((MICRO_TIME * 1000))" --verbose >"$micro" 2>"$OUT/microcosmos.time"
    cut -c1-200 "$micro"
    cat "$OUT/microcosmos.time"
fi
