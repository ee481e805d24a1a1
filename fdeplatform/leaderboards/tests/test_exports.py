"""A researcher rebuilds every number of the leaderboard from the runs export.

The rebuild uses only the export and the ``metrics`` functions on individual runs (not the
site's per-case cells), so it checks both the export's completeness and the database
aggregation against the papers' definitions applied run by run.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
from django.test import Client

from metrics.clarification import ClarificationMetrics, average_metrics
from metrics.delivery import (
    GymRun,
    dsr,
    gym_mean,
    pass_at_k,
    pass_hat_k,
    quality,
    resolved_tasks,
)
from metrics.stats import case_bootstrap_ci

CLAR = ("recall", "precision", "ask_f1", "kqc1", "atc", "redundant")


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
    return body.decode()


def rebuild(runs: list[dict[str, Any]], k: int) -> dict[str, dict[str, Any]]:
    """The leaderboard's numbers per configuration, from exported runs."""
    by_config: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        by_config[run["config"]].append(run)
    return {config: _numbers(group, k) for config, group in by_config.items()}


def _numbers(runs: list[dict[str, Any]], k: int) -> dict[str, Any]:
    scores: defaultdict[str, list[float]] = defaultdict(list)
    valid: defaultdict[str, list[bool]] = defaultdict(list)
    for run in runs:
        scores[run["case"]].append(run["score_used"])
        valid[run["case"]].append(run["valid"])
    judged = [
        ClarificationMetrics(*(run["coverage"][m] for m in CLAR), questions=0)
        for run in runs
        if run["coverage"] and run["coverage"]["status"] == "done"
    ]
    averages = average_metrics(judged)
    gym_runs = [GymRun(r["case"], _uplift(r), r["incident"], r["contact_cost"]) for r in runs]
    means = [sum(scores[c]) / len(scores[c]) for c in sorted(scores)]
    return {
        "runs": len(runs),
        "cases": len(scores),
        "quality": quality(scores),
        "quality_ci": list(case_bootstrap_ci(np.array(means)) or []),
        "dsr": dsr(scores),
        "pass_at_k": pass_at_k(valid, k).value,
        "pass_hat_k": pass_hat_k(valid, k).value,
        **{m: getattr(averages, m) for m in CLAR},
        "gym": gym_mean(gym_runs),
        "resolved": resolved_tasks(gym_runs),
    }


def _uplift(run: dict[str, Any]) -> float:
    """FDE-Gym's uplift of an exported run: 0 for no delivery or a broken rule."""
    return run["uplift"] if run["valid"] and run["uplift"] is not None else 0.0


def _assert_same(rebuilt: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> None:
    assert set(rebuilt) == {row["config"] for row in rows}
    for row in rows:
        for name, value in rebuilt[row["config"]].items():
            assert row[name] == pytest.approx(value, abs=1e-12), (row["config"], name)


@pytest.mark.parametrize(
    "query", ["", "k=2", "humans=together", "family=CO&who=agents", "condition=hidden"]
)
def test_json_export_rebuilds_the_leaderboard(client: Client, standard: Any, query: str) -> None:
    board = json.loads(_get(client, f"/api/leaderboard/?{query}"))
    runs = json.loads(_get(client, f"/api/runs/export.json?{query}"))
    _assert_same(rebuild(runs, board["k"]), board["rows"])


def _typed(row: dict[str, str]) -> dict[str, Any]:
    def number(text: str) -> float | None:
        return float(text) if text not in {"", "n/a"} else None

    coverage = None
    if row["coverage_status"]:
        coverage = {"status": row["coverage_status"], **{m: number(row[m]) for m in CLAR}}
    return {
        "config": row["config"], "case": row["case"], "score_used": float(row["score_used"]),
        "uplift": number(row["uplift"]),
        "valid": row["valid"] == "True", "incident": row["incident"] == "True",
        "contact_cost": float(row["contact_cost"]), "resolved": row["resolved"] == "True",
        "coverage": coverage,
    }  # fmt: skip


def test_csv_export_rebuilds_the_leaderboard(client: Client, standard: Any) -> None:
    board = json.loads(_get(client, "/api/leaderboard/"))
    rows = list(csv.DictReader(io.StringIO(_get(client, "/api/runs/export.csv"))))
    _assert_same(rebuild([_typed(r) for r in rows], 3), board["rows"])


def test_the_page_shows_the_exported_numbers(client: Client, standard: Any) -> None:
    html = _get(client, "/leaderboard/")
    rebuilt = rebuild(json.loads(_get(client, "/api/runs/export.json")), 3)
    for config, numbers in rebuilt.items():
        line = re.search(rf'data-config="{re.escape(config)}">(.*?)</tr>', html, re.S)
        assert line is not None, config
        text = re.sub(r"<[^>]+>", " ", line.group(1))
        assert f"{numbers['quality']:.3f}" in text and f"{numbers['gym']:.3f}" in text
        if numbers["quality_ci"]:
            low, high = numbers["quality_ci"]
            assert f"[{low:.2f}, {high:.2f}]" in text


def test_leaderboard_csv_matches_the_json(client: Client, standard: Any) -> None:
    board = json.loads(_get(client, "/api/leaderboard/?sort=-recall"))
    rows = list(
        csv.DictReader(io.StringIO(_get(client, "/api/leaderboard/export.csv?sort=-recall")))
    )
    assert [r["config"] for r in rows] == [r["config"] for r in board["rows"]]
    assert [float(r["quality"]) for r in rows] == pytest.approx(
        [r["quality"] for r in board["rows"]]
    )


def test_exports_contain_only_ranked_ended_runs(client: Client, standard: Any) -> None:
    runs = json.loads(_get(client, "/api/runs/export.json"))
    assert len(runs) == 9 + 3 + 2 + 9  # bot-a, bot-a hidden, alice, bob
    assert {r["status"] for r in runs} == {"closed", "expired"}


def test_api_rejects_invalid_filters(client: Client, db: None) -> None:
    response = client.get("/api/leaderboard/?k=0")
    assert response.status_code == 400 and "k" in response.json()["errors"]
    assert client.get("/api/runs/export.csv?from=yesterday").status_code == 400


def test_anonymous_exports_hold_numbers_but_no_transcripts(client: Client, standard: Any) -> None:
    runs = json.loads(_get(client, "/api/runs/export.json"))
    assert all(r["exchanges"] is None for r in runs)
    (run,) = [r for r in runs if r["exchange_count"] == 2]  # bot-a's first alpha run
    assert run["contact_cost"] == pytest.approx(0.1)
    assert run["coverage"]["items"] is None and run["coverage"]["recall"] == 1.0


def test_round_trip_holds_with_incidents_and_negative_uplift(client: Client, standard: Any) -> None:
    from fdeplatform.leaderboards.tests.factories import make_run, user

    owner = user("risky")
    for case, score, incident in (
        ("alpha", 0.9, True),
        ("beta", -2.5, False),
        ("gamma", 0.85, False),
    ):
        for _ in range(3):
            make_run(case=standard[case], player=owner, agent="risky", score=score, valid=True,
                     incident=incident, costs=[0.02])  # fmt: skip
    board = json.loads(_get(client, "/api/leaderboard/"))
    runs = json.loads(_get(client, "/api/runs/export.json"))
    _assert_same(rebuild(runs, 3), board["rows"])
    risky = next(r for r in board["rows"] if r["config"] == "agent:risky@interact_req")
    # One task: gamma (0.85 - 0.02 >= 0.8 on every run); alpha had incidents, beta is negative.
    assert risky["resolved"] == 1
