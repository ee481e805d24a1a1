"""FDE-Gym score, its aggregate and "resolved" (FDE-Gym §2.3)."""

from __future__ import annotations

import pytest

from metrics.delivery import (
    GymRun,
    floored_run_score,
    gym_mean,
    gym_run_score,
    incident_adjusted_uplift,
    resolved,
)


def test_without_an_incident_the_score_is_uplift_minus_contact_cost() -> None:
    score = gym_run_score(uplift=0.9, incident=False, contact_cost=0.05)
    assert score == pytest.approx(0.85)
    assert resolved(score, incident=False)


def test_an_incident_voids_the_gain_and_costs_the_penalty() -> None:
    assert gym_run_score(uplift=0.95, incident=True, contact_cost=0.0) == -1.0
    assert gym_run_score(uplift=0.95, incident=True, contact_cost=0.1) == pytest.approx(-1.1)


def test_an_incident_keeps_a_measured_loss() -> None:
    assert incident_adjusted_uplift(-0.3, incident=True) == pytest.approx(-1.3)


def test_a_zero_penalty_incident_only_caps_uplift_at_zero() -> None:
    assert incident_adjusted_uplift(0.95, incident=True, incident_penalty=0.0) == 0.0
    assert incident_adjusted_uplift(-0.2, incident=True, incident_penalty=0.0) == -0.2


def test_resolved_needs_at_least_point_eight_and_no_incident() -> None:
    assert resolved(0.8, incident=False)
    assert resolved(0.8 - 1e-12, incident=False)
    assert not resolved(0.79, incident=False)
    assert not resolved(0.95, incident=True)


def test_the_mean_floors_adjusted_uplift_at_minus_one_before_the_cost() -> None:
    run = GymRun(task="t", uplift=-3.0, incident=False, contact_cost=0.1)
    assert gym_run_score(uplift=-3.0, incident=False, contact_cost=0.1) == pytest.approx(-3.1)
    assert floored_run_score(run) == pytest.approx(-1.1)


def test_the_mean_weighs_tasks_equally() -> None:
    runs = [
        GymRun("a", uplift=0.9, incident=False, contact_cost=0.0),
        GymRun("a", uplift=0.5, incident=False, contact_cost=0.0),
        GymRun("b", uplift=-3.0, incident=False, contact_cost=0.0),
    ]
    # Task a averages 0.7, task b is floored to -1; a run-weighted mean would give 0.4/3.
    assert gym_mean(runs) == pytest.approx((0.7 - 1.0) / 2)


def test_an_incident_counts_as_minus_one_in_the_mean() -> None:
    runs = [GymRun("a", uplift=0.99, incident=True, contact_cost=0.02)]
    assert gym_mean(runs) == pytest.approx(-1.02)


def test_the_mean_of_no_runs_is_refused() -> None:
    with pytest.raises(ValueError):
        gym_mean([])


def test_negative_costs_and_penalties_are_refused() -> None:
    with pytest.raises(ValueError):
        gym_run_score(uplift=0.5, incident=False, contact_cost=-0.1)
    with pytest.raises(ValueError):
        incident_adjusted_uplift(0.5, incident=True, incident_penalty=-1.0)
