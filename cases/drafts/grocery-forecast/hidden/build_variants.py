"""Rebuild the base variant in place and every hidden/variants/<id>/ from its params.json.

For each variant: generate its data/ and truth/ into a scratch copy of the package, run the
solver there for the reference, the counterfactuals and the anchors, write its value probes,
then copy the variant's files (data/, and the hidden files docs/variants.md lets a variant
replace) into hidden/variants/<id>/ and put its reference and baseline values in variant.toml
(title and summary are kept). Deterministic: same params, same bytes.

``python hidden/build_variants.py`` (from anywhere).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
ROOT = HIDDEN.parent
REPO = ROOT.parents[2]
PY = sys.executable
VARIANT_FILES = ("params.json", "values.json", "reference.csv", "anchors", "counterfactuals",
                 "truth", "value_probes", "value_probes.json")


def run(*args: str | Path) -> None:
    subprocess.run([PY, *map(str, args)], check=True, cwd=REPO)


def score(root: Path, name: str) -> float:
    sys.path.insert(0, str(REPO))
    from evaluators.api import Submission

    spec = __import__("importlib.util").util.spec_from_file_location("ev", root / "hidden" / "evaluator.py")
    module = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with (root / "hidden" / name).open(newline="", encoding="utf-8") as handle:
        rows = [dict(r, order_qty=int(r["order_qty"])) for r in csv.DictReader(handle)]
    result = module.evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    return float(result.value)


def build(root: Path) -> tuple[float, float]:
    params = root / "hidden" / "params.json"
    run(root / "hidden" / "generate.py", "--params", params, "--out", root)
    run(root / "hidden" / "solver.py", "--params", params, "--root", root, "--all")
    run(root / "hidden" / "make_value_probes.py", "--root", root, "--repo", REPO)
    return score(root, "reference.csv"), score(root, "anchors/baseline.csv")


def set_scoring(text: str, reference: float, baseline: float) -> str:
    text = re.sub(r"reference_value = [0-9.]+", f"reference_value = {reference}", text)
    return re.sub(r"baseline_value = [0-9.]+", f"baseline_value = {baseline}", text)


def main() -> None:
    reference, baseline = build(ROOT)
    case_toml = ROOT / "case.toml"
    case_toml.write_text(set_scoring(case_toml.read_text(), reference, baseline))
    print(f"base: R={reference} B={baseline}")
    for variant in sorted((HIDDEN / "variants").iterdir()):
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch) / "pkg"
            shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns("variants", "__pycache__"))
            for name in ("params.json", "values.json"):
                shutil.copy(variant / "hidden" / name, work / "hidden" / name)
            for name in ("counterfactuals", "anchors", "value_probes", "truth"):
                shutil.rmtree(work / "hidden" / name, ignore_errors=True)
            reference, baseline = build(work)
            shutil.rmtree(variant / "data", ignore_errors=True)
            shutil.copytree(work / "data", variant / "data")
            for name in VARIANT_FILES:
                source, target = work / "hidden" / name, variant / "hidden" / name
                if target.is_dir():
                    shutil.rmtree(target)
                if source.is_dir():
                    shutil.copytree(source, target)
                else:
                    shutil.copy(source, target)
        toml = variant / "variant.toml"
        toml.write_text(set_scoring(toml.read_text(), reference, baseline))
        print(f"{variant.name}: R={reference} B={baseline}")


if __name__ == "__main__":
    main()
