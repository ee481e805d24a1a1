"""Rebuild every variant of delivery-routing from its ``params.json`` (docs/variants.md).

``python cases/drafts/delivery-routing/hidden/build_variants.py`` regenerates, for each folder
``hidden/variants/<id>/`` that holds ``hidden/params.json``: its ``data/`` (generate.py),
``hidden/values.json`` (make_values.py), the reference and every counterfactual (solver.py),
the anchors (make_anchors.py) and the value probes (make_value_probes.py), then writes
``[scoring]`` of its ``variant.toml`` from the evaluator's cost of the reference and of the
courier-for-everyone baseline. ``--base`` rebuilds the base package in place first and prints
the values for case.toml. The title and summary of a variant.toml are the author's and kept.

Each step runs as its own process with the arguments a person would type, so a variant is
built exactly the way the base is.
"""

from __future__ import annotations

import argparse
import csv
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
    ("generate.py",),
    ("make_values.py",),
    ("solver.py", "--all"),
    ("make_anchors.py",),
    ("make_value_probes.py",),
)
#: Generated outputs of a variant, removed before a rebuild so nothing stale survives.
GENERATED = ("data", "hidden/anchors", "hidden/counterfactuals", "hidden/value_probes",
             "hidden/reference.csv", "hidden/value_probes.json", "hidden/values.json")


def run_steps(params: Path, root: Path) -> None:
    for script, *extra in STEPS:
        command = [sys.executable, str(HIDDEN_DIR / script), "--params", str(params), "--root", str(root)]
        subprocess.run([*command, *extra], check=True)


def cost(root: Path, name: str) -> float:
    """The evaluator's value of ``hidden/<name>`` at ``root``."""
    sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]
    from evaluator import evaluate

    from evaluators.api import Submission

    with (root / "hidden" / name).open(newline="", encoding="utf-8") as handle:
        rows = [{**r, "seq": int(r["seq"])} for r in csv.DictReader(handle)]
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if assessment.value is None:
        raise SystemExit(f"{root.name}: {name} is not valid on its own variant")
    return float(assessment.value)


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
    for relative in GENERATED:
        path = folder / relative
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    run_steps(folder / "hidden" / "params.json", folder)
    reference, baseline = cost(folder, "reference.csv"), cost(folder, "anchors/baseline.csv")
    write_variant_toml(folder, reference, baseline)
    print(f"{folder.name}: reference {reference:.2f} EUR, baseline {baseline:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", action="store_true", help="rebuild the base in place first")
    parser.add_argument("ids", nargs="*", help="only these variants (default: all)")
    args = parser.parse_args()
    if args.base:
        run_steps(HIDDEN_DIR / "params.json", CASE_DIR)
        print(f"base: reference_value = {cost(CASE_DIR, 'reference.csv'):.6f}, "
              f"baseline_value = {cost(CASE_DIR, 'anchors/baseline.csv'):.6f}")
    folders = sorted(p for p in VARIANTS_DIR.iterdir() if (p / "hidden" / "params.json").is_file())
    for folder in folders:
        if not args.ids or folder.name in args.ids:
            build(folder)


if __name__ == "__main__":
    main()
