"""Rebuild every variant of credit-default from its ``params.json`` (docs/variants.md).

``python cases/credit-default/hidden/build_variants.py [IDS...]`` regenerates, for each folder
``hidden/variants/<id>/`` that holds ``hidden/params.json``: its ``data/`` and
``hidden/truth/`` (generate.py), the reference, every counterfactual and the anchors
(solver.py --all), the value probes (make_value_probes.py) and ``hidden/values.json``
(make_values.py), then sets ``[scoring]`` in its ``variant.toml`` from the evaluator's value of
the reference and of the baseline. ``--base`` rebuilds the base package in place first (it
must come out byte-identical to what is committed). The title and summary of a variant.toml
are the author's and are kept.

A variant whose generated ``data/`` equals the base's byte for byte (a variant that changes a
rule, not the book) keeps no ``data/`` of its own: materialising it then uses the base's, and
the package holds no second copy of the served files.

Each step runs as its own process with the same arguments a person would type, so the
variant is built exactly the way the base is. The steps need the evaluator's files next to
the variant's, so they run in a scratch package (the base without its variants, the
variant's params.json dropped in), and the outputs are copied back.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
CASE_DIR = HIDDEN_DIR.parent
VARIANTS_DIR = HIDDEN_DIR / "variants"
STEPS = (
    ("generate.py", "--params", "--out"),
    ("solver.py", "--params", "--root", "--all"),
    ("make_value_probes.py", None, "--root"),
    ("make_values.py", "--params", "--root"),
)
#: The generated hidden outputs a variant holds (besides its own params.json).
HIDDEN_OUTPUTS = ("truth", "anchors", "counterfactuals", "value_probes", "reference.csv",
                  "value_probes.json", "values.json")  # fmt: skip


def run_steps(params: Path, root: Path) -> None:
    for script, params_flag, root_flag, *extra in STEPS:
        command = [sys.executable, str(HIDDEN_DIR / script)]
        if params_flag:
            command += [params_flag, str(params)]
        subprocess.run([*command, root_flag, str(root), *extra], check=True)


def scratch_package(params: Path, into: Path) -> Path:
    """The base package without variants and with the variant's params, at ``into/<slug>``."""
    root = into / CASE_DIR.name
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "variants")
    shutil.copytree(CASE_DIR, root, ignore=skip)
    shutil.copyfile(params, root / "hidden" / "params.json")
    return root


def values_of(root: Path) -> tuple[float, float]:
    """(reference, baseline) raw value of the package at ``root``, from its evaluator."""
    sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]
    import csv

    from evaluator import evaluate

    from evaluators.api import Submission

    found = []
    for relative in ("reference.csv", "anchors/baseline.csv"):
        with (root / "hidden" / relative).open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
        if assessment.value is None:
            raise SystemExit(
                f"{relative} is not valid: {assessment.violations or assessment.fatal}"
            )
        found.append(float(assessment.value))
    return found[0], found[1]


def write_variant_toml(folder: Path, reference: float, baseline: float) -> None:
    document = tomllib.loads((folder / "variant.toml").read_text(encoding="utf-8"))
    lines = [
        f"title = {json.dumps(document['title'], ensure_ascii=False)}",
        f"summary = {json.dumps(document['summary'], ensure_ascii=False)}",
        "",
        "[scoring]  # written by hidden/build_variants.py from the evaluator",
        f"reference_value = {reference!r}",
        f"baseline_value = {baseline!r}",
    ]
    (folder / "variant.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def same_data(root: Path) -> bool:
    """Whether the scratch package's data/ is the base's, file for file and byte for byte."""
    ours = sorted(p.name for p in (root / "data").iterdir())
    base = sorted(p.name for p in (CASE_DIR / "data").iterdir())
    return ours == base and all(
        filecmp.cmp(root / "data" / name, CASE_DIR / "data" / name, shallow=False) for name in ours
    )


def copy_back(root: Path, folder: Path) -> None:
    for relative in ("data", *(f"hidden/{name}" for name in HIDDEN_OUTPUTS)):
        path = folder / relative
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    if not same_data(root):
        shutil.copytree(root / "data", folder / "data")
    for name in HIDDEN_OUTPUTS:
        source = root / "hidden" / name
        if source.is_dir():
            shutil.copytree(source, folder / "hidden" / name)
        else:
            shutil.copyfile(source, folder / "hidden" / name)


def build(folder: Path) -> None:
    with tempfile.TemporaryDirectory(prefix=f"{folder.name}-") as scratch:
        root = scratch_package(folder / "hidden" / "params.json", Path(scratch))
        run_steps(root / "hidden" / "params.json", root)
        reference, baseline = values_of(root)
        copy_back(root, folder)
    write_variant_toml(folder, reference, baseline)
    print(f"{folder.name}: reference {reference:.4f}, baseline {baseline:.4f}")


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
