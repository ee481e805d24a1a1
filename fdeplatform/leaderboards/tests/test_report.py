"""The run report: who may open it, and what it shows of the run, its result and coverage."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.tests.factories import make_run
from fdeplatform.leaderboards.tests.test_privacy import judged_run
from fdeplatform.runs.models import Run, Submission


@pytest.fixture
def run(knapsack: Case, bob: User) -> Run:
    run = judged_run(knapsack, bob)
    assert run.final_submission is not None
    Submission.objects.filter(pk=run.final_submission.pk).update(
        valid=False,
        score=0.0,
        error_kind="constraint",
        result={"valid": False, "score": 0.0, "error_kind": "constraint",
                "violations": [{"rule": "hazmat_excluded", "message": "Hazmat lines were loaded.",
                                "count": 2, "examples": [{"line": 3}]}],
                "reference_value": 123.456, "internal_log": "secret-log"},
    )  # fmt: skip
    Run.objects.filter(pk=run.pk).update(score=0.0, valid=False)
    return run


def test_the_player_sees_coverage_with_requirements_units_turns_and_judges(
    client: Client, bob: User, run: Run
) -> None:
    client.force_login(bob)
    response = client.post(f"/runs/{run.pk}/report/", {"reveal": "targets"})
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "The van now takes 12 kg, not 15 kg." in html  # requirement from the pinned gt.json
    assert "“How much can the van carry?”" in html and "question unit 1" in html
    assert "You asked about it first in turn 1:" in html and "offline-v1 (covered)" in html
    assert html.index("hazmat_excluded") < html.index("capacity_reduced")  # missed ones first


def test_the_report_shows_timeline_and_violations_but_no_reference_value(
    client: Client, bob: User, run: Run
) -> None:
    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    assert "Hazmat lines were loaded." in html and "2 rows" in html
    assert "Question 1?" in html and "Answer 2." in html and "Submission #1" in html
    assert "123.456" not in html and "secret-log" not in html


def test_staff_may_open_any_ended_report(client: Client, charlie: User, run: Run) -> None:
    client.force_login(charlie)
    assert client.get(f"/runs/{run.pk}/report/").status_code == 200


@pytest.mark.parametrize("status", ["open", "scoring"])
def test_the_report_is_404_to_others_until_the_run_has_ended(
    client: Client, alice: User, run: Run, charlie: User, status: str
) -> None:
    Run.objects.filter(pk=run.pk).update(status=status)
    for viewer in (alice, charlie):
        client.force_login(viewer)
        assert client.get(f"/runs/{run.pk}/report/").status_code == 404
    client.logout()
    assert client.get(f"/runs/{run.pk}/report/").status_code == 404


@pytest.mark.parametrize(
    ("status", "says"),
    [("open", "This report opens when the run closes"), ("scoring", "being scored")],
)
def test_the_player_is_told_their_report_opens_at_close(
    client: Client, bob: User, run: Run, status: str, says: str
) -> None:
    Run.objects.filter(pk=run.pk).update(status=status, score=None)
    client.force_login(bob)
    response = client.get(f"/runs/{run.pk}/report/")
    html = response.content.decode()
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    assert says in html and f'href="/runs/{run.pk}/"' in html
    # Nothing of the run's result or transcript yet.
    assert "Question 1?" not in html and "report-score" not in html


def test_others_and_anonymous_get_404(client: Client, alice: User, run: Run) -> None:
    assert client.get(f"/runs/{run.pk}/report/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/runs/{run.pk}/report/").status_code == 404


def test_practice_runs_have_reports_too(client: Client, knapsack: Case, bob: User) -> None:
    practice = make_run(case=knapsack, player=bob, score=1.0, valid=True, mode="practice")
    client.force_login(bob)
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    assert "No deliverable was submitted" in html and "This run has not been judged." in html


def test_report_survives_a_missing_package(client: Client, bob: User, db: Any) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case

    case = make_case("gone")
    lost = make_run(case=case, player=bob, score=0.5, valid=True, coverage={"recall": 0.0},
                    items=[{"target": "t1", "covered": False}])  # fmt: skip
    client.force_login(bob)
    html = client.post(f"/runs/{lost.pk}/report/", {"reveal": "targets"}).content.decode()
    assert "(requirement text unavailable)" in html


def test_targets_wait_until_the_counted_runs_are_done_or_the_player_accepts_the_cost(
    client: Client, bob: User, run: Run
) -> None:
    """Seeing the rules after run 1 of k would make runs 2..k replays: the report asks first."""
    from fdeplatform.runs.models import Exposure

    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    assert "The van now takes 12 kg, not 15 kg." not in html
    assert "stay hidden until you have ended" in html and 'name="reveal" value="targets"' in html
    assert not Exposure.objects.filter(player=bob).exists()
    revealed = client.post(f"/runs/{run.pk}/report/", {"reveal": "targets"}).content.decode()
    assert "The van now takes 12 kg, not 15 kg." in revealed
    assert Exposure.objects.filter(player=bob, kind=Exposure.TARGETS).exists()


def test_a_tutorial_report_shows_its_targets_once_the_run_ended(
    client: Client, bob: User, knapsack: Case
) -> None:
    """A tutorial has no ranked runs to earn its targets with, and no board to spoil: the
    report shows them after one ended practice run, with no word of counted ranked runs."""
    Case.objects.filter(pk=knapsack.pk).update(tutorial=True)
    practice = judged_run(knapsack, bob, mode="practice", standing="practice")
    client.force_login(bob)
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    assert "The van now takes 12 kg, not 15 kg." in html
    assert "ranked runs" not in html and 'name="reveal"' not in html
    still_open = make_run(case=knapsack, player=bob, score=None, valid=None, status="open",
                          mode="practice", standing="practice")  # fmt: skip
    assert still_open.status == "open"
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    assert "The van now takes 12 kg, not 15 kg." not in html
    assert "its targets stay hidden until that run ends" in html


def _scored(run: Run, *, score: float, raw: float, details: dict[str, Any]) -> None:
    assert run.final_submission is not None
    result = {"valid": True, "score": score, "raw_value": raw, "direction": "max",
              "normalisation": "ratio", "details": details, "reference_value": 123.456}  # fmt: skip
    Submission.objects.filter(pk=run.final_submission.pk).update(result=result, score=score)
    Run.objects.filter(pk=run.pk).update(score=score, valid=True)


def test_the_report_gives_the_result_in_business_terms_beside_the_score(
    client: Client, bob: User, run: Run
) -> None:
    _scored(run, score=0.8125, raw=3012.5, details={"margin_eur": 3012.5, "pallets_moved": 4})
    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    summary = html[html.index('aria-label="Result"') :]
    assert "0.8125" in summary and "3,012.5" in summary and "EUR net margin" in summary
    assert "Margin (EUR)" in html and "Pallets moved" in html and "higher is better" in html
    assert "123.456" not in html


def test_a_practice_report_shows_a_band_never_the_exact_score_beside_the_value(
    client: Client, bob: User, knapsack: Case
) -> None:
    practice = judged_run(knapsack, bob, mode="practice")
    _scored(practice, score=0.8125, raw=3012.5, details={"margin_eur": 3012.5})
    client.force_login(bob)
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    assert "3,012.5" in html and "0.8–0.9" in html
    assert "0.8125" not in html and "0.812" not in html and "Margin (EUR)" not in html


def test_a_practice_report_words_a_perfect_plan_and_a_bill_for_people(
    client: Client, bob: User, knapsack: Case
) -> None:
    """No "1.0–1.1", no "valid score —" and no four decimals on money (issue 28)."""
    practice = judged_run(knapsack, bob, mode="practice")
    _scored(practice, score=1.0, raw=1284.506579, details={})
    client.force_login(bob)
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    summary = html[html.index('aria-label="Result"') : html.index('id="timeline-h"')]
    assert summary.count("At or above the reference") == 2  # the summary and the final line
    assert "1,284.51" in summary and "1,284.5066" not in summary
    assert "1.0–1.1" not in summary and "score —" not in summary


def test_a_visitor_of_a_public_run_sees_the_score_but_not_the_business_value(
    client: Client, alice: User, run: Run
) -> None:
    _scored(run, score=0.8125, raw=3012.5, details={"margin_eur": 3012.5})
    Run.objects.filter(pk=run.pk).update(published=True)
    client.force_login(alice)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    assert "0.8125" in html and "3,012.5" not in html  # score and value would give away R


def test_a_get_with_reveal_in_the_query_changes_nothing(
    client: Client, bob: User, run: Run
) -> None:
    """A link clicked anywhere (``?reveal=targets``) must not mark the player informed."""
    from fdeplatform.runs.models import Exposure

    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/?reveal=targets").content.decode()
    assert "The van now takes 12 kg, not 15 kg." not in html
    assert "off the main board" in html and 'method="post"' in html
    assert not Exposure.objects.filter(player=bob).exists()


def test_a_reveal_without_the_csrf_token_is_refused(bob: User, run: Run) -> None:
    from fdeplatform.runs.models import Exposure

    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    response = client.post(f"/runs/{run.pk}/report/", {"reveal": "targets"})
    assert response.status_code == 403
    assert not Exposure.objects.filter(player=bob).exists()


def test_a_reveal_with_the_csrf_token_shows_and_records(bob: User, run: Run) -> None:
    from fdeplatform.runs.models import Exposure

    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    page = client.get(f"/runs/{run.pk}/report/")
    token = page.context["csrf_token"]
    response = client.post(
        f"/runs/{run.pk}/report/", {"reveal": "targets", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 200
    assert "The van now takes 12 kg, not 15 kg." in response.content.decode()
    assert Exposure.objects.filter(player=bob, kind=Exposure.TARGETS).exists()


def test_the_timeline_names_each_speaker_of_a_two_voice_answer_once(
    client: Client, bob: User, run: Run
) -> None:
    from fdeplatform.runs.models import Exchange

    Exchange.objects.filter(run=run, turn=1).update(
        stakeholder="Priya Shah (Café owner) & Tom Fletcher (PTA coordinator)",
        answer="Priya Shah (Café owner): Five hours.\n\nTom Fletcher (PTA coordinator): No nuts.",
    )
    Exchange.objects.filter(run=run, turn=2).update(
        stakeholder="Tobias Reinholz (Energy Buyer (Finance))"
    )
    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    timeline = html[html.index('id="timeline"') :]
    assert timeline.count("Priya Shah (Café owner)") == 1
    assert timeline.count("Tom Fletcher (PTA coordinator)") == 1
    assert "&amp; Tom" not in timeline and "Five hours." in timeline and "No nuts." in timeline
    assert "Tobias Reinholz (Energy Buyer - Finance):" in timeline


def test_coverage_leads_with_the_requirement_and_keeps_keys_in_small_print(
    client: Client, bob: User, run: Run
) -> None:
    client.force_login(bob)
    html = client.post(f"/runs/{run.pk}/report/", {"reveal": "targets"}).content.decode()
    article = html[html.index('data-target="capacity_reduced"') :]
    article = article[: article.index("</article>")]
    heading = article[article.index("<h3>") : article.index("</h3>")]
    assert "The van now takes 12 kg, not 15 kg." in heading and "capacity_reduced" not in heading
    small = article[article.index('class="rp-keys') :]
    assert "<code>capacity_reduced</code>" in small and "unit 1, turn 1" not in article
