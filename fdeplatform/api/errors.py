"""One error shape for the whole API: ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import RequestDataTooBig
from rest_framework.response import Response
from rest_framework.views import exception_handler

from fdeplatform.runs.errors import RunError


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RunError):
        refusal = Response({"error": exc.as_dict()}, status=exc.status)
        if exc.retry_after is not None:
            refusal["Retry-After"] = str(math.ceil(exc.retry_after))
        return refusal
    if isinstance(exc, RequestDataTooBig):
        message = "The request body is too large."
        return Response({"error": {"code": "too_large", "message": message}}, status=413)
    response = exception_handler(exc, context)
    if response is not None:
        code = getattr(exc, "default_code", "error")
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        message = str(detail) if detail is not None else _flatten(response.data)
        response.data = {"error": {"code": str(code), "message": message}}
        wait = getattr(exc, "wait", None)  # DRF throttles
        if wait is not None:
            response.data["error"]["retry_after"] = math.ceil(wait)
    return response


def _flatten(data: Any) -> str:
    if isinstance(data, dict):
        return "; ".join(f"{key}: {_flatten(value)}" for key, value in data.items())
    if isinstance(data, list):
        return " ".join(_flatten(item) for item in data)
    return str(data)
