"""The only code that reads case files for players: instruction, schema, data listing and the
staff directory (the public fields of the stakeholders in ``hidden/customer.json``).

Everything a page or API shows of a package goes through here, and here only the visible
names are opened, so a hidden file cannot leak through a new view by accident.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from django.http import FileResponse, Http404, HttpResponse

from customer_sim.placeholders import read_rendered
from fdeplatform.cases.levels import LEVEL_CONDITIONS, level_brief_md
from fdeplatform.cases.oracle import LEVELS, oracle_answers_md
from fdeplatform.core.markdown import render_markdown

VISIBLE_FILES = ("instruction.md", "submission_schema.json")


class Packaged(Protocol):
    """What the visible files are read from: a ``CaseVersion`` (the case page: its base
    variant) or a ``Run`` (the workspace: the run's own variant, docs/variants.md)."""

    @property
    def package_dir(self) -> Path: ...


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


def data_files(version: Packaged) -> list[DataFile]:
    data_dir = version.package_dir / "data"
    if not data_dir.is_dir():
        return []
    return [
        DataFile(name=p.name, size=p.stat().st_size)
        for p in sorted(data_dir.iterdir())
        if p.is_file() and not p.is_symlink() and not p.name.startswith(".")
    ]


def data_file_path(version: Packaged, name: str) -> Path | None:
    """The path of visible data file ``name``, or None: only plain names listed in data/."""
    if name not in {f.name for f in data_files(version)}:
        return None
    return version.package_dir / "data" / name


def visible_view(version: Packaged) -> VisibleCase:
    root = version.package_dir
    instruction = (root / "instruction.md").read_text(encoding="utf-8")
    schema = json.loads((root / "submission_schema.json").read_text(encoding="utf-8"))
    return VisibleCase(
        instruction_html=render_markdown(instruction),
        instruction_md=instruction,
        schema=schema,
        data_files=data_files(version),
    )


def bundle_zip(version: Packaged) -> bytes:
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


@dataclass(frozen=True)
class DirectoryEntry:
    """One stakeholder as the staff directory shows them (FDE-Gym: who is there, what they
    can speak to, what a message to them costs). Never their facts, patience or replies."""

    handle: str
    name: str
    role: str
    areas: tuple[str, ...]
    contact_cost: float
    default: bool


def stakeholder_directory(version: Packaged) -> list[DirectoryEntry]:
    """The case's staff directory, read from the public fields of ``hidden/customer.json``."""
    return list(_directory(str(version.package_dir / "hidden" / "customer.json")))


@lru_cache(maxsize=64)
def _directory(path: str) -> tuple[DirectoryEntry, ...]:
    try:
        script = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    entries = []
    for item in script.get("stakeholders", []) if isinstance(script, dict) else []:
        if not isinstance(item, dict) or not item.get("id"):
            continue
        listed = item.get("areas")
        areas: list[object] = listed if isinstance(listed, list) else []
        entries.append(
            DirectoryEntry(
                handle=str(item["id"]),
                name=str(item.get("name", item["id"])),
                role=str(item.get("role", "")),
                areas=tuple(str(a) for a in areas),
                contact_cost=float(item.get("contact_cost", 0.0) or 0.0),
                default=bool(item.get("default", False)),
            )
        )
    return tuple(entries)


def directory_dicts(version: Packaged) -> list[dict[str, Any]]:
    """The directory as the API and the ``fde`` client get it."""
    return [
        {
            "handle": e.handle,
            "name": e.name,
            "role": e.role,
            "areas": list(e.areas),
            "contact_cost": e.contact_cost,
            "default": e.default,
        }
        for e in stakeholder_directory(version)
    ]


def information_md_for_full_condition(run: Any) -> str:
    """What a run's condition hands out up front: ``information.md`` under ``full``
    (FDE-Bench §5.4), the seeded share of registered answers under an oracle condition
    (``cases.oracle``), the level's brief under an FDE-Gym level (``cases.levels``), nothing
    otherwise."""
    hidden: Path = run.package_dir / "hidden"
    if run.condition == "full":
        return read_rendered(hidden, "information.md")
    if run.condition in LEVELS:
        return oracle_answers_md(hidden, condition=run.condition, seed=run.case_version.case.slug)
    if run.condition in LEVEL_CONDITIONS:
        return level_brief_md(hidden, run.condition)
    return ""


def information_html_for_full_condition(run: Any) -> str:
    text = information_md_for_full_condition(run)
    return render_markdown(text) if text else ""


def data_file_response(version: Packaged, name: str) -> FileResponse:
    """A visible data file as a download (404 for anything not listed in data/)."""
    path = data_file_path(version, name)
    if path is None:
        raise Http404("No such data file.")
    return FileResponse(path.open("rb"), as_attachment=True, filename=name)


def bundle_response(version: Packaged, slug: str) -> HttpResponse:
    """The zip of everything a player gets, as a download (named after the case only: a
    run's bundle must not name its variant)."""
    response = HttpResponse(bundle_zip(version), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{slug}.zip"'
    return response
