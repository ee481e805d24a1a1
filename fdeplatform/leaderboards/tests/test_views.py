"""The leaderboard pages render the rows' numbers, stay within a fixed number of queries, and
serve plotly.js locally."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from fdeplatform.leaderboards.tests.factories import make_case, make_run, user


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_board_shows_each_metric_with_its_interval(
    client: Client, standard: dict[str, Any]
) -> None:
    html = client.get("/leaderboard/").content.decode()
    row = re.search(r'<tr class="" data-config="agent:bot-a@interact_req">(.*?)</tr>', html, re.S)
    assert row is not None
    cells = [
        re.sub(r"<[^>]+>", " ", c).split()
        for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    ]
    # rank + name, Quality, DSR, pass@3, pass^3, Recall, P, F1, KQC1, ATC, Redund., Gym (each
    # with its interval), Resolved, Runs, Cases
    assert cells[0][:2] == ["2", "bot-a"]
    assert cells[1][0] == "0.500" and cells[1][1].startswith("[")
    assert [c[0] for c in cells[2:11]] == [
        "0.333", "1.000", "0.333", "0.531", "0.667", "0.657", "0.281", "2.17", "0.9",
    ]  # fmt: skip
    assert cells[11][0] == "0.450"
    # Every metric from Quality to Gym carries its interval, "[low, high]", under the value.
    assert all(len(c) == 3 and c[1].startswith("[") and c[2].endswith("]") for c in cells[1:12])
    assert cells[12] == ["1", "/3"] and cells[13:] == [["9"], ["3"]]  # resolved tasks / cases


def test_board_marks_provisional_rows(client: Client, standard: dict[str, Any]) -> None:
    html = client.get("/leaderboard/").content.decode()
    assert 'class="lb-provisional" data-config="human:alice@interact_req"' in html
    assert "fewer than 3 runs on 1 case; 1 case (needs 3)" in html


def test_board_embeds_charts_and_local_plotly(client: Client, standard: dict[str, Any]) -> None:
    html = client.get("/leaderboard/").content.decode()
    assert "/static/vendor/plotly/plotly-cartesian.min.js" in html
    assert "cdn" not in html.lower()
    figures = dict(re.findall(r'data-chart="([^"]+)">(.*?)</script>', html, re.S))
    assert set(figures) == {"chart-scatter", "chart-domains"}
    scatter = json.loads(figures["chart-scatter"])
    points = {t["name"]: list(zip(t["x"], t["y"], strict=True)) for t in scatter["data"]}
    assert points["Agents"] == [pytest.approx((4.25 / 8, 0.5))]


def test_condition_table_pairs_cases(client: Client, standard: dict[str, Any]) -> None:
    html = client.get("/leaderboard/conditions/").content.decode()
    assert 'data-chart="chart-deltas"' in html
    table = html[html.index('id="table2"') :]
    # Interact-Req minus Hidden per case: 0.3, 2.8/3 - 0.4, 0.2/3 -> mean 0.3.
    assert "+0.300" in table[: table.index("</table>")]


def test_board_query_count_does_not_grow_with_runs(
    client: Client, standard: dict[str, Any]
) -> None:
    before = _queries(client, "/leaderboard/")
    extra = make_case("delta")
    for n in range(6):
        owner = user(f"extra{n}")
        for _ in range(3):
            make_run(case=extra, player=owner, agent=f"agent-{n}", score=0.5, valid=True,
                     costs=[0.01, 0.01], coverage={"recall": 0.5})  # fmt: skip
    assert _queries(client, "/leaderboard/") == before
    assert before <= 6


def test_board_query_count_is_bounded(django_assert_max_num_queries: Any, client: Client,
                                      standard: dict[str, Any]) -> None:  # fmt: skip
    with django_assert_max_num_queries(6):
        client.get("/leaderboard/?humans=together&k=2&sort=-recall")
    with django_assert_max_num_queries(9):  # 9th: the per-variant solve rates
        client.get("/leaderboard/case/alpha/")


def test_case_page_lists_its_board_and_zero_reasons(
    client: Client, standard: dict[str, Any]
) -> None:
    html = client.get("/leaderboard/case/alpha/").content.decode()
    assert 'data-config="agent:bot-a@interact_req"' in html
    assert 'data-config="human:bob@interact_req"' in html and "Hard constraint violated" in html
    assert "needs 3" not in html  # one case is the whole point of this board
    assert 'data-chart="chart-scores"' in html
    assert client.get("/leaderboard/case/nope/").status_code == 404


def test_config_page_lists_runs_per_case(client: Client, standard: dict[str, Any]) -> None:
    response = client.get("/leaderboard/config/agent/bot-a/?condition=interact_req")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<tr>") - html.count("<thead><tr>") >= 9
    # Agent runs are public once ended: every row links to its report.
    assert html.count(">Report</a>") == html.count("<tr>") - html.count("<thead><tr>")
    human = client.get("/leaderboard/config/human/bob/?condition=interact_req").content.decode()
    assert ">Report</a>" not in human  # a person's runs stay private unless published
    assert client.get("/leaderboard/config/agent/nobody/").status_code == 404
    assert client.get("/leaderboard/config/martian/x/").status_code == 404


def test_config_page_links_reports_of_own_runs(client: Client, standard: dict[str, Any]) -> None:
    client.force_login(standard["bob"])
    html = client.get("/leaderboard/config/human/bob/").content.decode()
    assert html.count("/report/") == 9


def test_compare_page_shows_paired_differences(client: Client, standard: dict[str, Any]) -> None:
    url = ("/leaderboard/compare/?a=agent:bot-a@interact_req&b=human:bob@interact_req"
           "&b=agent:bot-a@hidden")  # fmt: skip
    html = client.get(url).content.decode()
    assert "−0.100" in html  # 0.5 - 0.6
    assert "+0.300" in html  # 0.5 - 0.2 over the shared cases
    assert "Holm p" in html


def test_labels_are_escaped_everywhere(client: Client, db: None) -> None:
    case = make_case("xss")
    for _ in range(3):
        make_run(case=case, player=user("mallory"), agent="</script><b>x", score=0.5, valid=True,
                 coverage={"recall": 0.5})  # fmt: skip
    html = client.get("/leaderboard/").content.decode()
    assert "</script><b>x" not in html
    assert "&lt;/script&gt;&lt;b&gt;x" in html


def test_empty_board_says_so(client: Client, db: None) -> None:
    html = client.get("/leaderboard/").content.decode()
    assert "No ranked run has ended under these filters yet." in html


def test_a_cached_board_is_refreshed_when_a_run_ends(
    client: Client, standard: dict[str, Any]
) -> None:
    from fdeplatform.runs.models import Run

    assert (
        'data-config="agent:late@interact_req"' not in client.get("/leaderboard/").content.decode()
    )
    late = make_run(case=standard["alpha"], player=user("late"), agent="late", score=None,
                    valid=None, status="scoring")  # fmt: skip
    assert "agent:late" not in client.get("/leaderboard/").content.decode()
    Run.objects.filter(pk=late.pk).update(status="closed", score=0.9, valid=True)
    assert 'data-config="agent:late@interact_req"' in client.get("/leaderboard/").content.decode()
