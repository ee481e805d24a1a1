"""``manage.py validate_cases [--json] [SLUG|PATH ...]``: check packages and their anchors.

An argument is a bundled case's slug or the path of a package folder or zip anywhere (an
author validates a package before proposing it).

Exit status 1 when any package fails, so CI and authors can rely on it. The JSON form is part
of the contract (product.md): a list of objects with slug, version, family, targets, anchors and
ok, plus the details of each check and the ``isolation`` the evaluator ran under ("bwrap",
"process+landlock", "process"; None when no evaluator ran).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluators.admission import admit
from evaluators.package import PackageError, load_package, open_package


class Command(BaseCommand):
    help = "Validate case packages under cases/ (all, or the given slugs) and run their anchors."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="bundled slugs or package paths")
        parser.add_argument("--json", action="store_true", help="print a JSON list")

    def handle(self, *args: Any, **options: Any) -> None:
        root = Path(settings.CASES_DIR)
        slugs = options["slugs"] or sorted(
            p.name for p in root.iterdir() if (p / "case.toml").is_file()
        )
        reports = [self._report(*_locate(root, slug)) for slug in slugs]
        if options["json"]:
            self.stdout.write(json.dumps(reports, indent=2))
        else:
            for report in reports:
                self._print(report)
        failed = [r["slug"] for r in reports if not r["ok"]]
        if failed:
            raise CommandError(
                f"{len(failed)} of {len(reports)} package(s) failed: {', '.join(failed)}"
            )

    def _report(self, source: Path, slug: str) -> dict[str, Any]:
        if not source.exists():
            return _failure(slug, [f"no package folder {source}"])
        try:
            with open_package(source) as folder:
                return dict(admit(load_package(folder)).to_dict())
        except PackageError as exc:
            return _failure(slug, exc.problems)

    def _print(self, report: dict[str, Any]) -> None:
        mark = "ok  " if report["ok"] else "FAIL"
        anchors = report.get("anchors", {})
        self.stdout.write(
            f"{mark} {report['slug']} {report.get('version', '')} ({report.get('family', '?')}), "
            f"{report.get('targets', 0)} targets; reference {anchors.get('reference')}, "
            f"baseline {anchors.get('baseline')}, literal {anchors.get('literal')}, "
            f"shortcuts {anchors.get('shortcuts')}"
        )
        probes, fuzz = report.get("value_probes", []), report.get("fuzz", [])
        if probes or fuzz:
            agreed = sum(1 for probe in probes if probe.get("ok"))
            run = sum(1 for entry in fuzz if "not re-run" not in str(entry.get("outcome", "")))
            self.stdout.write(
                f"     value probes {agreed}/{len(probes)} as expected; fuzz {len(fuzz)} "
                f"variations, {run} scored"
            )
        if report.get("isolation") not in (None, "bwrap"):
            self.stdout.write(
                f"     ! the evaluator ran under {report['isolation']} isolation, not bubblewrap"
            )
        variants = report.get("variants") or []
        if len(variants) > 1:
            crossed = report.get("cross_variant") or []
            held = sum(1 for pair in crossed if pair.get("ok"))
            self.stdout.write(
                f"     {len(variants)} variants ({', '.join(str(v['id']) for v in variants)}); "
                f"references crossed {held}/{len(crossed)} as required"
            )
            for row in variants:
                anchors = row.get("anchors", {})
                self.stdout.write(
                    f"       {'ok  ' if row.get('ok') else 'FAIL'} {row['id']}: reference "
                    f"{anchors.get('reference')}, literal {anchors.get('literal')}, "
                    f"shortcuts {anchors.get('shortcuts')}, counterfactuals "
                    f"{row.get('counterfactuals')}"
                )
        for problem in report.get("problems", []):
            self.stdout.write(f"     - {problem}")


def _failure(slug: str, problems: list[str]) -> dict[str, Any]:
    return {
        "slug": slug,
        "version": None,
        "family": None,
        "targets": 0,
        "anchors": {"reference": None, "baseline": None, "literal": None, "shortcuts": []},
        "problems": problems,
        "variants": [],
        "cross_variant": [],
        "isolation": None,  # no evaluator ran
        "ok": False,
    }


def _locate(root: Path, argument: str) -> tuple[Path, str]:
    """A bundled slug, or a path to a package folder or zip (anything with a / or a .zip)."""
    if "/" in argument or argument.endswith(".zip") or argument in (".", ".."):
        path = Path(argument)
        return path, path.resolve().name.removesuffix(".zip")
    return root / argument, argument
