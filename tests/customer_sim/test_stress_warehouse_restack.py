"""warehouse-restack ask patterns against near misses like those of the writer-15 and writer-16
stress sets, pinned with questions of our own (never the probe sets' wording).

Each fix tightened a generic word of a pattern's aspect group: to "add" a column that flags heavy
pallets, weighing at "goods"-in, or a CHEP rental bill a move "affects" is not the pallet base
in the 800 kg limit; a truck that "gets to any position" of a lane is not a pallet taken from
any tier of a stack; a pallet "label" is not how the tier column counts; a net_weight that is
"suspiciously" round is not one that is too high (the unit), nor is a weighing "scale" a
scaling of the figures; chiller doors that "stay" shut, or a truck that "has to go" from one
chiller to another "via" the ambient side, are not chilled goods kept out of ambient lanes
(the chiller as a room is not chilled stock); a driver who "goes" between chillers is not how
high the drivers go; and a column to mark heavy pallets is not where heavy pallets are "put".
For each, two near misses must not disclose the rule and a rule question must still
disclose it."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("warehouse-restack", question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # "add" a column to the list is not adding the pallet base to the goods weight.
        (
            "Is it fine to add a comment field to the CSV highlighting the heavy loads?",
            "heavy_gross_weight",
        ),
        (
            "Could I put an extra column in the output that marks which pallets are heavy, so "
            "the drivers know?",
            "heavy_gross_weight",
        ),
        (
            "Could I put an extra column in the output that marks which pallets are heavy, so "
            "the drivers know?",
            "heavy_low_levels",
        ),
        # Weighing at goods-in is where the figure comes from, not goods-only weight.
        (
            "Where does the weight data come from - the supplier or your own goods receiving?",
            "heavy_gross_weight",
        ),
        (
            "Is net_weight measured on a scale at goods-in or copied from the delivery note?",
            "heavy_gross_weight",
        ),
        (
            "Is net_weight measured on a scale at goods-in or copied from the delivery note?",
            "weight_in_pounds",
        ),
        ("Is the weighing scale at goods-in calibrated, and who checks it?", "weight_in_pounds"),
        # A pallet type that "affects" something other than the heavy limit.
        (
            "Does using plastic pallets in the chillers affect the hygiene audits?",
            "heavy_gross_weight",
        ),
        (
            "Are CHEP pallets collected by the pool company, and does that affect when we can "
            "move them?",
            "heavy_gross_weight",
        ),
        # A lane position a truck can reach is not a tier of a stack.
        ("Can the reach truck get to any position in lane A05 from the main aisle?", "top_only"),
        (
            "Is every position in a lane reachable from the aisle, or only the front ones?",
            "top_only",
        ),
        # A pallet label, with the tier column named in passing.
        (
            "I've got the tier column open - unrelated, but what does the label on each pallet "
            "show, SKU or batch?",
            "tier_from_top",
        ),
        (
            "Besides the tier column, are pallet labels printed by the supplier or by you?",
            "tier_from_top",
        ),
        # An odd-looking weight that is not too high.
        (
            "Are there pallets whose net_weight looks strangely precise, with decimals?",
            "weight_in_pounds",
        ),
        ("Any pallets in the export with a weird net_weight like zero?", "weight_in_pounds"),
        # The chiller as a room: doors, routes between chillers, trucks driving through.
        (
            "Do the chiller doors have to be shut when a truck drives through to the ambient side?",
            "temperature_zones",
        ),
        (
            "Is the route from chiller 3 to the ambient lanes via the main aisle?",
            "temperature_zones",
        ),
        ("Do the chillers have to stay locked overnight during the restack?", "temperature_zones"),
        (
            "Does a driver have to go between chiller 1 and chiller 2 through the ambient area?",
            "temperature_zones",
        ),
        # A driver who goes between chillers is not how high the drivers go.
        (
            "Does a driver have to go between chiller 1 and chiller 2 through the ambient area?",
            "cold_height_floor_view",
        ),
    ],
)
def test_near_miss_does_not_disclose(question: str, fact: str) -> None:
    assert fact not in disclosed(question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        (
            "Do I need to add the pallet's own weight before checking the heavy limit?",
            "heavy_gross_weight",
        ),
        (
            "Is the heavy threshold checked on the goods alone or on goods plus pallet?",
            "heavy_gross_weight",
        ),
        ("Does the pallet type affect whether a pallet counts as heavy?", "heavy_gross_weight"),
        ("Can the driver take a pallet from any position in the stack?", "top_only"),
        ("Is tier 1 labelled as the top pallet or the bottom one?", "tier_from_top"),
        ("The weights seem suspiciously high for pallets - is that right?", "weight_in_pounds"),
        ("Is there a scaling issue with the net_weight figures?", "weight_in_pounds"),
        ("Could the weights in the export have been scaled wrong?", "weight_in_pounds"),
        ("Do chilled pallets have to stay in the chillers?", "temperature_zones"),
        ("Can chiller stock go via an ambient lane for a couple of moves?", "temperature_zones"),
        ("Can I park a yoghurt pallet in an ambient lane for one step?", "temperature_zones"),
        ("How high do the lads go in the chillers on nights?", "cold_height_floor_view"),
        ("Where can the heavy water pallets be put in a stack?", "heavy_low_levels"),
        ("Can heavy pallets go on top of a stack?", "heavy_low_levels"),
    ],
)
def test_rule_question_still_discloses(question: str, fact: str) -> None:
    assert fact in disclosed(question)
