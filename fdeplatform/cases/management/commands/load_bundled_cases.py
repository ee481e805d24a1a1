"""``manage.py load_bundled_cases``: import the packages under ``cases/`` that changed.

Called by script/server on every start, so it must be quick when nothing changed (digest
match) and must not stop the server because one package is broken: it reports and goes on.
Anchors are checked by ``validate_cases`` in CI for bundled packages; pass --check-anchors to
run them here too.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fdeplatform.cases.services import CaseRejected, bundled_packages, case_import


class Command(BaseCommand):
    help = "Import or update the case packages bundled under cases/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check-anchors", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        folders = bundled_packages()
        if not folders:
            self.stdout.write("no bundled case packages found")
            return
        for folder in folders:
            try:
                outcome = case_import(source=folder, check_anchors=options["check_anchors"])
            except CaseRejected as exc:
                self.stderr.write(f"skipped {folder.name}: " + "; ".join(exc.problems))
                continue
            state = "imported" if outcome.created else "unchanged"
            self.stdout.write(f"{state}: {outcome.version}")
