"""Run operations: start, ask, close. Views, the API and the websocket consumer call these.

Every check that protects the game (ownership, budget, deadline, condition) happens here, on
the server, inside a transaction that locks the run row, so two tabs or a retrying agent
cannot squeeze in an extra round.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from fdeplatform.cases.levels import LEVEL_CONDITIONS, offered_levels
from fdeplatform.cases.models import Case
from fdeplatform.cases.selectors import published_cases
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import rate_setting
from fdeplatform.runs import asking
from fdeplatform.runs.errors import RunError, not_found, rate_limited
from fdeplatform.runs.models import Condition, Exchange, Exposure, Mode, Run, RunStatus
from fdeplatform.runs.standing import board_label_for, record_exposure, setup_of, standing_for
from fdeplatform.runs.variants import assign_variant

MAX_QUESTION_CHARS = asking.MAX_QUESTION_CHARS
Player = User | AnonymousUser
RunId = UUID | str


def _signed_in(player: Player) -> User:
    if not isinstance(player, User) or not player.is_authenticated:
        raise RunError("unauthorised", "Log in or pass an API token.", 401)
    return player


def run_start(
    *,
    player: Player,
    case_slug: str,
    condition: str,
    mode: str,
    label: str = "",
    is_agent: bool = False,
) -> Run:
    case = published_cases().filter(slug=case_slug).first()
    if case is None or case.current_version is None:
        # A retired case is still on the boards, but no new run may start on it.
        raise RunError("unknown_case", f"No published case {case_slug!r}.", 404)
    if condition not in Condition.values:
        raise RunError("bad_condition", f"condition must be one of {', '.join(Condition.values)}.")
    if mode not in Mode.values:
        raise RunError("bad_mode", f"mode must be one of {', '.join(Mode.values)}.")
    if case.tutorial and mode == Mode.RANKED:
        raise RunError(
            "tutorial_practice_only",
            f"{case.title} is the tutorial: it has no leaderboard, so it takes practice runs only.",
        )
    if condition in LEVEL_CONDITIONS and condition not in offered_levels(
        case.current_version.package_dir / "hidden"
    ):
        raise RunError(
            "condition_not_offered",
            f"{case.title} does not offer instruction level {LEVEL_CONDITIONS[condition]}.",
        )
    return _create_run(_signed_in(player), case, condition, mode, label.strip()[:200], is_agent)


def _refuse_beyond_fair_use(player: User) -> None:
    """Caps on open runs and on run starts per player (settings ``OPEN_RUNS_PER_USER``,
    ``RUN_START_RATE``): one runaway agent loop must not fill the site with runs."""
    cap = settings.OPEN_RUNS_PER_USER
    if cap and Run.objects.filter(player=player, status=RunStatus.OPEN).count() >= cap:
        raise RunError(
            "too_many_open_runs",
            f"You have {cap} open runs, the most allowed at once; close one first.",
            429,
        )
    wait = ratelimit.hit("run-start", str(player.pk), rate_setting("RUN_START_RATE"))
    if wait is not None:
        raise rate_limited("run starts", wait)


@transaction.atomic
def _create_run(
    player: User, case: Case, condition: str, mode: str, label: str, is_agent: bool
) -> Run:
    # One start at a time per player (the row lock), so two tabs cannot both pass the checks.
    User.objects.select_for_update().filter(pk=player.pk).first()
    _refuse_beyond_fair_use(player)
    _refuse_beside_a_ranked_run(player, case, mode)
    version = case.current_version
    assert version is not None
    customer, judge = measured_with()
    board_label = board_label_for(player=player, label=label, is_agent=is_agent)
    now = timezone.now()
    run = Run.objects.create(
        player=player,
        case_version=version,
        condition=condition,
        mode=mode,
        label=label,
        is_agent=is_agent,
        customer_backend=settings.CUSTOMER_BACKEND,
        judge=judge,
        setup=setup_of(customer=customer, judge=judge),
        board_label=board_label,
        standing=standing_for(
            player=player, case=case, condition=condition, mode=mode, board_label=board_label
        ),
        rounds_limit=version.rounds_limit,
        variant=assign_variant(
            player=player, version=version, condition=condition, mode=mode, board_label=board_label
        ),
        started_at=now,
        deadline=Run.deadline_for(version, now),
    )
    if condition == Condition.FULL or (
        condition.startswith("oracle_") and condition != Condition.ORACLE_0
    ):
        # Full information or registered answers: the case's hidden side, handed out.
        record_exposure(player=player, case=case, kind=Exposure.FULL)
    elif condition in LEVEL_CONDITIONS:
        record_exposure(player=player, case=case, kind=f"level_{condition.removeprefix('gym_')}")
    return run


def measured_with() -> tuple[str, str]:
    """The customer and the coverage judge runs started now are measured with."""
    customer = settings.CUSTOMER_BACKEND
    if customer in ("llm", "hybrid"):
        customer = f"{customer}:{getattr(settings, 'CUSTOMER_MODEL', '') or '?'}"
    judge = settings.COVERAGE_JUDGE
    if judge == "llm":
        judge = f"llm:{','.join(getattr(settings, 'JUDGE_MODELS', []) or []) or '?'}"
    return customer, judge[:80]


def _refuse_beside_a_ranked_run(player: User, case: Case, mode: str) -> None:
    """While a ranked run is open, the player has no other run on that case: no Full run for
    the answers, no practice run as an oracle, no extra customer budget on the side."""
    open_runs = Run.objects.filter(
        player=player, case_version__case=case, status=RunStatus.OPEN, deadline__gt=timezone.now()
    )
    if open_runs.filter(mode=Mode.RANKED).exists():
        raise RunError(
            "ranked_run_open",
            "You have an open ranked run on this case; close it before starting another run "
            "on the same case.",
            409,
        )
    if mode == Mode.RANKED and open_runs.exists():
        raise RunError(
            "run_open",
            "Close your open practice run on this case before starting a ranked run on it.",
            409,
        )


def run_for_player(*, run_id: RunId, player: Player) -> Run:
    """The run, if ``player`` owns it (staff may read any run)."""
    run = Run.objects.select_related("case_version__case").filter(pk=run_id).first()
    if run is None or not player.is_authenticated:
        raise not_found()
    if run.player_id != player.pk and not getattr(player, "is_staff", False):
        raise not_found()
    return run


def lock_own_run(run_id: RunId, player: Player) -> Run:
    """The run, locked for this transaction, if ``player`` owns it.

    Only the run row is locked (``of=("self",)``): without it PostgreSQL also locks the joined
    case version row, so every question, upload and close on a case waited for every other
    one in flight on that case (issue 12: the whole site's questions ran one at a time).
    """
    run = (
        Run.objects.select_for_update(of=("self",))
        .select_related("case_version")
        .filter(pk=run_id)
        .first()
    )
    if run is None or not player.is_authenticated or run.player_id != player.pk:
        raise not_found()
    return run


def expire_if_due(run_id: RunId) -> None:
    """Finish a run whose deadline has passed, in its own transaction so it sticks even when
    the caller's request is then refused."""
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is not None and run.status == RunStatus.OPEN and timezone.now() >= run.deadline:
            from fdeplatform.runs.closing import run_finish

            run_finish(run=run, status=RunStatus.EXPIRED)


def expire_due_runs() -> int:
    """Expire every open run whose deadline has passed; the number expired.

    Run periodically (``fdeplatform.core.periodic``), not only when a player comes back: an
    abandoned ranked run must end and count as 0 on the board (FDE-Bench counts every planned
    run), and its coverage must be judged like any other.
    """
    due = list(
        Run.objects.filter(status=RunStatus.OPEN, deadline__lte=timezone.now()).values_list(
            "pk", flat=True
        )
    )
    for run_id in due:
        expire_if_due(run_id)
    return len(due)


def ensure_open(run: Run) -> None:
    """Refuse work on a run that is closed or past its deadline."""
    if run.status == RunStatus.EXPIRED or (
        run.status == RunStatus.OPEN and timezone.now() >= run.deadline
    ):
        raise RunError(
            "run_expired", "This run's time budget is used up; it accepts nothing more.", 409
        )
    if run.status != RunStatus.OPEN:
        raise RunError("run_closed", "This run is closed; start a new run to keep playing.", 409)


def run_ask(
    *, run_id: RunId, player: Player, text: str, to: str = "", client_id: str = ""
) -> Exchange:
    """Put one round to the customer and record it.

    A repeated ``client_id`` returns the exchange already recorded for it, so a client that
    lost the answer (dropped websocket, timeout) can resend without spending another round.
    """
    return run_ask_live(run_id=run_id, player=player, text=text, to=to, client_id=client_id)[0]


def run_ask_live(
    *, run_id: RunId, player: Player, text: str, to: str = "", client_id: str = ""
) -> tuple[Exchange, dict[str, Any]]:
    """``run_ask`` plus the run's status snapshot, from one short transaction.

    The websocket sends both frames; the snapshot is built from the rows the transaction
    already holds. The work itself is in ``fdeplatform.runs.asking`` (issue 12: the question
    path is the platform's hot path, so it is written for few statements and little CPU).
    """
    return asking.ask(run_id=run_id, player=player, text=text, to=to, client_id=client_id)
