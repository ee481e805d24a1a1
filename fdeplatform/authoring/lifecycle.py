"""The lifecycle of a case version: draft → in review → published → retired.

Rules (issue 11, "The workflow in the site"):

- Submitting for review and publishing need a passing validation of the version's exact digest,
  and the stored files must still hash to that digest.
- Publishing needs the approval of a staff member other than the uploader: an earlier
  "approve", or the publisher being someone else. On a single-admin install (one active staff
  user) a written justification stands in for the second person and is recorded.
- Publishing makes the version the case's current one (the case is published); the version it
  replaces is retired. Retiring the current version retires the case: it stays on leaderboards,
  marked, and no run can start on it.

Every step is recorded in the audit trail (``AuthoringEvent``).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from evaluators.package import package_digest
from fdeplatform.authoring.audit import event_record
from fdeplatform.authoring.models import AuthoringEvent
from fdeplatform.authoring.validation import passing_validation
from fdeplatform.cases.models import CaseVersion
from fdeplatform.cases.services import make_current

State = CaseVersion.State
Action = AuthoringEvent.Action
MIN_JUSTIFICATION = 20


class LifecycleError(Exception):
    """A step the rules do not allow; the message says why, for the page."""


def single_admin_install() -> bool:
    """Only one active staff account: nobody else could approve."""
    return User.objects.filter(is_staff=True, is_active=True).count() <= 1


def version_submit(*, version: CaseVersion, actor: User) -> CaseVersion:
    """Draft → in review (needs a passing validation of this exact package)."""
    _require_state(version, State.DRAFT, "submit for review")
    _require_validated(version)
    return _move(version, State.REVIEW, actor, Action.SUBMITTED)


def version_withdraw(*, version: CaseVersion, actor: User) -> CaseVersion:
    """In review → draft."""
    _require_state(version, State.REVIEW, "return to draft")
    return _move(version, State.DRAFT, actor, Action.WITHDRAWN)


def version_approve(*, version: CaseVersion, actor: User) -> CaseVersion:
    """A second staff member approves a version in review (the uploader cannot)."""
    _require_state(version, State.REVIEW, "approve")
    _require_validated(version)
    if _is_uploader(version, actor):
        raise LifecycleError(
            "The uploader cannot approve their own version; ask another staff member."
        )
    event_record(version=version, actor=actor, action=Action.APPROVED)
    return version


@transaction.atomic
def version_publish(*, version: CaseVersion, actor: User, justification: str = "") -> CaseVersion:
    """In review → published, the case's current version (see the module rules)."""
    _require_state(version, State.REVIEW, "publish")
    _require_validated(version)
    _require_intact(version)
    note = _approval_note(version, actor, justification.strip())
    for old in make_current(version):
        event_record(version=old, actor=actor, action=Action.SUPERSEDED, note=f"by {version}")
    event_record(version=version, actor=actor, action=Action.PUBLISHED, note=note)
    return version


@transaction.atomic
def version_retire(*, version: CaseVersion, actor: User, reason: str = "") -> CaseVersion:
    """Published → retired. When it is the case's current version the case is retired."""
    _require_state(version, State.PUBLISHED, "retire")
    return _move(version, State.RETIRED, actor, Action.RETIRED, note=reason.strip())


def version_reopen(*, version: CaseVersion, actor: User) -> CaseVersion:
    """Retired → in review, to publish it again (it goes through approval once more)."""
    _require_state(version, State.RETIRED, "reopen")
    return _move(version, State.REVIEW, actor, Action.REOPENED)


def approvers(version: CaseVersion) -> list[User]:
    """Staff who approved this version's digest, other than its uploader."""
    events = version.authoring_events.filter(action=Action.APPROVED, digest=version.digest)
    people = [event.actor for event in events.select_related("actor") if event.actor]
    return [user for user in people if not _is_uploader(version, user)]


def _approval_note(version: CaseVersion, actor: User, justification: str) -> str:
    if not _is_uploader(version, actor):
        if not approvers(version):
            event_record(version=version, actor=actor, action=Action.APPROVED)
        return f"approved by {actor.get_username()}"
    if names := approvers(version):
        return "approved by " + ", ".join(sorted({user.get_username() for user in names}))
    if not single_admin_install():
        raise LifecycleError(
            "Publishing needs a second staff member: another staff account must approve or "
            "publish this version."
        )
    if len(justification) < MIN_JUSTIFICATION:
        raise LifecycleError(
            "This install has a single admin: write a justification (at least "
            f"{MIN_JUSTIFICATION} characters) of why this version may go live without a "
            "second reviewer."
        )
    return f"single-admin install; justification: {justification}"


def _is_uploader(version: CaseVersion, user: User) -> bool:
    return version.imported_by_id is not None and version.imported_by_id == user.pk


def _require_state(version: CaseVersion, state: str, step: str) -> None:
    if version.state != state:
        raise LifecycleError(
            f"Cannot {step} a version that is {version.get_state_display().lower()}."
        )


def _require_validated(version: CaseVersion) -> None:
    if passing_validation(version) is None:
        raise LifecycleError(
            "This exact package has no passing validation; run the validation and fix what it "
            "reports."
        )


def _require_intact(version: CaseVersion) -> None:
    if package_digest(version.package_dir) != version.digest:
        raise LifecycleError(
            "The stored files no longer match this version's digest; upload the package again."
        )


def _move(
    version: CaseVersion, state: str, actor: User, action: str, note: str = ""
) -> CaseVersion:
    version.state = state
    version.save(update_fields=["state"])
    event_record(version=version, actor=actor, action=action, note=note)
    return version
