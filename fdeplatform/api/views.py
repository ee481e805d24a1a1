"""REST API for agents and researchers (contract in product.md).

Each view parses input with a small serializer, calls one service, and shapes the output with
the presenters that pages and the websocket use too, so the mode rules (no scores in an open
ranked run) hold the same everywhere.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fdeplatform.api.agent_tools import agent_tools_document
from fdeplatform.api.parsers import SafeJSONParser
from fdeplatform.cases.models import Case
from fdeplatform.cases.selectors import published_cases
from fdeplatform.cases.visible import (
    bundle_response,
    data_file_response,
    data_files,
    directory_dicts,
    information_md_for_full_condition,
    visible_view,
)
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.models import Condition, Mode
from fdeplatform.runs.presenters import exchange_view, run_view, shown_run_score, submission_view
from fdeplatform.runs.selectors import run_snapshot
from fdeplatform.runs.services import run_ask, run_for_player, run_start
from fdeplatform.runs.standing import informed_after
from fdeplatform.runs.submissions import submission_receive
from fdeplatform.scoring.models import RunCoverage
from fdeplatform.scoring.services import queue_position


class CaseOutputSerializer(serializers.ModelSerializer[Case]):
    version = serializers.SerializerMethodField()
    limits = serializers.SerializerMethodField()

    class Meta:
        model = Case
        fields = [
            "slug", "title", "summary", "family", "sector", "subtype", "tutorial", "version",
            "limits",
        ]  # fmt: skip

    def get_version(self, case: Case) -> str:
        return case.current_version.version if case.current_version else ""

    def get_limits(self, case: Case) -> dict[str, Any]:
        return dict(case.current_version.limits) if case.current_version else {}


class CaseListApi(ListAPIView[Case]):
    """Published cases with their public metadata (never hidden files or reference values)."""

    serializer_class = CaseOutputSerializer

    def get_queryset(self) -> Any:
        return published_cases()


def _published(slug: str) -> Case:
    case = published_cases().filter(slug=slug).first()
    if case is None or case.current_version is None:
        raise Http404("No such case.")
    return case


class CaseDetailApi(APIView):
    """A case's request, deliverable schema and data files."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        case = _published(slug)
        assert case.current_version is not None
        view = visible_view(case.current_version)
        body = CaseOutputSerializer(case).data
        body.update(
            instruction=view.instruction_md,
            submission_schema=view.schema,
            data_files=[
                {"name": f.name, "size": f.size, "url": f"/api/cases/{slug}/data/{f.name}"}
                for f in view.data_files
            ],
            bundle_url=f"/api/cases/{slug}/bundle/",
        )
        return Response(body)


class CaseDataApi(APIView):
    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request: Request, slug: str, name: str) -> FileResponse:
        case = _published(slug)
        assert case.current_version is not None
        return data_file_response(case.current_version, name)


class CaseBundleApi(APIView):
    """instruction.md, submission_schema.json and data/ as one zip."""

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, slug: str) -> HttpResponse:
        case = _published(slug)
        assert case.current_version is not None
        return bundle_response(case.current_version, case.slug)


class RunCreateInput(serializers.Serializer[Any]):
    case = serializers.SlugField()
    condition = serializers.ChoiceField(choices=Condition.choices, default=Condition.INTERACT_REQ)
    # Practice unless asked, as `fde start`: trying the API out must not put a run on the board.
    mode = serializers.ChoiceField(choices=Mode.choices, default=Mode.PRACTICE)
    label = serializers.CharField(  # type: ignore[assignment]  # "label" is the contract's name
        max_length=200, required=False, allow_blank=True, default=""
    )


class RunCreateApi(APIView):
    """Start a run on a published case (pinned to its current version)."""

    @extend_schema(request=RunCreateInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = RunCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        run = run_start(
            player=request.user,
            case_slug=data.validated_data["case"],
            condition=data.validated_data["condition"],
            mode=data.validated_data["mode"],
            label=data.validated_data["label"],
            is_agent=request.auth is not None,
        )
        body = run_view(run)
        # Said before any exposure happens: a practice or Full run spoils later ranked ones.
        body["informed_after"] = informed_after(
            case=run.case_version.case, condition=run.condition, mode=run.mode
        )
        information = information_md_for_full_condition(run)
        if information:
            body["information"] = information
        if run.has_customer:
            body["stakeholders"] = directory_dicts(run)
        body.update(run_files(run))
        return Response(body, status=status.HTTP_201_CREATED)


class RunDetailApi(APIView):
    """The run as its player sees it: budget, deadline, submissions (per mode rules)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, run_id: str) -> Response:
        snapshot = run_snapshot(run_id=run_id, player=request.user)
        run = run_for_player(run_id=run_id, player=request.user)
        return Response(
            {
                **snapshot["run"],
                "submissions": snapshot["submissions"],
                "score": snapshot["score"],
                **run_files(run),
            }
        )


def run_files(run: Any) -> dict[str, Any]:
    """The run's data files and bundle: its variant's, at run URLs that do not name it (a
    case's own data URLs serve its base variant)."""
    base = f"/api/runs/{run.pk}"
    return {
        "data_files": [
            {"name": f.name, "size": f.size, "url": f"{base}/data/{f.name}"}
            for f in data_files(run)
        ],
        "bundle_url": f"{base}/bundle/",
    }


class RunDataApi(APIView):
    """A data file of the run (its variant's): what the player builds the deliverable from."""

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request: Request, run_id: str, name: str) -> FileResponse:
        return data_file_response(run_for_player(run_id=run_id, player=request.user), name)


class RunBundleApi(APIView):
    """The run's instruction.md, submission_schema.json and data/ as one zip."""

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, run_id: str) -> HttpResponse:
        run = run_for_player(run_id=run_id, player=request.user)
        return bundle_response(run, run.case_version.case.slug)


class QuestionInput(serializers.Serializer[Any]):
    text = serializers.CharField(max_length=4000, trim_whitespace=True)
    to = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    id = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")


class RunQuestionsApi(APIView):
    """The run's exchanges; POST one question (one round) and get the customer's answer."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, run_id: str) -> Response:
        run = run_for_player(run_id=run_id, player=request.user)
        return Response(
            [
                {**exchange_view(e), "contact_cost": e.contact_cost}
                for e in run.exchanges.order_by("turn")
            ]
        )

    @extend_schema(
        request=QuestionInput,
        responses=OpenApiTypes.OBJECT,
        description=(
            "Ask one question (one round). With an `id`, a retry of the same body (after a "
            "lost reply or a 5xx) returns the exchange already recorded for that id: it is "
            "safe to repeat and charges the round once."
        ),
    )
    def post(self, request: Request, run_id: str) -> Response:
        data = QuestionInput(data=request.data)
        data.is_valid(raise_exception=True)
        exchange = run_ask(
            run_id=run_id,
            player=request.user,
            text=data.validated_data["text"],
            to=data.validated_data["to"],
            client_id=data.validated_data["id"],
        )
        run = exchange.run
        return Response(
            {
                **exchange_view(exchange),
                "contact_cost": exchange.contact_cost,  # what this message cost (FDE-Gym)
                "rounds_used": run.rounds_used,
                "rounds_limit": run.rounds_limit,
            }
        )


class RunSubmissionsApi(APIView):
    parser_classes = [MultiPartParser, FormParser, SafeJSONParser]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, run_id: str) -> Response:
        return Response(run_snapshot(run_id=run_id, player=request.user)["submissions"])

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
            }
        },
        responses={202: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, run_id: str) -> Response:
        _refuse_huge_body(request)
        submission = submission_receive(
            run_id=run_id, player=request.user, upload=request.FILES.get("file")
        )
        view = submission_view(submission, submission.run)
        view["queue_position"] = queue_position(submission)
        return Response(view, status=status.HTTP_202_ACCEPTED)


class RunCloseApi(APIView):
    """Close the run: the last submission that passed the format check is scored; coverage is
    judged. The response says which upload counts, and warns when none does (score 0)."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, run_id: str) -> Response:
        run = run_close(run_id=run_id, player=request.user)
        final = run.final_submission
        counted: dict[str, object] = {"counted_submission": final.number if final else None}
        if final is None:
            counted["warning"] = "No upload passed the format check: the run ends with score 0" + (
                " and still counts on the board." if run.mode == "ranked" else "."
            )
        return Response({**run_view(run), **counted})


class RunResultApi(APIView):
    """The run's delivery result; for ranked runs only once the run has closed."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, run_id: str) -> Response:
        run = run_for_player(run_id=run_id, player=request.user)
        if run.status in {"open", "scoring"}:
            state = "pending" if run.status == "scoring" else run.status
            return Response({"status": state, "score": None, "message": _pending_message(run)})
        final = run.final_submission
        return Response(
            {
                "status": "scored" if run.score is not None else "pending",
                "score": shown_run_score(run),
                "valid": run.valid,
                "submission": submission_view(final, run) if final else None,
                "rounds_used": run.rounds_used,
                "recall": _recall(run),
            }
        )


def _recall(run: Any) -> float | None:
    """The ended run's Recall once coverage is judged (None before, or without a customer).

    A share of targets, never which ones: the boards and the runs export show it for every
    ranked run, so the run's own player may read it at once (campaign summaries need it).
    """
    coverage = RunCoverage.objects.filter(run=run, status=RunCoverage.DONE).first()
    if coverage is None or not run.has_customer:
        return None
    return coverage.recall


class AgentToolsApi(APIView):
    """OpenAI-style tool definitions (ask_customer, list_files, read_file, submit) for any
    function-calling loop; public, like the API schema."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        return Response(agent_tools_document())


def _refuse_huge_body(request: Request) -> None:
    """Refuse an upload far beyond any case's limit before Django spools it to disk."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.MAX_UPLOAD_REQUEST_BYTES:
        limit_mb = settings.MAX_UPLOAD_REQUEST_BYTES // 1_048_576
        raise RunError("too_large", f"Uploads are limited to {limit_mb} MB.", 413)


def _pending_message(run: Any) -> str:
    if run.status == "open" and run.mode == "ranked":
        return "Ranked runs are scored when they close."
    if run.status == "open":
        return "Practice submissions are scored as they arrive; see the submissions list."
    return "The final submission is being scored."
