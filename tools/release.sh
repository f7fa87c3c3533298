#!/usr/bin/env bash
# Builds the archives a user downloads, into dist/:
#   kyobo-VERSION-linux-x86_64.tar.gz          portable (any x86-64 CPU)
#   kyobo-VERSION-linux-x86_64-v3.tar.gz       AVX2/BMI2 (x86-64-v3: Haswell, Zen and later)
#   kyobo-VERSION-windows-x86_64.zip           portable
#   kyobo-VERSION-windows-x86_64-avx2.zip      AVX2/BMI2
# each with the binary, README.md, LICENSE and GUI.txt (how to register it in a
# GUI). The Windows builds are checked under wine (tools/wine_check.py: USI and
# perft 5) unless NO_WINE=1.
#
# The Linux builds are profile-guided (docs/releases.md): an instrumented build
# plays `kyobo bench` (PVS, ABC, and PVS with a random NNUE network that
# kyobo-lab writes), and the build that ships is optimised with what it counted.
# That needs llvm-profdata of rustc's LLVM version (Debian's llvm-N for LLVM N);
# without it, or with PGO=0, they are built plainly.
#
# Needs: the Rust target x86_64-pc-windows-gnu (rustup target add
# x86_64-pc-windows-gnu), Debian's gcc-mingw-w64-x86-64, wine64 for the check,
# python3 for the zip files and the check.
#
#   tools/release.sh            # all four
#   ONLY=linux tools/release.sh # the Linux ones
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
out=dist
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

gui_note() {
    cat <<'TXT'
Kyobo is a USI engine. To play or analyse with it in a shogi GUI:

- ShogiHome: Settings > Engine Management > Add, choose the kyobo binary.
- ShogiGUI: Tools > Engine Management > Add, choose the binary.
- Shogidokoro: Engine > Engine Management > Add, choose the binary.

Run without arguments it speaks USI on standard input and output. Options
(hash, threads, time margins, book, NNUE network) are listed in docs/usi.md of
the source, and `kyobo --help` lists its commands. For floodgate or another
server over the network set NetworkDelay 120 and NetworkDelay2 1120.

Which build: the "v3"/"avx2" ones are for CPUs with AVX2 and BMI2 (Intel
Haswell, AMD Zen and later) and are faster; the others run on any x86-64 CPU.
A v3/avx2 build on a CPU without AVX2 says so and stops.
TXT
}

# llvm-profdata of the LLVM major version rustc is built on, if there is one.
profdata_tool() {
    local major
    major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    for tool in "llvm-profdata-$major" llvm-profdata; do
        if command -v "$tool" >/dev/null 2>&1 &&
            "$tool" --version 2>/dev/null | grep -q "LLVM version $major\."; then
            echo "$tool"
            return
        fi
    done
}

# A random NNUE network for the profile's third bench, so that the network's
# inference is optimised as hot code too; prints its path.
profile_net() {
    local net=target/dist-profile-net/nn.bin
    if [[ ! -f $net ]]; then
        cargo build --release --locked -p lab >&2
        mkdir -p "$(dirname "$net")"
        target/release/kyobo-lab nnue-random 1 "$net" >&2
    fi
    echo "$net"
}

# cargo_build NAME TARGET FLAGS: the release build of the kyobo crate for TARGET
# with RUSTFLAGS FLAGS in target/dist-NAME; prints the folder of the binary.
cargo_build() {
    local name=$1 target=$2 flags=$3
    # Without the line tables the release profile keeps for profiling: a
    # download a fifth of the size.
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="target/dist-$name" \
        CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true \
        cargo build --release --locked -p kyobo --target "$target" >&2
    echo "target/dist-$name/$target/release"
}

# build NAME TARGET CPU: the release binary of the kyobo crate for TARGET with
# -C target-cpu=CPU, in a target folder of its own; profile-guided for a Linux
# target this machine can run, where llvm-profdata is at hand.
build() {
    local name=$1 target=$2 cpu=$3
    local flags="-C target-cpu=$cpu" tool profile dir net
    echo "== $name ($target, target-cpu $cpu)" >&2
    if [[ ${PGO:-1} == 0 || $target != *linux* ]]; then
        cargo_build "$name" "$target" "$flags"
        return
    fi
    tool=$(profdata_tool)
    if [[ -z $tool ]]; then
        echo "   built without profile guidance: no llvm-profdata of rustc's LLVM version" >&2
        cargo_build "$name" "$target" "$flags"
        return
    fi
    profile=$(realpath -m "target/dist-$name-profile")
    rm -rf "$profile"
    net=$(profile_net)
    dir=$(cargo_build "$name-instrumented" "$target" "$flags -C profile-generate=$profile")
    # The instrumented build must run here: a v3 build on a CPU without AVX2 says
    # so and stops, and is then built plainly.
    if ! "$dir/kyobo" bench >/dev/null || ! "$dir/kyobo" bench --algo ABC --depth 7 >/dev/null ||
        ! "$dir/kyobo" bench --depth 8 --eval-file "$net" >/dev/null; then
        echo "   built without profile guidance: the instrumented build does not run here" >&2
        cargo_build "$name" "$target" "$flags"
        return
    fi
    "$tool" merge -o "$profile/merged.profdata" "$profile" >&2
    cargo_build "$name" "$target" "$flags -C profile-use=$profile/merged.profdata"
}

# package NAME DIR BINARY: the archive of BINARY (in DIR) with the docs.
package() {
    local name=$1 dir=$2 binary=$3
    local folder="kyobo-$version-$name"
    rm -rf "${stage:?}/$folder"
    mkdir -p "$stage/$folder"
    cp "$dir/$binary" README.md LICENSE "$stage/$folder/"
    gui_note >"$stage/$folder/GUI.txt"
    case $binary in
    *.exe)
        python3 - "$stage" "$folder" "$out/$folder.zip" <<'PY'
import os, sys, zipfile
stage, folder, archive = sys.argv[1:]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(os.path.join(stage, folder))):
        z.write(os.path.join(stage, folder, name), os.path.join(folder, name))
PY
        ;;
    *) tar -C "$stage" -czf "$out/$folder.tar.gz" "$folder" ;;
    esac
    echo "$out/$folder: $(du -h "$dir/$binary" | cut -f1) binary"
}

if [ "${ONLY:-}" != windows ]; then
    dir=$(build linux-x86_64 x86_64-unknown-linux-gnu x86-64)
    package linux-x86_64 "$dir" kyobo
    dir=$(build linux-x86_64-v3 x86_64-unknown-linux-gnu x86-64-v3)
    package linux-x86_64-v3 "$dir" kyobo
fi
if [ "${ONLY:-}" != linux ]; then
    for variant in "windows-x86_64 x86-64" "windows-x86_64-avx2 x86-64-v3"; do
        set -- $variant
        dir=$(build "$1" x86_64-pc-windows-gnu "$2")
        if [ "${NO_WINE:-0}" != 1 ]; then
            python3 tools/wine_check.py "$dir/kyobo.exe"
        fi
        package "$1" "$dir" kyobo.exe
    done
fi
ls -l "$out"
