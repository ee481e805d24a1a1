"""Coverage judging: which clarification targets a run's questions covered (FDE-Bench §4.1, A.3).

Plain Python, no Django. ``make_judge("offline")`` is the deterministic default;
``make_judge("llm")`` is the five-model panel behind any OpenAI-compatible endpoint.
"""

from judging.base import (
    Judge,
    Judgment,
    Target,
    Unit,
    Vote,
    judge_all,
    make_judge,
    split_units,
    targets_from_gt,
    units_from_messages,
)

__all__ = [
    "Judge",
    "Judgment",
    "Target",
    "Unit",
    "Vote",
    "judge_all",
    "make_judge",
    "split_units",
    "targets_from_gt",
    "units_from_messages",
]
