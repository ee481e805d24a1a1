"""The offline judge's thesaurus: groups of words that ask for the same thing.

A case author writes three to five trigger questions per target; a player says "salary" where
they say "income", "yearly" where they say "annual", "thinned out" where they say "sampled".
Each group below is a set of words that are interchangeable *in a clarification question* in
any business setting (operations, energy, finance, logistics, data work); every member also
counts as the group's concept token ("~year"). A word may sit in several groups ("mean" is a
meaning and an average).

Rules for adding a group: members must be true substitutes in a question, never merely
related words of one topic (no "battery" = "charge" = "power"). A topical group would let a
question that only touches a topic look like it asks for the rule, which is the one mistake
the judge must not make. Sector words belong in the case's triggers, not here.
"""

from __future__ import annotations

SYNONYMS: dict[str, tuple[str, ...]] = {
    # limits, bounds, levels
    "limit": ("limit", "max", "cap", "ceiling", "upper", "bound", "threshold", "exceed", "cutoff"),
    "floor": ("min", "lowest", "floor", "least", "below", "lower"),
    "highest": ("highest", "peak", "top", "max", "record", "largest", "biggest"),
    "tolerance": ("tolerance", "margin", "band", "deviation", "leeway", "within", "tolerate"),
    "reserve": ("reserve", "buffer", "spare", "headroom", "leftover", "remaining", "retain"),
    "deplete": ("empty", "drain", "deplete", "exhaust", "zero"),
    # permission and obligation
    "allow": (
        "allow",
        "permit",
        "permitted",
        "allowed",
        "forbid",
        "forbidden",
        "prohibit",
        "prohibited",
        "ok",
        "acceptable",
        "permissible",
        "banned",
    ),
    "required": ("required", "mandatory", "compulsory", "obligatory", "necessary", "require"),
    "rule": ("rule", "policy", "requirement", "regulation", "restriction", "constraint"),
    "strict": ("strict", "hard", "firm", "absolute", "binding"),
    "layer": ("tier", "level", "layer"),
    "bottom": ("bottom", "underneath", "beneath", "under", "below"),
    # money and goals
    "cost": ("cost", "price", "pay", "paid", "fee", "penalty", "expense", "bill", "tariff"),
    "income": ("income", "salary", "earnings", "wage", "revenue"),
    "goal": ("objective", "goal", "aim", "target", "optimize", "minimize", "maximize"),
    "judge": (
        "measure",
        "evaluate",
        "evaluation",
        "score",
        "assess",
        "judge",
        "metric",
        "kpi",
        "statistic",
        "criterion",
        "criteria",
        "performance",
        "success",
        "benchmark",
    ),
    "rank": ("rank", "ranking", "order", "ordering", "sort", "discrimination", "discriminate"),
    "calibrate": ("calibrate", "calibrated", "calibration", "recalibrate", "level"),
    "average": ("average", "mean", "expected", "typical"),
    "actual": ("actual", "realised", "realized", "observed", "empirical", "real"),
    "probability": ("probability", "likelihood", "chance", "odds"),
    # meaning and definition
    "meaning": (
        "mean",
        "meaning",
        "signify",
        "represent",
        "indicate",
        "denote",
        "stand",
        "refer",
        "interpret",
    ),
    "define": ("define", "definition", "constitute", "qualify", "classify", "considered"),
    "same": ("same", "identical", "equal", "uniform", "consistent", "match"),
    "differ": ("different", "differ", "distinct", "separate", "vary"),
    "combine": ("mix", "mixed", "combine", "together", "share", "mingle"),
    "count": ("count", "number", "many", "quantity", "amount", "total"),
    "every": ("every", "all", "each", "whole", "entire"),
    "missing": ("missing", "blank", "empty", "null", "absent", "na", "nan"),
    "wrong": (
        "wrong",
        "error",
        "incorrect",
        "invalid",
        "faulty",
        "mistake",
        "outdated",
        "stale",
        "obsolete",
    ),
    "valid": ("valid", "correct", "accurate", "reliable", "trustworthy", "current"),
    "available": ("available", "known", "availability", "accessible", "visible", "observable"),
    "fill": ("fill", "filled", "populate", "populated", "record", "recorded", "captured", "set"),
    "leak": ("leak", "leakage", "hindsight", "lookahead"),
    # inclusion and scope
    "include": ("include", "contain", "incorporate", "count", "consider"),
    "exclude": ("exclude", "ignore", "skip", "drop", "omit", "remove", "discard", "filter"),
    "scope": ("scope", "cover", "coverage", "intended", "meant", "applicable", "eligible"),
    # sampling and weighting
    "sample": (
        "sample",
        "subsample",
        "oversample",
        "undersample",
        "subset",
        "draw",
        "drawn",
        "thin",
        "thinned",
        "downsample",
        "stratify",
        "representative",
    ),
    "weight": ("weight", "weighted", "weigh", "reweight", "importance", "emphasis"),
    # change and comparison
    "change": ("change", "update", "revise", "modify", "adjust", "replace", "reset", "convert"),
    "compare": ("compare", "comparison", "versus", "relative", "reference", "baseline"),
    "priority": (
        "priority",
        "prioritize",
        "important",
        "importance",
        "matter",
        "trade",
        "worth",
        "prefer",
        "preference",
        "precedence",
    ),
    "predict": ("predict", "forecast", "estimate", "projection", "prediction"),
    # time
    "year": ("year", "yearly", "annual", "annually", "annum"),
    "month": ("month", "monthly"),
    "week": ("week", "weekly"),
    "day": ("day", "daily"),
    "night": ("night", "overnight", "midnight", "nightly"),
    "start": ("start", "begin", "beginning", "initial", "first", "opening", "commence"),
    "finish": ("end", "finish", "final", "last", "close", "closing"),
    "after": ("after", "later", "afterwards", "subsequent", "subsequently"),
    "before": ("before", "prior", "earlier", "beforehand"),
    "time": ("time", "clock", "timestamp", "stamp", "hour"),
    "zone": ("zone", "utc", "gmt", "offset", "cet", "cest", "dst", "daylight"),
    "schedule": ("schedule", "plan", "timetable", "roster"),
    # people and things
    "customer": ("customer", "client", "applicant", "borrower", "buyer", "consumer"),
    "loan": ("loan", "lending", "lend", "borrowing", "financing"),
    "car": ("car", "auto", "vehicle", "automobile"),
    "collateral": ("secured", "collateral", "collateralised", "collateralized", "backed"),
    "warranty": ("warranty", "guarantee"),
    "loss": ("loss", "lose", "waste", "efficiency"),
    "export": ("export", "feed", "backfeed", "inject", "injection"),
}
