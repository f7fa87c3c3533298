# Sourced by testing/'s scripts: where things are, the openings, a run's
# folder, the release build, and shogiarena run from testing/ (whose
# configurations name their paths from there).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
# OPENINGS, else taya36 in the shared data beside the repository: one SFEN or
# `startpos moves ...` line per opening.
openings=$(realpath "${OPENINGS:-$root/../shared/data/openings/taya36.sfen}")

# A new run's folder for KIND: target/KIND/run-DATE.
new_run() {
  echo "$root/target/$1/run-$(date +%Y%m%d-%H%M%S)"
}

# The release build of the work tree (further cargo arguments after).
build_release() {
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p kyobo "$@"
}

# The tuning build of the work tree where spsa.yaml's engine looks for it.
build_tune_engine() {
  build_release --features tune --target-dir "$root/target/tune"
  mkdir -p "$root/target/spsa/bin"
  cp "$root/target/tune/release/kyobo" "$root/target/spsa/bin/kyobo"
}

# arena COMMAND CONFIG RUN [shogiarena options...]: `shogiarena run` from
# testing/, with the openings (ARENA: another command line for `shogiarena`).
arena() {
  local command=$1 config=$2 run=$3
  shift 3
  (cd "$here" && PYTHONWARNINGS=ignore ${ARENA:-shogiarena} run "$command" "$config" --run-dir "$run" \
    --rules "initial_positions.source=$openings" "$@")
}
