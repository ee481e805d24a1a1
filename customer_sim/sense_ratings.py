"""Outside raters' verdicts on whether the customer's non-rule replies make sense.

A rater is shown only the conversation so far and the reply (never the script or patterns) and
marks each reply to a non-rule message sensible or not. Ratings are stored per reply text
(``hidden/probes/ratings.<rater>.json``: ``{"ratings": [{"conversation", "index", "reply",
"sensible"}]}``), so a rating counts only while the customer still gives that exact reply: a
changed reply is unrated until someone rates it again, and an old verdict never stands in for a
new text.
"""

from __future__ import annotations

import json
from pathlib import Path

from customer_sim import conversation_sets as sets


def _ratings(hidden_dir: Path) -> dict[tuple[str, int, str], list[bool]]:
    found: dict[tuple[str, int, str], list[bool]] = {}
    for path in sorted((hidden_dir / "probes").glob("ratings.*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")).get("ratings", []):
            key = (str(item["conversation"]), int(item["index"]), str(item["reply"]))
            found.setdefault(key, []).append(bool(item["sensible"]))
    return found


def sense_rate(hidden_dir: Path) -> dict[str, tuple[int, int]]:
    """Per half, (replies rated sensible by every rater, replies rated) over non-rule messages
    whose current reply has a rating."""
    ratings = _ratings(hidden_dir)
    if not ratings:
        return {}
    split = {c["id"]: c.get("split", "dev") for c in sets.conversations(hidden_dir)}
    counts = {"dev": [0, 0], "test": [0, 0]}
    for played in sets.played_all(hidden_dir):
        if played.kind not in sets.SOCIAL_KINDS:
            continue
        verdicts = ratings.get((played.conversation, played.index, played.reply.text))
        if not verdicts:
            continue
        half = counts[split.get(played.conversation, "dev")]
        half[0] += all(verdicts)
        half[1] += 1
    return {name: (good, rated) for name, (good, rated) in counts.items()}
