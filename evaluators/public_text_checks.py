"""Public text that asks about a hidden rule: the case page, the request and the staff directory.

A player sees case.toml's title, summary and provenance on the case page, ``instruction.md``
as the request, and each stakeholder's name, role and areas in the staff directory. A text
there that fires a target's ask pattern (names the rule's subject together with the aspect the
rule settles, as ``customer_checks.schema_mentions`` checks the schema's text) tells the player
which question to ask, and the case no longer measures whether they would have. Such a text is
a problem, except where naming the target is the point of the text:

* the request (title, summary, ``instruction.md``) is where an *ambiguous*, *invalidated* or
  *conflicting* target lives by definition (FDE-Bench's issue types: the request says "the
  bill", "6 hours of oven time"), so it is held to the *missing* targets only, the rules the
  request must leave out;
* the provenance and the staff directory describe where the case comes from and who does
  what; neither has a reason to name any rule, so every target counts;
* a tutorial (``tutorial = true``) points at where to look on purpose: its request and staff
  directory are warnings, its provenance is still a problem.

Texts are checked one sentence (or one area phrase) at a time, as a question would be: a whole
document would combine one sentence's subject with another's aspect.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from customer_sim.patterns import TermIndex, strength, tokens_of
from customer_sim.scripted import ScriptedCustomer

#: Issue types a request may state (it is where they live); only "missing" must stay out.
REQUEST_MAY_STATE = {"ambiguous", "invalidated", "conflicting"}
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n|\n\s*(?=[-*>#]|\d+\.)")


@dataclass(frozen=True)
class PublicText:
    where: str
    text: str
    #: ``False``: only the request's rule applies (missing targets); ``True``: every target.
    every_target: bool
    #: Tutorials' guided texts: a warning rather than a problem.
    guided: bool = False


def fires(customer: ScriptedCustomer, text: str) -> Iterator[tuple[str, str]]:
    """``(target key, the terms named)`` for each target whose ask pattern ``text`` fires."""
    tokens = tokens_of(text)
    seen: set[str] = set()
    for fact in customer.script.facts:
        if fact.target is None or fact.pattern is None or fact.target in seen:
            continue
        found = TermIndex(fact.pattern.terms()).present(tokens)
        if strength(fact.pattern, found):
            seen.add(fact.target)
            yield fact.target, ", ".join(sorted(str(term) for term in found))


def public_mentions(
    customer: ScriptedCustomer, root: Path, gt: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """``(problems, warnings)``: public texts that read as asking about a target."""
    issue_types = {
        str(target.get("key")): str(target.get("issue_type"))
        for target in gt.get("targets", [])
        if isinstance(target, dict)
    }
    problems: list[str] = []
    warnings: list[str] = []
    for item in public_texts(customer, root):
        for key, named in fires(customer, item.text):
            if not item.every_target and issue_types.get(key) in REQUEST_MAY_STATE:
                continue
            message = (
                f"{item.where} {item.text[:80]!r} reads as asking about target `{key}` "
                f"({named}); players see this text, so it must not point at hidden rules"
            )
            if item.guided:
                warnings.append(message + " (a tutorial's hint: a warning only)")
            else:
                problems.append(message)
    return problems, warnings


def public_texts(customer: ScriptedCustomer, root: Path) -> list[PublicText]:
    """Every text a player sees before asking anything, split into sentences."""
    metadata = _case_toml(root)
    tutorial = metadata.get("tutorial") is True
    texts = []
    if isinstance(metadata.get("provenance"), str):
        texts += [
            PublicText("case.toml: `provenance`", sentence, every_target=True)
            for sentence in split_sentences(metadata["provenance"])
        ]
    for field in ("title", "summary"):
        if isinstance(metadata.get(field), str):
            texts += [
                PublicText(f"case.toml: `{field}`", sentence, every_target=False)
                for sentence in split_sentences(metadata[field])
            ]
    instruction = root / "instruction.md"
    if instruction.is_file():
        text = instruction.read_text(encoding="utf-8", errors="replace")
        texts += [
            PublicText("instruction.md:", sentence, every_target=False, guided=tutorial)
            for sentence in split_sentences(text)
        ]
    for person in customer.script.stakeholders:
        where = f"hidden/customer.json: stakeholder `{person.id}` (staff directory)"
        entries = [("name and role", f"{person.name}, {person.role}")]
        entries += [("area", area) for area in person.areas]
        texts += [
            PublicText(f"{where} {label}", text, every_target=True, guided=tutorial)
            for label, text in entries
        ]
    return texts


def split_sentences(text: str) -> list[str]:
    """Sentences, list items and paragraphs, each on one line."""
    return [" ".join(part.split()) for part in _SENTENCE.split(text) if part.strip()]


def _case_toml(root: Path) -> dict[str, Any]:
    try:
        return tomllib.loads((root / "case.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}  # the format checks report an unreadable case.toml
