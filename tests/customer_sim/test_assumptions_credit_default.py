"""credit-default ask patterns against assumption-shaped rule questions like those of the
writer-18 stress set, pinned with questions of our own (never the probe set's wording).

A player states a plan that breaks a hidden rule and asks for a confirmation. Each fix names the
kind of plan, not one question: a model's raw output (``decision_function``, margins) or a
min-max rescaled score sent as probabilities, and a level called "on the low side" or
"conservative", break the real-PD rule (calibration_rule); a file or sample whose mix or
default share is said to reflect the real book breaks the development-sample rule
(development_sample); a DTI computed from ``monthly_debt_payments`` and income as they stand
breaks the income basis (income_period); hard 0/1 labels in place of scores break how models
are judged (metric_auc_ks). For each, two assumptions must disclose the rule and two near
misses must not."""

from __future__ import annotations

import pytest

from tests.support.customers import disclosed as disclosed_by


def disclosed(question: str) -> list[str]:
    return disclosed_by("credit-default", question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # A raw model output or a min-max rescaled score sent as the probabilities.
        ("I'll send the output of decision_function as the PD column. Fine?", "calibration_rule"),
        (
            "My plan is to submit the SVM's raw margins as probabilities, that works for you?",
            "calibration_rule",
        ),
        (
            "p = (s - s.min()) / (s.max() - s.min()) gives me the probs. That's acceptable, right?",
            "calibration_rule",
        ),
        (
            "I rescale the scores with (x - x.min()) / (x.max() - x.min()) and call them PDs. OK?",
            "calibration_rule",
        ),
        # A level stated as on the low or high side, or "conservative".
        (
            "My PDs are a bit on the low side versus the observed rate, but that's conservative, "
            "fine?",
            "calibration_rule",
        ),
        (
            "Predicted probabilities on the high side are safer for the bank, so I'll leave them, "
            "ok?",
            "calibration_rule",
        ),
        # The file's mix or default share said to reflect the real book.
        (
            "The training data's class balance reflects the actual portfolio, so no reweighting "
            "needed, correct?",
            "development_sample",
        ),
        (
            "I take it the sample's default share is representative of the real book - right?",
            "development_sample",
        ),
        # DTI from monthly_debt_payments and income as they stand.
        (
            "Feature: monthly_debt_payments divided by income, same on train and test. Fine?",
            "income_period",
        ),
        (
            "I compute DTI as monthly_debt_payments over income for every row, right?",
            "income_period",
        ),
        # Hard 0/1 labels in place of scores.
        (
            "I'll submit hard class labels, 1 for default and 0 otherwise - OK?",
            "metric_auc_ks",
        ),
        (
            "I'm planning to send binary predictions (approve/decline) in the output file, fine?",
            "metric_auc_ks",
        ),
    ],
)
def test_assumption_discloses_the_rule_it_breaks(question: str, fact: str) -> None:
    assert fact in disclosed(question)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # A decision or a minimum and maximum that are not about the PDs' scale.
        ("What is the decision function of the credit committee?", "calibration_rule"),
        ("What are the min and max loan amounts in the test file?", "calibration_rule"),
        ("Is there a min or max term in months for unsecured loans?", "calibration_rule"),
        # "Conservative" or "high side" about something other than the PD level.
        ("Is a conservative default definition better for the bank?", "calibration_rule"),
        ("Is there a high side risk in the auto products?", "calibration_rule"),
        # A product mix is not the development sample's make-up.
        ("What's the product mix of the test file?", "development_sample"),
        ("Does the book's product mix change much over the year?", "development_sample"),
        # What monthly_debt_payments holds is not the income basis.
        ("Does monthly_debt_payments include mortgage payments?", "income_period"),
        ("Is monthly_debt_payments the total across all lenders?", "income_period"),
        # Class labels of the data are not the output format.
        ("Are the class labels in train.csv binary?", "metric_auc_ks"),
        ("Which class labels does the status column have?", "metric_auc_ks"),
    ],
)
def test_near_miss_does_not_disclose(question: str, fact: str) -> None:
    assert fact not in disclosed(question)
