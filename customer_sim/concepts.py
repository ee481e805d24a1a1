"""A small thesaurus of business-question words that mean the same thing.

A case author writes five or so example questions per fact; a player may say "penalty" where
the examples say "cost", or "cap" where they say "limit". Without embeddings, the lexical
matcher bridges such gaps with these groups: each word also counts as its group's concept, so
"is there a cap on..." meets "what is the limit on...". The groups are domain-neutral on
purpose (any case, any sector); words that belong to one case go in that case's triggers.
Adding a group makes matching looser, so each one should be a true synonym set for questions,
not a topic.
"""

from __future__ import annotations

from functools import lru_cache

from customer_sim.text import stem

_GROUPS: dict[str, tuple[str, ...]] = {
    "limit": ("limit", "max", "cap", "ceiling", "upper", "most", "exceed", "threshold", "bound"),
    "rule": ("rule", "policy", "requirement", "regulation", "restriction", "guideline", "law"),
    "allow": ("allow", "acceptable", "accept", "fine", "tolerate", "tolerance", "permissible"),
    "late": ("late", "delay", "delayed", "overdue", "lateness", "tardy"),
    "cost": ("cost", "price", "pay", "expense", "expensive", "cheap", "fee", "penalty", "spend"),
    "reduce": ("minimize", "reduce", "lower", "decrease", "cut", "fewer", "less", "smaller"),
    "increase": ("maximize", "increase", "raise", "higher", "more", "larger", "bigger"),
    "goal": ("objective", "goal", "aim", "target", "purpose", "kpi", "metric", "optimize"),
    "judge": ("measure", "evaluate", "judge", "assess", "score", "rank", "rate", "grade"),
    "priority": ("priority", "prioritize", "urgent", "urgency", "important", "rush", "first"),
    "same": ("same", "identical", "equal", "uniform", "consistent"),
    "differ": ("different", "differ", "difference", "distinct", "vary", "varies"),
    "combine": ("mix", "combine", "together", "share", "shared", "mingle", "alongside"),
    "separate": ("separate", "apart", "isolate", "segregate", "split", "dedicated", "own"),
    "capacity": ("capacity", "fit", "hold", "room", "space", "volume"),
    "duration": ("long", "duration", "period", "time", "hour", "minute"),
    "count": ("count", "number", "many", "quantity", "amount", "total"),
    "meaning": ("mean", "meaning", "signify", "stand", "represent", "indicate", "denote"),
    "missing": ("missing", "blank", "empty", "null", "absent", "unknown", "na", "nan"),
    "wrong": ("wrong", "error", "incorrect", "invalid", "bad", "broken", "faulty", "mistake"),
    "include": ("include", "contain", "cover", "incorporate", "consider"),
    "exclude": ("exclude", "ignore", "skip", "drop", "omit", "remove", "discard"),
    "refuse": ("refuse", "reject", "decline", "deny", "turn"),
    "start": ("start", "begin", "commence", "from", "onset"),
    "finish": ("end", "finish", "stop", "until", "close", "closing"),
    "change": ("change", "update", "revise", "modify", "adjust", "replace", "switch"),
    "vehicle": ("vehicle", "van", "truck", "lorry"),
    "customer": ("customer", "client", "buyer"),
    "predict": ("predict", "forecast", "estimate", "projection", "prediction"),
    "required": ("required", "mandatory", "must", "compulsory", "obligatory", "necessary"),
    "optional": ("optional", "nice", "preference", "prefer", "soft"),
    "strict": ("strict", "hard", "firm", "rigid", "absolute"),
}


@lru_cache(maxsize=1)
def _concept_of_stem() -> dict[str, str]:
    concepts: dict[str, str] = {}
    for concept, words in _GROUPS.items():
        for word in words:
            concepts.setdefault(stem(word), f"~{concept}")
    return concepts


def concept(word_stem: str) -> str | None:
    """The concept token ("~limit") a stem belongs to, or None."""
    return _concept_of_stem().get(word_stem)
