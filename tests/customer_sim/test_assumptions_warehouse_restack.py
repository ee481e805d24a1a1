"""warehouse-restack ask patterns against assumption-shaped rule questions like those of the
writer-18 stress set, pinned with questions of our own (never the probe set's wording).

A player states a plan that breaks a hidden rule and asks for a confirmation. Each fix names the
kind of plan, not one question: a cap or budget on the moves with as many stacks cleaned as fit
breaks "fewest mixed stacks first" (mixed_first); any pallet taken out "in one step" from
wherever it sits breaks top-only access (top_only); a placement check that ignores or says
"nothing about" weight breaks the heavy-pallet level rule (heavy_low_levels). For each, two
assumptions must disclose the rule and two near misses must not."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("warehouse-restack", question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # A cap or budget on the moves, cleaning as many stacks as fit: moves ranked first.
        (
            "My solver has a budget of 300 moves and cleans as many stacks as it can. Fine?",
            "mixed_first",
        ),
        (
            "I'll limit the list to 100 moves and tidy as many positions as that allows, "
            "sound right?",
            "mixed_first",
        ),
        # Any pallet out of a stack in one step: only the top pallet can be taken.
        (
            "I model each move as pulling any pallet out of a stack in a single step, wherever "
            "it sits. OK?",
            "top_only",
        ),
        (
            "My code lifts the bottom pallet out in one step if that's the one I need. Fine?",
            "top_only",
        ),
        # A placement check that leaves weight out: heavy pallets stay on levels 1 and 2.
        ("I'm ignoring weight when choosing where to put pallets, right?", "heavy_low_levels"),
        (
            "The placement logic skips weight entirely - that's fine, isn't it?",
            "heavy_low_levels",
        ),
    ],
)
def test_assumption_discloses_the_rule_it_breaks(question: str, fact: str) -> None:
    assert fact in disclosed(question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # How many moves fit in the window is the restack window, not the scoring.
        ("Is there a cap on how many moves fit in the shift?", "mixed_first"),
        ("Can the trucks do at most 100 moves per night?", "mixed_first"),
        # A step of the list is not a pallet taken from inside a stack.
        ("Is one step per pallet enough for the driver to scan it?", "top_only"),
        ("Does each line of the list count as one step for the drivers?", "top_only"),
        # Leaving the weight column out of a file or a grouping is not a placement rule.
        ("Can I skip the weight column in my output CSV?", "heavy_low_levels"),
        ("Should I ignore the weight column when I group pallets by SKU?", "heavy_low_levels"),
    ],
)
def test_near_miss_does_not_disclose(question: str, fact: str) -> None:
    assert fact not in disclosed(question)
