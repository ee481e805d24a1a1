"""Delivery metrics: FDE-Bench Quality, DSR, pass@k / pass^k and the FDE-Gym score.

Why this module exists: a run's delivery score s comes from the evaluator runtime; what the
leaderboard shows is an aggregate over runs and cases, and the papers are precise about how
(case-macro or run-level, what counts as success, what happens to incidents). Each aggregate is a
small pure function here, with the definition it implements.

Sources:
- FDE-Bench §4.2: Quality = (1/|C|) Σ_i (1/n_i) Σ_r s_ir (case-macro); DSR = share of all runs
  with s_ir ≥ 1; pass@3 / pass^3 = share of cases with at least one / all three valid runs.
  A.3: a run is valid when its artifact meets the hard constraints; zero and invalid runs count.
- FDE-Gym §2.3: run score = incident-adjusted uplift − contact cost; the aggregate floors the
  incident-adjusted uplift at −1 before subtracting contact cost and weights tasks equally;
  a task is resolved at a score ≥ 0.8 with no incident.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

#: Scores are computed in floating point; a reference-level run may come out at 0.9999999999.
SCORE_TOLERANCE = 1e-9
#: FDE-Gym §2.3: resolved means a score of at least 0.8 (and no incident).
RESOLVED_THRESHOLD = 0.8
#: FDE-Gym §2.3: the aggregate floors incident-adjusted uplift at −1.
UPLIFT_FLOOR = -1.0
#: Our choice (see ``incident_adjusted_uplift``): an incident costs one reference's worth.
INCIDENT_PENALTY = 1.0


def mean_defined(values: Iterable[float | None]) -> float | None:
    """Mean of the values that are defined; None when none is (FDE-Bench A.3: never impute)."""
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None


def case_mean(scores: Sequence[float]) -> float:
    """Mean delivery score of one case's runs (the inner mean of FDE-Bench's Quality)."""
    if not scores:
        raise ValueError("a case needs at least one scored run")
    return sum(scores) / len(scores)


def quality(scores_by_case: Mapping[K, Sequence[float]]) -> float:
    """FDE-Bench Quality (§4.2): mean over cases of the mean over that case's runs.

    Each case weighs the same however many runs it has; zero-score and invalid runs are
    included (A.3).
    """
    if not scores_by_case:
        raise ValueError("Quality needs at least one case")
    return sum(case_mean(scores) for scores in scores_by_case.values()) / len(scores_by_case)


def reaches_reference(score: float) -> bool:
    """Whether a run reaches the FDE reference, s ≥ 1 up to floating-point noise."""
    return score >= 1.0 - SCORE_TOLERANCE


def dsr(scores_by_case: Mapping[K, Sequence[float]]) -> float:
    """Delivery Success Rate (FDE-Bench §4.2): share of all runs with s ≥ 1 (run-level)."""
    runs = [score for scores in scores_by_case.values() for score in scores]
    if not runs:
        raise ValueError("DSR needs at least one run")
    return sum(1 for score in runs if reaches_reference(score)) / len(runs)


@dataclass(frozen=True)
class PassRate:
    """A pass@k or pass^k value with the cases it rests on.

    ``value`` is None when no case has k runs. ``excluded`` counts cases with fewer than k runs,
    which are left out rather than scored on the runs they have (see ``case_pass_at_k``).
    """

    value: float | None
    cases: int
    excluded: int


def case_pass_at_k(valid: Sequence[bool], k: int) -> float | None:
    """Probability that k of this case's runs, drawn without replacement, include a valid one.

    With exactly k runs this is the paper's indicator "at least one of the k runs is valid"
    (FDE-Bench §4.2). With n > k runs it is the unbiased estimator 1 − C(n−c, k)/C(n, k) of
    the pass@k framing the paper cites (c valid runs), so extra runs do not inflate the value.
    With n < k runs the case is undefined (None): scoring it on fewer runs would make pass^k
    easier and pass@k harder than for the other cases, so it is excluded instead.
    """
    n, c = _runs_and_valid(valid, k)
    if n < k:
        return None
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def case_pass_hat_k(valid: Sequence[bool], k: int) -> float | None:
    """Probability that k runs drawn without replacement are all valid: C(c, k)/C(n, k).

    Equals "all k runs valid" with exactly k runs (FDE-Bench §4.2); None with fewer than k.
    """
    n, c = _runs_and_valid(valid, k)
    if n < k:
        return None
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k(valid_by_case: Mapping[K, Sequence[bool]], k: int) -> PassRate:
    """pass@k (FDE-Bench §4.2): share of cases with at least one valid run among k."""
    return _pass_rate([case_pass_at_k(valid, k) for valid in valid_by_case.values()])


def pass_hat_k(valid_by_case: Mapping[K, Sequence[bool]], k: int) -> PassRate:
    """pass^k (FDE-Bench §4.2): share of cases whose k runs are all valid."""
    return _pass_rate([case_pass_hat_k(valid, k) for valid in valid_by_case.values()])


def _runs_and_valid(valid: Sequence[bool], k: int) -> tuple[int, int]:
    if k < 1:
        raise ValueError("k must be at least 1")
    return len(valid), sum(1 for run in valid if run)


def _pass_rate(per_case: Sequence[float | None]) -> PassRate:
    defined = [value for value in per_case if value is not None]
    return PassRate(
        value=mean_defined(defined), cases=len(defined), excluded=len(per_case) - len(defined)
    )


def incident_adjusted_uplift(
    uplift: float, incident: bool, incident_penalty: float = INCIDENT_PENALTY
) -> float:
    """Uplift after an incident (FDE-Gym §2.3 names the adjustment but not its form).

    Our reading: an incident (the delivered system broke something in production) voids any
    gain, so positive uplift is capped at 0, and then costs ``incident_penalty`` on top, so an
    incident is always worse than delivering nothing. A measured loss is kept, not forgiven.
    With the default penalty of 1 an incident lands at or below −1, which is exactly where the
    paper's floor at −1 in the aggregate takes over: in the mean an incident counts as the worst
    admissible outcome, and a single catastrophic run cannot outweigh many tasks.
    """
    if incident_penalty < 0:
        raise ValueError("incident_penalty must not be negative")
    if not incident:
        return uplift
    return min(uplift, 0.0) - incident_penalty


def gym_run_score(
    *,
    uplift: float,
    incident: bool,
    contact_cost: float,
    incident_penalty: float = INCIDENT_PENALTY,
) -> float:
    """FDE-Gym single-run score (§2.3): incident-adjusted uplift minus stakeholder contact cost.

    ``uplift`` is U = (x − B)/(R − B), 0 for the unchanged system and 1 for the reference;
    ``contact_cost`` is the run's total charge for messages, trial runs and waiting.
    """
    _check_cost(contact_cost)
    return incident_adjusted_uplift(uplift, incident, incident_penalty) - contact_cost


def gym_outcome(
    *, valid: bool, uplift: float | None, incident: bool, contact_cost: float
) -> float | None:
    """A run's FDE-Gym score from what was delivered (None when the case has no baseline).

    A valid deliverable enters with its uplift; no deliverable, or one that breaks a hard rule,
    leaves the customer's system as it was (uplift 0), and a broken rule is an incident, which
    ``incident_adjusted_uplift`` turns into harm. A valid deliverable without an uplift means the
    case declares no baseline, so the FDE-Gym scale does not exist for it.
    """
    if valid and uplift is None:
        return None
    return gym_run_score(
        uplift=uplift if valid and uplift is not None else 0.0,
        incident=incident,
        contact_cost=contact_cost,
    )


def resolved(score: float, incident: bool) -> bool:
    """FDE-Gym §2.3: a task is resolved at a score of at least 0.8 with no incident."""
    return not incident and score >= RESOLVED_THRESHOLD - SCORE_TOLERANCE


@dataclass(frozen=True)
class GymRun:
    """The parts of an FDE-Gym run the aggregate needs (the floor applies before the cost)."""

    task: str
    uplift: float
    incident: bool
    contact_cost: float


def floored_run_score(run: GymRun, incident_penalty: float = INCIDENT_PENALTY) -> float:
    """A run's contribution to the mean: max(adjusted uplift, −1) − contact cost (FDE-Gym §2.3)."""
    _check_cost(run.contact_cost)
    adjusted = incident_adjusted_uplift(run.uplift, run.incident, incident_penalty)
    return max(adjusted, UPLIFT_FLOOR) - run.contact_cost


def gym_mean(runs: Iterable[GymRun], *, incident_penalty: float = INCIDENT_PENALTY) -> float:
    """Mean FDE-Gym score (§2.3) with equal task weighting: runs average within their task first.

    Contact cost is subtracted after the floor, so a run can still end below −1: the floor bounds
    the damage a delivery does, not what its questions cost.
    """
    by_task: defaultdict[str, list[float]] = defaultdict(list)
    for run in runs:
        by_task[run.task].append(floored_run_score(run, incident_penalty))
    return quality(by_task)


def resolved_tasks(runs: Iterable[GymRun], *, incident_penalty: float = INCIDENT_PENALTY) -> int:
    """FDE-Gym's resolved count (§2.3: "resolves 14 of 95 tasks") for one configuration.

    The paper counts tasks, not runs, and does not say how a task's repeats combine; our reading:
    a task is resolved when the mean of its runs' floored scores is at least 0.8 and none of its
    runs had an incident, the run-level rule applied to the task the way ``gym_mean`` averages.
    """
    scores: defaultdict[str, list[float]] = defaultdict(list)
    incidents: defaultdict[str, bool] = defaultdict(bool)
    for run in runs:
        scores[run.task].append(floored_run_score(run, incident_penalty))
        incidents[run.task] |= run.incident
    return sum(
        1 for task, values in scores.items() if resolved(sum(values) / len(values), incidents[task])
    )


def _check_cost(contact_cost: float) -> None:
    if contact_cost < 0:
        raise ValueError("contact_cost must not be negative")
