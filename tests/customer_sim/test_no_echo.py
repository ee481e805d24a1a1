"""Every reply the conversation sets get, scanned for echoes: a non-answer may quote the player's
words as its subject only when they are nouns the case knows (``customer_sim.vocabulary``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from customer_sim import compose
from customer_sim import conversation_sets as sets
from customer_sim.scripted import ScriptedCustomer
from customer_sim.text import stem

CASES = Path(__file__).resolve().parents[2] / "cases"
WITH_SETS = sorted(p.name for p in CASES.iterdir() if sets.conversation_files(p / "hidden"))


def _subject_patterns() -> list[re.Pattern[str]]:
    templates = [
        t
        for name in dir(compose)
        if name.startswith("_")
        and name.lstrip("_").isupper()
        and isinstance(getattr(compose, name), tuple)
        for t in getattr(compose, name)
        if isinstance(t, str) and "ubject}" in t
    ]
    patterns = []
    for template in templates:
        escaped = re.escape(template)
        escaped = re.sub(r"\\\{[sS]ubject\\\}", r"(?P<s>[^.?!:;]+?)", escaped, count=1)
        escaped = re.sub(r"\\\{[sS]ubject\\\}", r"(?P=s)", escaped)
        escaped = re.sub(r"\\\{\w+\\\}", r".+?", escaped)
        patterns.append(re.compile(escaped, re.IGNORECASE))
    return patterns


def test_the_scan_knows_the_subject_templates() -> None:
    assert len(_subject_patterns()) >= 10


@pytest.mark.parametrize("slug", WITH_SETS)
def test_no_reply_quotes_an_unknown_fragment_as_its_subject(slug: str) -> None:
    hidden = CASES / slug / "hidden"
    known = ScriptedCustomer.from_hidden_dir(hidden).case.vocabulary
    patterns = _subject_patterns()
    echoes = []
    for played in sets.played_all(hidden):
        for pattern in patterns:
            for match in pattern.finditer(played.reply.text):
                words = re.findall(r"[A-Za-z][A-Za-z0-9_']*", match.group("s"))
                unknown = [w for w in words if stem(w.lower().split("'")[0]) not in known]
                if unknown:
                    echoes.append((played.text, match.group(0)))
    assert not echoes, echoes[:5]
