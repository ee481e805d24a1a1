"""The editorial page: the author's write-up opens exactly when the targets do (issue 28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.tests.factories import make_run
from fdeplatform.leaderboards.tests.test_privacy import judged_run
from fdeplatform.runs.models import Exposure

pytestmark = pytest.mark.django_db
SECRET = "Editorial marker: the reference was built"
URL = "/cases/tiny-knapsack/editorial/"


def _page(client: Client, user: User | None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 200
    return response.content.decode()


def test_it_waits_for_the_counted_runs_and_says_so(
    client: Client, bob: User, knapsack: Case
) -> None:
    judged_run(knapsack, bob)  # one counted ranked run of three
    html = _page(client, bob)
    assert SECRET not in html and 'id="editorial-withheld"' in html
    assert "once you have ended 3 counted ranked runs" in html
    assert not Exposure.objects.filter(player=bob).exists()
    assert SECRET not in _page(Client(), None)


def test_it_opens_after_the_counted_runs_and_records_the_exposure(
    client: Client, bob: User, knapsack: Case
) -> None:
    for _ in range(3):
        judged_run(knapsack, bob)
    html = _page(client, bob)
    assert SECRET in html and html.count("<h1") == 1  # the file's title line is dropped
    assert Exposure.objects.filter(player=bob, kind=Exposure.TARGETS).exists()


def test_an_open_run_on_the_case_closes_it_again(client: Client, bob: User, knapsack: Case) -> None:
    for _ in range(3):
        judged_run(knapsack, bob)
    make_run(case=knapsack, player=bob, score=None, valid=None, status="open", mode="practice")
    assert SECRET not in _page(client, bob)


def test_a_tutorial_opens_it_after_one_ended_run_and_staff_always(
    client: Client, bob: User, charlie: User, knapsack: Case
) -> None:
    assert SECRET in _page(Client(), charlie)
    Case.objects.filter(pk=knapsack.pk).update(tutorial=True)
    assert "once you have ended a run on it" in _page(client, bob)
    judged_run(knapsack, bob, mode="practice", standing="practice")
    assert SECRET in _page(client, bob)


def test_a_case_without_an_editorial_has_no_page(client: Client, charlie: User) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case

    make_case("plain")
    client.force_login(charlie)
    assert client.get("/cases/plain/editorial/").status_code == 404


def test_the_report_and_the_case_board_link_it_only_when_it_is_open(
    client: Client, bob: User, knapsack: Case
) -> None:
    runs = [judged_run(knapsack, bob) for _ in range(2)]
    client.force_login(bob)
    assert 'id="editorial-link"' not in client.get(f"/runs/{runs[0].pk}/report/").content.decode()
    judged_run(knapsack, bob)
    assert 'id="editorial-link"' in client.get(f"/runs/{runs[0].pk}/report/").content.decode()
    board = client.get(f"/leaderboard/case/{knapsack.slug}/").content.decode()
    assert f'href="{URL}"' in board
