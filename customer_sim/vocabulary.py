"""The nouns a case knows, as stems: what a non-answer may quote back of the player's message.

A reply that names the subject of the ask reads as listening ("On oven minutes - what exactly
do you need to know?"), but a subject cut blindly out of the message reads as a broken bot
("That: can you be more specific?", "I'm not sure which part of before you mean"). Only the
player's own words are ever quoted; this vocabulary decides which of them are a subject: words
of the data's column names and file names, the submission schema's columns, the people's
areas and roles, and the facts' topics.
"""

from __future__ import annotations

import contextlib
import csv
import json
import re
from pathlib import Path

from customer_sim.script import Script
from customer_sim.text import STOPWORDS, stem

_WORDS = re.compile(r"[a-z][a-z0-9]+")
#: Words too general to be a subject on their own.
_GENERAL = frozenset({"data", "file", "thing", "question", "plan", "side", "part", "way"})
_MAX_HEADER_BYTES = 65_536


def _stems(text: str) -> set[str]:
    words = _WORDS.findall(text.lower().replace("_", " ").replace("-", " "))
    return {stem(w) for w in words if w not in STOPWORDS and w not in _GENERAL and len(w) > 1}


def case_vocabulary(script: Script) -> frozenset[str]:
    found: set[str] = set()
    for person in script.stakeholders:
        for area in person.areas:
            found |= _stems(area)
        found |= _stems(person.role)
    for fact in script.facts:
        found |= _stems(fact.topic)
    return frozenset(found)


def data_vocabulary(package_dir: Path) -> frozenset[str]:
    """Column and file names of ``data/``, the schema's name and its columns (read from their
    first bytes only)."""
    found: set[str] = set()
    data = package_dir / "data"
    for path in sorted(data.rglob("*")) if data.is_dir() else []:
        if not path.is_file():
            continue
        found |= _stems(path.stem)
        if path.suffix.lower() == ".csv":
            found |= _stems(" ".join(_header(path)))
    schema = package_dir / "submission_schema.json"
    if schema.is_file():
        found |= _stems(schema.stem)  # "the schema": a file every player has
        with contextlib.suppress(ValueError):
            found |= _stems(" ".join(_keys(json.loads(schema.read_text(encoding="utf-8")))))
    return frozenset(found)


def _header(path: Path) -> list[str]:
    with path.open("rb") as handle:
        head = handle.read(_MAX_HEADER_BYTES).decode("utf-8", "replace")
    rows = list(csv.reader(head.splitlines()[:1]))
    return rows[0] if rows else []


def _keys(value: object) -> list[str]:
    """Column names in a schema: every ``name`` value and every property key."""
    names: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "name" and isinstance(item, str):
                names.append(item)
            elif key == "properties" and isinstance(item, dict):
                names += [str(k) for k in item]
            names += _keys(item)
    elif isinstance(value, list):
        for item in value:
            names += _keys(item)
    return names
