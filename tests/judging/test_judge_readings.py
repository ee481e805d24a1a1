"""How the offline judge reads a unit where it must differ from the customer's one-fact choice.

The units here are written for these tests (not taken from any probe set); the targets are
small made-up rules so each test shows one mechanism.
"""

from __future__ import annotations

import pytest

from customer_sim.patterns import parse_pattern
from judging.base import Target, Unit
from judging.offline import OfflineJudge
from judging.patterned import compared_with

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
    assert "old model" not in compared_with("better than the old model, which metric?")
    assert "which metric" in compared_with("better than the old model, which metric?")
    assert compared_with("RMSE vs legacy - which metric counts?").split() == [
        "RMSE",
        "-",
        "which",
        "metric",
        "counts?",
    ]
    assert compared_with("Which metric counts?") == "Which metric counts?"
