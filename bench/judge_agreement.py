"""How often the coverage judge agrees with hand labels (``bench/judge_labels/<case>.json``).

Each label item names a target of the case's ``hidden/gt.json``, a short list of question units
a player might ask, and whether an expert annotator judged the list to cover the target. The
judge sees the whole target set of the case (as it does after a real run) and decides the one
target; the item's questions are units of turn 1.

Prints, per case and overall: n, the share labelled covered, raw agreement and Cohen's kappa;
with ``--verbose`` also every disagreement. Exits 1 when overall agreement < 90 % or kappa < 0.8
(FDE-Bench's panel reached 93-95 % and kappa 0.87-0.89 against its experts).

Usage: ``python bench/judge_agreement.py [--judge offline|llm] [--verbose] [SLUG ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from judging.agreement import agreement, cohen_kappa  # noqa: E402
from judging.base import Judge, Target, Unit, make_judge, targets_from_gt  # noqa: E402

MIN_AGREEMENT = 0.90
MIN_KAPPA = 0.80


@dataclass
class Outcome:
    target: str
    questions: list[str]
    expected: bool
    judged: bool
    matched: list[int]
    note: str


@dataclass
class CaseResult:
    slug: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def expected(self) -> list[bool]:
        return [o.expected for o in self.outcomes]

    @property
    def judged(self) -> list[bool]:
        return [o.judged for o in self.outcomes]


def load_labels(path: Path, targets: dict[str, Target]) -> list[dict[str, Any]]:
    """The label items of one case, refusing items whose target the case does not have."""
    items: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["items"]
    unknown = sorted({item["target"] for item in items} - set(targets))
    if unknown:
        raise SystemExit(f"{path.name}: targets not in gt.json: {unknown}")
    return items


def run_case(judge: Judge, slug: str, labels_dir: Path, cases_dir: Path) -> CaseResult:
    gt = json.loads((cases_dir / slug / "hidden" / "gt.json").read_text(encoding="utf-8"))
    targets = {t.key: t for t in targets_from_gt(gt)}
    items = load_labels(labels_dir / f"{slug}.json", targets)
    prepare = getattr(judge, "prepare", None)
    if callable(prepare):
        prepare(list(targets.values()))
    result = CaseResult(slug)
    started = time.perf_counter()
    for item in items:
        units = [Unit(index=i, turn=1, text=q) for i, q in enumerate(item["questions"], start=1)]
        judgment = judge.judge(targets[item["target"]], units)
        result.outcomes.append(
            Outcome(
                target=item["target"],
                questions=item["questions"],
                expected=bool(item["covered"]),
                judged=judgment.covered,
                matched=judgment.matched_units,
                note=item.get("note", ""),
            )
        )
    result.seconds = time.perf_counter() - started
    return result


def summary_line(name: str, expected: list[bool], judged: list[bool]) -> str:
    covered = sum(expected) / len(expected) if expected else 0.0
    return (
        f"{name:<22} n={len(expected):>4}  labelled covered={covered:6.1%}  "
        f"agreement={agreement(expected, judged):6.1%}  kappa={cohen_kappa(expected, judged):.3f}"
    )


def print_disagreements(result: CaseResult) -> None:
    for outcome in result.outcomes:
        if outcome.expected == outcome.judged:
            continue
        label = "MISSED" if outcome.expected else "FALSE COVER"
        print(f"  {label:<11} {outcome.target}  matched={outcome.matched}  ({outcome.note})")
        for number, question in enumerate(outcome.questions, start=1):
            print(f"      {number}. {question}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slugs", nargs="*", help="cases to run (default: every labelled case)")
    parser.add_argument("--judge", default="offline", choices=["offline", "llm"])
    parser.add_argument("--labels", type=Path, default=ROOT / "bench" / "judge_labels")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases")
    parser.add_argument("--verbose", action="store_true", help="list every disagreement")
    args = parser.parse_args(argv)

    slugs = args.slugs or sorted(p.stem for p in args.labels.glob("*.json"))
    judge = make_judge(args.judge)
    expected: list[bool] = []
    judged: list[bool] = []
    for slug in slugs:
        result = run_case(judge, slug, args.labels, args.cases)
        print(summary_line(slug, result.expected, result.judged) + f"  ({result.seconds:.2f} s)")
        if args.verbose:
            print_disagreements(result)
        expected += result.expected
        judged += result.judged
    print(summary_line("overall", expected, judged))
    passed = agreement(expected, judged) >= MIN_AGREEMENT
    passed = passed and cohen_kappa(expected, judged) >= MIN_KAPPA
    print("PASS" if passed else f"FAIL (needs agreement >= {MIN_AGREEMENT:.0%}, kappa >= 0.8)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
