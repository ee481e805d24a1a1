"""``manage.py load_bundled_cases``: import the packages under ``cases/`` that changed.

Called by script/server on every start. Bundled packages go through the same admission as an
uploaded one (format, anchors scored twice, counterfactuals, customer checks): a package that
fails is not published, and the reason is printed, while the others load and the server starts.
Unchanged packages (same digest) are skipped at once. A changed one whose report the repository
ships for exactly its digest (``fdeplatform.cases.shipped_admission``) is imported with that
report, so a fresh start verifies digests instead of admitting; the rest are admitted in
parallel, one thread per package (the work is in evaluator child processes), each printed as
it finishes. ``--refresh-shipped`` admits every bundled package afresh and rewrites the shipped
reports (run it after changing a bundled case; the suite fails on a stale one).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
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
from fdeplatform.cases.shipped_admission import shipped_report, write_shipped


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
        parser.add_argument(
            "--refresh-shipped",
            action="store_true",
            help="admit every bundled package afresh and rewrite cases/admitted/<slug>.json",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folders = bundled_packages()
        if not folders:
            self.stdout.write("no bundled case packages found")
            return
        refresh = bool(options.get("refresh_shipped"))
        changed = folders if refresh else [f for f in folders if not is_imported(f)]
        reports: dict[Path, dict[str, Any] | CaseRejected] = {}
        for folder in [] if refresh else changed:
            shipped = shipped_report(folder)
            if shipped is not None:
                reports[folder] = shipped
                self.stdout.write(f"verified: {folder.name} (admission shipped for this digest)")
        reports.update(self._admit_all([f for f in changed if f not in reports]))
        for folder in folders:
            if folder not in changed:  # already a version here: loading it again costs seconds
                self.stdout.write(f"unchanged: {folder.name}")
                continue
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
            if refresh and isinstance(report, dict):
                self.stdout.write(f"  shipped: {write_shipped(folder, report)}")
            state = "imported" if outcome.created else "unchanged"
            self.stdout.write(f"{state}: {outcome.version}")
            for warning in outcome.report.get("warnings", []) if outcome.created else []:
                self.stdout.write(f"  warning: {warning}")

    def _admit_all(self, folders: list[Path]) -> dict[Path, dict[str, Any] | CaseRejected]:
        """Admit ``folders`` in parallel, saying which one is being waited for and when each
        is done (a fresh admission takes minutes; silence reads as a hang)."""
        if not folders:
            return {}
        names = ", ".join(folder.name for folder in folders)
        self.stdout.write(f"admitting {len(folders)} package(s): {names} (minutes per case)")
        started = time.monotonic()
        done: dict[Path, dict[str, Any] | CaseRejected] = {}
        workers = max(1, min(len(folders), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_admit, folder): folder for folder in folders}
            for future in as_completed(futures):
                folder = futures[future]
                done[folder] = future.result()
                verdict = "rejected" if isinstance(done[folder], CaseRejected) else "admitted"
                elapsed = time.monotonic() - started
                self.stdout.write(
                    f"  {verdict}: {folder.name} after {elapsed:.0f} s ({len(done)}/{len(folders)})"
                )
        return done
