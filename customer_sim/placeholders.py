"""``{{name}}`` placeholders in a case's texts, filled from ``hidden/values.json``.

A case with variants (docs/variants.md) writes the figures its answers give as placeholders
(``"The cold lanes take {{cold_height_limit}}."``) so each variant states its own. Filling them
is a build step: ``evaluators.variants`` does it when it materialises a variant, and the
customer's loading does it for a hidden folder read directly (the outside checks load a case
that way), so both see the same text. Never at reply time, and never from the player's words.

Double braces, because ask patterns are regular expressions in which ``{2}`` is a quantifier.
This module is the one definition of the syntax; it imports nothing from the rest of the
package so the evaluators may use it too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

#: ``{{ name }}``; names as in values.json (letters, digits, ``_``, ``-``, ``.``).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}")
#: The hidden files whose placeholders are filled (docs/variants.md, "Materialising").
RENDERED_FILES = ("customer.json", "gt.json", "information.md", "matching.json")
VALUES_FILE = "values.json"


class PlaceholderError(ValueError):
    """values.json is unreadable, or a text names a placeholder it has no value for."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def read_values(hidden_dir: Path) -> dict[str, str] | None:
    """The display values of ``hidden_dir/values.json``; None when the file does not exist.

    Raises PlaceholderError when it is not a flat JSON object of strings (a number would be
    written without its unit, which the answer texts need).
    """
    path = Path(hidden_dir) / VALUES_FILE
    if not path.is_file():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlaceholderError([f"hidden/{VALUES_FILE}: not valid JSON ({exc})"]) from exc
    if not isinstance(document, dict) or not all(
        isinstance(value, str) for value in document.values()
    ):
        raise PlaceholderError(
            [f"hidden/{VALUES_FILE}: must be one JSON object of display strings"]
        )
    return dict(document)


def names_in(text: str) -> list[str]:
    """The placeholder names a text uses, in order of first use."""
    return list(dict.fromkeys(match.group(1) for match in PLACEHOLDER.finditer(text)))


def render(
    text: str, values: dict[str, str], escape: Callable[[str], str] = str
) -> tuple[str, list[str]]:
    """``text`` with every placeholder filled, and the names that have no value (left as is)."""
    missing: list[str] = []

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            if name not in missing:
                missing.append(name)
            return match.group(0)
        return escape(values[name])

    return PLACEHOLDER.sub(fill, text), missing


def json_escape(value: str) -> str:
    """A value as it goes inside a JSON string: placeholders only ever stand in strings, so
    filling the raw text keeps the file's bytes (and its layout) everywhere else."""
    return json.dumps(value, ensure_ascii=False)[1:-1]


def render_file(path: Path, values: dict[str, str]) -> tuple[str, list[str]]:
    """A file's text rendered from ``values`` (JSON-escaped for ``.json`` files)."""
    escape = json_escape if path.suffix == ".json" else str
    return render(path.read_text(encoding="utf-8"), values, escape)


def read_rendered(hidden_dir: Path, name: str) -> str:
    """``hidden_dir/name`` as the customer must see it: rendered from ``values.json`` when
    the folder has one, else as written. Raises PlaceholderError for a placeholder with no
    value, naming the file and the placeholder."""
    path = Path(hidden_dir) / name
    values = read_values(Path(hidden_dir))
    if values is None:
        return path.read_text(encoding="utf-8")
    text, missing = render_file(path, values)
    if missing:
        raise PlaceholderError(
            [
                f"hidden/{name}: placeholder {{{{{key}}}}} has no value in hidden/{VALUES_FILE}"
                for key in missing
            ]
        )
    return text
