"""Pages of runs: start, the workspace, my runs, the run page, data downloads."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from fdeplatform.cases.selectors import published_cases
from fdeplatform.cases.visible import (
    bundle_response,
    data_file_response,
    information_html_for_full_condition,
    stakeholder_directory,
    visible_view,
)
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.models import Condition, Mode, RunStatus
from fdeplatform.runs.selectors import run_snapshot, runs_of
from fdeplatform.runs.services import run_for_player, run_start
from fdeplatform.runs.standing import already_informed, counted_runs_per_case, informed_after
from fdeplatform.runs.submissions import upload_limit_bytes


@login_required
@require_POST
def start(request: HttpRequest, slug: str) -> HttpResponse:
    condition = request.POST.get("condition", Condition.INTERACT_REQ)
    mode = request.POST.get("mode", Mode.PRACTICE)
    confirm = _exposure_to_confirm(request, slug, condition=condition, mode=mode)
    if confirm is not None:
        return confirm
    try:
        run = run_start(player=request.user, case_slug=slug, condition=condition, mode=mode)
    except RunError as exc:
        messages.error(request, exc.message)
        return redirect("case-detail", slug=slug)
    return redirect("run-workspace", run_id=run.pk)


def _exposure_to_confirm(
    request: HttpRequest, slug: str, *, condition: str, mode: str
) -> HttpResponse | None:
    """A confirmation page before a start that would make later ranked runs informed.

    Asked once per case: a player already informed on it loses nothing more.
    """
    case = published_cases().filter(slug=slug).first()
    if case is None or request.POST.get("confirmed") == "yes":
        return None
    note = informed_after(case=case, condition=condition, mode=mode)
    if note is None or already_informed(player=request.user, case=case):  # type: ignore[arg-type]
        return None
    context = {"case": case, "note": note, "condition": condition, "mode": mode}
    return render(request, "runs/confirm_start.html", context)


@login_required
def workspace(request: HttpRequest, run_id: str) -> HttpResponse:
    try:
        run = run_for_player(run_id=run_id, player=request.user)
    except RunError as exc:
        raise Http404(exc.message) from exc
    context = {
        "run": run,
        # The run's own variant's files (the same names as every variant's; never its id).
        "view": visible_view(run),
        "snapshot": run_snapshot(run_id=run.pk, player=request.user),
        "information_html": information_html_for_full_condition(run),
        "directory": stakeholder_directory(run) if run.has_customer else [],
        "is_finished": run.status in {RunStatus.CLOSED, RunStatus.EXPIRED},
        "counted_runs": counted_runs_per_case(),
        # Shown before the first upload: how many a run takes and how large each may be.
        "upload_cap": settings.SUBMISSIONS_PER_RUN,
        "upload_mb": upload_limit_bytes(run) / 1_048_576,
        "unit": run.case_version.public_metadata.get("scoring", {}).get("unit", ""),
    }
    return render(request, "runs/workspace.html", context)


@login_required
def my_runs(request: HttpRequest) -> HttpResponse:
    return render(request, "runs/my_runs.html", {"runs": runs_of(request.user)[:200]})


def data_file(request: HttpRequest, slug: str, name: str) -> FileResponse:
    case = get_object_or_404(published_cases(), slug=slug)
    assert case.current_version is not None
    return data_file_response(case.current_version, name)


def bundle(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(published_cases(), slug=slug)
    assert case.current_version is not None
    return bundle_response(case.current_version, case.slug)


@login_required
def run_data_file(request: HttpRequest, run_id: str, name: str) -> FileResponse:
    """A data file of the run's variant (only its player may fetch it)."""
    try:
        run = run_for_player(run_id=run_id, player=request.user)
    except RunError as exc:
        raise Http404(exc.message) from exc
    return data_file_response(run, name)


@login_required
def run_bundle(request: HttpRequest, run_id: str) -> HttpResponse:
    try:
        run = run_for_player(run_id=run_id, player=request.user)
    except RunError as exc:
        raise Http404(exc.message) from exc
    return bundle_response(run, run.case_version.case.slug)
