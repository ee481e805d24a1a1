"""credit-default's ask patterns on near misses like the stress sets' (writers 15 and 16), pinned
with questions of our own: generic aspect words ("keep", "use", "later", "each applicant",
"population", "recoveries") no longer carry a rule on their own, while asks that name the
rule's aspect in the rule's own words still disclose it."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("credit-default", question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # "keep" is not keeping a column in the model.
        (
            "Do you keep the collections letters on file for seven years?",
            "collections_after_default",
        ),
        (
            "Does the collections unit keep track of recoveries by month?",
            "collections_after_default",
        ),
        # The collections team using the PDs, or something happening later, is not the field.
        (
            "Would the collections people use my model to decide whom to phone first?",
            "collections_after_default",
        ),
        ("Is the collections queue later sorted by the PDs I send?", "collections_after_default"),
        (
            "Will recoveries later be used to set the loss given default?",
            "collections_after_default",
        ),
        # "each applicant" is per row, not which applicants are in scope.
        ("Is there a cap on the PD I may give each applicant?", "secured_out_of_scope"),
        (
            "Does each applicant appear once in test.csv, or are there repeat applications?",
            "secured_out_of_scope",
        ),
        # "population" in population drift or stability is not how the sample was drawn.
        ("Is the training period long enough to show population drift?", "development_sample"),
        ("Did the training population skew older than the 2024 applicants?", "development_sample"),
    ],
)
def test_near_miss_does_not_disclose(question: str, fact: str) -> None:
    assert fact not in disclosed(question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("Should I keep collections_balance?", "collections_after_default"),
        ("Can I use collections_balance?", "collections_after_default"),
        (
            "Does collections_balance only get a value later, after the account goes bad?",
            "collections_after_default",
        ),
        (
            "Should every applicant in test.csv get a probability, or only some?",
            "secured_out_of_scope",
        ),
        (
            "Does the training data mirror the population of applicants you actually see?",
            "development_sample",
        ),
    ],
)
def test_rule_question_still_discloses(question: str, fact: str) -> None:
    assert fact in disclosed(question)
