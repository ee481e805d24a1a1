"""Who said what in a recorded answer, as the transcript shows it.

A reply several stakeholders gave is recorded with ``Exchange.stakeholder`` = "A (role) & B
(role)" and a text that already carries each voice under its own label ("A (role): ...\\n\\nB
(role): ..."; ``customer_sim.stages.wording``). Printing the one header above the text named the
first speaker twice ("A (role) & B (role): A (role): ..."), so pages split such a text into one
part per speaker and print each label once. The text itself is kept as the customer engine
wrote it: the split is presentation only. ``static/runs/workspace.js`` (``answerParts``) does the
same for the live chat and must be kept in step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A bracket group inside a role's own brackets: "(Energy Buyer (Finance))".
_INNER = re.compile(r"\s*\(([^()]*)\)(?=[^()]*\))")


@dataclass(frozen=True)
class Part:
    speaker: str
    text: str


def plain_label(label: str) -> str:
    """A speaker label without nested brackets: "Tobias Reinholz (Energy Buyer (Finance))"
    reads "Tobias Reinholz (Energy Buyer - Finance)", as the customer engine labels people."""
    previous = None
    while previous != label:
        previous, label = label, _INNER.sub(r" - \1", label)
    return label


def display_name(name: str, role: str) -> str:
    """ "Name (role)" for one speaker, never with nested brackets; "Customer" for nobody."""
    if name and role:
        return plain_label(f"{name} ({role})")
    return name or role or "Customer"


def answer_parts(stakeholder: str, text: str) -> list[Part]:
    """The answer as (speaker, text) parts: one part per labelled voice when several answered
    and the text is labelled as the engine labels it, else the whole text under its speaker."""
    whole = [Part(plain_label(stakeholder or "Customer"), text)]
    labels = stakeholder.split(" & ")
    if len(labels) < 2:
        return whole
    starts = re.compile(r"(?:^|\n\n)(" + "|".join(re.escape(x) for x in labels) + r"): ")
    found = list(starts.finditer(text))
    if not found or found[0].start() != 0:
        return whole
    ends = [m.start() for m in found[1:]] + [len(text)]
    return [
        Part(plain_label(m.group(1)), text[m.end() : end].strip())
        for m, end in zip(found, ends, strict=True)
    ]
