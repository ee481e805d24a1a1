"""``manage.py load_bundled_cases``: import the packages under ``cases/`` that changed.

Called by script/server on every start. Bundled packages go through the same admission as an
uploaded one (format, anchors scored twice, counterfactuals, customer checks): a package that
fails is not published, and the reason is printed, while the others load and the server starts.
Unchanged packages (same digest) are skipped at once; changed ones are admitted in parallel,
one thread per package (the work is in evaluator child processes), so a fresh start stays quick.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fdeplatform.cases.services import (
    CaseRejected,
    admission_report,
    bundled_packages,
    case_import,
    is_imported,
)


def _admit(folder: Path) -> dict[str, Any] | CaseRejected:
    try:
        return admission_report(folder)
    except CaseRejected as exc:
        return exc


class Command(BaseCommand):
    help = "Import or update the case packages bundled under cases/, through admission."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check-anchors",
            action="store_true",
            help="accepted for old scripts; admission (anchors included) always runs now",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folders = bundled_packages()
        if not folders:
            self.stdout.write("no bundled case packages found")
            return
        changed = [folder for folder in folders if not is_imported(folder)]
        if changed:
            self.stdout.write(f"admitting {len(changed)} changed package(s)...")
        workers = max(1, min(len(changed), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            reports = dict(zip(changed, pool.map(_admit, changed), strict=True))
        for folder in folders:
            report = reports.get(folder)
            try:
                if isinstance(report, CaseRejected):
                    raise report
                outcome = case_import(source=folder, admission=report)
            except CaseRejected as exc:
                self.stderr.write(
                    f"not published: {folder.name} failed admission: " + "; ".join(exc.problems)
                )
                continue
            state = "imported" if outcome.created else "unchanged"
            self.stdout.write(f"{state}: {outcome.version}")
            for warning in outcome.report.get("warnings", []) if outcome.created else []:
                self.stdout.write(f"  warning: {warning}")
