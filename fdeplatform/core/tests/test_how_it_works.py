"""The "how this works" page: linked from every page, every metric has an anchor to point at."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_how_it_works_explains_modes_conditions_asking_and_every_metric(client: Client) -> None:
    html = client.get("/how-it-works/").content.decode()
    for anchor in ("modes", "conditions", "asking", "submitting", "counting", "privacy"):
        assert f'id="{anchor}"' in html
    for metric in ("quality", "uplift", "gym", "dsr", "pass", "resolved", "recall", "precision",
                   "ask-f1", "kqc1", "atc", "redund"):  # fmt: skip
        assert f'id="metric-{metric}"' in html
    assert "first 3 ranked runs" in html  # the site's k, not a number written into the page


def test_every_page_links_to_it(client: Client) -> None:
    assert 'href="/how-it-works/"' in client.get("/").content.decode()
    assert 'href="/how-it-works/"' in client.get("/leaderboard/").content.decode()


def test_the_run_report_links_each_metric_to_its_definition(client: Client, bob: object) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case
    from fdeplatform.leaderboards.tests.test_privacy import judged_run

    run = judged_run(make_case("alpha"), bob)  # type: ignore[arg-type]
    client.force_login(bob)  # type: ignore[arg-type]
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    for anchor in ("recall", "precision", "ask-f1", "kqc1", "atc", "redund"):
        assert f'href="/how-it-works/#metric-{anchor}"' in html
