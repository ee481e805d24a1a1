"""Rebuild every variant of battery-dispatch from its ``params.json`` (docs/variants.md).

``python cases/battery-dispatch/hidden/build_variants.py`` regenerates, for each folder
``hidden/variants/<id>/`` that holds ``hidden/params.json``: its ``data/``, ``hidden/truth/``,
the reference and every counterfactual (solver.py), the anchors (make_anchors.py), the value
probes (make_value_probes.py) and ``hidden/values.json`` (make_values.py), then sets
``[scoring]`` in its ``variant.toml`` from the evaluator's bill of the reference and of the
idle baseline. ``--base`` rebuilds the base package in place first (it must come out
byte-identical to what is committed). The title and summary of a variant.toml are the
author's and are kept.

Each step runs as its own process with the same arguments a person would type, so the
variant is built exactly the way the base is.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
CASE_DIR = HIDDEN_DIR.parent
VARIANTS_DIR = HIDDEN_DIR / "variants"
STEPS = (
    ("generate.py", "--out"),
    ("solver.py", "--root", "--all"),
    ("make_anchors.py", "--root"),
    ("make_value_probes.py", "--root"),
    ("make_values.py", "--root"),
)
#: Generated outputs of a variant, removed before a rebuild so nothing stale survives.
GENERATED = ("data", "hidden/truth", "hidden/anchors", "hidden/counterfactuals",
             "hidden/value_probes", "hidden/reference.csv", "hidden/value_probes.json",
             "hidden/values.json")  # fmt: skip


def run_steps(params: Path, root: Path) -> None:
    for script, root_flag, *extra in STEPS:
        command = [sys.executable, str(HIDDEN_DIR / script), "--params", str(params)]
        subprocess.run([*command, root_flag, str(root), *extra], check=True)


def bills(root: Path) -> tuple[float, float]:
    """(reference, baseline) bill of the variant at ``root``, from the evaluator."""
    sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]
    from make_values import assess, bill

    return bill(assess(root, "reference.csv")), bill(assess(root, "anchors/baseline.csv"))


def write_variant_toml(folder: Path, reference: float, baseline: float) -> None:
    document = tomllib.loads((folder / "variant.toml").read_text(encoding="utf-8"))
    lines = [
        f"title = {json.dumps(document['title'], ensure_ascii=False)}",
        f"summary = {json.dumps(document['summary'], ensure_ascii=False)}",
        "",
        "[scoring]  # written by hidden/build_variants.py from the evaluator",
        f"reference_value = {reference:.6f}",
        f"baseline_value = {baseline:.6f}",
    ]
    (folder / "variant.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def build(folder: Path) -> None:
    params = folder / "hidden" / "params.json"
    for relative in GENERATED:
        path = folder / relative
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    run_steps(params, folder)
    write_variant_toml(folder, *bills(folder))
    print(f"{folder.name}: reference {bills(folder)[0]:.2f} EUR, baseline {bills(folder)[1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", action="store_true", help="rebuild the base in place first")
    parser.add_argument("ids", nargs="*", help="only these variants (default: all)")
    args = parser.parse_args()
    if args.base:
        run_steps(HIDDEN_DIR / "params.json", CASE_DIR)
    folders = sorted(p for p in VARIANTS_DIR.iterdir() if (p / "hidden" / "params.json").is_file())
    for folder in folders:
        if not args.ids or folder.name in args.ids:
            build(folder)


if __name__ == "__main__":
    main()
