"""Author's helper: score the reference, anchors and counterfactuals of a root with the evaluator."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN), str(HIDDEN.parents[3])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402


def score(root: Path, path: Path) -> tuple[float | None, str]:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    a = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if a.fatal:
        return None, f"fatal {a.fatal}"
    if a.violations:
        return None, "violations " + ",".join(sorted({v.rule for v in a.violations}))
    return a.value, ""


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else HIDDEN.parent
    hidden = root / "hidden"
    ref, _ = score(root, hidden / "reference.csv")
    print(f"reference {ref:,.0f}")
    for path in sorted((hidden / "anchors").glob("*.csv")) + sorted((hidden / "counterfactuals").glob("*.csv")):
        value, note = score(root, path)
        shown = f"{value / ref:.3f}" if value is not None else "invalid"
        print(f"  {path.parent.name}/{path.name:40s} {shown} {note}")


if __name__ == "__main__":
    main()
