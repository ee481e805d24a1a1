"""The answer audit: a seeded, stratified sample of real answers, labelled and summarised."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.authoring.answer_audit import audit_sample, audit_summary, label_answer
from fdeplatform.authoring.models import AnswerLabel
from fdeplatform.cases.models import Case
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.services import run_ask, run_start

pytestmark = pytest.mark.django_db

QUESTIONS = [
    "How much can the van carry?",
    "Are hazmat lines allowed?",
    "What does earn mean here?",
    "Is weight per unit or per line?",
    "Is there a fee per line?",
]


@pytest.fixture
def answered(knapsack: Case, alice: User, bob: User) -> Any:
    for player in (alice, bob):
        run = run_start(
            player=player, case_slug=knapsack.slug, condition="interact_req", mode="practice"
        )
        for text in QUESTIONS:
            run_ask(run_id=run.id, player=player, text=text)
        run_close(run_id=run.id, player=player)
    return knapsack.current_version


def test_the_sample_is_seeded_and_covers_every_stakeholder(answered: Any) -> None:
    first = audit_sample(answered, size=6, seed=3)
    assert [e.pk for e in first] == [e.pk for e in audit_sample(answered, size=6, seed=3)]
    assert len(first) == 6
    speakers = {e.stakeholder_id for e in first}
    all_speakers = {e.stakeholder_id for e in audit_sample(answered, size=100, seed=3)}
    assert speakers == all_speakers  # every stakeholder who answered is in the sample
    assert [e.pk for e in audit_sample(answered, size=6, seed=4)] != [e.pk for e in first] or len(
        all_speakers
    ) == 1


def test_labels_are_kept_per_reviewer_and_summarised(answered: Any, charlie: User) -> None:
    sample = audit_sample(answered, size=3)
    label_answer(exchange=sample[0], reviewer=charlie, verdict="supported")
    label_answer(exchange=sample[1], reviewer=charlie, verdict="contradicts", note="turn 2 said 15")
    label_answer(exchange=sample[1], reviewer=charlie, verdict="unsupported")  # changes their mind
    summary = audit_summary(answered)
    assert summary.labelled == 2
    assert summary.counts == {"supported": 1, "unsupported": 1}
    with pytest.raises(ValueError, match="verdict must be one of"):
        label_answer(exchange=sample[2], reviewer=charlie, verdict="great")


def test_staff_label_through_the_page_and_players_cannot_reach_it(
    answered: Any, charlie: User, alice: User
) -> None:
    staff = Client()
    staff.force_login(charlie)
    url = f"/staff/cases/versions/{answered.pk}/answers/"
    page = staff.get(url)
    assert page.status_code == 200 and "Answer audit" in page.content.decode()
    exchange = audit_sample(answered)[0]
    staff.post(f"{url}?seed=1", {"exchange": exchange.pk, "verdict": "supported"})
    assert AnswerLabel.objects.get(exchange=exchange, reviewer=charlie).verdict == "supported"
    assert "your label: supported" in staff.get(url).content.decode()

    player = Client()
    player.force_login(alice)
    assert player.get(url).status_code in (403, 404)
    assert player.post(url, {"exchange": exchange.pk, "verdict": "unsupported"}).status_code in (
        403,
        404,
    )
    assert AnswerLabel.objects.filter(reviewer=alice).count() == 0
