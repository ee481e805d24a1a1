"""The only code that reads case files for players: instruction, schema and data listing.

Everything a page or API shows of a package goes through here, and here only the visible
names are opened, so a hidden file cannot leak through a new view by accident.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.http import FileResponse, Http404, HttpResponse

from fdeplatform.cases.levels import LEVEL_CONDITIONS, level_brief_md
from fdeplatform.cases.models import CaseVersion
from fdeplatform.cases.oracle import LEVELS, oracle_answers_md
from fdeplatform.core.markdown import render_markdown

VISIBLE_FILES = ("instruction.md", "submission_schema.json")


@dataclass
class DataFile:
    name: str
    size: int


@dataclass
class VisibleCase:
    instruction_html: str
    instruction_md: str
    schema: dict[str, Any]
    data_files: list[DataFile]


def data_files(version: CaseVersion) -> list[DataFile]:
    data_dir = version.package_dir / "data"
    if not data_dir.is_dir():
        return []
    return [
        DataFile(name=p.name, size=p.stat().st_size)
        for p in sorted(data_dir.iterdir())
        if p.is_file() and not p.is_symlink() and not p.name.startswith(".")
    ]


def data_file_path(version: CaseVersion, name: str) -> Path | None:
    """The path of visible data file ``name``, or None: only plain names listed in data/."""
    if name not in {f.name for f in data_files(version)}:
        return None
    return version.package_dir / "data" / name


def visible_view(version: CaseVersion) -> VisibleCase:
    root = version.package_dir
    instruction = (root / "instruction.md").read_text(encoding="utf-8")
    schema = json.loads((root / "submission_schema.json").read_text(encoding="utf-8"))
    return VisibleCase(
        instruction_html=render_markdown(instruction),
        instruction_md=instruction,
        schema=schema,
        data_files=data_files(version),
    )


def bundle_zip(version: CaseVersion) -> bytes:
    """A zip of everything a player gets: instruction, schema and data (nothing hidden)."""
    import io
    import zipfile

    buffer = io.BytesIO()
    root = version.package_dir
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in VISIBLE_FILES:
            archive.write(root / name, arcname=name)
        for item in data_files(version):
            archive.write(root / "data" / item.name, arcname=f"data/{item.name}")
    return buffer.getvalue()


def information_md_for_full_condition(run: Any) -> str:
    """What a run's condition hands out up front: ``information.md`` under ``full``
    (FDE-Bench §5.4), the seeded share of registered answers under an oracle condition
    (``cases.oracle``), the level's brief under an FDE-Gym level (``cases.levels``), nothing
    otherwise."""
    hidden: Path = run.case_version.package_dir / "hidden"
    if run.condition == "full":
        return (hidden / "information.md").read_text(encoding="utf-8")
    if run.condition in LEVELS:
        return oracle_answers_md(hidden, condition=run.condition, seed=run.case_version.case.slug)
    if run.condition in LEVEL_CONDITIONS:
        return level_brief_md(hidden, run.condition)
    return ""


def information_html_for_full_condition(run: Any) -> str:
    text = information_md_for_full_condition(run)
    return render_markdown(text) if text else ""


def data_file_response(version: CaseVersion, name: str) -> FileResponse:
    """A visible data file as a download (404 for anything not listed in data/)."""
    path = data_file_path(version, name)
    if path is None:
        raise Http404("No such data file.")
    return FileResponse(path.open("rb"), as_attachment=True, filename=name)


def bundle_response(version: CaseVersion) -> HttpResponse:
    """The zip of everything a player gets, as a download."""
    response = HttpResponse(bundle_zip(version), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{version.case.slug}.zip"'
    return response
