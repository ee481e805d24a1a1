"""What the customer says about the workspace: the data files and the deliverable's form.

"Deliverable: a CSV with step, pallet_id, from_stack, to_stack. Correct?" asks the customer to
confirm the file's form. The form is public (``submission_schema.json`` sits in the workspace),
so the customer may check the columns a player lists against it and say which are missing or
not part of the file: nothing hidden is read or said. A question about the form that names no
column gets the schema's own one-line description. "What data do I have?" gets the names of
the files in ``data/`` (the workspace lists them too). Rules about the content (which rows count,
what a value means) are facts of the script and are answered, or not, by the stages as usual.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from customer_sim.small_talk import listed


@dataclass(frozen=True)
class Form:
    """The deliverable's public form (its description and its columns, in schema order) and the
    data files the player was given."""

    description: str
    columns: tuple[str, ...]
    files: tuple[str, ...] = ()


def load_form(package_dir: Path) -> Form | None:
    """The form in ``submission_schema.json`` and the files of ``data/`` (a form without columns
    when the schema is missing or unreadable: the customer then speaks of it in general)."""
    data = package_dir / "data"
    files = tuple(
        path.relative_to(data).as_posix()
        for path in (sorted(data.rglob("*")) if data.is_dir() else [])
        if path.is_file() and not path.name.startswith(".")
    )
    try:
        raw = json.loads((package_dir / "submission_schema.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        raw = {}
    if not isinstance(raw, dict):
        raw = {}
    columns = [c.get("name") for c in raw.get("columns") or [] if isinstance(c, dict)]
    description = raw.get("description")
    return Form(
        description=description.strip() if isinstance(description, str) else "",
        columns=tuple(c for c in columns if isinstance(c, str) and c),
        files=files,
    )


def files_line(form: Form | None) -> str | None:
    """The reply to "what data do I have?": the files of ``data/``, or None without any."""
    if form is None or not form.files:
        return None
    return (
        f"Everything we pulled together is in your workspace: {listed(form.files)}. Ask me about anything "
        "in it that's unclear."
    )


def _words(text: str) -> set[str]:
    """The words of ``text``, plurals as said ("a CSV of claim_ids") and as singulars."""
    words = set(re.findall(r"[a-z0-9_]+", text.lower()))
    return words | {word[:-1] for word in words if word.endswith("s") and len(word) > 3}


def named_columns(form: Form, text: str) -> list[str]:
    """The form's columns ``text`` names, in schema order."""
    words = _words(text)
    return [column for column in form.columns if _said(column.lower(), words)]


def _said(column: str, words: set[str]) -> bool:
    """Is the column named, as itself or in plain words ("one row per order with the line" names
    order_id and line_id)?"""
    if column in words:
        return True
    parts = [part for part in column.split("_") if part and part != "id"]
    return bool(parts) and all(part in words for part in parts)


def _unknown_columns(form: Form, text: str) -> list[str]:
    """Column-like names (snake_case) in ``text`` that the form does not have, in the singular
    or the plural ("claim_ids" is the claim_id column said of many rows)."""
    known = {c.lower() for c in form.columns}
    found = set(re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", text.lower()))
    return sorted(w for w in found if w not in known and w.removesuffix("s") not in known)


def form_line(form: Form | None, question: str) -> str | None:
    """The customer's reply about the file's form, or None when there is no form to speak of."""
    if form is None or not form.columns:
        return None
    named = named_columns(form, question)
    listed = ", ".join(form.columns)
    what = f" ({_lower_first(form.description)})" if form.description else ""
    extra = _unknown_columns(form, question)
    if not named and not extra:
        return (
            f"One file with the columns {listed}{what} - submission_schema.json in your "
            "workspace has the details. Ask me if any of it is unclear."
        )
    missing = [c for c in form.columns if c not in named] if named else []
    if not missing and not extra:
        return (
            f"Yes, those are the columns: {listed}{what}. Anything about what goes in them, ask me."
        )
    parts = [f"The file has {listed}{what}."]
    if missing:
        parts.append(f"So besides what you said, it needs {_and(missing)}.")
    if extra:
        parts.append(
            f"{extra[0]} isn't one of its columns."
            if len(extra) == 1
            else f"{', '.join(extra)} aren't among its columns."
        )
    return " ".join(parts)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _lower_first(text: str) -> str:
    text = text.rstrip(". ")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
