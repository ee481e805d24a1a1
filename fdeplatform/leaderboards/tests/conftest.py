"""The hand-computed leaderboard fixture shared by the leaderboard tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from fdeplatform.leaderboards.tests.factories import make_case, make_run, user


def _cov(recall: float | None, precision: float | None, f1: float | None, kqc1: float | None,
         atc: float | None, redundant: int | None) -> dict[str, Any]:  # fmt: skip
    return {"recall": recall, "precision": precision, "ask_f1": f1, "kqc1": kqc1, "atc": atc,
            "redundant": redundant}  # fmt: skip


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """Computed boards are cached per results stamp; tests build different data with equal stamps."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def standard(db: None) -> dict[str, Any]:
    """Three cases, agent bot-a (9 ranked runs + 3 Hidden), humans alice and bob.

    Expected values are worked out by hand in the tests from the numbers written here.
    """
    alpha = make_case("alpha", family="CO", sector="logistics")
    beta = make_case("beta", family="CO", sector="energy")
    gamma = make_case("gamma", family="ML", sector="finance")
    owner, alice, bob = user("botmaker"), user("alice"), user("bob")
    bot = {"player": owner, "agent": "bot-a"}
    make_run(case=alpha, score=1.0, valid=True, costs=[0.05, 0.05],
             coverage=_cov(1.0, 0.5, 2 / 3, 0.5, 1.5, 1), error_kind="", **bot)  # fmt: skip
    make_run(case=alpha, score=0.5, valid=True, costs=[0.05],
             coverage=_cov(0.5, 1.0, 2 / 3, 0.0, 2.0, 0), **bot)  # fmt: skip
    make_run(case=alpha, score=0.0, valid=False,
             coverage=_cov(0.0, None, None, 0.0, None, 0), error_kind="constraint", **bot)  # fmt: skip
    make_run(case=beta, score=1.0, valid=True, costs=[0.1, 0.1, 0.1],
             coverage=_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0), **bot)  # fmt: skip
    make_run(case=beta, score=1.0, valid=True,
             coverage=_cov(1.0, 0.75, 6 / 7, 0.5, 1.5, 1), **bot)  # fmt: skip
    make_run(case=beta, score=0.8, valid=True,
             coverage=_cov(0.5, 0.5, 0.5, 0.25, 3.0, 2), **bot)  # fmt: skip
    make_run(case=gamma, score=0.2, valid=True,
             coverage=_cov(0.25, 0.25, 0.25, 0.0, 4.0, 3), **bot)  # fmt: skip
    make_run(case=gamma, score=0.0, valid=False, status="expired",
             coverage=_cov(0.0, None, None, 0.0, None, 0), **bot)  # fmt: skip
    # Coverage being re-judged keeps stale numbers: they must not count.
    make_run(case=gamma, score=None, valid=False,
             coverage={"status": "pending", **_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0)}, **bot)  # fmt: skip
    for case, score in ((alpha, 0.2), (beta, 0.4), (gamma, 0.0)):
        make_run(case=case, score=score, valid=score > 0, condition="hidden", **bot)
    # Never counted: practice, open, still scoring.
    make_run(case=alpha, score=1.0, valid=True, mode="practice", **bot)
    make_run(case=beta, score=None, valid=None, status="open", **bot)
    make_run(case=gamma, score=1.0, valid=True, status="scoring", **bot)
    make_run(case=alpha, score=0.0, valid=False, mode="practice", player=alice)
    for _ in range(2):
        make_run(case=alpha, score=1.0, valid=True, player=alice)
    early = datetime(2025, 1, 15, 9, 0, tzinfo=UTC)
    for case in (alpha, beta, gamma):
        for _ in range(3):
            start = early if case is gamma else datetime(2025, 3, 2, 9, 0, tzinfo=UTC)
            make_run(case=case, score=0.6, valid=True, player=bob, started_at=start)
    return {"alpha": alpha, "beta": beta, "gamma": gamma, "alice": alice, "bob": bob}
