"""The oracle-coverage condition of FDE-Bench (Fig. 5, A.6 "Oracle answer coverage").

No customer: the player receives a share r of the case's registered answers up front, r in
{0, 25, 50, 75, 100} %. The subsets are nested (the 50 % answers include the 25 % ones) and
seeded per case, so every player at a level gets the same answers and a higher level only adds.
As in the paper's prompt, the chosen answers are rendered as bullets in registry order (the
order of ``gt.json``), without target keys or type labels, and 0 % reads "(none)".
"""

from __future__ import annotations

import json
import random
from pathlib import Path

LEVELS: dict[str, float] = {
    "oracle_0": 0.0,
    "oracle_25": 0.25,
    "oracle_50": 0.5,
    "oracle_75": 0.75,
    "oracle_100": 1.0,
}


def chosen_targets(target_keys: list[str], *, level: float, seed: str) -> list[str]:
    """The targets whose answers a run at ``level`` receives, in registry order."""
    order = list(target_keys)
    random.Random(f"oracle:{seed}").shuffle(order)
    chosen = set(order[: round(level * len(order))])
    return [key for key in target_keys if key in chosen]


def oracle_answers_md(hidden_dir: Path, *, condition: str, seed: str) -> str:
    """The answers block of an oracle run, as Markdown."""
    gt = json.loads((hidden_dir / "gt.json").read_text(encoding="utf-8"))
    script = json.loads((hidden_dir / "customer.json").read_text(encoding="utf-8"))
    answers = {fact["key"]: fact["answer"] for fact in script.get("facts", [])}
    targets = {t["key"]: t.get("facts", []) for t in gt.get("targets", [])}
    keys = chosen_targets(list(targets), level=LEVELS[condition], seed=seed)
    lines = [f"- {answers[fact]}" for key in keys for fact in targets[key] if fact in answers]
    return "## Answers from the customer\n\n" + ("\n".join(lines) if lines else "(none)") + "\n"
