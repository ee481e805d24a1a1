"""The question path's cost and its locks (issue 12: hundreds of agents asking at once)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.runs import histories, question_sql
from fdeplatform.runs.models import Exchange, Run
from fdeplatform.runs.services import lock_own_run, run_ask, run_ask_live, run_start

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def _start(user: User, case: Case) -> Run:
    return run_start(player=user, case_slug=case.slug, condition="interact_req", mode="practice")


def _statements(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in captured.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]


@pytest.mark.django_db
def test_a_question_takes_four_statements(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    run_ask(run_id=run.pk, player=alice, text="Which unit is the weight in?")  # warms caches
    with CaptureQueriesContext(connection) as captured:
        exchange, snapshot = run_ask_live(
            run_id=run.pk, player=alice, text="How much weight can the van carry now?"
        )
    # Lock the run, read its exchanges, count the round and insert the exchange (one statement
    # on PostgreSQL, two elsewhere), read uploads.
    expected = 4 if connection.vendor == "postgresql" else 5
    assert len(_statements(captured)) == expected, _statements(captured)
    assert exchange.turn == 2 and "12 kg" in exchange.answer
    assert snapshot["run"]["rounds_used"] == 2
    assert [e["turn"] for e in snapshot["exchanges"]] == [1, 2]
    assert snapshot["run"]["case"] == knapsack.slug
    assert Exchange.objects.get(pk=exchange.pk).answer == exchange.answer


@pytest.mark.django_db
def test_a_resent_message_id_writes_nothing(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    first = run_ask(run_id=run.pk, player=alice, text="Has the van changed?", client_id="m1")
    with CaptureQueriesContext(connection) as captured:
        again, snapshot = run_ask_live(
            run_id=run.pk, player=alice, text="Has the van changed?", client_id="m1"
        )
    assert again.pk == first.pk and again.answer == first.answer
    statements = _statements(captured)
    assert len(statements) == 3, statements  # lock, exchanges, uploads
    assert not any(s.startswith(("INSERT", "UPDATE")) for s in statements)
    assert snapshot["run"]["rounds_used"] == 1


@pytest.mark.django_db
def test_an_exchange_read_back_matches_the_orm(alice: User, knapsack: Case) -> None:
    run = _start(alice, knapsack)
    run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry now?")
    (read,) = question_sql.exchanges_of(question_sql.run_key(run.pk))
    stored = Exchange.objects.get(run=run)
    for name in question_sql.EXCHANGE_FIELDS:
        assert getattr(read, name) == getattr(stored, name), name
    assert read.created_at.tzinfo is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lock", ["question", "upload or close"])
def test_locking_a_run_leaves_its_case_version_free(
    alice: User, bob: User, knapsack: Case, lock: str
) -> None:
    """PostgreSQL locked every joined row: all questions on a case waited for each other."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL has row locks (SQLite locks the database)")
    run = _start(alice, knapsack)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                if lock == "question":
                    question_sql.lock_run(question_sql.run_key(run.pk))
                else:
                    lock_own_run(run.pk, alice)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(30)
        with transaction.atomic():
            # NOWAIT raises at once if the version row is locked by the other transaction.
            version: Any = CaseVersion.objects.select_for_update(nowait=True)
            assert version.get(pk=run.case_version_id).pk == run.case_version_id
            other = _start(bob, knapsack)
            assert question_sql.lock_run(question_sql.run_key(other.pk)) is not None
    finally:
        release.set()
        holder.join(30)


@pytest.mark.django_db
def test_with_the_pool_the_statements_are_prepared_once(
    alice: User, knapsack: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``DB_POOL_SIZE`` the question path prepares its statements on the connection."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL prepares statements")
    monkeypatch.setitem(
        connection.settings_dict, "OPTIONS", {**connection.settings_dict["OPTIONS"], "pool": {}}
    )
    run = _start(alice, knapsack)
    for turn, text in enumerate(["Which unit is the weight in?", "How much can the van carry?"], 1):
        exchange, snapshot = run_ask_live(
            run_id=run.pk, player=alice, text=text, client_id=f"m{turn}"
        )
        assert exchange.turn == turn and snapshot["run"]["rounds_used"] == turn
    again, _ = run_ask_live(run_id=run.pk, player=alice, text="ignored", client_id="m1")
    assert again.turn == 1 and again.question == "Which unit is the weight in?"
    assert [e.turn for e in Exchange.objects.filter(run=run).order_by("turn")] == [1, 2]
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in s for s in prepared), prepared
    assert any(s.startswith("WITH counted AS") for s in prepared), prepared


@pytest.mark.django_db
def test_a_process_reads_only_the_exchanges_it_has_not_seen(
    alice: User, knapsack: Case, django_capture_on_commit_callbacks: Any
) -> None:
    run = _start(alice, knapsack)
    key = question_sql.run_key(run.pk)
    with django_capture_on_commit_callbacks(execute=True):
        run_ask_live(run_id=run.pk, player=alice, text="Which unit is the weight in?")
    with (
        CaptureQueriesContext(connection) as captured,
        django_capture_on_commit_callbacks(execute=True),
    ):
        second, snapshot = run_ask_live(
            run_id=run.pk, player=alice, text="How much weight can the van carry now?"
        )
    statements = _statements(captured)
    # Its own first question is remembered: no exchange is read back.
    assert not any("turn" in s and s.startswith("SELECT") for s in statements[1:]), statements
    assert [e["turn"] for e in snapshot["exchanges"]] == [1, 2]
    assert [row.turn for row in histories.history_of(key, 2)] == [1, 2]

    # Another process (or tab) asked a third question: only that one is read.
    third = Exchange.objects.create(
        run=run, turn=3, question="third?", answer="yes", disclosed=["x"], speakers=["ops"]
    )
    Run.objects.filter(pk=run.pk).update(rounds_used=3)
    with CaptureQueriesContext(connection) as captured:
        rows = histories.history_of(key, 3)
    assert [r.turn for r in rows] == [1, 2, 3] and rows[2].id == third.pk
    assert rows[1].id == second.pk and rows[2].disclosed == ["x"]
    (read,) = captured.captured_queries
    assert '"turn" >' in read["sql"], read["sql"]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_question_leaves_no_copy(
    alice: User, knapsack: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _start(alice, knapsack)
    run_ask(run_id=run.pk, player=alice, text="Which unit is the weight in?")

    def fail(run_key: Any) -> Any:
        raise RuntimeError("the status read failed")

    monkeypatch.setattr(question_sql, "submissions_of", fail)
    with pytest.raises(RuntimeError):
        run_ask_live(run_id=run.pk, player=alice, text="How much can the van carry?")
    monkeypatch.undo()
    # Meanwhile another process records turn 2: the failed question must not stand in for it.
    Exchange.objects.create(run=run, turn=2, question="Is it the same van?", answer="Yes.")
    Run.objects.filter(pk=run.pk).update(rounds_used=2)
    exchange, snapshot = run_ask_live(run_id=run.pk, player=alice, text="Any other van?")
    assert exchange.turn == 3
    assert [e["question"] for e in snapshot["exchanges"]] == [
        "Which unit is the weight in?",
        "Is it the same van?",
        "Any other van?",
    ]


@pytest.mark.django_db
def test_a_hybrid_run_records_the_models_wording_and_the_scripted_disclosure(
    alice: User, knapsack: Case, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CUSTOMER_BACKEND=hybrid: the scripted engine decides, a model (the local test server,
    through the real openai client) words; a rewording that changes a figure is not used."""
    from tests.support.fake_openai import FakeChatServer, completion

    server = FakeChatServer([completion("Sure - the van takes 12 kg, no more.")])
    try:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        monkeypatch.setenv("CUSTOMER_MODEL", "voice-test-model")
        settings.CUSTOMER_BACKEND = "hybrid"
        settings.CUSTOMER_MODEL = "voice-test-model"
        run = _start(alice, knapsack)
        assert run.customer_backend == "hybrid" and "hybrid:voice-test-model" in run.setup
        exchange = run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry?")
        assert exchange.answer == "Sure - the van takes 12 kg, no more."
        assert exchange.disclosed  # what the scripted customer disclosed, unchanged
        server.responses[:] = [completion("The van takes 15 kg.")]  # a figure changed
        second = run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry now?")
        assert "15 kg" not in second.answer and "12 kg" in second.answer
    finally:
        server.close()
