"""Where a run stands among the counted runs on its case (issue 28), and the case list's
difficulty once a case has enough of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fdeplatform.leaderboards.tests.factories import make_case, make_run, user
from fdeplatform.leaderboards.where_you_stand import where_you_stand

pytestmark = pytest.mark.django_db


def _field(scores: list[float], case: Any) -> None:
    for index, score in enumerate(scores):
        make_run(case=case, player=user(f"p{index}"), score=score, valid=score > 0)


def test_a_ranked_run_is_placed_among_the_other_counted_runs() -> None:
    case = make_case("alpha")
    _field([0.2, 0.4, 0.6, 0.8, 1.0, 1.0, 0.0], case)
    make_run(case=case, player=user("p9"), score=0.9, valid=True, mode="practice")  # not counted
    mine = make_run(case=case, player=user("dana"), score=0.8, valid=True)
    position = where_you_stand(mine, shown_score=0.8)
    assert position is not None
    assert (position.runs, position.below, position.reached) == (7, 4, 2)
    assert position.better_than == pytest.approx(4 / 7) and position.median == 0.6
    assert not position.at_least


def test_nothing_is_said_on_too_few_runs_or_without_a_shown_score() -> None:
    case = make_case("alpha")
    _field([0.2, 0.4, 0.6, 0.8], case)
    mine = make_run(case=case, player=user("dana"), score=0.8, valid=True)
    assert where_you_stand(mine, shown_score=0.8) is None  # four others: too few
    make_run(case=case, player=user("p8"), score=0.1, valid=True)
    assert where_you_stand(mine, shown_score=None) is None  # a ranked score still hidden
    assert where_you_stand(mine, shown_score=0.8) is not None


def test_a_practice_run_compares_the_bottom_of_its_band_never_its_exact_score() -> None:
    case = make_case("alpha")
    _field([0.81, 0.82, 0.84, 0.86, 0.5], case)
    practice = make_run(case=case, player=user("dana"), score=0.87, valid=True, mode="practice")
    position = where_you_stand(practice, shown_score=None)
    assert position is not None and position.at_least
    assert position.below == 1  # only 0.5 is below 0.8, the band's bottom; 0.87 would say 5


def test_the_report_says_where_you_stand(client: Client) -> None:
    case = make_case("alpha")
    _field([0.2, 0.4, 0.6, 0.8, 1.0], case)
    dana = user("dana")
    mine = make_run(case=case, player=dana, score=0.9, valid=True)
    client.force_login(dana)
    html = client.get(f"/runs/{mine.pk}/report/").content.decode()
    standing = html[html.index('id="report-standing"') :]
    assert "Where you stand" in standing and "Better than <strong>80%</strong>" in standing
    assert "of the 5 counted ranked runs on this case" in standing


def test_the_case_list_rates_a_case_once_it_has_enough_runs(client: Client) -> None:
    case = make_case("alpha")
    _field([1.0, 0.3, 0.3, 0.3], case)
    row = _row(client.get("/cases/").content.decode(), "alpha")
    assert ">unrated<" in row
    _field([1.0, 1.0, 0.3, 0.3, 0.3], make_case("beta"))
    make_run(case=case, player=user("late"), score=0.3, valid=True)
    html = client.get("/cases/").content.decode()
    assert ">medium<" in _row(html, "alpha")  # 1 of 5 reached the reference
    assert ">easy<" not in _row(html, "alpha") and ">medium<" in _row(html, "beta")


def _row(html: str, slug: str) -> str:
    start = html.index(f'data-case="{slug}"')
    return html[start : html.index("</tr>", start)]
