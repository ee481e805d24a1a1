"""Leaderboard and run exports over the REST API (public: ranked results are public).

The filters are the page's (``filters.FilterForm``); unlike the page, the API refuses invalid
filters with 400 rather than quietly dropping them, so a script never analyses the wrong runs.
"""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fdeplatform.leaderboards.board import leaderboard
from fdeplatform.leaderboards.cache import cached, results_stamp
from fdeplatform.leaderboards.exports import (
    RunExporter,
    export_runs,
    leaderboard_csv,
    leaderboard_json,
    runs_csv_stream,
    runs_json_stream,
)
from fdeplatform.leaderboards.filters import FilterForm, Filters
from fdeplatform.leaderboards.privacy import is_staff, target_access

FILTER_PARAMETERS = [
    OpenApiParameter("condition", str, description="interact_req, interact, hidden or full"),
    OpenApiParameter("family", str, description="CO or ML"),
    OpenApiParameter("sector", str),
    OpenApiParameter("case", str, description="case slug"),
    OpenApiParameter("who", str, description="humans or agents"),
    OpenApiParameter("humans", str, description="'together': all humans as one row"),
    OpenApiParameter("from", str, description="first day runs started (YYYY-MM-DD)"),
    OpenApiParameter("to", str, description="last day runs started (YYYY-MM-DD)"),
    OpenApiParameter("k", int, description="k of pass@k and pass^k (default 3)"),
    OpenApiParameter("sort", str, description="e.g. -quality, recall, -gym"),
]


def _filters(request: Request) -> Filters | Response:
    form = FilterForm(request.query_params)  # type: ignore[arg-type]
    if not form.is_valid():
        return Response({"code": "invalid_filters", "errors": form.errors}, status=400)
    return form.filters()


class LeaderboardApi(APIView):
    """The leaderboard as JSON, with each row's per-case cells (what the intervals resample)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=FILTER_PARAMETERS, responses={200: dict})
    def get(self, request: Request) -> Response:
        filters = _filters(request)
        if isinstance(filters, Response):
            return filters
        body = cached(
            "api", filters.query(), results_stamp(), lambda: leaderboard_json(leaderboard(filters))
        )
        return Response(body)


class LeaderboardCsvApi(APIView):
    """The leaderboard rows as CSV (one line per configuration)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=FILTER_PARAMETERS, responses={(200, "text/csv"): str})
    def get(self, request: Request) -> HttpResponse | Response:
        filters = _filters(request)
        if isinstance(filters, Response):
            return filters
        body = cached(
            "csv", filters.query(), results_stamp(), lambda: leaderboard_csv(leaderboard(filters))
        )
        response = HttpResponse(body, content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="leaderboard.csv"'
        return response


class RunsExportApi(APIView):
    """The ranked, ended runs behind the leaderboard, with exchanges and coverage.

    Exchange texts and per-target coverage are included only for cases whose targets the caller
    may see (staff, or a player who ended a run on the case and has none open there);
    requirement texts only for staff. Streamed, so large exports do not sit in memory.
    """

    permission_classes = [AllowAny]
    format = "json"

    @extend_schema(parameters=FILTER_PARAMETERS, responses={200: dict})
    def get(self, request: Request) -> StreamingHttpResponse | Response:
        filters = _filters(request)
        if isinstance(filters, Response):
            return filters
        exporter = RunExporter(
            target_access(request.user), staff=is_staff(request.user), viewer=request.user
        )
        runs = export_runs(filters).iterator(chunk_size=500)
        if self.format == "csv":
            stream, content_type = runs_csv_stream(runs, exporter), "text/csv"
        else:
            stream, content_type = runs_json_stream(runs, exporter), "application/json"
        response = StreamingHttpResponse(stream, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="runs.{self.format}"'
        response["Cache-Control"] = "private, no-store"
        return response
