"""The reply is one pass through the stages of ``customer_sim.stages``, in the order its
docstring lists them, each made from the one before and none importing a later one."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import customer_sim.stages as stages
from customer_sim.scripted import ScriptedCustomer, Walk

STAGES_DIR = Path(stages.__file__).parent
# Modules that belong to a stage without being one (the case every stage reads, and the
# per-ask half of the decision).
PART_OF = {"case": "dialogue", "voices": "decision"}


def test_a_greeting_and_a_question_pass_every_stage_in_the_documented_order(
    customer: ScriptedCustomer,
) -> None:
    documented = re.findall(r"^\d\. ``(\w+)``", stages.__doc__ or "", re.MULTILINE)
    assert documented == list(stages.STAGES)
    assert [field.name for field in fields(Walk)] == list(stages.STAGES)

    walk = customer.walk("Hi! How many crates fit in the van?")

    assert walk.asks.heard is walk.dialogue
    assert walk.readings.asks is walk.asks
    assert walk.candidates.readings is walk.readings
    assert walk.decision.candidates is walk.candidates
    assert walk.dialogue.acts.courtesies == ("greeting", None)  # the greeting is not matched
    assert [read.segment.text for read in walk.readings.read] == ["How many crates fit in the van?"]
    assert walk.decision.kind == "answer"
    assert walk.wording.disclosed == ["van_capacity"]
    assert walk.wording == customer.reply("Hi! How many crates fit in the van?")


def test_no_stage_imports_a_later_stage() -> None:
    order = {name: i for i, name in enumerate(stages.STAGES)}
    for path in STAGES_DIR.glob("*.py"):
        if path.stem == "__init__":
            continue
        own = order[PART_OF.get(path.stem, path.stem)]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "customer_sim.stages."
            ):
                imported = node.module.rsplit(".", 1)[1]
                assert order[PART_OF.get(imported, imported)] <= own, (path.name, imported)
