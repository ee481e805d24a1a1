"""Template filters that print metrics the same way on every leaderboard page.

Undefined values print as an em dash, never as 0: FDE-Bench A.3 forbids imputing them, and a
table that shows 0.000 for "no questions asked" would do exactly that.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils import timezone
from django.utils.timesince import timesince

from fdeplatform.leaderboards.cells import NOT_APPLICABLE, asks_customer
from fdeplatform.leaderboards.charts import figure_table
from fdeplatform.leaderboards.comparisons import MIN_CASES_FOR_SIGNIFICANCE
from fdeplatform.runs import speakers, wording
from fdeplatform.runs.presenters import PRACTICE_BAND

register = template.Library()
DASH = "—"


@register.filter
def metric(value: float | int | None, digits: int = 3) -> str:
    """A metric to ``digits`` decimals; an em dash when undefined."""
    if value is None:
        return DASH
    return f"{value:.{int(digits)}f}"


@register.filter
def na(text: str, condition: str) -> str:
    """``text`` (a printed clarification metric), or "n/a" when ``condition`` had no customer
    to ask (``cells.asks_customer``): not applicable, which is not the dash of "undefined"."""
    return text if asks_customer(str(condition)) else NOT_APPLICABLE


@register.filter
def business(value: Any) -> str:
    """An evaluator's figure for people (``runs.wording.figure``: 1284.506579 -> "1,284.51",
    25646.0 -> "25,646", 0.70171 -> "0.702"); text unchanged."""
    return wording.figure(value)


@register.filter
def band(score: float | None) -> str:
    """A valid practice run's score as the band its player sees ("0.8–0.9 of the reference",
    "At or above the reference"), never the exact score: beside the business value the
    workspace shows, it would give away the reference (``runs.presenters.practice_result``)."""
    if score is None:
        return DASH
    low = math.floor(float(score) / PRACTICE_BAND) * PRACTICE_BAND
    return wording.band_words(low, low + PRACTICE_BAND)


@register.filter
def verdict(result: dict[str, Any] | None) -> str:
    """A shown result in words (``runs.wording.verdict``): "Invalid: breaks a rule", "At or
    above the reference", "0.8–0.9 of the reference" or "Score 0.9500"."""
    return wording.verdict(result)


@register.filter
def answer_parts(exchange: Any) -> list[speakers.Part]:
    """A recorded answer as one part per speaker, each label once (``runs.speakers``)."""
    return speakers.answer_parts(str(exchange.stakeholder), str(exchange.answer))


@register.filter
def figure_name(key: str) -> str:
    """An evaluator's detail key as words ("energy_cost_eur" -> "Energy cost (EUR)")."""
    words = str(key).split("_")
    tail = f" ({_UNITS[words[-1]]})" if len(words) > 1 and words[-1] in _UNITS else ""
    body = " ".join(_TERMS.get(word, word) for word in (words[:-1] if tail else words))
    return body[:1].upper() + body[1:] + tail


#: Unit suffixes and abbreviations in evaluators' detail keys, as people write them.
_UNITS = {"eur": "EUR", "kg": "kg", "kw": "kW", "kwh": "kWh", "pct": "%", "m": "m", "km": "km"}
_TERMS = {"soc": "state of charge", "auc": "AUC", "ks": "KS"}


@register.filter
def signed(value: float | None, digits: int = 3) -> str:
    """A difference with its sign (+0.120, −0.040)."""
    if value is None:
        return DASH
    return f"{value:+.{int(digits)}f}".replace("-", "−")


@register.filter
def interval(value: tuple[float, float] | list[float] | None, digits: int = 2) -> str:
    """A 95% interval as [low, high]; empty when there is none."""
    if not value:
        return ""
    low, high = value
    return f"[{low:.{int(digits)}f}, {high:.{int(digits)}f}]"


@register.filter
def percent(value: float | None) -> str:
    return DASH if value is None else f"{100 * value:.0f}%"


@register.filter
def pvalue(value: float | None) -> str:
    if value is None:
        return DASH
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


#: The vendored cartesian bundle (scatter, bar, heatmap and kin): static/vendor/plotly/README.md.
PLOTLY_BUNDLE = "vendor/plotly/plotly-cartesian.min.js"


@register.simple_tag
def plotly_src() -> str:
    """URL of the vendored plotly.js: hashed by the manifest storage, so cached for a year."""
    return static(PLOTLY_BUNDLE)


@register.filter
def too_few_cases(items: Iterable[Any]) -> bool:
    """Whether any comparison (or any delta of a Table 2 row) has too few cases to be significant."""
    for item in items:
        for comparison in getattr(item, "deltas", (item,)):
            if comparison is not None and comparison.too_few_cases:
                return True
    return False


@register.simple_tag
def min_cases_for_significance() -> int:
    return MIN_CASES_FOR_SIGNIFICANCE


@register.inclusion_tag("leaderboards/_chart_data.html")
def chart_data(figure: str, caption: str) -> dict[str, Any]:
    """The figure's numbers in a table under a disclosure: every chart's text alternative."""
    table = figure_table(json.loads(str(figure))) if str(figure).strip() else None
    return {"table": table, "caption": caption}


@register.filter
def ago(moment: datetime | None) -> str:
    """How long ago, for feeds: "just now" under a minute (``timesince`` says "0 minutes")."""
    if moment is None:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment)} ago"
