"""Closing a ranked run recomputes the default board in the background."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import QueryDict

from fdeplatform.cases.models import Case
from fdeplatform.core.background import drain
from fdeplatform.leaderboards.cache import cached, results_stamp
from fdeplatform.leaderboards.filters import filters_from
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.services import run_start
from fdeplatform.runs.submissions import submission_receive

pytestmark = pytest.mark.django_db(transaction=True)
REFERENCE = (
    Path(__file__).resolve().parents[3] / "tests/fixtures/cases/tiny-knapsack/hidden/reference.csv"
)


def test_a_ranked_run_ending_warms_the_default_board(
    alice: User, knapsack: Case, settings: Any
) -> None:
    settings.CELERY_BROKER_URL = ""
    cache.clear()
    run = run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked")
    submission_receive(
        run_id=run.pk, player=alice, upload=SimpleUploadedFile("d.csv", REFERENCE.read_bytes())
    )
    run_close(run_id=run.pk, player=alice)
    drain()
    filters = filters_from(QueryDict(""))

    def not_warmed() -> dict[str, Any]:
        raise AssertionError("the board was not computed in the background")

    page = cached("page", filters.query(), results_stamp(), not_warmed)
    assert [row.runs for row in page["board"].rows] == [1]
    analyses = cached("analyses", filters.query(), results_stamp(), not_warmed)
    assert [row.runs for row in analyses["analyses"].board.rows] == [1]
    across = replace(filters, condition="")
    assert "table2" in cached("conditions", across.query(), results_stamp(), not_warmed)
