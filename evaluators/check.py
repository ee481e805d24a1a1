"""Check case packages from the command line: ``python -m evaluators.check [--json] PATH...``.

Each PATH is a package folder, a zip of one, or a folder of packages (e.g. ``cases/``). The
command loads each package (format checks) and admits it (anchor scores, materiality,
answerability), prints a report per case and exits 1 if any case fails. ``manage.py
validate_cases`` prints the same JSON objects, so authors can use either.

The probe sets' frozen test half is left out of the terminal report unless ``--show-test-half``
is given: an author runs this command after every pattern change, and a figure seen after every
change is a figure tuned on. ``--json`` (for tools) and the site's version page keep it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from evaluators.admission import AdmissionReport, Answerability, admit
from evaluators.archive import PackageError, open_package
from evaluators.package import load_package


def expand_paths(paths: Sequence[Path]) -> list[Path]:
    """Package folders and zips as given; a folder without case.toml stands for the packages
    inside it (folders with a case.toml or a hidden/ folder, so half-written ones show up)."""
    expanded: list[Path] = []
    for path in paths:
        if path.is_dir() and not (path / "case.toml").exists():
            children = sorted(child for child in path.iterdir() if _looks_like_package(child))
            expanded += children or [path]
        else:
            expanded.append(path)
    return expanded


def _looks_like_package(path: Path) -> bool:
    return (path / "case.toml").is_file() or (path / "hidden").is_dir()


def check_source(
    source: Path, *, answerability: Answerability | None = None, timeout_s: float = 60
) -> AdmissionReport:
    """Load and admit one package folder or zip; format problems become a failed report."""
    try:
        with open_package(source) as root:
            package = load_package(root)
            return admit(package, answerability=answerability, timeout_s=timeout_s)
    except PackageError as error:
        name = source.stem if source.suffix == ".zip" else source.name
        return AdmissionReport(
            slug=name, version="", family="", targets=0, problems=list(error.problems)
        )


def _score_text(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


_TEST_HALF = "probe set, test half"


def format_report(report: AdmissionReport, *, show_test_half: bool = True) -> str:
    """A few readable lines per case for a terminal."""
    verdict = "OK" if report.ok else "FAILED"
    lines = [
        f"{report.slug} {report.version} ({report.family or '?'}, {report.targets} targets): "
        f"{verdict}  [{report.duration_s:.1f} s]"
    ]
    if report.anchors:
        anchors = report.anchors
        shortcuts = ", ".join(_score_text(score) for score in anchors.get("shortcuts", []))
        lines.append(
            f"  anchors: reference {_score_text(anchors.get('reference'))}, "
            f"baseline {_score_text(anchors.get('baseline'))}, "
            f"literal {_score_text(anchors.get('literal'))}, shortcuts [{shortcuts}]"
        )
    if report.counterfactuals:
        pairs = ", ".join(f"{k} {_score_text(v)}" for k, v in report.counterfactuals.items())
        lines.append(f"  counterfactuals: {pairs}")
    if report.answerable:
        count = sum(report.answerable.values())
        lines.append(
            f"  answerable: {count}/{len(report.answerable)} ({report.answerability_check})"
        )
    warnings = [w for w in report.warnings if show_test_half or _TEST_HALF not in w]
    if len(warnings) < len(report.warnings):
        lines.append("  (the probe set's test half is not shown: --show-test-half to report it)")
    lines += [f"  warning: {warning}" for warning in warnings]
    lines += [f"  PROBLEM: {problem}" for problem in report.problems]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluators.check", description=__doc__)
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--json", action="store_true", help="print a JSON list of reports")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per evaluation")
    parser.add_argument(
        "--show-test-half",
        action="store_true",
        help="also print the probe set's frozen test half (for reporting, never for tuning)",
    )
    args = parser.parse_args(argv)
    reports = [check_source(path, timeout_s=args.timeout) for path in expand_paths(args.paths)]
    if args.json:
        print(json.dumps([report.to_dict() for report in reports], indent=2))
    else:
        shown = [format_report(r, show_test_half=args.show_test_half) for r in reports]
        print("\n\n".join(shown))
    return 0 if reports and all(report.ok for report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
