"""One question to the customer: the platform's hot path, in one short transaction.

Hundreds of agents ask at once (issue 12), so this path spends as little as it can while
keeping three guarantees:

- the round limit holds: the run's row is locked (``FOR UPDATE``, that row only) before the
  rounds are counted, so two tabs or a retrying agent cannot squeeze in an extra round;
- a resent client message id is free: it returns the exchange already recorded for it;
- exactly one exchange per question: both checks above run under the lock, and the unique
  constraints on (run, turn) and (run, client id) back them up.

Per question that is at most four statements (lock the run, read the exchanges this process
has not seen yet, count the round and record the exchange in one, read the run's submissions
for the status frame, which is built from what the transaction already holds); the statements
are in ``question_sql``, the per-process copies of histories in ``histories``. The case
version (slug, version, stored package) and the built customer are cached per process, since
neither ever changes for a stored version.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from customer_sim.base import CustomerUnavailable, Reply
from fdeplatform.cases.models import CaseVersion
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import rate_setting
from fdeplatform.runs import histories, question_sql
from fdeplatform.runs.customer import customer_reply, history_from
from fdeplatform.runs.errors import RunError, not_found, rate_limited
from fdeplatform.runs.models import Exchange, Run, RunStatus
from fdeplatform.runs.question_sql import ExchangeRow
from fdeplatform.runs.speakers import display_name, plain_label

MAX_QUESTION_CHARS = 4000


def ask(
    *, run_id: object, player: Any, text: str, to: str, client_id: str
) -> tuple[Exchange, dict[str, Any]]:
    """Record one question (or find the one already recorded for ``client_id``).

    Returns the exchange and the run's status snapshot. A refusal is raised as ``RunError``
    after the transaction: an expiry found on the way is committed, not rolled back.
    """
    outcome = _ask(run_id=run_id, player=player, text=text, to=to, client_id=client_id)
    if isinstance(outcome, RunError):
        raise outcome
    return outcome


@transaction.atomic
def _ask(
    *, run_id: object, player: Any, text: str, to: str, client_id: str
) -> tuple[Exchange, dict[str, Any]] | RunError:
    from fdeplatform.runs.selectors import snapshot_of
    from fdeplatform.runs.services import ensure_open

    run = locked_run(run_id, player)
    if run.status == RunStatus.OPEN and timezone.now() >= run.deadline:
        return _expire(run)
    key = question_sql.run_key(run.pk)
    history = histories.history_of(key, run.rounds_used)
    exchanges: list[Exchange | ExchangeRow] = list(history)
    client_id = (client_id or "")[:64]
    resent = next((e for e in exchanges if client_id and e.client_id == client_id), None)
    if resent is not None:
        exchange = resent.to_model(run) if isinstance(resent, ExchangeRow) else resent
    else:
        text = check_question(text)
        ensure_open(run)
        if not run.has_customer:
            raise RunError(
                "no_customer", "Under this condition the customer does not take questions.", 409
            )
        if run.rounds_used >= run.rounds_limit:
            raise RunError(
                "round_limit", f"All {run.rounds_limit} clarification rounds are used.", 409
            )
        # Counted only for a new question: resending a message id after a drop is free.
        wait = ratelimit.hit("questions", str(player.pk), rate_setting("QUESTION_RATE"))
        if wait is not None:
            raise rate_limited("questions", wait)
        exchange = _record(run, exchanges, text, to.strip(), client_id)
        exchanges.append(exchange)
        histories.remember_after_commit(key, [*history, ExchangeRow.of(exchange)])
    submissions = question_sql.submissions_of(key)
    return exchange, snapshot_of(run, exchanges=exchanges, submissions=submissions)


def check_question(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise RunError("empty_question", "The question is empty.")
    if "\x00" in text:  # PostgreSQL text cannot hold it; say so instead of failing on save
        raise RunError("bad_text", "The question contains a NUL character; remove it and resend.")
    if len(text) > MAX_QUESTION_CHARS:
        raise RunError(
            "too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters.", 413
        )
    return text


def locked_run(run_id: object, player: Any) -> Run:
    """The run, its row locked until the transaction ends, if ``player`` owns it."""
    run = _run(run_id, player, lock=True)
    if run.player_id != player.pk:  # staff may read any run, but ask only in their own
        raise not_found()
    return run


def readable_run(run_id: object, player: Any) -> Run:
    """The run if ``player`` owns it (staff may read any run), read with the question path's
    prepared statement and cached case version: a socket's connect and every status frame
    read it, and the ORM's query compilation was most of their cost."""
    return _run(run_id, player, lock=False)


def _run(run_id: object, player: Any, *, lock: bool) -> Run:
    try:
        key = question_sql.run_key(uuid.UUID(str(run_id)))
    except ValueError:
        raise not_found() from None
    found = question_sql.lock_run(key) if lock else question_sql.read_run(key)
    if found is None or not player.is_authenticated:
        raise not_found()
    run, digest = found
    if run.player_id != player.pk and not getattr(player, "is_staff", False):
        raise not_found()
    run.case_version = stored_version(run.case_version_id, digest)
    return run


def _expire(run: Run) -> RunError:
    from fdeplatform.runs.closing import run_finish

    # Closing reaches well beyond the question path (scoring, coverage): give it a run loaded
    # the ordinary way rather than the trimmed one this module works with.
    run_finish(
        run=Run.objects.select_related("case_version").get(pk=run.pk), status=RunStatus.EXPIRED
    )
    return RunError(
        "run_expired", "This run's time budget is used up; it accepts nothing more.", 409
    )


def _record(
    run: Run, exchanges: Sequence[Exchange | ExchangeRow], text: str, to: str, client_id: str
) -> Exchange:
    started = time.monotonic()
    question = f"@{to} {text}" if to else text
    try:
        reply = customer_reply(run, question, history_from(exchanges))
    except CustomerUnavailable as exc:
        raise RunError("customer_unavailable", str(exc), 503) from exc
    run.rounds_used += 1
    exchange = Exchange(
        run_id=run.pk,
        turn=run.rounds_used,
        client_id=client_id,
        question=text,
        units=reply.units,
        answer=reply.text,
        stakeholder_id=reply.stakeholder_id,
        stakeholder=_speakers_display(reply),
        disclosed=reply.disclosed,
        speakers=reply.speakers or [reply.stakeholder_id],
        latency_ms=int((time.monotonic() - started) * 1000),
        contact_cost=reply.contact_cost,
        created_at=timezone.now(),
    )
    question_sql.record(question_sql.run_key(run.pk), run.rounds_used, exchange)
    Exchange.run.field.set_cached_value(exchange, run)  # callers read exchange.run
    return exchange


def _speakers_display(reply: Reply) -> str:
    """Who answered, as the transcript shows it ("A (role) & B (role)" when several did; never
    nested brackets, ``speakers.display_name``)."""
    if len(reply.speaker_labels) > 1:
        return " & ".join(plain_label(label) for label in reply.speaker_labels)[:200]
    return display_name(reply.stakeholder_name, reply.stakeholder_role)


_versions: dict[tuple[int, str, str], CaseVersion] = {}
_versions_lock = threading.Lock()


def stored_version(version_id: int, digest: str) -> CaseVersion:
    """The case version with its case, cached in this process.

    A stored version's content never changes (``CaseVersion.IMMUTABLE_FIELDS``), and the
    question path reads only that (slug, version, stored package), so one query per process
    replaces one per question. Keyed by id, digest and store, so a reused id (another
    database, a test's) never returns another package. Its ``state`` may go stale here: read
    that from the database.
    """
    key = (version_id, digest, str(settings.CASE_STORE))
    version = _versions.get(key)
    if version is None:
        version = CaseVersion.objects.select_related("case").get(pk=version_id)
        with _versions_lock:
            if len(_versions) >= 256:
                _versions.clear()
            _versions[key] = version
    return version
