"""HTTP client for the platform's REST API (``/api/...``), standard library only.

Every failure leaves this module as one of the errors in ``fde_client.errors`` with a message a
person (or an agent) can act on; nothing here prints or exits.
"""

from __future__ import annotations

import http.client
import json
import platform
import shutil
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from fde_client import __version__
from fde_client.errors import ApiError, ConnectionProblem, UsageError
from fde_client.multipart import FilePart, encode

JSONObject = dict[str, Any]

DEFAULT_URL = "http://127.0.0.1:8000"
USER_AGENT = f"fde-client/{__version__} (python/{platform.python_version()})"
MAX_PAGES = 1000  # a guard against a server whose "next" links loop


def check_base_url(url: str) -> str:
    """Return ``url`` without a trailing slash, or explain why it cannot be a server address."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise UsageError(f"server URL must look like http://host:port, got {url!r}")
    return url.rstrip("/")


@dataclass(frozen=True)
class Client:
    base_url: str
    token: str | None = None
    timeout: float = 120.0  # an LLM-backed customer can take a while to answer

    def __post_init__(self) -> None:
        object.__setattr__(self, "base_url", check_base_url(self.base_url))

    # The contract, one method per endpoint.

    def list_cases(self) -> list[JSONObject]:
        """All published cases, following the paginator's ``next`` links."""
        cases: list[JSONObject] = []
        url: str | None = self._url("cases/")
        for _ in range(MAX_PAGES):
            if url is None:
                return cases
            page = self._json("GET", url)
            cases.extend(_list_of_objects(page.get("results", []), "results"))
            url = page.get("next") or None
        raise ApiError(0, "bad_response", f"more than {MAX_PAGES} pages of cases; giving up")

    def case(self, slug: str) -> JSONObject:
        return self._json("GET", self._url(f"cases/{_segment(slug)}/"))

    def download_bundle(self, slug: str, destination: IO[bytes]) -> None:
        """Write the case's zip (instruction, schema, data) to an open binary file."""
        request = self._request("GET", self._url(f"cases/{_segment(slug)}/bundle/"), None, {})
        self._exchange(request, destination)

    def download_run_bundle(self, run_id: str, destination: IO[bytes]) -> None:
        """Write the run's own zip (its variant's data; a case may vary its facts per run)."""
        request = self._request("GET", self._run_url(run_id, "bundle/"), None, {})
        self._exchange(request, destination)

    def start_run(self, *, case: str, condition: str, mode: str, label: str) -> JSONObject:
        payload = {"case": case, "condition": condition, "mode": mode, "label": label}
        return self._json("POST", self._url("runs/"), payload)

    def run(self, run_id: str) -> JSONObject:
        return self._json("GET", self._run_url(run_id))

    def ask(self, run_id: str, text: str, to: str | None = None) -> JSONObject:
        return self.ask_with_id(run_id, text, to, None)

    def ask_with_id(
        self, run_id: str, text: str, to: str | None, client_id: str | None
    ) -> JSONObject:
        """Ask; with ``client_id`` a repeat of the same call is answered from the record."""
        payload: JSONObject = {"text": text}
        if to:
            payload["to"] = to
        if client_id:
            payload["id"] = client_id
        return self._json("POST", self._run_url(run_id, "questions/"), payload)

    def questions(self, run_id: str) -> list[JSONObject]:
        """The run's exchanges so far, in turn order (each with its contact cost)."""
        data = self._any_json("GET", self._run_url(run_id, "questions/"))
        return _list_of_objects(data, "questions")

    def agent_tools(self) -> JSONObject:
        """The server's OpenAI-style tool definitions (``GET /api/agent-tools/``)."""
        return self._json("GET", self._url("agent-tools/"))

    def submit(self, run_id: str, path: Path) -> JSONObject:
        part = FilePart(field="file", filename=path.name, content=path.read_bytes())
        body, content_type = encode({}, [part])
        url = self._run_url(run_id, "submissions/")
        return self._json("POST", url, body=body, content_type=content_type)

    def close(self, run_id: str) -> JSONObject:
        return self._json("POST", self._run_url(run_id, "close/"), {})

    def result(self, run_id: str) -> JSONObject:
        return self._json("GET", self._run_url(run_id, "result/"))

    # Plumbing.

    def _url(self, path: str) -> str:
        return f"{self.base_url}/api/{path}"

    def _run_url(self, run_id: str, tail: str = "") -> str:
        return self._url(f"runs/{_segment(run_id)}/{tail}")

    def _json(
        self,
        method: str,
        url: str,
        payload: JSONObject | None = None,
        *,
        body: bytes | None = None,
        content_type: str = "application/json",
    ) -> JSONObject:
        if payload is not None:
            body = json.dumps(payload).encode()
        headers = {"Content-Type": content_type} if body is not None else {}
        status, raw = self._exchange(self._request(method, url, body, headers))
        return _decode_object(raw, status)

    def _any_json(self, method: str, url: str) -> Any:
        """A GET whose answer is JSON of any shape (a list, for the questions)."""
        status, raw = self._exchange(self._request(method, url, None, {}))
        try:
            return json.loads(raw.decode() or "null")
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ApiError(status, "bad_response", "the server's answer is not JSON") from None

    def _request(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str]
    ) -> urllib.request.Request:
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT, **headers}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        return urllib.request.Request(url, data=body, headers=headers, method=method)

    def _exchange(
        self, request: urllib.request.Request, sink: IO[bytes] | None = None
    ) -> tuple[int, bytes]:
        """Send the request; return the status and body (or stream the body into ``sink``)."""
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                if sink is None:
                    return int(response.status), bytes(response.read())
                shutil.copyfileobj(response, sink)
                return int(response.status), b""
        except urllib.error.HTTPError as exc:
            with exc:
                body = exc.read()
            raise error_from_response(
                exc.code, exc.reason, body, has_token=bool(self.token)
            ) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise ConnectionProblem(f"cannot reach {self.base_url}: {reason}") from None


def _segment(value: str) -> str:
    """Quote one path segment, so an odd slug or run id cannot walk to another endpoint."""
    return urllib.parse.quote(value, safe="")


def _decode_object(raw: bytes, status: int) -> JSONObject:
    try:
        data = json.loads(raw.decode() or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ApiError(status, "bad_response", "the server's answer is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError(status, "bad_response", "the server's answer is not a JSON object")
    return data


def _list_of_objects(value: Any, name: str) -> list[JSONObject]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ApiError(0, "bad_response", f"the server's '{name}' is not a list of objects")
    return value


def error_from_response(status: int, reason: str, raw: bytes, *, has_token: bool) -> ApiError:
    """Turn a non-2xx answer into an ``ApiError`` whose message is the server's own words.

    The platform sends ``{"error": {"code", "message"}}``; DRF's generic views send
    ``{"detail": ...}`` and validation errors as ``{"field": ["message", ...]}``.
    """
    code, message = _parse_error_body(raw)
    code = code or _default_code(status)
    message = message or f"{reason or 'request failed'}"
    if status == 401 and not has_token:
        message += " (no token given: set FDE_TOKEN or pass --token)"
    return ApiError(status, code, message)


def _parse_error_body(raw: bytes) -> tuple[str, str]:
    try:
        data = json.loads(raw.decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "", ""  # an HTML error page says nothing useful in a terminal
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        error = data["error"]
        return str(error.get("code") or ""), str(error.get("message") or "")
    if isinstance(data, dict) and "detail" in data:
        return str(data.get("code") or ""), _flatten(data["detail"])
    return "", _flatten(data)


def _flatten(value: Any) -> str:
    """Render DRF's nested error structures as one line: ``field: message; other: message``."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_flatten(item)}" for key, item in value.items())
    if isinstance(value, list):
        return " ".join(_flatten(item) for item in value)
    return str(value)


def _default_code(status: int) -> str:
    return {
        400: "bad_request",
        401: "not_authenticated",
        403: "permission_denied",
        404: "not_found",
        405: "method_not_allowed",
        409: "conflict",
        413: "too_large",
        429: "throttled",
    }.get(status, "server_error" if status >= 500 else "http_error")
