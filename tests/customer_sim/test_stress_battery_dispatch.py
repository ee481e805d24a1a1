"""battery-dispatch ask patterns against near misses like those of the writer-15 stress set,
pinned with questions of our own (never the probe set's wording).

Each fix tightened a generic word of a pattern's aspect group: a demand charge's "part",
"saving", "higher" or "lower" is not how the charge counts in one day's bill; a "zone" is not a
time zone, prices that "belong" to a bidding zone, "lag" a market or are "in sync" with an
invoice are not stamped in another clock; a battery "under" a site's policy does not discharge
below the site's load; and the state of charge when the 16th *starts* at midnight is the start
level, not the handover level at the end of the day. For each, two near misses must not disclose
the rule and a rule question must still disclose it."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("battery-dispatch", question)


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        # A demand charge's "part" of an invoice or contract.
        (
            "Is the demand charge a separate part of the contract with the supplier?",
            "demand_charge_increment",
        ),
        (
            "Does the demand charge show as a separate part of the invoice?",
            "demand_charge_increment",
        ),
        # Who books the savings on demand charges.
        (
            "Which department books the savings from lower demand charges?",
            "demand_charge_increment",
        ),
        (
            "The finance team wants to track the savings on demand charges in a cost centre "
            "report.",
            "demand_charge_increment",
        ),
        # Demand charges compared across years or sites.
        ("Were demand charges higher last year than this year?", "demand_charge_increment"),
        ("Are demand charges lower for other sites of the company?", "demand_charge_increment"),
        # A bidding zone, a market lag, an invoice in sync: not the price file's clock.
        (
            "Are the day-ahead prices for the DE-LU zone or the Austrian zone?",
            "prices_in_utc",
        ),
        ("Which bidding zone do the day-ahead prices belong to?", "prices_in_utc"),
        ("Do the day-ahead prices lag behind the intraday market?", "prices_in_utc"),
        ("Is the price file in sync with the supplier's invoice?", "prices_in_utc"),
        # The battery "under" the site's insurance, contract or permit.
        ("Is the battery covered under the site's fire insurance?", "no_export"),
        (
            "Does the battery sit under the same maintenance contract as the site's chillers?",
            "no_export",
        ),
        ("Is the site only allowed one battery under the building permit?", "no_export"),
        # Midnight when the 16th begins is the start of the day, not the handover.
        (
            "How full is the battery going to be when Wednesday begins at midnight?",
            "end_soc_handover",
        ),
        (
            "At the beginning of the 16th, at midnight, what SoC does the battery have?",
            "end_soc_handover",
        ),
    ],
)
def test_near_miss_does_not_disclose(question: str, rule: str) -> None:
    assert rule not in disclosed(question)


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        (
            "Which part of the monthly demand charge should tomorrow carry?",
            "demand_charge_increment",
        ),
        (
            "Does discharging in the morning save anything on demand charges?",
            "demand_charge_increment",
        ),
        ("Would lowering the import peak lower the demand charge?", "demand_charge_increment"),
        ("Are the prices in the same zone as the load data?", "prices_in_utc"),
        ("Which day does the 22:00 price row belong to?", "prices_in_utc"),
        ("Do the hourly prices lag the local quarter-hours by two hours?", "prices_in_utc"),
        (
            "Can the battery run at full power when the site load is lower than that?",
            "no_export",
        ),
        (
            "What state of charge must the battery have at midnight when the 16th ends?",
            "end_soc_handover",
        ),
    ],
)
def test_rule_question_discloses(question: str, rule: str) -> None:
    assert rule in disclosed(question)
