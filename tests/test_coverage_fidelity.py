"""End to end: the coverage a run's report credits matches what the customer disclosed.

A run on a bundled case asks questions of this test's own wording (not from any probe set or
the customer script): rule questions, a near miss, a message for two people, small talk. After
the run is closed and judged, each target the report credits must be one the customer actually
disclosed, in the turn the report names, and each disclosed target must be credited. One run
once credited an efficiency question with the warranty rule, inflating KQC1; this pins that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.services import case_import
from fdeplatform.core.background import drain
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.models import Run
from fdeplatform.runs.services import run_ask, run_start
from fdeplatform.scoring.models import RunCoverage

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CASE = Path(__file__).resolve().parents[1] / "cases" / "battery-dispatch"
QUESTIONS = [
    "Hi Maren, what level should the battery be left at by the end of tomorrow?",
    "Which column of the meter history file is the site's consumption?",
    "Is the datasheet's efficiency for one direction, or for charging and discharging together?",
    "@Tobias what time zone are the price file's timestamps in? And Maren, may the battery "
    "push power back into the grid?",
    "How has your week been so far?",
]


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def _fact_targets() -> dict[str, set[str]]:
    gt = json.loads((CASE / "hidden" / "gt.json").read_text())
    targets: dict[str, set[str]] = {}
    for target in gt["targets"]:
        for fact in target["facts"]:
            targets.setdefault(fact, set()).add(target["key"])
    return targets


def test_the_report_credits_exactly_what_the_customer_disclosed(
    client: Client, alice: User
) -> None:
    case_import(source=CASE, check_anchors=False)
    run = run_start(
        player=alice, case_slug="battery-dispatch", condition="interact_req", mode="practice"
    )
    for question in QUESTIONS:
        run_ask(run_id=run.pk, player=alice, text=question)
    run_close(run_id=run.pk, player=alice)
    drain()

    fact_targets = _fact_targets()
    disclosed_first: dict[str, int] = {}
    for exchange in Run.objects.get(pk=run.pk).exchanges.order_by("turn"):
        for fact in exchange.disclosed:
            for target in fact_targets.get(fact, ()):
                disclosed_first.setdefault(target, exchange.turn)
    coverage = RunCoverage.objects.get(run=run)
    assert coverage.status == "done"
    credited = {i.target: i.first_turn for i in coverage.items.filter(covered=True)}

    # The positive control: these questions do reach rules (turns 1, 3 and both parts of 4).
    assert set(disclosed_first) >= {"end_soc_handover", "efficiency_round_trip", "no_export"}
    assert credited == disclosed_first
    assert coverage.kqc1 == pytest.approx(
        sum(turn == 1 for turn in credited.values()) / coverage.targets
    )
    client.force_login(alice)
    html = client.post(f"/runs/{run.pk}/report/", {"reveal": "targets"}).content.decode()
    for target, turn in credited.items():
        section = html[html.index(f'data-target="{target}"') :]
        assert f"You asked about it first in turn {turn}:" in section[: section.index("</article>")]
