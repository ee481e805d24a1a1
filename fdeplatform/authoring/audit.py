"""The authoring audit trail: one row per step, written by the services that take it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from fdeplatform.authoring.models import AuthoringEvent
from fdeplatform.cases.models import CaseVersion

Actor = AbstractBaseUser | AnonymousUser | None


def event_record(
    *, version: CaseVersion, actor: Actor, action: str, note: str = ""
) -> AuthoringEvent:
    """Record that ``actor`` took ``action`` on ``version`` (its digest is kept with it)."""
    return AuthoringEvent.objects.create(
        case_id=version.case_id,
        version=version,
        actor=actor if isinstance(actor, User) else None,
        action=action,
        digest=version.digest,
        note=note,
    )
