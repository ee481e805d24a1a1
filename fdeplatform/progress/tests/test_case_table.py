"""The cases list as a problem site: difficulty and solve rate from counted ranked runs, the
number of targets (never their keys), and the signed-in player's best score and solved mark."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fdeplatform.cases.models import CaseVersion
from fdeplatform.leaderboards.tests.factories import make_case, make_run, user
from fdeplatform.progress.cases import case_lines

pytestmark = pytest.mark.django_db


def _case(slug: str, targets: int = 4) -> Any:
    case = make_case(slug)
    CaseVersion.objects.filter(pk=case.current_version_id).update(target_count=targets)
    return case


def _runs(case: Any, scores: list[float], **extra: Any) -> None:
    for index, score in enumerate(scores):
        player = user(f"p{index}-{case.slug}")
        make_run(case=case, player=player, score=score, valid=score > 0, **extra)


def _line(slug: str, viewer: Any) -> Any:
    return next(line for line in case_lines(viewer) if line.case.slug == slug)


def test_solve_rate_counts_counted_ended_ranked_runs_on_the_current_version() -> None:
    from django.contrib.auth.models import AnonymousUser

    case = _case("alpha")
    _runs(case, [1.0, 1.0, 0.5, 0.0, 0.9, 1.2])
    # None of these count: practice, open, informed, extra.
    _runs(case, [1.0], mode="practice")
    _runs(case, [1.0], status="open")
    _runs(case, [1.0, 1.0], standing="informed")
    _runs(case, [1.0], standing="extra")
    line = _line("alpha", AnonymousUser())
    assert (line.runs, line.reached) == (6, 3)
    assert line.solve_rate == 0.5 and line.difficulty == "easy"
    assert line.targets == 4 and line.best is None and line.solved is None


def test_difficulty_needs_enough_runs_and_follows_the_solve_rate() -> None:
    from django.contrib.auth.models import AnonymousUser

    few, medium, hard = _case("few"), _case("medium"), _case("hard")
    _runs(few, [0.0, 0.0, 0.0, 0.0])
    _runs(medium, [1.0, 0.3, 0.3, 0.3, 0.3])
    _runs(hard, [1.0, 0.3, 0.3, 0.3, 0.3, 0.3])
    viewer = AnonymousUser()
    assert _line("few", viewer).difficulty == "unrated"
    assert _line("medium", viewer).difficulty == "medium"  # 1 of 5 = 20 %
    assert _line("hard", viewer).difficulty == "hard"  # 1 of 6


def test_a_new_case_version_starts_a_fresh_solve_rate() -> None:
    from django.contrib.auth.models import AnonymousUser

    case = _case("alpha")
    _runs(case, [1.0, 1.0])
    newer = CaseVersion.objects.create(
        case=case, version="2.0.0", digest="digest-alpha-2", storage_dir="missing/alpha2"
    )
    case.current_version = newer
    case.save(update_fields=["current_version"])
    assert _line("alpha", AnonymousUser()).runs == 0


def test_the_player_sees_their_best_ranked_score_and_solved_mark(client: Client) -> None:
    alpha, beta = _case("alpha"), _case("beta")
    dana = user("dana")
    make_run(case=alpha, player=dana, score=0.4, valid=True)
    make_run(case=alpha, player=dana, score=1.0, valid=True, standing="extra")
    make_run(case=beta, player=dana, score=0.7, valid=True)
    make_run(case=beta, player=dana, score=1.0, valid=True, mode="practice")  # never shown
    assert _line("alpha", dana).best == 1.0 and _line("alpha", dana).solved is True
    assert _line("beta", dana).best == 0.7 and _line("beta", dana).solved is False
    client.force_login(dana)
    html = client.get("/cases/").content.decode()
    alpha_row = html[
        html.index('data-case="alpha"') : html.index("</tr>", html.index('data-case="alpha"'))
    ]
    beta_row = html[
        html.index('data-case="beta"') : html.index("</tr>", html.index('data-case="beta"'))
    ]
    assert "✓ solved" in alpha_row and "1.000" in alpha_row
    assert "✓ solved" not in beta_row and "0.700" in beta_row
    assert "Your best" in html


def test_the_page_explains_difficulty_and_shows_no_target_keys(
    client: Client, knapsack: Any
) -> None:
    import json

    html = client.get("/cases/").content.decode()
    assert 'id="difficulty-note"' in html and "reached the customer-accepted reference" in html
    assert "Your best" not in html  # signed out
    gt = json.loads((knapsack.current_version.package_dir / "hidden" / "gt.json").read_text())
    row = html[html.index('data-case="tiny-knapsack"') :]
    row = row[: row.index("</tr>")]
    assert f'data-label="Targets" class="num">{len(gt["targets"])}<' in row
    for target in gt["targets"]:
        assert target["key"] not in html and target["requirement"] not in html


def test_the_list_takes_a_bounded_number_of_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    for index in range(12):
        _runs(_case(f"case-{index:02d}"), [1.0, 0.5, 0.0])
    dana = user("dana")
    client.force_login(dana)
    client.get("/cases/")  # warm the session
    with django_assert_max_num_queries(6):
        response = client.get("/cases/")
    assert response.status_code == 200 and response.content.decode().count("data-case=") == 12


def test_a_tutorial_case_is_marked_and_has_no_solve_rate(client: Client) -> None:
    from fdeplatform.cases.models import Case

    case = _case("tutorial-one")
    Case.objects.filter(pk=case.pk).update(tutorial=True)
    html = client.get("/cases/").content.decode()
    row = html[html.index('data-case="tutorial-one"') :]
    row = row[: row.index("</tr>")]
    assert ">tutorial</span>" in row and "practice only" in row


def test_the_list_filters_by_family_and_sector_and_ignores_unknown_values() -> None:
    make_case("grid-a", family="CO", sector="energy")
    make_case("model-b", family="ML", sector="finance")
    make_case("model-c", family="ML", sector="energy")
    client = Client()
    page = client.get("/cases/", {"family": "ML"}).content.decode()
    assert 'data-case="model-b"' in page and 'data-case="model-c"' in page
    assert 'data-case="grid-a"' not in page and "2 of 3 cases" in page
    page = client.get("/cases/", {"family": "ML", "sector": "energy"}).content.decode()
    assert 'data-case="model-c"' in page and 'data-case="model-b"' not in page
    assert '<option value="energy" selected>' in page
    page = client.get("/cases/", {"sector": "no-such-sector"}).content.decode()
    assert all(f'data-case="{slug}"' in page for slug in ("grid-a", "model-b", "model-c"))
    assert "3 cases" in page
