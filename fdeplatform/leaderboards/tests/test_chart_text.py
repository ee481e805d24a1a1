"""Every chart has its numbers in a table (the text alternative), and a comparison on too few
cases says it cannot reach significance."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from fdeplatform.leaderboards import charts
from fdeplatform.leaderboards.comparisons import (
    MIN_CASES_FOR_SIGNIFICANCE,
    Comparison,
    holm_corrected,
    smallest_p,
)
from fdeplatform.leaderboards.configs import ConfigId
from metrics.stats import PairedDifference


def _comparison(cases: int, p: float | None) -> Comparison:
    return Comparison(
        a=ConfigId("agent", "a", "interact_req"),
        b=ConfigId("agent", "b", "interact_req"),
        per_case=(),
        difference=PairedDifference(mean=0.2, low=0.1, high=0.3, cases=cases),
        p=p,
    )


def test_smallest_wilcoxon_p_is_two_over_two_to_the_n() -> None:
    assert smallest_p(5) == pytest.approx(0.0625)
    assert smallest_p(6) == pytest.approx(0.03125)
    assert MIN_CASES_FOR_SIGNIFICANCE == 6


def test_five_cases_are_too_few_six_are_not_for_one_test_two_tests_need_seven() -> None:
    assert holm_corrected([_comparison(5, 0.0625)])[0].too_few_cases
    assert not holm_corrected([_comparison(6, 0.03125)])[0].too_few_cases
    pair = holm_corrected([_comparison(6, 0.03125), _comparison(7, 0.3)])
    assert pair[0].too_few_cases and not pair[1].too_few_cases


def test_a_significant_result_is_never_called_too_few() -> None:
    (significant,) = holm_corrected([_comparison(5, 0.04)])  # normal approximation with ties
    assert significant.significant and not significant.too_few_cases


def test_heatmap_table_lists_each_configuration_and_domain() -> None:
    figure = {
        "data": [{"type": "heatmap", "x": ["Rules", "Data"], "y": ["bot", "ann"],
                  "z": [[0.5, None], [1.0, 0.25]]}],
    }  # fmt: skip
    table = charts.figure_table(figure)
    assert table.headers == ["", "Rules", "Data"]
    assert table.rows == [["bot", "50%", "—"], ["ann", "100%", "25%"]]


def test_scatter_table_has_one_row_per_labelled_point() -> None:
    figure = {
        "data": [{"type": "scatter", "name": "Agents", "x": [0.5], "y": [0.75],
                  "text": ["bot-a (interact_req)"]}],
        "layout": {"xaxis": {"title": {"text": "Recall"}}, "yaxis": {"title": {"text": "Quality"}}},
    }  # fmt: skip
    table = charts.figure_table(figure)
    assert table.headers == ["Point", "Series", "Recall", "Quality"]
    assert table.rows == [["bot-a (interact_req)", "Agents", "0.500", "0.750"]]


def test_histogram_table_names_each_bin() -> None:
    figure = {
        "data": [{"type": "bar", "name": "Agents", "x": [0.05], "y": [3],
                  "customdata": [[0.0, 0.1]]},
                 {"type": "bar", "name": "Humans", "x": [0.05], "y": [1],
                  "customdata": [[0.0, 0.1]]}],
    }  # fmt: skip
    table = charts.figure_table(figure)
    assert table.headers == ["Category", "Agents", "Humans"]
    assert table.rows == [["0.0 to 0.1", "3", "1"]]


@pytest.mark.django_db
def test_every_chart_on_the_pages_has_a_table(client: Client, standard: dict[str, Any]) -> None:
    for url in ("/leaderboard/", "/leaderboard/conditions/", "/leaderboard/analyses/",
                f"/leaderboard/case/{standard['alpha'].slug}/"):  # fmt: skip
        html = client.get(url).content.decode()
        charts_on_page = re.findall(r'data-chart="([^"]+)">(.*?)</script>', html, re.S)
        assert charts_on_page, url
        tables = html.count('class="lb-chart-data')
        assert tables >= len(charts_on_page), (url, tables, charts_on_page)
        for _, body in charts_on_page:
            table = charts.figure_table(json.loads(body))
            for row in table.rows:
                assert " ".join(row[1:]) in re.sub(r"</t[dh]>\s*<t[dh][^>]*>", " ", html)


@pytest.mark.django_db
def test_compare_page_says_when_cases_are_too_few(client: Client, standard: dict[str, Any]) -> None:
    url = "/leaderboard/compare/?a=agent:bot-a@interact_req&b=human:bob@interact_req"
    html = client.get(url).content.decode()
    assert 'id="too-few-cases"' in html and "Too few cases to reach significance" in html
    assert "at least 6 shared cases" in html
    conditions = client.get("/leaderboard/conditions/").content.decode()
    assert "too few cases for significance" in conditions


@pytest.mark.django_db
def test_recall_and_quality_axes_run_from_0_to_1_not_to_2() -> None:
    """One configuration at Recall 1.0, Quality 1.0 made plotly's autorange run both axes to 2
    (issue 28); the axes are fixed to the shares' 0 to 1, Quality further only past R."""
    from django.http import QueryDict

    from fdeplatform.leaderboards.board import leaderboard
    from fdeplatform.leaderboards.filters import filters_from
    from fdeplatform.leaderboards.tests.factories import _cov, make_case, make_run, user

    case = make_case("solo")
    make_run(case=case, player=user("ann"), score=1.0, valid=True,
             coverage=_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0), error_kind="")  # fmt: skip
    rows = leaderboard(filters_from(QueryDict(""))).rows
    for figure in (charts.recall_quality(rows), charts.clarification_quality(rows)):
        layout = json.loads(str(charts.figure_json(figure)))["layout"]
        assert layout["xaxis"]["range"] == [-0.03, 1.03]
        assert layout["yaxis"]["range"] == pytest.approx([-0.03, 1.03])
    assert charts.quality_range([0.4, 1.12, None]) == pytest.approx([-0.03, 1.15])
