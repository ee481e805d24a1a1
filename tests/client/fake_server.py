"""A tiny stdlib HTTP server that speaks the platform's REST contract, for PROTOCOL TESTS ONLY.

It lets the client's unit tests exercise the real HTTP code path (urllib, headers, multipart,
status codes, error bodies) without Django. It is not a model of the platform's behaviour: it
keeps a few runs in memory and scores nothing. ``test_live.py`` is the test against the real
server.
"""

from __future__ import annotations

import email.parser
import email.policy
import io
import json
import re
import threading
import uuid
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOKEN = "test-token-123"

SCHEMA = {
    "format": "csv",
    "columns": [{"name": "item_id", "type": "string", "pattern": "^I[0-9]{2}$"}],
}
BUNDLE_FILES = {
    "instruction.md": "# Load the van\nPick the items that fit.\n",
    "submission_schema.json": json.dumps(SCHEMA),
    "data/items.csv": "item_id,weight\nI01,3\nI02,5\n",
}
CASES = [
    {
        "slug": "tiny-knapsack",
        "title": "Load the van",
        "summary": "Pick items.",
        "family": "CO",
        "sector": "retail",
        "subtype": "knapsack",
        "version": "1.0.0",
        "limits": {"rounds": 5, "wall_clock_minutes": 30},
    },
    {
        "slug": "tiny-restock",
        "title": "Restock the shelves",
        "summary": "Order stock.",
        "family": "CO",
        "sector": "retail",
        "subtype": "ordering",
        "version": "2.0.0",
        "limits": {"rounds": 30, "wall_clock_minutes": 720},
    },
]


def make_zip(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def contract_result(run: dict[str, Any]) -> dict[str, Any]:
    """``/result/`` in the brief's flat shape: verdict keys at the top level."""
    valid = all(s["format"]["ok"] for s in run["submissions"][-1:])
    return {
        "status": "scored",
        "score": 0.75 if valid else 0.0,
        "valid": valid,
        "error_kind": None if valid else "schema",
        "violations": [],
    }


@dataclass
class Upload:
    filename: str
    content_type: str
    content: bytes


@dataclass
class FakePlatform:
    """The server's state; tests read it to check what the client sent."""

    bundle: bytes = field(default_factory=lambda: make_zip(BUNDLE_FILES))
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    questions: list[dict[str, Any]] = field(default_factory=list)
    uploads: list[Upload] = field(default_factory=list)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    overrides: dict[tuple[str, str], tuple[int, bytes]] = field(default_factory=dict)
    run_minutes: float = 30.0
    pending_polls: int = 1  # how many /result/ calls answer "pending" after closing
    final_result: Callable[[dict[str, Any]], dict[str, Any]] = contract_result

    def new_run(self, payload: dict[str, Any]) -> dict[str, Any]:
        now = datetime.now(timezone.utc)  # noqa: UP017 (these tests also run on 3.10)
        deadline = now + timedelta(minutes=self.run_minutes)
        run = {
            "id": str(uuid.uuid4()),
            "case": payload["case"],
            "version": "1.0.0",
            "condition": payload["condition"],
            "mode": payload["mode"],
            "label": payload["label"],
            "status": "open",
            "rounds_used": 0,
            "rounds_limit": 5,
            "deadline": deadline.isoformat().replace("+00:00", "Z"),
            "ws_url": "/ws/runs/x/",
            "submissions": [],
            "_polls": 0,
        }
        if payload["condition"] == "full":
            run["information"] = "# Everything\nThe van takes 8 kg.\n"
        self.runs[run["id"]] = run
        return run


def public(run: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in run.items() if not key.startswith("_")}


def error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


class Handler(BaseHTTPRequestHandler):
    platform: FakePlatform  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        path = self.path.split("?")[0]
        self.platform.requests.append((method, self.path, dict(self.headers)))
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if (method, path) in self.platform.overrides:
            status, raw = self.platform.overrides[(method, path)]
            return self._send(status, raw, "application/json")
        if self.headers.get("Authorization") != f"Token {TOKEN}":
            detail = {"detail": "Authentication credentials were not provided."}
            return self._json(401, detail)
        for pattern, verb, handler in ROUTES:
            match = re.fullmatch(pattern, path)
            if match and verb == method:
                return handler(self, body, *match.groups())
        self._json(404, {"detail": "Not found."})

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _send(self, status: int, raw: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _run(self, run_id: str) -> dict[str, Any] | None:
        run = self.platform.runs.get(run_id)
        if run is None:
            self._json(404, error("not_found", f"No run {run_id}."))
        return run

    # Routes.

    def cases(self, body: bytes) -> None:
        page = 2 if "page=2" in self.path else 1
        host = f"http://{self.headers['Host']}"
        self._json(
            200,
            {
                "count": len(CASES),
                "next": f"{host}/api/cases/?page=2" if page == 1 else None,
                "previous": None,
                "results": [CASES[page - 1]],
            },
        )

    def bundle(self, body: bytes, slug: str) -> None:
        if slug not in {c["slug"] for c in CASES}:
            return self._json(404, error("not_found", f"No published case '{slug}'."))
        self._send(200, self.platform.bundle, "application/zip")

    def start(self, body: bytes) -> None:
        payload = json.loads(body)
        if payload.get("case") not in {c["slug"] for c in CASES}:
            return self._json(400, {"case": ["Unknown case."]})
        self._json(201, public(self.platform.new_run(payload)))

    def detail(self, body: bytes, run_id: str) -> None:
        run = self._run(run_id)
        if run is not None:
            self._json(200, public(run))

    def ask(self, body: bytes, run_id: str) -> None:
        run = self._run(run_id)
        if run is None:
            return
        if run["rounds_used"] >= run["rounds_limit"]:
            return self._json(409, error("rounds_exhausted", "No clarification rounds left."))
        payload = json.loads(body)
        self.platform.questions.append({"run": run_id, **payload})
        run["rounds_used"] += 1
        answer = f"You asked: {payload['text']}"
        reply = {
            "turn": run["rounds_used"],
            "text": answer,
            "stakeholder": payload.get("to") or "Dana Whitfield",
            "rounds_used": run["rounds_used"],
            "rounds_limit": run["rounds_limit"],
        }
        self._json(200, reply)

    def submit(self, body: bytes, run_id: str) -> None:
        run = self._run(run_id)
        if run is None:
            return
        upload = parse_upload(self.headers.get("Content-Type", ""), body)
        self.platform.uploads.append(upload)
        text = upload.content.decode(errors="replace")
        ok = text.splitlines()[:1] == ["item_id"]
        errors = [] if ok else ["line 1: expected the header 'item_id'"]
        submission = {
            "id": str(uuid.uuid4()),
            "number": len(run["submissions"]) + 1,
            "status": "received",
            "format": {"ok": ok, "errors": errors},
        }
        if run["mode"] == "practice":  # scored at once, verdict nested as the platform does
            submission["score"] = 0.75 if ok else 0.0
            submission["result"] = {"valid": ok, "error_kind": None if ok else "schema",
                                    "violations": []}  # fmt: skip
        run["submissions"].append(submission)
        self._json(202, submission)

    def close(self, body: bytes, run_id: str) -> None:
        run = self._run(run_id)
        if run is None:
            return
        if run["status"] != "open":
            return self._json(409, error("run_closed", "The run is already closed."))
        run["status"] = "closed"
        self._json(200, public(run))

    def result(self, body: bytes, run_id: str) -> None:
        run = self._run(run_id)
        if run is None:
            return
        if run["mode"] == "ranked" and run["status"] == "open":
            message = "Ranked runs show their result after the run is closed."
            return self._json(409, error("run_open", message))
        run["_polls"] += 1
        if run["_polls"] <= self.platform.pending_polls:
            return self._json(200, {"status": "pending", "score": None})
        self._json(200, self.platform.final_result(run))


ROUTES = [
    (r"/api/cases/", "GET", Handler.cases),
    (r"/api/cases/([^/]+)/bundle/", "GET", Handler.bundle),
    (r"/api/runs/", "POST", Handler.start),
    (r"/api/runs/([^/]+)/", "GET", Handler.detail),
    (r"/api/runs/([^/]+)/questions/", "POST", Handler.ask),
    (r"/api/runs/([^/]+)/submissions/", "POST", Handler.submit),
    (r"/api/runs/([^/]+)/close/", "POST", Handler.close),
    (r"/api/runs/([^/]+)/result/", "GET", Handler.result),
]


def parse_upload(content_type: str, body: bytes) -> Upload:
    """Parse the multipart body with the email package: an independent decoder."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    for part in message.iter_parts():  # type: ignore[attr-defined]
        if part.get_param("name", header="content-disposition") == "file":
            return Upload(
                filename=part.get_filename() or "",
                content_type=part.get_content_type(),
                content=part.get_payload(decode=True) or b"",
            )
    raise ValueError("no 'file' part in the upload")


@contextmanager
def serve(platform: FakePlatform) -> Iterator[str]:
    handler = type("BoundHandler", (Handler,), {"platform": platform})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
