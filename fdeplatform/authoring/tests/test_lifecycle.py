"""Draft → in review → published → retired, and what each step needs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from fdeplatform.authoring.lifecycle import (
    LifecycleError,
    version_approve,
    version_publish,
    version_retire,
    version_submit,
)
from fdeplatform.authoring.models import AuthoringEvent, Validation
from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.services import run_start

State = CaseVersion.State


def _reviewed(version: CaseVersion, by: User) -> CaseVersion:
    return version_submit(version=version, actor=by)


def test_a_draft_does_not_replace_the_live_version(knapsack: Case, draft: CaseVersion) -> None:
    knapsack.refresh_from_db()
    assert draft.state == State.DRAFT
    assert knapsack.current_version_id != draft.pk


def test_the_uploader_cannot_publish_alone_when_another_staff_member_exists(
    charlie: User, dana: User, draft: CaseVersion
) -> None:
    _reviewed(draft, charlie)
    with pytest.raises(LifecycleError, match="second staff member"):
        version_publish(
            version=draft, actor=charlie, justification="I checked it all myself, honest"
        )
    with pytest.raises(LifecycleError, match="uploader cannot approve"):
        version_approve(version=draft, actor=charlie)


def test_a_second_staff_member_publishes_and_the_old_version_retires(
    knapsack: Case, charlie: User, dana: User, draft: CaseVersion
) -> None:
    old = knapsack.current_version
    _reviewed(draft, charlie)
    version_publish(version=draft, actor=dana)
    knapsack.refresh_from_db()
    assert knapsack.current_version_id == draft.pk and knapsack.published
    assert CaseVersion.objects.get(pk=old.pk).state == State.RETIRED  # type: ignore[union-attr]
    actions = set(AuthoringEvent.objects.filter(version=draft).values_list("action", flat=True))
    assert {"submitted", "approved", "published"} <= actions
    assert AuthoringEvent.objects.get(version=draft, action="published").actor == dana


def test_the_uploader_publishes_after_a_second_approval(
    charlie: User, dana: User, draft: CaseVersion
) -> None:
    _reviewed(draft, charlie)
    version_approve(version=draft, actor=dana)
    version_publish(version=draft, actor=charlie)
    assert CaseVersion.objects.get(pk=draft.pk).state == State.PUBLISHED


def test_a_single_admin_publishes_only_with_a_written_justification(
    charlie: User, draft: CaseVersion
) -> None:
    _reviewed(draft, charlie)
    with pytest.raises(LifecycleError, match="justification"):
        version_publish(version=draft, actor=charlie, justification="ok")
    version_publish(
        version=draft, actor=charlie, justification="Only admin; reran all anchors by hand."
    )
    event = AuthoringEvent.objects.get(version=draft, action="published")
    assert "reran all anchors by hand" in event.note


def test_publishing_needs_a_passing_validation_of_the_exact_digest(
    charlie: User, dana: User, draft: CaseVersion
) -> None:
    _reviewed(draft, charlie)
    Validation.objects.filter(version=draft).update(digest="0" * 64)  # validated other content
    with pytest.raises(LifecycleError, match="no passing validation"):
        version_publish(version=draft, actor=dana)
    Validation.objects.create(version=draft, digest=draft.digest, status="failed", report={})
    with pytest.raises(LifecycleError, match="no passing validation"):
        version_publish(version=draft, actor=dana)


def test_submitting_for_review_needs_a_passing_validation(
    charlie: User, draft: CaseVersion
) -> None:
    Validation.objects.filter(version=draft).update(status="failed")
    with pytest.raises(LifecycleError, match="no passing validation"):
        version_submit(version=draft, actor=charlie)


def test_files_changed_on_disk_block_publication(
    charlie: User, dana: User, draft: CaseVersion
) -> None:
    _reviewed(draft, charlie)
    (draft.package_dir / "instruction.md").write_text("edited in place")
    with pytest.raises(LifecycleError, match="no longer match"):
        version_publish(version=draft, actor=dana)


def test_a_retired_case_stays_on_the_board_but_cannot_be_started(
    knapsack: Case, alice: User, charlie: User
) -> None:
    current = knapsack.current_version
    assert current is not None
    version_retire(version=current, actor=charlie, reason="data licence withdrawn")
    knapsack.refresh_from_db()
    assert knapsack.is_retired and knapsack.published
    with pytest.raises(RunError) as refused:
        run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice")
    assert refused.value.code == "unknown_case"


def test_steps_out_of_order_are_refused(charlie: User, dana: User, draft: CaseVersion) -> None:
    with pytest.raises(LifecycleError, match="draft"):
        version_publish(version=draft, actor=dana)
    with pytest.raises(LifecycleError, match="draft"):
        version_retire(version=draft, actor=dana)
