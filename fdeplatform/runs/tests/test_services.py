from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from fdeplatform.cases.models import Case
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.models import Exchange, Run, RunStatus
from fdeplatform.runs.services import run_ask, run_for_player, run_start


def _start(user: User, case: Case, **kw: str) -> Run:
    return run_start(
        player=user,
        case_slug=case.slug,
        condition=kw.get("condition", "interact_req"),
        mode=kw.get("mode", "practice"),
    )


def test_it_pins_the_run_to_the_current_version(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    assert run.case_version_id == knapsack.current_version_id
    assert run.rounds_limit == knapsack.current_version.rounds_limit
    assert run.deadline > timezone.now()


def test_it_rejects_an_unknown_case_and_bad_condition(alice: User, knapsack: Case) -> None:
    with pytest.raises(RunError) as err:
        run_start(player=alice, case_slug="nope", condition="interact_req", mode="practice")
    assert err.value.code == "unknown_case"
    with pytest.raises(RunError) as err:
        run_start(player=alice, case_slug=knapsack.slug, condition="psychic", mode="practice")
    assert err.value.code == "bad_condition"


def test_asking_records_the_exchange_and_discloses_the_fact(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    exchange = run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry now?")
    assert exchange.turn == 1
    assert "12 kg" in exchange.answer
    assert exchange.disclosed == ["van_capacity"]
    assert exchange.stakeholder.startswith("Sam Okafor")
    assert exchange.units == ["How much weight can the van carry now?"]
    assert Run.objects.get(pk=run.pk).rounds_used == 1


def test_a_repeated_client_id_returns_the_same_exchange(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    first = run_ask(
        run_id=run.pk, player=alice, text="Has the van's capacity changed?", client_id="m1"
    )
    again = run_ask(
        run_id=run.pk, player=alice, text="Has the van's capacity changed?", client_id="m1"
    )
    assert first.pk == again.pk
    assert Exchange.objects.filter(run=run).count() == 1


def test_it_rejects_the_round_after_the_limit_and_changes_nothing(
    alice: User, knapsack: Case
) -> None:
    run = _start(alice, knapsack)
    Run.objects.filter(pk=run.pk).update(rounds_limit=2)
    run_ask(run_id=run.pk, player=alice, text="What is the maximum load of the van?")
    run_ask(run_id=run.pk, player=alice, text="What is the weather like?")
    with pytest.raises(RunError) as err:
        run_ask(run_id=run.pk, player=alice, text="One more?")
    assert err.value.code == "round_limit"
    assert Exchange.objects.filter(run=run).count() == 2
    assert Run.objects.get(pk=run.pk).rounds_used == 2


def test_it_refuses_questions_without_a_customer(alice: User, knapsack: Case) -> None:
    for condition in ("hidden", "full"):
        run = _start(alice, knapsack, condition=condition)
        with pytest.raises(RunError) as err:
            run_ask(run_id=run.pk, player=alice, text="Hello?")
        assert err.value.code == "no_customer"


def test_an_expired_run_accepts_no_more_questions(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    Run.objects.filter(pk=run.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(RunError) as err:
        run_ask(run_id=run.pk, player=alice, text="Is the van capacity really 15 kg?")
    assert err.value.code == "run_expired"
    assert Run.objects.get(pk=run.pk).status in {RunStatus.EXPIRED, RunStatus.SCORING}
    assert not Exchange.objects.filter(run=run).exists()


def test_nobody_else_can_read_or_ask_in_a_run(
    alice: User, bob: User, charlie: User, knapsack: Case
) -> None:
    run = _start(alice, knapsack)
    with pytest.raises(RunError) as err:
        run_for_player(run_id=run.pk, player=bob)
    assert err.value.code == "not_found"
    with pytest.raises(RunError):
        run_ask(run_id=run.pk, player=bob, text="How much weight can the van carry now?")
    assert run_for_player(run_id=run.pk, player=charlie) == run  # staff may review


def test_it_rejects_empty_and_oversized_questions(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    for text, code in (("   ", "empty_question"), ("x" * 5000, "too_long")):
        with pytest.raises(RunError) as err:
            run_ask(run_id=run.pk, player=alice, text=text)
        assert err.value.code == code
    assert Run.objects.get(pk=run.pk).rounds_used == 0


@pytest.mark.django_db(transaction=True)
def test_closing_without_a_submission_scores_zero(
    alice: User, knapsack: Case, settings: object
) -> None:
    settings.CELERY_BROKER_URL = ""  # type: ignore[attr-defined]
    run = _start(alice, knapsack, mode="ranked")
    closed = run_close(run_id=run.pk, player=alice)
    assert closed.status == RunStatus.CLOSED
    assert closed.score == 0.0
    assert closed.valid is False
