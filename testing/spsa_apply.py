#!/usr/bin/env python3
"""Makes an SPSA run's values the defaults in the work tree, as docs/tuning.md
says: PVS's and ABC's parameters become their declarations' defaults, and the
evaluation's king-danger scales are folded into the weights in
crates/eval/src/weights.rs (the per-cent scales multiply every attack or hand
weight, with the integer arithmetic the engine used during the run, and stay
100; the others replace their constant). The options tables of docs/tuning.md
and docs/abc.md get the new defaults too.

    python3 testing/spsa_apply.py RUN
    python3 testing/spsa_apply.py --check SPACE.yaml...

Run it on a branch of the commit whose engine the run played: it refuses a work
tree whose defaults are not the run's starting values. Then pin the new bench
signature and let testing/sprt.sh decide. `--check` says, before any run, whether
every parameter a space file selects is one it can write in (CI runs it on
testing/'s space files).
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECLARATIONS = ["crates/search/src/pvs/params.rs", "crates/search/src/abc/mod.rs"]
WEIGHTS = "crates/eval/src/weights.rs"
# The pages whose options tables show each parameter's default (a unit test
# holds them to the declarations).
DOCS = ["docs/tuning.md", "docs/abc.md"]
# The danger scales that replace a constant of WEIGHTS, and those that scale an array.
CONSTANTS = {
    "Tune_DefenderNear": "DEFENDER_NEAR",
    "Tune_DefenderFar": "DEFENDER_FAR",
    "Tune_DangerScale": "DANGER_SCALE",
    "Tune_DangerCap": "DANGER_CAP",
    "Tune_GuardBonus": "GUARD_BONUS",
}
PERCENTS = {"Tune_DangerAttack": "ATTACK_WEIGHT", "Tune_DangerHand": "HAND_DANGER"}


class Refused(Exception):
    pass


def literal(text: str) -> int:
    return int(text.replace("_", ""))


def locate(name: str, texts: dict[str, str]) -> tuple[str, re.Pattern] | None:
    """The file holding `name`'s default and a pattern whose second group is it
    (for a per-cent scale, the body of the array it scales); None if none."""
    if name in PERCENTS:
        pattern = re.compile(rf"(pub const {PERCENTS[name]}: \[i32; \d+\] = \[)([^\]]*)(\];)")
        files = [WEIGHTS]
    elif name in CONSTANTS:
        pattern = re.compile(rf"(pub const {CONSTANTS[name]}: i32 = )(-?[\d_]+)(;)")
        files = [WEIGHTS]
    else:
        pattern = re.compile(rf'(\("{name}", )(-?[\d_]+)(,)')
        files = DECLARATIONS
    file = next((f for f in files if pattern.search(texts[f])), None)
    return (file, pattern) if file else None


def apply(run: Path, root: Path) -> list[str]:
    """Edits the files under `root`; returns one line per value changed."""
    space = json.loads((run / "spsa" / "space.normalized.json").read_text())
    best = json.loads((run / "spsa" / "accepted-best.json").read_text())
    initial = {p["id"]: p["initial"] for p in space["parameters"]}
    tuned = {p["parameter_id"]: int(p["wire_value"]) for p in best["parameters"]}
    texts = {name: (root / name).read_text() for name in DECLARATIONS + [WEIGHTS] + DOCS}
    changes = []
    for name, value in sorted(tuned.items()):
        start = int(initial[name])
        found = locate(name, texts)
        if found is None:
            raise Refused(f"{name}: no default it could write")
        file, pattern = found
        m = pattern.search(texts[file])
        if name in PERCENTS:
            if start != 100:
                raise Refused(f"{name} started at {start}, not 100")
            old = [literal(w) for w in m.group(2).split(",")]
            if any(w < 0 for w in old):
                raise Refused(f"{PERCENTS[name]} has a negative weight, which // would round apart from Rust")
            # As EvalScales::danger scales them during the run: w * percent / 100.
            new = [w * value // 100 for w in old]
            if new != old:
                body = ", ".join(str(w) for w in new)
                texts[file] = pattern.sub(lambda m: m.group(1) + body + m.group(3), texts[file])
                changes.append(f"{PERCENTS[name]}: {old} -> {new} ({name} {value} %)")
            continue
        if literal(m.group(2)) != start:
            raise Refused(
                f"{name} is {m.group(2)} in {file}, the run started from {start}: "
                "not the work tree the run played"
            )
        if value != start:
            texts[file] = pattern.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", texts[file], 1)
            changes.append(f"{name}: {start} -> {value} ({file})")
            document(name, start, value, texts)
    for name, text in texts.items():
        (root / name).write_text(text)
    return changes


def docs_row(name: str) -> re.Pattern:
    """`name`'s row in an options table, its default the second group."""
    return re.compile(r"^(\| `" + re.escape(name) + r"` \| )(-?\d+)( \|)", re.M)


def document(name: str, start: int, value: int, texts: dict[str, str]) -> None:
    """Writes `value` as `name`'s default in the docs table that lists it."""
    row = docs_row(name)
    for page in DOCS:
        m = row.search(texts[page])
        if m:
            if int(m.group(2)) != start:
                raise Refused(f"{page} gives {name} the default {m.group(2)}, not {start}")
            texts[page] = row.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", texts[page], 1)
            return
    raise Refused(f"{name}: no row in {' or '.join(DOCS)} to give its new default")


def check(spaces: list[str], root: Path) -> tuple[int, list[str]]:
    """How many parameters the space files select, and those `apply` could not write."""
    texts = {name: (root / name).read_text() for name in DECLARATIONS + [WEIGHTS] + DOCS}
    selected, missing = 0, []
    for space in spaces:
        lines = Path(space).read_text().splitlines()
        start = lines.index("select:") + 1
        for line in lines[start:]:
            if not line.startswith("  "):
                break
            item = line.strip()
            if item.startswith("- "):
                name = item[2:].strip()
                selected += 1
                if locate(name, texts) is None:
                    missing.append(f"{space}: {name}")
                elif not any(docs_row(name).search(texts[page]) for page in DOCS):
                    missing.append(f"{space}: {name} (no docs row)")
    return selected, missing


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        selected, missing = check(sys.argv[2:], ROOT)
        for line in missing:
            print(f"no default to write for {line}", file=sys.stderr)
        if not missing:
            print(f"all {selected} parameters the space files select can be written in")
        return 1 if missing else 0
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        changes = apply(Path(sys.argv[1]), ROOT)
    except (Refused, OSError, KeyError, ValueError) as e:
        print(f"nothing changed: {e}", file=sys.stderr)
        return 1
    print("\n".join(changes) if changes else "every tuned value is already the default")
    return 0


if __name__ == "__main__":
    sys.exit(main())
