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

# arena COMMAND CONFIG RUN [shogiarena options...]: `shogiarena run` from
# testing/, with the openings.
arena() {
  local command=$1 config=$2 run=$3
  shift 3
  (cd "$here" && PYTHONWARNINGS=ignore shogiarena run "$command" "$config" --run-dir "$run" \
    --rules "initial_positions.source=$openings" "$@")
}
