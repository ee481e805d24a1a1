"""The tutorial case: listed first, practice only, never on a leaderboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.cases.selectors import board_cases, published_cases
from fdeplatform.cases.services import case_import
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db
TUTORIAL = Path(__file__).resolve().parents[3] / "cases" / "tutorial-bake-sale"


@pytest.fixture
def tutorial(knapsack: Case) -> Case:
    return case_import(source=TUTORIAL, check_anchors=False).version.case


def test_the_tutorial_is_flagged_listed_first_and_kept_off_boards(tutorial: Case) -> None:
    assert tutorial.tutorial
    assert published_cases().first() == tutorial
    assert tutorial not in board_cases() and board_cases().filter(slug="tiny-knapsack").exists()


def test_the_tutorial_takes_practice_runs_only(tutorial: Case, alice: User) -> None:
    with pytest.raises(RunError) as refused:
        run_start(player=alice, case_slug=tutorial.slug, condition="interact_req", mode="ranked")
    assert refused.value.code == "tutorial_practice_only"
    run = run_start(
        player=alice, case_slug=tutorial.slug, condition="interact_req", mode="practice"
    )
    assert run.mode == "practice"


def test_the_case_page_says_so_and_offers_no_ranked_run(
    client: Client, tutorial: Case, alice: User
) -> None:
    client.force_login(alice)
    html = client.get(f"/cases/{tutorial.slug}/").content.decode()
    assert 'id="tutorial-note"' in html and 'value="ranked"' not in html
    assert 'value="ranked"' in client.get("/cases/tiny-knapsack/").content.decode()


def test_the_tutorial_offers_interact_req_only(client: Client, tutorial: Case, alice: User) -> None:
    client.force_login(alice)
    html = client.get(f"/cases/{tutorial.slug}/").content.decode()
    assert html.count('name="condition"') == 1
    assert 'name="condition" id="start-condition" value="interact_req"' in html
    assert "Oracle" not in html and "oracle_" not in html and "gym_l" not in html


def test_other_cases_keep_the_research_conditions_under_advanced(
    client: Client, knapsack: Case, alice: User
) -> None:
    client.force_login(alice)
    html = client.get("/cases/tiny-knapsack/").content.decode()
    main, advanced = html.split('id="start-advanced"')
    assert 'value="interact_req" id="cond-interact_req" checked' in main
    assert "oracle_" not in main and 'value="hidden"' not in main
    for value in ("interact", "hidden", "full", "oracle_0", "oracle_100", "gym_l0"):
        assert f'value="{value}"' in advanced, value
