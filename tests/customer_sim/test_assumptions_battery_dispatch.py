"""Assumption-shaped rule questions on battery-dispatch: a player states a plan, formula or
reading of the data that breaks a hidden rule and asks for a confirmation. Each must disclose
the rule it breaks; the near misses beside them name the same subject without the rule's aspect
and must not."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("battery-dispatch", question)


ASSUMPTIONS = [
    # SoC window: the subject, a bound and a stated value
    (
        "I'll run the SoC between 2 % and 98 % of capacity. That's fine, isn't it?",
        "soc_warranty_window",
    ),
    (
        "My plan keeps the state of charge above 50 kWh and below 950 kWh all day. OK?",
        "soc_warranty_window",
    ),
    # efficiency: a SoC update in a model, asked for a verdict
    (
        "My SoC update multiplies the charging power by 0.9 and divides discharge by 0.9, right?",
        "efficiency_round_trip",
    ),
    (
        "The state of charge update in my optimiser: soc + 0.25*0.9*charge. Agreed?",
        "efficiency_round_trip",
    ),
    # efficiency: a factor applied to an energy in and to the energy back out
    (
        "Putting 500 kWh in from the grid at 0.9 leaves 450, and discharging gives 405 kWh back out - correct?",
        "efficiency_round_trip",
    ),
    (
        "With 0.9 efficiency I charge 400 kWh and get 360 kWh out when discharging. Right?",
        "efficiency_round_trip",
    ),
    # demand charge: a stated objective asked for a verdict
    (
        "My objective is just the energy cost at spot plus the adder. Agreed?",
        "demand_charge_increment",
    ),
    ("Objective = sum of import times price. Sound ok?", "demand_charge_increment"),
    # end of day: a terminal condition
    ("I've set no terminal constraint at all - ok?", "end_soc_handover"),
    ("Terminal SoC left free, the optimiser decides. Fine?", "end_soc_handover"),
    # price timestamps: clock hours read off the price file for a plan
    ("Priciest hour is 19:00 at 255 EUR/MWh, so I'll discharge then, ok?", "prices_in_utc"),
    (
        "Cheapest prices are 12:00 to 14:00 in the file, so my charging window is there. Right?",
        "prices_in_utc",
    ),
]

NEAR_MISSES = [
    ("What's the SoC right now, in percent and kWh?", "soc_warranty_window"),
    ("Does the BMS log the SoC in percent or in kWh?", "soc_warranty_window"),
    ("Does the EMS update the SoC reading every quarter-hour, right?", "efficiency_round_trip"),
    (
        "Does the 0.9 efficiency drop when charging 500 kWh in the heat and discharging later?",
        "efficiency_round_trip",
    ),
    ("Does the objective solve fast enough with HiGHS, right?", "demand_charge_increment"),
    ("What solver do you use for your objective?", "demand_charge_increment"),
    ("Which terminal do I upload the schedule from?", "end_soc_handover"),
    ("Is the terminal in the schedule file the last row?", "end_soc_handover"),
    (
        "If I charge in the cheapest hour at 13:00 and the price is negative, do we get paid?",
        "prices_in_utc",
    ),
    ("Does the adder apply to the most expensive hour at 19:00 too?", "prices_in_utc"),
]


@pytest.mark.parametrize(("question", "key"), ASSUMPTIONS)
def test_assumption_discloses_the_rule_it_breaks(question: str, key: str) -> None:
    assert key in disclosed(question)


@pytest.mark.parametrize(("question", "key"), NEAR_MISSES)
def test_near_miss_does_not_disclose_the_rule(question: str, key: str) -> None:
    assert key not in disclosed(question)
