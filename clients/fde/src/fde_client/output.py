"""Plain-text rendering shared by the commands: tables, durations, check results."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A left-aligned text table; the last column is not padded (it is usually a title)."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        padded = [cell.ljust(width) for cell, width in zip(row[:-1], widths[:-1], strict=True)]
        lines.append("  ".join([*padded, row[-1]]).rstrip())
    return "\n".join(lines)


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 timestamp as an aware datetime; tolerates 'Z', which 3.10 does not."""
    if not isinstance(value, str) or not value:
        return None
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def seconds_left(deadline: Any, now: datetime | None = None) -> float | None:
    end = parse_time(deadline)
    if end is None:
        return None
    return (end - (now or datetime.now(timezone.utc))).total_seconds()


def duration(seconds: float) -> str:
    """``2h 05m``, ``4m 10s`` or ``expired``: enough precision for a budget."""
    if seconds <= 0:
        return "expired"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s"


def format_check(check: Any) -> list[str]:
    """Lines describing a submission's format check (``{"ok", "errors"}``)."""
    if not isinstance(check, dict):
        return ["format check: not reported"]
    if check.get("ok"):
        return ["format check: OK"]
    errors = check.get("errors") or []
    return [f"format check: FAILED ({len(errors)} problem(s))"] + [f"  - {e}" for e in errors]


def verdict(result: dict[str, Any]) -> dict[str, Any]:
    """The evaluator's verdict as one flat dict.

    The contract puts ``violations``/``error_kind`` at the top of ``/result/``; the platform also
    nests the full verdict under ``result`` (a submission) or ``submission.result`` (a run's
    result). Top-level values win.
    """
    submission = result.get("submission")
    merged: dict[str, Any] = {}
    for nested in (submission.get("result") if isinstance(submission, dict) else None,
                   result.get("result")):  # fmt: skip
        if isinstance(nested, dict):
            merged.update(nested)
    merged.update({key: value for key, value in result.items() if value is not None})
    return merged


def score_text(result: dict[str, Any]) -> str:
    """One line for a result: the score, or why there is none."""
    flat = verdict(result)
    score = flat.get("score")
    band = flat.get("score_band")
    if score is None and isinstance(band, list) and len(band) == 2:
        # Practice results show a band, not the exact score (it would reveal the reference).
        if flat.get("valid") not in (None, True):
            return "invalid: breaks a rule"
        if float(band[0]) >= 1.0:
            return "score at or above the reference"
        return f"score {float(band[0]):.1f}-{float(band[1]):.1f} of the reference"
    if score is None:
        status = flat.get("status")
        return f"{status}" if status else "no result"
    if flat.get("valid") in (None, True):
        return f"score {_number(score)}"
    reason = flat.get("error_message") or flat.get("error_kind") or "invalid"
    return f"score {_number(score)} (invalid: {reason})"


def violation_lines(result: dict[str, Any]) -> list[str]:
    lines = []
    for violation in verdict(result).get("violations") or []:
        if isinstance(violation, dict):
            rule = violation.get("rule")  # practice results leave the rule key out
            count = violation.get("count")
            times = f" ({count}x)" if count else ""
            label = f"{rule}{times}: " if rule else (f"{times.strip()} " if times else "")
            lines.append(f"  - {label}{violation.get('message', '')}")
        else:
            lines.append(f"  - {violation}")
    return lines


def _number(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)
