"""Failure classes from the fifth outside writer, pinned with questions of our own wording:
pasted code followed by a short verdict ask ("OK?"), and (from the seventeenth) the ask first
with the code after it ("My price selection, agreed?" then the block)."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.addressing import AddressBook
from customer_sim.scripted import ScriptedCustomer
from customer_sim.segments import is_code, pieces, segments

CASES = Path(__file__).resolve().parents[2] / "cases"


def disclosed(slug: str, question: str) -> list[str]:
    customer = ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden")
    return customer.reply(question).disclosed


def test_a_fenced_code_block_is_one_piece_of_context() -> None:
    message = (
        "Here is my filter:\n```\nok = df[df.x > 3]\nbad = df.y.isna() | (df.z == 'a?')\n```\nSane?"
    )
    cut = pieces(message)
    assert cut == [
        "Here is my filter:",
        "```\nok = df[df.x > 3]\nbad = df.y.isna() | (df.z == 'a?')\n```",
        "Sane?",
    ]
    assert is_code(cut[1]) and not is_code(cut[0])


def test_an_unclosed_code_block_runs_to_the_end_of_the_message() -> None:
    assert pieces("My loop:\n```\nfor s in stacks: print(s)") == [
        "My loop:",
        "```\nfor s in stacks: print(s)",
    ]


def test_a_name_inside_code_does_not_address_anyone() -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "warehouse-restack" / "hidden")
    parts = segments("```\ngary, marta = 1, 2\n```", AddressBook(customer.script.stakeholders))
    assert [p.addressed for p in parts] == [None]


@pytest.mark.parametrize(
    ("slug", "question", "fact"),
    [
        (
            "warehouse-restack",
            "This is how I flag them:\n```\nis_heavy = df['net_weight'] * 0.4536 >= 800\n```\n"
            "Look ok?",
            "heavy_gross_weight",
        ),
        (
            "warehouse-restack",
            "Per stack I do\n```\nclean = grp['sku'].nunique() == 1\n```\nand call the rest mixed. "
            "Sensible?",
            "batch_is_mixed",
        ),
        (
            "battery-dispatch",
            "```\ndf = load.merge(prices, left_on='interval_start', right_on='delivery_start')\n```"
            "\nIs that merge valid?",
            "prices_in_utc",
        ),
        # the ask first, the code after it
        (
            "warehouse-restack",
            "My heavy flag - sound?\n```\nheavy = df['net_weight'] * 0.4536 >= 800\n```",
            "heavy_gross_weight",
        ),
        (
            "battery-dispatch",
            "Bounds for the storage variable, fine?\n\n```\nsoc = Var(T, bounds=(0, 1000))\n```",
            "soc_warranty_window",
        ),
        (
            "battery-dispatch",
            "Here is how I join the tariff hours onto the meter clock:\n"
            "```\ndf = load.merge(prices, left_on='interval_start', right_on='delivery_start')\n```",
            "prices_in_utc",
        ),
    ],
)
def test_pasted_code_with_a_verdict_ask_is_read_as_the_question(
    slug: str, question: str, fact: str
) -> None:
    assert fact in disclosed(slug, question)


def test_code_after_a_question_of_its_own_is_not_its_subject() -> None:
    """Only an ask for a verdict (or a lead-in ending in a colon) asks about the code after it:
    "Who owns the export?" then code is a question about a person, not about the code."""
    question = "Who maintains the meter export?\n```\nsoc = Var(T, bounds=(0, 1000))\n```"
    assert "soc_warranty_window" not in disclosed("battery-dispatch", question)


def test_code_alone_asks_nothing() -> None:
    question = "For reference:\n```\nprint(df.groupby('sku').size())\n```\nThanks, that's all."
    assert disclosed("warehouse-restack", question) == []


@pytest.mark.parametrize(
    ("slug", "question", "fact"),
    [
        (
            "battery-dispatch",
            "If I store 300 kWh and later discharge all of it, how much comes back out?",
            "efficiency_round_trip",
        ),
        ("battery-dispatch", "Could the plant export power at night?", "no_export"),
        (
            "battery-dispatch",
            "If the EMS gets no schedule for the next day, what does it fall back to?",
            "end_soc_handover",
        ),
        (
            "battery-dispatch",
            "Charging hard at noon lifts our grid import to a new high. Does that cost anything "
            "beyond energy?",
            "demand_charge_increment",
        ),
        (
            "credit-default",
            "The average PD across my scored applicants is 0.31 - is that okay?",
            "calibration_rule",
        ),
        (
            "credit-default",
            "Can I min-max the model scores into 0 to 1 and hand those in as they are?",
            "calibration_rule",
        ),
        (
            "credit-default",
            "What if I replace the missing collections_balance values with zero?",
            "collections_after_default",
        ),
        (
            "warehouse-restack",
            "While digging I'd drop blockers in any lane that has space - is that OK?",
            "temperature_zones",
        ),
        (
            "warehouse-restack",
            "Could a pallet be slid in under the ones already on a stack?",
            "top_only",
        ),
    ],
)
def test_scenario_wordings_ask_for_the_rule(slug: str, question: str, fact: str) -> None:
    assert fact in disclosed(slug, question)


@pytest.mark.parametrize(
    ("slug", "question"),
    [
        ("battery-dispatch", "Do the container's air con and aux loads come out of the cells?"),
        ("credit-default", "Should I normalise the utilisation feature to 0-1 before fitting?"),
        ("credit-default", "Is the average bureau score around 650?"),
        ("battery-dispatch", "What unit is the 9.20 demand price quoted in?"),
        ("battery-dispatch", "Is the capacity price EUR per kW per year or per kW per month?"),
    ],
)
def test_lookalike_scenarios_do_not_answer_a_rule(slug: str, question: str) -> None:
    assert disclosed(slug, question) == []


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("Does weight act as a restriction on where a pallet is put?", "heavy_low_levels"),
        (
            "Some pallets weigh over 2,000. That's far heavier than I'd expect for a pallet.",
            "weight_in_pounds",
        ),
        ("I'll disregard the batch field when grouping stacks - is that fine?", "batch_is_mixed"),
        (
            "A stack left with three different batches of one item: is it finished?",
            "batch_is_mixed",
        ),
        ("To dig out a buried pallet, is one row in my list sufficient?", "top_only"),
    ],
)
def test_warehouse_scenarios_ask_for_the_rule(question: str, fact: str) -> None:
    assert fact in disclosed("warehouse-restack", question)


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        (
            "Does a max_tiers of 5 in the ambient lanes mean 5 pallets or tiers above the floor?",
            "cold_height_limit",
        ),
        ("Can both reach trucks run one step each at the same time?", "top_only"),
    ],
)
def test_warehouse_lookalikes_do_not_answer_the_rule(question: str, rule: str) -> None:
    assert rule not in disclosed("warehouse-restack", question)
