"""How often the coverage judge agrees with outside labels (``hidden/probes/coverage.json``).

Each label item names a target of the case's ``hidden/gt.json``, a short list of question units
a player might ask, and whether the labeller (who never saw the customer script or the
patterns) judged that answering one of them would reveal the target. The judge sees the whole
target set of the case (as after a real run) and decides the one target; the item's questions
are units of turn 1. Items are split once into a ``dev`` half (tune on it) and a frozen
``test`` half (report it).

Prints, per case and half: n, the share labelled covered, raw agreement and Cohen's kappa, and
the median overlap of covering units with the target's authored examples; ``--verbose`` lists
dev disagreements (``--reveal-test`` test ones too, for reporting only). Exits 1 when a case's
test half has agreement < 90 % or kappa < 0.8 (FDE-Bench's panel reached 93-95 % and kappa
0.87-0.89 against its experts).

Each item's file names its writer (``coverage.json`` is ``writer1``, ``coverage.writer3.json``
``writer3`` ...). ``--writer W`` scores only W's items, ``--except-writer W`` everyone else's:
with ``--half dev`` the two give a held-out check that needs no test half (tune on the other
writers' dev items, look only at the aggregate of the held-out writer's). ``--aggregate``
prints one line over all the cases run. ``--questions`` reads the customer probe sets
(``questions*.json``) as label items instead: a rule message covers each target it expects, a
near miss does not cover the target it is near (a second, larger check written by the same
outside writers; each message is one unit).

Usage: ``python bench/judge_agreement.py [--judge offline|llm] [--half dev|test] [--verbose]
[--reveal-test] [--writer W | --except-writer W] [--aggregate] [--questions] [SLUG ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from customer_sim import probes as probe_sets  # noqa: E402
from judging.agreement import agreement, cohen_kappa  # noqa: E402
from judging.base import Judge, Target, Unit, make_judge, targets_from_gt  # noqa: E402

MIN_AGREEMENT = 0.90
MIN_KAPPA = 0.80
FIRST_WRITER = "writer1"


@dataclass
class Outcome:
    target: str
    questions: list[str]
    expected: bool
    judged: bool
    matched: list[int]
    note: str
    half: str
    writer: str = FIRST_WRITER


@dataclass
class CaseResult:
    slug: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    overlaps: dict[str, list[float]] = field(default_factory=dict)

    def expected(self, half: str) -> list[bool]:
        return [o.expected for o in self.outcomes if o.half == half]

    def judged(self, half: str) -> list[bool]:
        return [o.judged for o in self.outcomes if o.half == half]

    def passed(self, half: str) -> bool:
        expected, judged = self.expected(half), self.judged(half)
        return agreement(expected, judged) >= MIN_AGREEMENT and (
            cohen_kappa(expected, judged) >= MIN_KAPPA
        )


def writer_of(path: Path) -> str:
    """The writer a label file names: ``coverage.json`` is the first, ``coverage.<w>.json`` w."""
    parts = path.name.split(".")
    return parts[1] if len(parts) == 3 else FIRST_WRITER


def load_labels(hidden_dir: Path, targets: dict[str, Target]) -> list[dict[str, Any]]:
    """The label items of one case, each with its ``writer``, refusing items whose target the
    case does not have (the same files ``customer_sim.probes.load`` merges, in its order)."""
    if probe_sets.load(hidden_dir, "coverage.json") is None:
        return []
    folder = hidden_dir / "probes"
    items: list[dict[str, Any]] = []
    for path in [folder / "coverage.json", *sorted(folder.glob("coverage.*.json"))]:
        document = json.loads(path.read_text(encoding="utf-8"))
        items.extend({**item, "writer": writer_of(path)} for item in document.get("items", []))
    unknown = sorted({item["target"] for item in items} - set(targets))
    if unknown:
        raise SystemExit(f"{hidden_dir}: coverage labels name targets not in gt.json: {unknown}")
    return items


def question_labels(hidden_dir: Path, targets: dict[str, Target]) -> list[dict[str, Any]]:
    """The customer probe sets read as label items (see the module docstring)."""
    folder = hidden_dir / "probes"
    if not (folder / "questions.json").exists():
        return []
    items: list[dict[str, Any]] = []
    for path in [folder / "questions.json", *sorted(folder.glob("questions.*.json"))]:
        document = json.loads(path.read_text(encoding="utf-8"))
        for question in document.get("questions", []):
            common = {
                "questions": [question["text"]],
                "split": question.get("split", "dev"),
                "writer": writer_of(path),
                "note": question.get("kind", ""),
            }
            expected = [key for key in question.get("expect") or [] if key in targets]
            items.extend({**common, "target": key, "covered": True} for key in expected)
            if question.get("kind") == "near_miss" and question.get("near") in targets:
                items.append({**common, "target": question["near"], "covered": False})
    return items


def run_case(
    judge: Judge,
    slug: str,
    cases_dir: Path,
    keep: Callable[[str], bool] = lambda writer: True,
    questions: bool = False,
) -> CaseResult:
    hidden_dir = cases_dir / slug / "hidden"
    gt = probe_sets.gt_of(hidden_dir)
    targets = {t.key: t for t in targets_from_gt(gt)}
    examples = probe_sets.examples_by_target(hidden_dir, gt)
    loader = question_labels if questions else load_labels
    items = [item for item in loader(hidden_dir, targets) if keep(item["writer"])]
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
                half=item["split"],
                writer=item["writer"],
            )
        )
        if item["covered"]:
            overlap = max(
                probe_sets.overlap(q, examples[item["target"]]) for q in item["questions"]
            )
            result.overlaps.setdefault(item["split"], []).append(overlap)
    result.seconds = time.perf_counter() - started
    return result


def summary_line(name: str, expected: list[bool], judged: list[bool]) -> str:
    covered = sum(expected) / len(expected) if expected else 0.0
    return (
        f"{name:<22} n={len(expected):>4}  labelled covered={covered:6.1%}  "
        f"agreement={agreement(expected, judged):6.1%}  kappa={cohen_kappa(expected, judged):.3f}"
    )


def print_disagreements(result: CaseResult, half: str) -> None:
    for outcome in result.outcomes:
        if outcome.expected == outcome.judged or outcome.half != half:
            continue
        label = "MISSED" if outcome.expected else "FALSE COVER"
        print(
            f"  {label:<11} {outcome.target}  matched={outcome.matched}  [{outcome.writer}]"
            f"  ({outcome.note})"
        )
        for number, question in enumerate(outcome.questions, start=1):
            print(f"      {number}. {question}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slugs", nargs="*", help="cases to run (default: every labelled case)")
    parser.add_argument("--judge", default="offline", choices=["offline", "llm"])
    parser.add_argument("--cases", type=Path, default=ROOT / "cases")
    parser.add_argument("--half", choices=probe_sets.HALVES, help="only this half")
    parser.add_argument("--verbose", action="store_true", help="list dev disagreements")
    parser.add_argument("--reveal-test", action="store_true", help="list test ones (reporting)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--writer", help="only this writer's items (writer1, writer3, ...)")
    chosen.add_argument("--except-writer", help="every writer's items but this one's")
    parser.add_argument("--aggregate", action="store_true", help="also one line over all cases")
    parser.add_argument(
        "--questions", action="store_true", help="label items from the customer probe sets"
    )
    args = parser.parse_args(argv)
    if args.writer:
        keep: Callable[[str], bool] = lambda writer: writer == args.writer  # noqa: E731
    elif args.except_writer:
        keep = lambda writer: writer != args.except_writer  # noqa: E731
    else:
        keep = lambda writer: True  # noqa: E731

    slugs = args.slugs or sorted(
        p.parent.parent.parent.name for p in args.cases.glob("*/hidden/probes/coverage.json")
    )
    halves = [args.half] if args.half else list(probe_sets.HALVES)
    judge = make_judge(args.judge)
    passed = True
    totals: dict[str, tuple[list[bool], list[bool]]] = {half: ([], []) for half in halves}
    for slug in slugs:
        result = run_case(judge, slug, args.cases, keep, args.questions)
        for half in halves:
            totals[half][0].extend(result.expected(half))
            totals[half][1].extend(result.judged(half))
            if not result.expected(half):
                continue
            overlap = probe_sets.median(result.overlaps.get(half, []))
            print(
                summary_line(f"{slug} {half}", result.expected(half), result.judged(half))
                + f"  overlap={overlap or 0:.2f}  ({result.seconds:.2f} s)"
            )
            if (args.verbose and half == "dev") or (args.reveal_test and half == "test"):
                print_disagreements(result, half)
            if half == "test" or args.half:
                passed = passed and result.passed(half)
    if args.aggregate:
        for half in halves:
            if totals[half][0]:
                print(summary_line(f"all {half}", *totals[half]))
    print("PASS" if passed else f"FAIL (needs agreement >= {MIN_AGREEMENT:.0%}, kappa >= 0.8)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
