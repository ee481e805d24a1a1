"""The leaderboard's filters: one form for the page, the API and the exports.

Every number on the page must be rebuildable from an export taken with the same query string, so
the page, ``/api/leaderboard/`` and the export links all read their filters through this form.
The page ignores an invalid field (and says so); the API answers 400 instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from urllib.parse import urlencode

from django import forms
from django.db.models import F, QuerySet
from django.http import QueryDict
from django.utils import timezone

from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Condition, Mode, Run, RunStatus

ENDED = (RunStatus.CLOSED, RunStatus.EXPIRED)
DEFAULT_K = 3
MAX_K = 10
#: Sort keys a row can be ordered by (``-`` prefix: descending).
SORT_KEYS = (
    "quality", "dsr", "pass_at_k", "pass_hat_k", "recall", "precision", "ask_f1", "kqc1",
    "atc", "redundant", "gym", "resolved", "runs", "cases", "name",
)  # fmt: skip
DEFAULT_SORT = "-quality"


@dataclass(frozen=True)
class Filters:
    """Which ranked, ended runs a leaderboard is computed over, and how rows are shown."""

    condition: str = ""
    family: str = ""
    sector: str = ""
    case: str = ""
    who: str = ""
    humans_together: bool = False
    date_from: date | None = None
    date_to: date | None = None
    k: int = DEFAULT_K
    sort: str = DEFAULT_SORT
    standing: str = "counted"
    all_versions: bool = False
    errors: tuple[str, ...] = field(default=(), compare=False)

    def without_condition(self) -> Filters:
        """The same filters over every condition (condition deltas compare conditions)."""
        return replace(self, condition="")

    def query(self, **overrides: object) -> str:
        """The query string that reproduces these filters (for links and exports)."""
        params = {
            "condition": self.condition,
            "family": self.family,
            "sector": self.sector,
            "case": self.case,
            "who": self.who,
            "humans": "together" if self.humans_together else "",
            "from": self.date_from.isoformat() if self.date_from else "",
            "to": self.date_to.isoformat() if self.date_to else "",
            "k": "" if self.k == DEFAULT_K else str(self.k),
            "sort": "" if self.sort == DEFAULT_SORT else self.sort,
            "standing": "" if self.standing == "counted" else self.standing,
            "versions": "all" if self.all_versions else "",
        }
        params.update({name: str(value) for name, value in overrides.items()})
        return urlencode({name: value for name, value in params.items() if value})

    def cache_key(self) -> str:
        return self.query(sort="", k="")


class FilterForm(forms.Form):
    condition = forms.ChoiceField(
        choices=[("", "All conditions"), *Condition.choices], required=False
    )
    family = forms.ChoiceField(choices=[("", "All families"), *Case.FAMILIES], required=False)
    sector = forms.CharField(max_length=80, required=False)
    case = forms.SlugField(max_length=80, required=False)
    who = forms.ChoiceField(
        choices=[("", "Humans and agents"), ("humans", "Humans only"), ("agents", "Agents only")],
        required=False,
    )
    humans = forms.ChoiceField(
        choices=[("", "Each person"), ("together", "All humans as one row")], required=False
    )
    date_from = forms.DateField(required=False)
    date_to = forms.DateField(required=False)
    k = forms.IntegerField(min_value=1, max_value=MAX_K, required=False)
    sort = forms.ChoiceField(
        choices=[(prefix + key, prefix + key) for key in SORT_KEYS for prefix in ("", "-")],
        required=False,
    )
    standing = forms.ChoiceField(
        choices=[
            ("", "Counted runs (the first k per player, case and condition)"),
            ("informed", "Informed runs (played after seeing the hidden side)"),
            ("extra", "Extra runs (after the first k)"),
        ],
        required=False,
    )
    versions = forms.ChoiceField(
        choices=[("", "Current case versions"), ("all", "All case versions")], required=False
    )

    #: ``from`` is a Python keyword, so the form fields are renamed on the way in.
    ALIASES = {"from": "date_from", "to": "date_to"}

    def __init__(self, params: QueryDict) -> None:
        data = {self.ALIASES.get(name, name): params.get(name, "") for name in params}
        super().__init__(data)

    def filters(self) -> Filters:
        """The valid part of the input as Filters (invalid fields fall back to defaults)."""
        self.is_valid()
        clean = getattr(self, "cleaned_data", {})
        return Filters(
            condition=clean.get("condition") or "",
            family=clean.get("family") or "",
            sector=clean.get("sector") or "",
            case=clean.get("case") or "",
            who=clean.get("who") or "",
            humans_together=clean.get("humans") == "together",
            date_from=clean.get("date_from"),
            date_to=clean.get("date_to"),
            k=clean.get("k") or DEFAULT_K,
            sort=clean.get("sort") or DEFAULT_SORT,
            standing=clean.get("standing") or "counted",
            all_versions=clean.get("versions") == "all",
            errors=tuple(
                f"{name}: {' '.join(str(e) for e in errs)}" for name, errs in self.errors.items()
            ),
        )


def filters_from(params: QueryDict) -> Filters:
    return FilterForm(params).filters()


def ranked_ended_runs(standing: str = "counted") -> QuerySet[Run]:
    """Runs that count: ranked, ended (never practice, open or still scoring) and, by default,
    counted (the first k per player, case and condition; ``runs.standing``)."""
    return Run.objects.filter(mode=Mode.RANKED, status__in=ENDED, standing=standing)


def filtered_runs(filters: Filters) -> QuerySet[Run]:
    """``ranked_ended_runs`` narrowed by the filters (dates are the day the run started).

    Only runs on each case's current version count unless ``all_versions``: a board mixing an
    evaluator's versions would average two different measures."""
    runs = ranked_ended_runs(filters.standing)
    if not filters.all_versions:
        runs = runs.filter(case_version=F("case_version__case__current_version"))
    if filters.condition:
        runs = runs.filter(condition=filters.condition)
    if filters.family:
        runs = runs.filter(case_version__case__family=filters.family)
    if filters.sector:
        runs = runs.filter(case_version__case__sector=filters.sector)
    if filters.case:
        runs = runs.filter(case_version__case__slug=filters.case)
    if filters.who:
        runs = runs.filter(is_agent=filters.who == "agents")
    if filters.date_from:
        runs = runs.filter(started_at__gte=_start_of(filters.date_from))
    if filters.date_to:
        runs = runs.filter(started_at__lt=_start_of(filters.date_to + timedelta(days=1)))
    return runs


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))
