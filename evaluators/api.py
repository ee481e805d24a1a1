"""The contract between the scoring runtime and a case's hidden evaluator.

A case evaluator (``cases/<slug>/hidden/evaluator.py``) defines one function::

    def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment

The runtime has already parsed the uploaded file against ``submission_schema.json``
(so types, required columns and bounds are guaranteed) before calling it. The evaluator
checks the case's hard constraints and computes the raw business value; the runtime
turns that into a score (normalisation, error kind) so every case is scored the same way.

This module is imported inside the sandboxed evaluation process, so it must stay small
and free of Django or any heavy import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: How many example rows a violation keeps; enough to find the problem, small enough to show.
MAX_EXAMPLES = 5


@dataclass
class Submission:
    """A parsed deliverable.

    ``rows`` holds typed dicts for CSV deliverables (one per data row; ``line_of(i)`` gives the
    file line of ``rows[i]``, the header being line 1). ``document`` holds the parsed value of a
    JSON deliverable (``rows`` is then empty).
    """

    format: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    document: Any = None

    @staticmethod
    def line_of(index: int) -> int:
        return index + 2


@dataclass
class Violation:
    """A broken hard rule, in the customer's words, with a few offending rows."""

    rule: str
    message: str
    count: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "message": self.message,
            "count": self.count,
            "examples": self.examples[:MAX_EXAMPLES],
        }


class ViolationCollector:
    """Collects offending rows per rule, keeping counts exact and examples few."""

    def __init__(self) -> None:
        self._by_rule: dict[str, Violation] = {}

    def add(self, rule: str, message: str, example: dict[str, Any] | None = None) -> None:
        violation = self._by_rule.setdefault(rule, Violation(rule=rule, message=message))
        violation.count += 1
        if example is not None and len(violation.examples) < MAX_EXAMPLES:
            violation.examples.append(example)

    def __bool__(self) -> bool:
        return bool(self._by_rule)

    def violations(self) -> list[Violation]:
        return list(self._by_rule.values())


@dataclass
class Assessment:
    """What a case evaluator returns.

    - ``fatal``: the deliverable cannot be assessed at all (e.g. it schedules the wrong day,
      misses required entities). Message in business words.
    - ``violations``: hard constraints broken; any violation makes the run invalid (score 0).
    - ``value``: the raw business value x (e.g. the bill in EUR, the metric); required when
      there is neither a fatal problem nor a violation.
    - ``details``: a small breakdown (e.g. ``{"mixed_stacks": 3, "moves": 120}``) shown with
      the result.
    """

    value: float | None = None
    violations: list[Violation] = field(default_factory=list)
    fatal: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
