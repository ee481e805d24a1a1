"""Reading a case's outside probe sets (``hidden/probes/``) and measuring word overlap.

The probe sets are written by someone who never saw the customer script or the matching data
(see ``cases/README.md``), committed before tuning, and split once into a ``dev`` half (tune on
it) and a ``test`` half (report it, never tune on it). Both benchmarks read them through here.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from customer_sim.text import content_stems

HALVES = ("dev", "test")


def load(hidden_dir: Path, name: str) -> dict[str, Any] | None:
    """``questions.json`` or ``coverage.json`` of a case, or None when the case has none."""
    path = hidden_dir / "probes" / name
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def gt_of(hidden_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((hidden_dir / "gt.json").read_text(encoding="utf-8"))
    return data


def target_facts(gt: dict[str, Any]) -> dict[str, set[str]]:
    """Each target key with the script facts that state it."""
    return {t["key"]: set(t.get("facts", [])) for t in gt.get("targets", [])}


def examples_by_target(hidden_dir: Path, gt: dict[str, Any]) -> dict[str, list[str]]:
    """The authored example questions of each target (its triggers and its facts' triggers)."""
    script = json.loads((hidden_dir / "customer.json").read_text(encoding="utf-8"))
    by_fact = {f["key"]: list(f.get("triggers", [])) for f in script.get("facts", [])}
    return {
        t["key"]: list(t.get("triggers", []))
        + [q for f in t.get("facts", []) for q in by_fact.get(f, [])]
        for t in gt.get("targets", [])
    }


def overlap(question: str, examples: Iterable[str]) -> float:
    """Share of the question's content words found in its nearest example question."""
    words = set(content_stems(question))
    if not words:
        return 0.0
    return max((len(words & set(content_stems(e))) / len(words) for e in examples), default=0.0)


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "n/a"
