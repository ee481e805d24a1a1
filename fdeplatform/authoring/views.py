"""Staff pages of the authoring workflow. Each view parses input, calls one service and
renders; the rules live in ``lifecycle``, ``uploads``, ``validation`` and ``packages``.

Everything here is staff-only: a signed-out visitor is sent to log in, a signed-in player gets
404 (the area does not exist for them), and the folder import is for superusers (403).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from fdeplatform.authoring import answer_audit, console, lifecycle
from fdeplatform.authoring.audit import event_record
from fdeplatform.authoring.models import AnswerLabel, AuthoringEvent, PackageUpload
from fdeplatform.authoring.packages import (
    ExportError,
    export_name,
    version_diff,
    version_export_zip,
)
from fdeplatform.authoring.report import ReportView, problems_view, report_view
from fdeplatform.authoring.selectors import (
    authoring_cases,
    case_versions,
    events_of,
    recent_uploads,
)
from fdeplatform.authoring.uploads import UploadError, upload_from_folder, upload_save
from fdeplatform.authoring.validation import latest_validation, passing_validation, validation_queue
from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.cases.visible import data_file_response, visible_view
from fdeplatform.runs.models import Exchange

View = Callable[..., HttpResponseBase]
STEPS: dict[str, Callable[..., CaseVersion]] = {
    "submit": lifecycle.version_submit,
    "withdraw": lifecycle.version_withdraw,
    "approve": lifecycle.version_approve,
    "publish": lifecycle.version_publish,
    "retire": lifecycle.version_retire,
    "reopen": lifecycle.version_reopen,
}
DONE_MESSAGES = {
    "submit": "Submitted for review.",
    "withdraw": "Returned to draft.",
    "approve": "Approved.",
    "publish": "Published: new runs on this case use this version.",
    "retire": "Retired.",
    "reopen": "Reopened for review.",
}


def staff_only(view: View) -> View:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise Http404("No such page.")
        return view(request, *args, **kwargs)

    return wrapped


def _version(pk: int) -> CaseVersion:
    return get_object_or_404(CaseVersion.objects.select_related("case", "imported_by"), pk=pk)


@staff_only
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {"cases": authoring_cases(), "uploads": recent_uploads()}
    return render(request, "authoring/home.html", context)


@staff_only
@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    folder = request.POST.get("folder", "").strip()
    try:
        if folder:
            if not user.is_superuser:
                raise PermissionDenied("Only superusers may import a folder on the server.")
            created = upload_from_folder(path=folder, user=user)
        elif package := request.FILES.get("package"):
            created = upload_save(file=package, user=user)
        else:
            raise UploadError("Choose a package zip to upload.")
    except UploadError as exc:
        messages.error(request, str(exc))
        return redirect("authoring-home")
    return redirect("authoring-upload", pk=created.pk)


@staff_only
@require_GET
def upload_page(request: HttpRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(PackageUpload.objects.select_related("version__case"), pk=pk)
    return render(request, "authoring/upload.html", {"upload": item, "report": _format(item)})


def _format(item: PackageUpload) -> ReportView | None:
    if item.status not in (PackageUpload.Status.REJECTED, PackageUpload.Status.FAILED):
        return None
    return problems_view([str(p) for p in item.problems])


@staff_only
@require_GET
def upload_status(request: HttpRequest, pk: int) -> JsonResponse:
    item = get_object_or_404(PackageUpload, pk=pk)
    url = reverse("authoring-version", args=[item.version_id]) if item.version_id else None
    return JsonResponse({"status": item.status, "finished": item.finished, "version_url": url})


@staff_only
@require_GET
def version_page(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    validation = latest_validation(version)
    report = None
    if validation is not None and validation.finished:
        report = report_view(
            validation.report,
            package_dir=version.package_dir,
            uplift=version.scoring.get("baseline_value") is not None,
        )
    context = {
        "version": version,
        "case": version.case,
        "validation": validation,
        "report": report,
        "passing": passing_validation(version) is not None,
        "approvers": lifecycle.approvers(version),
        "single_admin": lifecycle.single_admin_install(),
        "is_uploader": version.imported_by_id == request.user.pk,
        "events": events_of(version=version),
        "others": [v for v in case_versions(version.case) if v.pk != version.pk],
        "min_justification": lifecycle.MIN_JUSTIFICATION,
    }
    return render(request, "authoring/version.html", context)


@staff_only
@require_GET
def version_status(request: HttpRequest, pk: int) -> JsonResponse:
    version = get_object_or_404(CaseVersion, pk=pk)
    validation = latest_validation(version)
    return JsonResponse(
        {
            "state": version.state,
            "validation": validation.status if validation else None,
            "finished": validation.finished if validation else True,
        }
    )


@staff_only
@require_POST
def version_validate(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    validation_queue(version=version, user=request.user)  # type: ignore[arg-type]
    messages.info(request, "Validation queued.")
    return redirect("authoring-version", pk=pk)


@staff_only
@require_POST
def version_step(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    step = request.POST.get("step", "")
    if step not in STEPS:
        raise Http404("No such step.")
    extra: dict[str, str] = {}
    if step == "publish":
        extra["justification"] = request.POST.get("justification", "")
    if step == "retire":
        extra["reason"] = request.POST.get("reason", "")
    try:
        STEPS[step](version=version, actor=request.user, **extra)
    except lifecycle.LifecycleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, DONE_MESSAGES[step])
    return redirect("authoring-version", pk=pk)


@staff_only
@require_GET
def version_export(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    try:
        payload = version_export_zip(version)
    except ExportError as exc:
        messages.error(request, str(exc))
        return redirect("authoring-version", pk=pk)
    event_record(version=version, actor=request.user, action=AuthoringEvent.Action.EXPORTED)
    response = HttpResponse(payload, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{export_name(version)}"'
    return response


@staff_only
@require_GET
def version_preview(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    context = {"version": version, "case": version.case, "view": visible_view(version)}
    return render(request, "authoring/preview.html", context)


@staff_only
@require_GET
def version_data(request: HttpRequest, pk: int, name: str) -> HttpResponseBase:
    return data_file_response(_version(pk), name)


@staff_only
def version_console(request: HttpRequest, pk: int) -> HttpResponse:
    version = _version(pk)
    key = f"authoring-console-{version.pk}"
    history: list[dict[str, Any]] = request.session.get(key, [])
    if request.method == "POST":
        if "reset" in request.POST:
            history = []
        elif text := request.POST.get("text", "").strip():
            turn = console.console_ask(version=version, text=text[:2000], history=history)
            history = [*history, console.as_dict(turn)]
        request.session[key] = history
        return redirect("authoring-console", pk=pk)
    context = {
        "version": version,
        "case": version.case,
        "history": history,
        "coverage": console.coverage(version, history),
    }
    return render(request, "authoring/console.html", context)


@staff_only
def version_answer_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Label a seeded, stratified sample of the customer's real answers on this version."""
    version = _version(pk)
    seed = _int(request.GET.get("seed"), 1)
    if request.method == "POST":
        exchange = get_object_or_404(
            Exchange, pk=_int(request.POST.get("exchange"), 0), run__case_version=version
        )
        try:
            answer_audit.label_answer(
                exchange=exchange,
                reviewer=request.user,  # type: ignore[arg-type]
                verdict=request.POST.get("verdict", ""),
                note=request.POST.get("note", ""),
            )
        except ValueError as exc:
            messages.error(request, str(exc))
        return redirect(f"{request.path}?seed={seed}#answer-{exchange.pk}")
    sample = answer_audit.audit_sample(version, seed=seed)
    mine = dict(
        AnswerLabel.objects.filter(reviewer_id=request.user.pk, exchange__in=sample).values_list(
            "exchange_id", "verdict"
        )
    )
    context = {
        "version": version,
        "case": version.case,
        "seed": seed,
        "rows": [(exchange, mine.get(exchange.pk)) for exchange in sample],
        "verdicts": AnswerLabel.Verdict.choices,
        "summary": answer_audit.audit_summary(version),
    }
    return render(request, "authoring/answer_audit.html", context)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


@staff_only
@require_GET
def case_page(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(Case.objects.select_related("current_version"), slug=slug)
    context = {"case": case, "versions": case_versions(case), "events": events_of(case=case)}
    return render(request, "authoring/case.html", context)


@staff_only
@require_GET
def case_diff(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(Case, slug=slug)
    versions = {v.pk: v for v in case_versions(case)}
    try:
        a, b = versions[int(request.GET["a"])], versions[int(request.GET["b"])]
    except (KeyError, ValueError) as exc:
        raise Http404("Pick two versions of this case.") from exc
    reports = tuple(_last_report(v) for v in (a, b))
    diff = version_diff(a, b, (reports[0], reports[1]))
    context = {"case": case, "diff": diff, "versions": list(versions.values())}
    return render(request, "authoring/diff.html", context)


def _last_report(version: CaseVersion) -> dict[str, Any]:
    finished = [v for v in version.validations.all() if v.finished]
    return finished[0].report if finished else {}
