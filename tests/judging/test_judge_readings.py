"""How the offline judge reads a unit where it must differ from the customer's one-fact choice.

The units here are written for these tests (not taken from any probe set); the targets are
small made-up rules so each test shows one mechanism.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from customer_sim.patterns import parse_pattern
from customer_sim.script import load_hidden_script
from judging.base import Target, Unit, targets_from_gt
from judging.offline import OfflineJudge
from judging.patterned import named_not_asked

# A made-up rule: forecasts are judged by the weekly MAPE. Its sibling (what the legacy model
# scored) is a veto, so "what did the legacy model score?" does not ask for the rule.
METRIC = Target(
    key="weekly_mape",
    requirement="Forecasts are judged by MAPE over weekly totals, not by daily RMSE.",
    triggers=("Which metric will the forecast be judged by?",),
    pattern=parse_pattern(
        {
            "asks": [["metric|score|judg*|evaluat*|measur*", "which|what|how"]],
            "unless": ["legacy|old model|incumbent"],
        }
    ),
)


def covers(target: Target, *texts: str) -> bool:
    units = [Unit(index=i, turn=1, text=text) for i, text in enumerate(texts, start=1)]
    return OfflineJudge().judge(target, units).covered


@pytest.mark.parametrize(
    "text",
    [
        "Which metric do you judge the forecast by, compared to the legacy model?",
        "Mine has a lower RMSE than the incumbent - but how will you measure it?",
        "lower RMSE vs the old model, higher bias - how is that judged?",
        "Is the score better than the legacy model's what decides, which metric?",
        "As the old model report says, accuracy is what you evaluate - which metric exactly?",
        "according to the legacy model notes RMSE - which metric do you judge by?",
        "Inputs: ['legacy_score', 'region', 'week']. Which metric will you measure it by?",
        "My config has `baseline: legacy` - how is the forecast evaluated?",
    ],
)
def test_what_a_unit_compares_with_does_not_veto_the_rule_it_asks_for(text: str) -> None:
    assert covers(METRIC, text)


@pytest.mark.parametrize(
    "text",
    [
        "What did the legacy model score last quarter?",
        "Which metric did the old model report?",
        "How was the incumbent evaluated in 2019?",
    ],
)
def test_a_sibling_the_unit_asks_about_still_vetoes(text: str) -> None:
    assert not covers(METRIC, text)


def test_the_compared_thing_is_cut_up_to_the_next_clause() -> None:
    assert "old model" not in named_not_asked("better than the old model, which metric?")
    assert "which metric" in named_not_asked("better than the old model, which metric?")
    assert named_not_asked("RMSE vs legacy - which metric counts?").split() == [
        "RMSE",
        "-",
        "which",
        "metric",
        "counts?",
    ]
    assert named_not_asked("Which metric counts?") == "Which metric counts?"


# A made-up rule with a designed misconception: the ops lead still believes the old cap, so
# the customer routes "how many do your crews actually load?" to her (a veto), but the
# question asks for the cap all the same.
CAP_GT = {
    "concepts": {"practice": "your crews|crew|actually load|in practice|usually"},
    "targets": [
        {
            "key": "van_cap",
            "requirement": "A van carries at most 40 parcels since the racking change (not 50).",
            "triggers": ["How many parcels can a van carry?"],
            "match": {
                "asks": [["van|vans", "how many|max|limit|cap|at most"]],
                "unless": ["@practice", "delivered|yesterday"],
            },
            "judge_ignores": ["@practice"],
        }
    ],
}


def test_a_question_routed_to_a_misconception_still_covers_the_rule() -> None:
    (target,) = targets_from_gt(CAP_GT)
    assert covers(target, "How many parcels do your crews actually load into a van?")
    assert covers(target, "what's the max per van in practice?")
    # a veto that is not listed still holds: a count of what happened asks nothing of the rule
    assert not covers(target, "How many parcels did each van carry yesterday?")


def test_the_customer_keeps_the_vetoes_the_judge_ignores(tmp_path: Path) -> None:
    customer = {
        "stakeholders": [{"id": "ops", "name": "Ops lead"}],
        "facts": [
            {"key": "van_cap", "stakeholder": "ops", "answer": "40.", "triggers": ["Van cap?"]}
        ],
    }
    gt = json.loads(json.dumps(CAP_GT))
    gt["targets"][0]["facts"] = ["van_cap"]
    (tmp_path / "customer.json").write_text(json.dumps(customer))
    (tmp_path / "gt.json").write_text(json.dumps(gt))
    (fact,) = load_hidden_script(tmp_path).facts
    assert fact.pattern is not None and len(fact.pattern.unless) == 2


@pytest.mark.parametrize(
    ("ignores", "message"),
    [
        (["@nonsense"], "not in match.unless"),
        ("@practice", "must be a list"),
    ],
)
def test_judge_ignores_must_name_vetoes_of_the_pattern(ignores: object, message: str) -> None:
    gt = json.loads(json.dumps(CAP_GT))
    gt["targets"][0]["judge_ignores"] = ignores
    with pytest.raises(ValueError, match=message):
        targets_from_gt(gt)


# A made-up rule about stacking in a cold room: asks name the room and the height.
COLD_CAP = Target(
    key="cold_room_cap",
    requirement="Cold-room stacks take at most four pallets.",
    triggers=("How high may I stack in the cold room?",),
    pattern=parse_pattern({"asks": [["cold room*|chiller*", "high|tall|tier*|stack*"]]}),
)


@pytest.mark.parametrize(
    "text",
    [
        "Are any chiller stacks five high right now?",
        "do any cold room stacks have a fifth tier in the current export",
        "How many chiller stacks are four high in stacks.csv?",
        "Is there any cold room stack taller than four at the moment?",
    ],
)
def test_asking_whether_data_exists_does_not_cover_the_rule(text: str) -> None:
    assert not covers(COLD_CAP, text)


@pytest.mark.parametrize(
    "text",
    [
        "Can the chiller stacks go five high right now?",
        "Are there any limits on how high chiller stacks may go?",
        "Some chiller stacks are five high in stacks.csv - is that allowed?",
        "Are any chiller stacks above the height limit right now?",
        "How high do the cold room stacks go?",
    ],
)
def test_a_rule_asked_about_the_data_still_covers(text: str) -> None:
    assert covers(COLD_CAP, text)


# A made-up rule about reaching pallets; its sibling (how high stacks may go) is a veto.
TOP_FIRST = Target(
    key="top_first",
    requirement="Only the top pallet can be lifted; reaching a lower one means moving the rest.",
    triggers=("Can I lift a pallet from the bottom of a stack?",),
    pattern=parse_pattern(
        {"asks": [["pallet*", "bottom|underneath|lower|middle"]], "unless": ["high|height"]}
    ),
)


def test_the_measure_a_thing_is_described_by_does_not_veto() -> None:
    assert covers(TOP_FIRST, "To reach the bottom pallet of a four-high stack, what do I do?")
    assert covers(TOP_FIRST, "the 5-high stack in B2: can the truck take its middle pallet?")
    # asked, not described: the sibling's aspect still vetoes
    assert not covers(TOP_FIRST, "How high may the stack over a bottom pallet go?")


@pytest.mark.parametrize(
    "text",
    [
        "Which tool computes the metric you judge by?",
        "How many metric values are in the export?",
    ],
)
def test_an_ask_the_customer_answers_with_background_covers_no_rule(text: str) -> None:
    from customer_sim import intent

    assert intent.background_only(text)  # the customer's reading, shared by the judge
    assert not covers(METRIC, text)
