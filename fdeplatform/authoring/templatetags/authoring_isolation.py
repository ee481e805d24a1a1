"""Which sandbox a version's admission ran its evaluator in, for the staff pages.

An admission under a weaker isolation than bubblewrap (``evaluators/isolation.py``) says
nothing about what a hostile evaluator could have read, so the pages mark such versions.
"""

from __future__ import annotations

from django import template

from fdeplatform.authoring.models import Validation
from fdeplatform.cases.models import CaseVersion

register = template.Library()


@register.filter
def admission_isolation(version: CaseVersion) -> str:
    """The isolation of the latest finished validation, else of the import-time admission.

    Reads the prefetched validations when the list pages prefetched them (no extra query).
    """
    finished = [v for v in version.validations.all() if v.status in Validation.FINISHED]
    finished.sort(key=lambda v: (v.created_at, v.pk), reverse=True)
    report = finished[0].report if finished else version.admission
    return str((report or {}).get("isolation") or "")
