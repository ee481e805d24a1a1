"""``manage.py validate_cases [--json] [SLUG ...]``: check bundled packages and their anchors.

Exit status 1 when any package fails, so CI and authors can rely on it. The JSON form is part
of the contract (product.md): a list of objects with slug, version, family, targets, anchors and
ok, plus the details of each check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluators.admission import admit
from evaluators.package import PackageError, load_package


class Command(BaseCommand):
    help = "Validate case packages under cases/ (all, or the given slugs) and run their anchors."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*")
        parser.add_argument("--json", action="store_true", help="print a JSON list")

    def handle(self, *args: Any, **options: Any) -> None:
        root = Path(settings.CASES_DIR)
        slugs = options["slugs"] or sorted(
            p.name for p in root.iterdir() if (p / "case.toml").is_file()
        )
        reports = [self._report(root / slug, slug) for slug in slugs]
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

    def _report(self, folder: Path, slug: str) -> dict[str, Any]:
        if not folder.is_dir():
            return _failure(slug, [f"no package folder {folder}"])
        try:
            package = load_package(folder)
        except PackageError as exc:
            return _failure(slug, exc.problems)
        return dict(admit(package).to_dict())

    def _print(self, report: dict[str, Any]) -> None:
        mark = "ok  " if report["ok"] else "FAIL"
        anchors = report.get("anchors", {})
        self.stdout.write(
            f"{mark} {report['slug']} {report.get('version', '')} ({report.get('family', '?')}), "
            f"{report.get('targets', 0)} targets; reference {anchors.get('reference')}, "
            f"baseline {anchors.get('baseline')}, literal {anchors.get('literal')}, "
            f"shortcuts {anchors.get('shortcuts')}"
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
        "ok": False,
    }
