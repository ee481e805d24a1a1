"""One configuration on one case: the sufficient statistics the database hands back.

Every leaderboard metric is a function of per-case counts and sums (how many runs, how many
reached the reference, how many were valid, the sum of scores, ...), so the database aggregates
each configuration x case into one ``CaseCell`` and no request loads individual runs. The metric
functions of ``metrics`` then run on these cells (see ``rows``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.runs.models import CUSTOMER_CONDITIONS
from metrics.delivery import resolved

CLARIFICATION_METRICS = ("recall", "precision", "ask_f1", "kqc1", "atc", "redundant")
#: How pages and CSV exports write a clarification metric of a condition without a customer.
NOT_APPLICABLE = "n/a"


def asks_customer(condition: str) -> bool:
    """Whether runs under ``condition`` had a customer to ask.

    Under Hidden, Full and the oracle conditions nobody could be asked, so the clarification
    metrics do not apply: the judge still stores Recall 0 for "no questions", but a board that
    printed it would score a player for a question they had no one to put. They are left out
    of every mean and shown as "n/a" (distinct from the dash of an undefined value).
    """
    return condition in CUSTOMER_CONDITIONS


@dataclass(frozen=True)
class CaseCell:
    """Aggregates over one configuration's ranked, ended runs of one case.

    ``score_sum`` treats a run without a score as 0 (FDE-Bench A.3: a run that delivered nothing
    counts as 0). ``floored_sum`` is the sum of max(incident-adjusted uplift, -1), the FDE-Gym
    uplift after the floor, ``incidents`` the runs with one, and ``cost_sum`` the summed contact cost
    of the runs' exchanges. ``clarification`` maps each
    clarification metric to (sum, count) over the runs where it is defined, so undefined values
    are never imputed.
    """

    config: ConfigId
    case: str
    runs: int
    score_sum: float
    reached: int
    valid: int
    floored_sum: float
    cost_sum: float
    incidents: int
    judged: int
    clarification: dict[str, tuple[float, int]] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        """The case's mean delivery score (the inner mean of Quality)."""
        return self.score_sum / self.runs

    @property
    def gym_mean(self) -> float:
        """The case's mean FDE-Gym contribution, max(uplift, -1) - contact cost."""
        return (self.floored_sum - self.cost_sum) / self.runs

    @property
    def resolved(self) -> bool:
        """FDE-Gym counts resolved *tasks* (§2.3, "resolves 14 of 95 tasks"): the task's mean
        score over this configuration's runs is at least 0.8 and none had an incident."""
        return self.incidents == 0 and resolved(self.gym_mean, incident=False)

    def clarification_mean(self, metric: str) -> float | None:
        total, count = self.clarification.get(metric, (0.0, 0))
        return total / count if count else None
