"""Clarification metrics of one run, as FDE-Bench defines them (§4.2 and Appendix A.3).

Why this module exists: a run's questions are judged against the case's clarification targets G
(which targets a question covers, and which question units cite each covered target). Turning
those judgments into Recall, Precision, Ask-F1, KQC1, ATC and Redund. has several edge cases the
paper settles explicitly (no questions, failed judgments, covered targets without a recorded
question); they are decided once here so every report agrees.

Definitions (FDE-Bench §4.2), for one run with targets G, covered targets G_cov ⊆ G, question
units Q and Q_rel ⊆ Q the units matched to at least one covered target:

- Recall R = |G_cov| / |G|; Precision P = |Q_rel| / |Q|; Ask-F1 = 2PR / (P + R).
- KQC1 = |G_cov,1| / |G|, G_cov,1 the targets covered in the first interaction turn.
- ATC = mean of t_g over G*_cov, the covered targets with a recorded matching unit and turn,
  t_g the first covering turn counting from 1.
- Redund. = |Q| - |Q_rel|.

Undefined values (A.3): with no recorded questions Precision and Ask-F1 are undefined and Recall
is zero; if every judgment of a run fails the metrics are unavailable. Undefined is ``None`` and
is never replaced by a number; aggregate with ``average_metrics`` (mean over defined runs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from metrics.delivery import mean_defined

_QUESTION_MARK = "?"


def split_units(message: str) -> list[str]:
    """Cut an agent message into question units (FDE-Bench A.3, "Question units").

    "Agent messages are split at question marks into question units; a message without a
    question mark counts as one unit." A unit is therefore a piece that ends at a question mark
    (and keeps it). Text after the last question mark ends no question, so it is no unit: in
    "What is X? Thanks, that helps." the courtesy would otherwise count as an unmatched question,
    inflating Redund. and lowering Precision. Pieces with nothing but whitespace or question
    marks are dropped, so "What?? Really?" is two units. This is the same rule ``customer_sim``
    records when it answers, so the units scored are the units answered.
    """
    if _QUESTION_MARK not in message:
        return [message.strip()] if message.strip() else []
    pieces = message.split(_QUESTION_MARK)[:-1]  # the text after the last mark ends no question
    stripped = (f"{piece}{_QUESTION_MARK}".strip() for piece in pieces)
    return [unit for unit in stripped if unit.strip(_QUESTION_MARK + " \t\r\n")]


@dataclass(frozen=True)
class Unit:
    """One question unit: its position in the run (``index``) and the turn it was asked in.

    Turns count customer exchanges from 1, as in the paper's interaction log.
    """

    index: int
    turn: int
    text: str = ""


@dataclass(frozen=True)
class TargetCoverage:
    """The judgment for one target: covered or not, and the unit indices cited as covering it."""

    covered: bool
    matched_units: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class ClarificationMetrics:
    """One run's clarification metrics; ``None`` marks a value that is undefined for the run."""

    recall: float | None
    precision: float | None
    ask_f1: float | None
    kqc1: float | None
    atc: float | None
    redundant: float | None
    questions: int


def units_from_messages(messages: Iterable[tuple[int, str]]) -> list[Unit]:
    """Number the question units of a run's agent messages, given as (turn, text) in order."""
    units: list[Unit] = []
    for turn, text in messages:
        units.extend(Unit(index=len(units), turn=turn, text=piece) for piece in split_units(text))
    return units


def ask_f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of P and R (FDE-Bench §4.2); 0 when both are 0, None when either is None."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def clarification_metrics(
    *,
    targets: Sequence[str],
    units: Sequence[Unit],
    coverage: Mapping[str, TargetCoverage],
    judgments_failed: bool = False,
) -> ClarificationMetrics:
    """Compute one run's clarification metrics from the coverage judgments (FDE-Bench §4.2).

    ``coverage`` maps target keys to judgments; a target without one counts as not covered.
    ``judgments_failed`` says every judgment of the run failed: then nothing that depends on a
    judgment is known (R, P, Ask-F1 per A.3, and for the same reason KQC1, ATC and Redund.).
    No questions take precedence: with nothing asked there is nothing to judge, so R = KQC1 = 0,
    Redund. = 0 and P, Ask-F1, ATC are undefined whatever the judge reported.
    """
    _check_inputs(targets, units, coverage)
    if not units:
        recall = 0.0 if targets else None
        return ClarificationMetrics(recall, None, None, recall, None, 0, questions=0)
    if judgments_failed:
        return ClarificationMetrics(None, None, None, None, None, None, questions=len(units))
    covered = {key: coverage[key] for key in targets if key in coverage and coverage[key].covered}
    turn_of = {unit.index: unit.turn for unit in units}
    first_turns = _first_covering_turns(covered, turn_of)
    relevant = set[int]().union(*(judgment.matched_units for judgment in covered.values()))
    recall = _share(len(covered), len(targets))
    precision = len(relevant) / len(units)
    return ClarificationMetrics(
        recall=recall,
        precision=precision,
        ask_f1=ask_f1(precision, recall),
        kqc1=_share(sum(1 for turn in first_turns.values() if turn == 1), len(targets)),
        atc=mean_defined(first_turns.values()),
        redundant=len(units) - len(relevant),
        questions=len(units),
    )


def average_metrics(runs: Iterable[ClarificationMetrics]) -> ClarificationMetrics:
    """Average each metric over the runs where it is defined (FDE-Bench §4.2, A.3).

    This is why a table's Ask-F1 is the mean of run-level F1, not the F1 of mean P and R.
    ``questions`` becomes the total number of units over the runs.
    """
    rows = list(runs)
    return ClarificationMetrics(
        recall=mean_defined(run.recall for run in rows),
        precision=mean_defined(run.precision for run in rows),
        ask_f1=mean_defined(run.ask_f1 for run in rows),
        kqc1=mean_defined(run.kqc1 for run in rows),
        atc=mean_defined(run.atc for run in rows),
        redundant=mean_defined(run.redundant for run in rows),
        questions=sum(run.questions for run in rows),
    )


def _first_covering_turns(
    covered: Mapping[str, TargetCoverage], turn_of: Mapping[int, int]
) -> dict[str, int]:
    """t_g for every g in G*_cov: the turn of the earliest unit cited for a covered target."""
    return {
        key: min(turn_of[index] for index in judgment.matched_units)
        for key, judgment in covered.items()
        if judgment.matched_units
    }


def _share(part: int, whole: int) -> float | None:
    """part / whole, undefined for a case without targets (nothing to recall)."""
    return part / whole if whole else None


def _check_inputs(
    targets: Sequence[str], units: Sequence[Unit], coverage: Mapping[str, TargetCoverage]
) -> None:
    """Refuse judgments that cannot belong to this run rather than score them silently."""
    if len(set(targets)) != len(targets):
        raise ValueError("target keys must be unique")
    indices = [unit.index for unit in units]
    if len(set(indices)) != len(indices):
        raise ValueError("unit indices must be unique")
    if any(unit.turn < 1 for unit in units):
        raise ValueError("turns count from 1")
    unknown_targets = set(coverage) - set(targets)
    if unknown_targets:
        raise ValueError(f"coverage for unknown targets: {sorted(unknown_targets)}")
    known = set(indices)
    for key, judgment in coverage.items():
        if not judgment.matched_units <= known:
            raise ValueError(f"target {key!r} cites units that were not asked")
