"""The analyses page against numbers worked out by hand from a small fixture (``k=1``).

Four agents play Interact-Req once on each of three cases, so each is a complete row:

    agent   scores a b c   Quality   Recall   Ask-F1
    one     .9 .8 .7       .8        .9       .6
    two     .6 .6 .6       .6        .5       .7
    three   .3 .3 .3       .3        .6       .4
    four    .1 .1 .1       .1        .2       .5

"one" also plays Hidden (.2 .2 .1) and Full (.9 1 .9); "two" plays Hidden .6 and Full .5 on
case a only; "five" plays Interact-Req on two cases only (provisional, left out of RQ2).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.http import QueryDict
from django.test import Client

from fdeplatform.leaderboards.analyses import build_analyses, rq2_correlations
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import filters_from
from fdeplatform.leaderboards.tests.factories import make_case, make_run, user
from fdeplatform.runs.models import Exchange, Run

ONE = ConfigId("agent", "one", "interact_req")
TWO = ConfigId("agent", "two", "interact_req")
SECRET_TARGETS = ("secret_rule_one", "secret_rule_two", "secret_rule_three")
GT = {
    "targets": [
        {"key": "secret_rule_one", "facts": ["f1"]},
        {"key": "secret_rule_two", "facts": ["f2", "f2b"]},
        {"key": "secret_rule_three", "facts": ["f3"]},
    ]
}


def _coverage(recall: float, f1: float, units: int, redundant: int) -> dict[str, Any]:
    return {
        "recall": recall, "precision": 0.5, "ask_f1": f1, "kqc1": 0.0, "atc": 1.0,
        "redundant": redundant, "units": [{"index": i, "turn": 1, "text": "?"} for i in range(units)],
    }  # fmt: skip


def _items(*covered: tuple[str, str, bool]) -> list[dict[str, Any]]:
    return [
        {"target": SECRET_TARGETS[i], "domain": domain, "issue_type": issue, "covered": hit}
        for i, (domain, issue, hit) in enumerate(covered)
    ]


@pytest.fixture
def played(db: None, settings: Any, tmp_path: Path) -> dict[str, Any]:
    settings.CASE_STORE = str(tmp_path)
    cases = [make_case(slug) for slug in ("a", "b", "c")]
    for case in cases:
        hidden = tmp_path / "missing" / case.slug / "hidden"
        hidden.mkdir(parents=True)
        (hidden / "gt.json").write_text(json.dumps(GT))
    owner = user("owner")
    table = {"one": (0.9, 0.6), "two": (0.5, 0.7), "three": (0.6, 0.4), "four": (0.2, 0.5)}
    scores = {"one": (0.9, 0.8, 0.7), "two": (0.6,) * 3, "three": (0.3,) * 3, "four": (0.1,) * 3}
    runs: dict[str, list[Run]] = {}
    for agent, (recall, f1) in table.items():
        if agent == "one":
            continue  # below, in detail
        runs[agent] = [
            make_run(case=case, player=owner, agent=agent, score=s, valid=True,
                     coverage=_coverage(recall, f1, 2, 1))
            for case, s in zip(cases, scores[agent], strict=True)
        ]  # fmt: skip
    # "one": contact costs, question units, per-target coverage and disclosed facts.
    rule, data = ("constraint_rule", "missing"), ("data_semantics", "ambiguous")
    details = [
        ([0.1], 3, 1, ((*rule, True), (*data, False))),
        ([0.05, 0.05], 2, 0, ((*rule, True), (*data, True))),
        ([], 0, 0, ((*rule, False), (*data, False))),
    ]
    runs["one"] = [
        make_run(case=case, player=owner, agent="one", score=s, valid=True, costs=costs,
                 coverage=_coverage(0.9, 0.6, units, redundant), items=_items(*items))
        for case, s, (costs, units, redundant, items) in zip(cases, scores["one"], details,
                                                              strict=True)
    ]  # fmt: skip
    told = {(0, 1): ["f1", "f2b"], (1, 1): ["f3"], (1, 2): ["not_a_target_fact"]}
    for (index, turn), keys in told.items():
        Exchange.objects.filter(run=runs["one"][index], turn=turn).update(disclosed=keys)
    for case, hidden, full in zip(cases, (0.2, 0.2, 0.1), (0.9, 1.0, 0.9), strict=True):
        make_run(case=case, player=owner, agent="one", score=hidden, valid=True, condition="hidden")
        make_run(case=case, player=owner, agent="one", score=full, valid=True, condition="full")
    make_run(case=cases[0], player=owner, agent="two", score=0.6, valid=True, condition="hidden")
    make_run(case=cases[0], player=owner, agent="two", score=0.5, valid=True, condition="full")
    for case in cases[:2]:
        make_run(case=case, player=owner, agent="five", score=1.0, valid=True,
                 coverage=_coverage(1.0, 1.0, 1, 0))  # fmt: skip
    # An LLM customer records no fact keys: its run is not counted for key facts.
    Run.objects.filter(pk=runs["two"][0].pk).update(customer_backend="llm")
    return {"cases": cases, "runs": runs}


def _analyses(query: str = "k=1") -> Any:
    return build_analyses(filters_from(QueryDict(query)))


def test_rq2_spearman_per_condition_over_ranked_rows(played: dict[str, Any]) -> None:
    lines = _analyses().correlations
    # Hidden and Full rows have no Recall: only Interact-Req is correlated; "five" is provisional.
    assert [(line.condition, line.metric) for line in lines] == [
        ("interact_req", "recall"), ("interact_req", "ask_f1"),
    ]  # fmt: skip
    recall, f1 = (line.correlation for line in lines)
    # Recall ranks 4 2 3 1 against Quality ranks 4 3 2 1: Σd² = 2, rho = 1 - 6·2/(4·15) = 0.8.
    # Exactly, 4 of the 24 pairings reach rho >= 0.8 and 4 reach <= -0.8: p = 8/24.
    assert recall.n == 4 and recall.rho == pytest.approx(0.8) and recall.p == pytest.approx(1 / 3)
    # Ask-F1 ranks 3 4 1 2: Σd² = 4, rho = 0.6; Σd² <= 4 or >= 16 in 10 of 24 pairings.
    assert f1.n == 4 and f1.rho == pytest.approx(0.6) and f1.p == pytest.approx(10 / 24)
    # Holm over the two: min(1, 2 · 1/3) = 2/3, then max(2/3, 1 · 10/24) = 2/3.
    assert [line.p_holm for line in lines] == pytest.approx([2 / 3, 2 / 3])


def test_rq2_is_undefined_with_fewer_than_three_rows(played: dict[str, Any]) -> None:
    rows = [r for r in _analyses().board.rows if r.config.key in {"one", "two"}]
    lines = rq2_correlations(rows)
    assert lines and all(line.correlation.rho is None for line in lines)
    assert lines[0].correlation.n == 2


def test_recall_by_domain_and_issue_type(played: dict[str, Any]) -> None:
    analyses = _analyses()
    assert analyses.domains.groups == ["constraint_rule", "data_semantics"]
    assert analyses.domains.labels == ["Constraint rules", "Data semantics"]
    [(row, (rule, data))] = analyses.domains.lines  # only "one" has per-target coverage
    assert row.config == ONE
    assert (rule.covered, rule.judged) == (2, 3) and (data.covered, data.judged) == (1, 3)
    assert analyses.issue_types.groups == ["missing", "ambiguous"]
    [(_, (missing, ambiguous))] = analyses.issue_types.lines
    assert (missing.covered, missing.judged, ambiguous.covered) == (2, 3, 1)


def test_questions_and_unmatched_questions_per_run(played: dict[str, Any]) -> None:
    stats = {row.config: q for row, q in _analyses().questions}
    one = stats[ONE]
    # Units 3, 2, 0; Redund. 1, 0, 0.
    assert (one.judged, one.asked, one.questions) == (3, 2, 5)
    assert one.per_run == pytest.approx(5 / 3)
    assert one.unmatched_per_run == pytest.approx(1 / 3)
    assert one.unmatched_share == pytest.approx(1 / 5)
    # Three cases, one run each: the interval of questions per run spans the cases' 0 to 3.
    draws = np.random.default_rng(12345).integers(0, 3, size=(2000, 3))
    by_case = np.array([3.0, 2.0, 0.0])
    expected = np.percentile(by_case[draws].mean(axis=1), [2.5, 97.5])
    assert one.questions_ci == pytest.approx(tuple(expected))
    two = stats[TWO]
    assert two.per_run == pytest.approx(2.0) and two.unmatched_per_run == pytest.approx(1.0)


def test_gap_recovered_by_interact_req(played: dict[str, Any]) -> None:
    table = {row.display: row for row in _analyses().table2}
    gap = table["one"].recovered
    assert gap is not None and gap.cases == 3
    # (2.4 - 0.5) / (2.8 - 0.5) on the three shared cases.
    assert gap.value == pytest.approx(1.9 / 2.3)
    hidden, asked, full = (
        np.array([0.2, 0.2, 0.1]),
        np.array([0.9, 0.8, 0.7]),
        np.array([0.9, 1, 0.9]),
    )
    draws = np.random.default_rng(12345).integers(0, 3, size=(2000, 3))
    replicates = [
        (asked[row] - hidden[row]).sum() / (full[row] - hidden[row]).sum() for row in draws
    ]
    assert gap.interval == pytest.approx(tuple(np.percentile(replicates, [2.5, 97.5])))
    # "two": Full (.5) does not beat Hidden (.6) on the one shared case: undefined.
    two = table["two"].recovered
    assert two is not None and two.cases == 1 and two.value is None and two.interval is None


def test_gym_table_3(played: dict[str, Any]) -> None:
    lines = {line.row.config: line for line in _analyses().gym}
    one = lines[ONE]
    assert one.uplift == pytest.approx(0.8)  # valid runs: uplift = score
    assert one.contact_cost == pytest.approx((0.1 + 0.1 + 0.0) / 3)
    assert one.row.gym == pytest.approx(one.uplift - one.contact_cost)
    assert one.row.intervals["gym"] is not None
    assert one.row.resolved == 1  # only case a reaches 0.9 - 0.1 = 0.8
    # Facts: run a told f1 and f2b (targets one and two), run b f3 (three), run c nothing.
    assert one.facts is not None
    assert (one.facts.runs, one.facts.obtained, one.facts.targets) == (3, 3, 9)
    assert one.facts.share == pytest.approx(1 / 3)
    # "two": the LLM-customer run is not counted; Hidden and Full have no customer.
    two = lines[TWO]
    assert two.facts is not None and (two.facts.runs, two.facts.obtained) == (2, 0)
    assert lines[ConfigId("agent", "one", "hidden")].facts is None


def test_key_facts_need_the_case_targets(played: dict[str, Any], settings: Any) -> None:
    settings.CASE_STORE = "/nonexistent"
    assert all(line.facts is None for line in _analyses().gym)


def test_page_shows_the_analyses_and_no_target_names(
    client: Client, played: dict[str, Any]
) -> None:
    html = client.get("/leaderboard/analyses/?k=1").content.decode()
    for section in ("rq2", "coverage", "questions", "gap", "gym"):
        assert f'id="{section}"' in html
    line = re.search(r'data-condition="interact_req" data-metric="recall">(.*?)</tr>', html, re.S)
    assert line is not None
    assert re.sub(r"<[^>]+>|\s+", " ", line.group(1)).split() == [
        "interact_req", "Recall", "4", "+0.800", "0.333", "0.667",
    ]  # fmt: skip
    assert "83%" in html  # gap recovered by "one", 1.9 / 2.3
    assert '33% <span class="muted small">3/9</span>' in html  # key facts obtained by "one"
    assert 'data-chart="chart-rq2"' in html and 'id="rq2-points"' in html
    assert not any(name in html for name in SECRET_TARGETS)


def test_page_without_runs_says_so(client: Client, db: None) -> None:
    html = client.get("/leaderboard/analyses/").content.decode()
    assert "No ranked run has ended under these filters yet." in html


def test_board_links_to_the_analyses(client: Client, played: dict[str, Any]) -> None:
    html = client.get("/leaderboard/?k=1").content.decode()
    assert 'href="/leaderboard/analyses/?k=1"' in html


def test_conditions_page_shows_the_gap_recovered(client: Client, played: dict[str, Any]) -> None:
    html = client.get("/leaderboard/conditions/").content.decode()
    table = html[html.index('id="table2"') : html.index("</table>")]
    assert "Gap recovered" in table and "83%" in table


def test_page_query_count_does_not_grow_with_configurations(
    client: Client, played: dict[str, Any]
) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/leaderboard/analyses/?k=1").status_code == 200
        return len(captured)

    before = queries()
    owner = user("more")
    for n in range(5):
        for case in played["cases"]:
            make_run(case=case, player=owner, agent=f"more-{n}", score=0.4, valid=True,
                     costs=[0.01], coverage=_coverage(0.5, 0.5, 1, 0))  # fmt: skip
    assert queries() == before
    assert before <= 11  # 11th: the per-variant solve rates (leaderboards.variant_stats)
