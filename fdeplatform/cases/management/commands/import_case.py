"""``manage.py import_case PATH``: validate a package folder or zip and import it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from fdeplatform.cases.services import CaseRejected, case_import


class Command(BaseCommand):
    help = "Validate (format and admission anchors) and import a case package folder or zip."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--unpublished", action="store_true", help="import without publishing")

    def handle(self, *args: Any, **options: Any) -> None:
        source = Path(options["path"])
        if not source.exists():
            raise CommandError(f"{source}: no such file or folder")
        try:
            outcome = case_import(source=source, publish=not options["unpublished"])
        except CaseRejected as exc:
            lines = "\n".join(f"  - {p}" for p in exc.problems)
            raise CommandError(f"{source} was not imported:\n{lines}") from exc
        if outcome.created:
            self.stdout.write(f"imported {outcome.version}")
            for warning in outcome.report.get("warnings", []):
                self.stdout.write(f"  warning: {warning}")
        else:
            self.stdout.write(f"unchanged: {outcome.version} is already imported")
