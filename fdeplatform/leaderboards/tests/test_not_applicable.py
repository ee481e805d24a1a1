"""Under a condition without a customer (Hidden, Full, oracle) nobody could be asked, so the
clarification metrics are "n/a" on boards, the run report and exports, never 0.000, and they
stay out of every mean."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from django.test import Client

from fdeplatform.leaderboards.tests.factories import _cov, make_case, make_run, user


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
    return body.decode()


def _row_text(html: str, config: str) -> str:
    line = re.search(rf'data-config="{re.escape(config)}">(.*?)</tr>', html, re.S)
    assert line is not None, config
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line.group(1)))


def test_hidden_rows_show_na_for_clarification_on_the_board(client: Client, standard: Any) -> None:
    html = _get(client, "/leaderboard/?condition=hidden")
    text = _row_text(html, "agent:bot-a@hidden")
    assert text.count("n/a") == 6
    # An Interact-Req row keeps its numbers and its dash for undefined values.
    assert "n/a" not in _row_text(_get(client, "/leaderboard/"), "agent:bot-a@interact_req")


def test_hidden_rows_are_null_in_json_and_na_in_csv_exports(client: Client, standard: Any) -> None:
    board = json.loads(_get(client, "/api/leaderboard/?condition=hidden"))
    (row,) = board["rows"]
    assert row["recall"] is None and row["kqc1"] is None and row["redundant"] is None
    assert row["clarification_applies"] is False and row["recall_ci"] is None
    lines = list(
        csv.DictReader(io.StringIO(_get(client, "/api/leaderboard/export.csv?condition=hidden")))
    )
    assert lines[0]["recall"] == "n/a" and lines[0]["recall_low"] == "n/a"


def test_exported_runs_of_a_hidden_run_carry_no_clarification_numbers(
    client: Client, db: None
) -> None:
    case, player = make_case("delta"), user("dana")
    make_run(case=case, player=player, score=0.5, valid=True, condition="hidden",
             coverage=_cov(0.0, None, None, 0.0, None, 0))  # fmt: skip
    (run,) = json.loads(_get(client, "/api/runs/export.json"))
    assert run["clarification_applies"] is False
    assert run["coverage"]["recall"] is None and run["coverage"]["redundant"] is None
    (line,) = csv.DictReader(io.StringIO(_get(client, "/api/runs/export.csv")))
    assert line["recall"] == "n/a" and line["kqc1"] == "n/a" and line["score"] == "0.5"


def test_the_report_of_a_hidden_run_shows_na(client: Client, db: None) -> None:
    case, player = make_case("delta"), user("dana")
    run = make_run(case=case, player=player, score=0.5, valid=True, condition="hidden",
                   coverage=_cov(0.0, None, None, 0.0, None, 0))  # fmt: skip
    client.force_login(player)
    html = _get(client, f"/runs/{run.pk}/report/")
    summary = html[
        html.index('aria-label="Result"') : html.index(
            "</section>", html.index('aria-label="Result"')
        )
    ]
    assert summary.count("n/a") == 6 and "0.000" not in summary


def test_a_mixed_condition_mean_leaves_hidden_runs_out(client: Client, db: None) -> None:
    """The per-case statistics feed Recall only from runs that could ask."""
    case, player = make_case("delta"), user("dana")
    make_run(case=case, player=player, score=0.5, valid=True,
             coverage=_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0), agent="bot")  # fmt: skip
    make_run(case=case, player=player, score=0.5, valid=True, condition="full",
             coverage=_cov(0.0, None, None, 0.0, None, 0), agent="bot")  # fmt: skip
    rows = {r["condition"]: r for r in json.loads(_get(client, "/api/leaderboard/"))["rows"]}
    assert rows["interact_req"]["recall"] == 1.0 and rows["full"]["recall"] is None


def test_target_and_domain_coverage_leave_out_runs_without_a_customer(db: None) -> None:
    from fdeplatform.leaderboards.case_stats import domain_coverage, target_coverage
    from fdeplatform.leaderboards.filters import Filters

    case, player = make_case("delta"), user("dana")
    item = {"target": "t1", "domain": "constraint_rule", "covered": True}
    make_run(case=case, player=player, score=0.5, valid=True, agent="bot",
             coverage=_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0), items=[item])  # fmt: skip
    make_run(case=case, player=player, score=0.5, valid=True, agent="bot", condition="hidden",
             coverage=_cov(0.0, None, None, 0.0, None, 0), items=[{**item, "covered": False}])  # fmt: skip
    (stat,) = target_coverage(Filters())
    assert (stat.covered, stat.judged) == (1, 1)
    assert {s.config.condition for s in domain_coverage(Filters())} == {"interact_req"}
