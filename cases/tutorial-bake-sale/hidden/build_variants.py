"""Rebuild every variant of tutorial-bake-sale from its ``params.json`` (docs/variants.md).

``python cases/tutorial-bake-sale/hidden/build_variants.py`` regenerates, for each folder
``hidden/variants/<id>/`` that holds ``hidden/params.json``: its ``data/``, the reference, the
anchors and every counterfactual (solver.py --all), the value probes (make_value_probes.py)
and ``hidden/values.json`` (make_values.py), then sets ``[scoring]`` in its ``variant.toml``
from the evaluator's profit of the reference (the baseline, baking nothing, is 0 everywhere). ``--base`` rebuilds the base package in place first (it must come out
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
    ("make_value_probes.py", "--root"),
    ("make_values.py", "--root"),
)
#: Generated outputs of a variant, removed before a rebuild so nothing stale survives.
GENERATED = ("data", "hidden/anchors", "hidden/counterfactuals",
             "hidden/value_probes", "hidden/reference.csv", "hidden/value_probes.json",
             "hidden/values.json")  # fmt: skip


def run_steps(params: Path, root: Path) -> None:
    for script, root_flag, *extra in STEPS:
        command = [sys.executable, str(HIDDEN_DIR / script), "--params", str(params)]
        subprocess.run([*command, root_flag, str(root), *extra], check=True)


def profits(root: Path) -> tuple[float, float]:
    """(reference, baseline) profit of the variant at ``root``, from the evaluator."""
    sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]
    from make_values import evaluate, read_plan

    from evaluators.api import Submission

    def profit(relative: str) -> float:
        plan = read_plan(root / "hidden" / relative)
        rows = [{"bake_id": bake, "trays": trays} for bake, trays in plan.items()]
        result = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
        assert result.value is not None, result.violations
        return float(result.value)

    return profit("reference.csv"), profit("anchors/baseline.csv")


def write_variant_toml(folder: Path, reference: float, baseline: float) -> None:
    document = tomllib.loads((folder / "variant.toml").read_text(encoding="utf-8"))
    lines = [
        f"title = {json.dumps(document['title'], ensure_ascii=False)}",
        f"summary = {json.dumps(document['summary'], ensure_ascii=False)}",
        "",
        "[scoring]  # written by hidden/build_variants.py from the evaluator",
        f"reference_value = {reference:.2f}",
        f"baseline_value = {baseline:.1f}",
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
    reference, baseline = profits(folder)
    drop_data_equal_to_base(folder)
    write_variant_toml(folder, reference, baseline)
    print(f"{folder.name}: reference {reference:.2f} GBP, baseline {baseline:.2f}")


def drop_data_equal_to_base(folder: Path) -> None:
    """A variant that changes only rules keeps the base's data: it then has no data/ of its own
    (docs/variants.md: "if the variant has data/, replace data/ with it"), so the package does
    not carry a second copy of the player's files."""
    mine = sorted(p.relative_to(folder / "data") for p in (folder / "data").rglob("*"))
    base = sorted(p.relative_to(CASE_DIR / "data") for p in (CASE_DIR / "data").rglob("*"))
    if mine == base and all(
        (folder / "data" / rel).read_bytes() == (CASE_DIR / "data" / rel).read_bytes()
        for rel in mine
        if (folder / "data" / rel).is_file()
    ):
        shutil.rmtree(folder / "data")


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
