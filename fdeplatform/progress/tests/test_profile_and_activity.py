"""Player profiles and the activity feed show public results only: ended ranked runs, never
another person's practice runs, never a target key or requirement; report links only where
the viewer may open the report."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from fdeplatform.leaderboards.tests.factories import make_case, make_run, user
from fdeplatform.runs.models import Run

pytestmark = pytest.mark.django_db
T0 = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


def _items(domain_hits: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
    items = []
    for domain, (covered, total) in domain_hits.items():
        for index in range(total):
            items.append(
                {"target": f"secret_{domain}_{index}", "domain": domain, "covered": index < covered}
            )
    return items


@pytest.fixture
def played() -> dict[str, Any]:
    alpha, beta = make_case("alpha"), make_case("beta")
    dana, erin, staff = user("dana"), user("erin"), user("sam", staff=True)
    runs = {
        "first": make_run(case=alpha, player=dana, score=0.4, valid=True, started_at=T0,
                          coverage={"recall": 0.5},
                          items=_items({"constraint_rule": (1, 2), "data_semantics": (0, 1)})),
        "second": make_run(case=alpha, player=dana, score=1.0, valid=True,
                           started_at=T0 + timedelta(days=1), coverage={"recall": 1.0},
                           items=_items({"constraint_rule": (2, 2), "data_semantics": (1, 1)})),
        "hidden": make_run(case=beta, player=dana, score=0.6, valid=True, condition="hidden",
                           started_at=T0 + timedelta(days=2), coverage={"recall": 0.0},
                           items=_items({"constraint_rule": (0, 3)})),
        "informed": make_run(case=beta, player=dana, score=0.9, valid=True, standing="informed",
                             started_at=T0 + timedelta(days=3)),
        "published": make_run(case=beta, player=dana, score=0.2, valid=True,
                              started_at=T0 + timedelta(days=4)),
        "practice": make_run(case=alpha, player=dana, score=0.77, valid=True, mode="practice",
                             started_at=T0 + timedelta(days=5)),
        "open": make_run(case=beta, player=dana, score=None, valid=None, status="open",
                         started_at=T0 + timedelta(days=6)),
        "agent": make_run(case=alpha, player=erin, score=0.8, valid=True, agent="bot-z",
                          started_at=T0 + timedelta(days=7)),
    }  # fmt: skip
    Run.objects.filter(pk=runs["published"].pk).update(published=True)
    return {"dana": dana, "erin": erin, "staff": staff, **runs}


def _html(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_profile_lists_ended_ranked_runs_and_never_practice_or_open_ones(
    client: Client, played: dict[str, Any]
) -> None:
    client.force_login(played["erin"])
    html = _html(client, "/players/dana/")
    for name in ("first", "second", "hidden", "informed", "published"):
        assert f'data-run="{played[name].pk}"' in html, name
    assert str(played["practice"].pk) not in html and "0.770" not in html
    assert str(played["open"].pk) not in html
    assert ">informed</span>" in html
    assert 'id="stat-runs">5<' in html and 'id="stat-solved">1<' in html


def test_report_links_only_where_the_viewer_may_open_the_report(
    client: Client, played: dict[str, Any]
) -> None:
    client.force_login(played["erin"])
    html = _html(client, "/players/dana/")
    assert f'href="/runs/{played["published"].pk}/report/"' in html
    assert f'href="/runs/{played["first"].pk}/report/"' not in html
    client.force_login(played["dana"])
    own = _html(client, "/players/dana/")
    assert f'href="/runs/{played["first"].pk}/report/"' in own
    assert "progress below is shown to you alone" in own
    client.force_login(played["staff"])
    assert f'href="/runs/{played["first"].pk}/report/"' in _html(client, "/players/dana/")


def test_progress_chart_and_domain_coverage_name_domains_never_targets(
    client: Client, played: dict[str, Any]
) -> None:
    html = _html(client, "/players/dana/")
    assert "secret_" not in html  # target keys stay in the run report
    progress = json.loads(html.split('data-chart="chart-progress">')[1].split("</script>")[0])
    alpha = next(t for t in progress["data"] if t["name"] == "Alpha")
    assert alpha["y"] == [0.4, 1.0] and alpha["x"][0] == "2025-03-01 11:00"
    domains = json.loads(html.split('data-chart="chart-domains">')[1].split("</script>")[0])
    bars = dict(zip(domains["data"][0]["x"], domains["data"][0]["y"], strict=True))
    # Pooled over the two Interact-Req runs; the Hidden run (no customer) stays out.
    assert bars == {"Rules": 0.75, "Data": 0.5}
    assert "Progress over time: the numbers as a table" in html  # the text alternative


def test_unknown_or_inactive_players_have_no_profile(
    client: Client, played: dict[str, Any]
) -> None:
    assert client.get("/players/nobody/").status_code == 404
    played["erin"].is_active = False
    played["erin"].save()
    assert client.get("/players/erin/").status_code == 404


def test_the_activity_feed_lists_ended_ranked_results_newest_first(
    client: Client, played: dict[str, Any]
) -> None:
    html = _html(client, "/activity/")
    order = [played[n].pk for n in ("agent", "published", "informed", "hidden", "second", "first")]
    positions = [html.index(f'data-run="{pk}"') for pk in order]
    assert positions == sorted(positions)
    assert str(played["practice"].pk) not in html and str(played["open"].pk) not in html
    assert "bot-z" in html and ">agent</span>" in html and ">informed</span>" in html
    # Signed out: only the public runs link their report (the agent's and the published one).
    assert html.count("/report/") == 2


def test_the_home_page_shows_the_latest_results(client: Client, played: dict[str, Any]) -> None:
    html = _html(client, "/")
    assert 'id="home-activity"' in html and html.count("data-run=") == 5
    assert str(played["agent"].pk) in html and str(played["first"].pk) not in html


def test_feed_and_profile_take_a_bounded_number_of_queries(
    client: Client, played: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    case = make_case("gamma")
    for index in range(20):
        make_run(case=case, player=played["dana"], score=0.1 * (index % 11), valid=True,
                 coverage={"recall": 0.5}, items=_items({"computation_convention": (1, 2)}))  # fmt: skip
    with django_assert_max_num_queries(4):
        client.get("/activity/")
    with django_assert_max_num_queries(5):
        client.get("/players/dana/")


def test_feed_times_read_just_now_then_how_long_ago() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from fdeplatform.leaderboards.templatetags.leaderboard_format import ago

    now = timezone.now()
    assert ago(now - timedelta(seconds=5)) == "just now"
    assert ago(now - timedelta(minutes=3, seconds=5)) == "3\xa0minutes ago"
    assert ago(None) == ""


def test_the_owner_sees_practice_and_tutorial_progress_apart_from_ranked_results(
    client: Client, played: dict[str, Any]
) -> None:
    from fdeplatform.cases.models import Case

    tutorial = make_case("bake-sale")
    Case.objects.filter(pk=tutorial.pk).update(tutorial=True)
    make_run(case=tutorial, player=played["dana"], score=0.0, valid=False, mode="practice",
             started_at=T0 + timedelta(days=8))  # fmt: skip
    make_run(case=tutorial, player=played["dana"], score=1.04, valid=True, mode="practice",
             started_at=T0 + timedelta(days=9))  # fmt: skip
    client.force_login(played["dana"])
    html = _html(client, "/players/dana/")
    ranked = html[html.index('id="history"') : html.index('id="practice"')]
    practice = html[html.index('id="practice"') :]
    assert str(played["practice"].pk) not in ranked  # practice stays out of the results
    assert practice.index('data-case="bake-sale"') < practice.index('data-case="alpha"')
    tutorial_row = practice[practice.index('data-case="bake-sale"') :]
    tutorial_row = tutorial_row[: tutorial_row.index("</tr>")]
    assert "✓ done" in tutorial_row and "At or above the reference" in tutorial_row
    assert ">2<" in tutorial_row  # two practice runs ended
    alpha_row = practice[practice.index('data-case="alpha"') :]
    assert "0.7–0.8 of the reference" in alpha_row[: alpha_row.index("</tr>")]
    assert "0.77" not in practice and "1.04" not in practice  # bands, never exact scores


def test_nobody_else_sees_a_players_practice(client: Client, played: dict[str, Any]) -> None:
    client.force_login(played["erin"])
    assert 'id="practice"' not in _html(client, "/players/dana/")
    assert 'id="practice"' not in _html(Client(), "/players/dana/")
