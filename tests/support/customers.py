"""The bundled cases' scripted customers for pattern tests: built once per test process (the
pattern tests ask them hundreds of questions) and found from the repository root, whatever the
working directory."""

from __future__ import annotations

from functools import cache

from customer_sim.scripted import ScriptedCustomer
from tests.support.processes import ROOT


@cache
def customer(slug: str) -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(ROOT / "cases" / slug / "hidden")


def disclosed(slug: str, question: str) -> list[str]:
    """The fact keys a bundled case's customer discloses to ``question`` as a first message."""
    return customer(slug).reply(question).disclosed
