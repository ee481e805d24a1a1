"""Time the scoring of every case's reference deliverable.

    python bench/score_references.py [--cases DIR] [--repeat 3] [--limit 5]

Scoring runs while a player waits for a result, so each case's evaluator must stay fast on
its own reference (the largest realistic deliverable). For every package under ``cases/`` this
scores ``hidden/reference.*`` through the real runtime (sandboxed child process included)
``--repeat`` times and prints min and median seconds with the score. Packages that fail to
load are listed and skipped. Exits 1 if any median exceeds ``--limit`` seconds (the median,
not the max, so one hiccup on a shared machine does not fail the run).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from evaluators.package import PackageError, load_package  # noqa: E402
from evaluators.runtime import score_file  # noqa: E402


@dataclass
class Timing:
    slug: str
    version: str
    score: float
    error: str | None
    seconds: list[float]

    @property
    def fastest(self) -> float:
        return min(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def time_reference(case_dir: Path, repeat: int) -> Timing:
    package = load_package(case_dir)
    reference = package.anchor_path("reference")
    results = [score_file(package.root, reference) for _ in range(repeat)]
    last = results[-1]
    return Timing(
        slug=package.slug,
        version=package.version,
        score=last.score,
        error=f"{last.error_kind}: {last.error_message}" if last.error_kind else None,
        seconds=[result.duration_s for result in results],
    )


def case_dirs(cases: Path) -> list[Path]:
    return sorted(
        path for path in cases.iterdir() if path.is_dir() and not path.name.startswith(".")
    )


def print_table(timings: list[Timing], limit: float) -> None:
    print(f"{'case':<24} {'version':<9} {'score':>8} {'min s':>8} {'median s':>9}  status")
    for timing in timings:
        status = "SLOW" if timing.median > limit else "ok"
        if timing.error:
            status += f" ({timing.error})"
        print(
            f"{timing.slug:<24} {timing.version:<9} {timing.score:>8.4f} "
            f"{timing.fastest:>8.3f} {timing.median:>9.3f}  {status}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=REPO_ROOT / "cases")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=float, default=5.0, help="seconds allowed (median)")
    args = parser.parse_args(argv)
    timings: list[Timing] = []
    for case_dir in case_dirs(args.cases):
        try:
            timings.append(time_reference(case_dir, args.repeat))
        except PackageError as error:
            print(
                f"skipped {case_dir.name}: {len(error.problems)} package problem(s), first: "
                f"{error.problems[0]}"
            )
    print_table(timings, args.limit)
    slow = [timing.slug for timing in timings if timing.median > args.limit]
    if slow:
        print(f"\nOver {args.limit:g} s: {', '.join(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
