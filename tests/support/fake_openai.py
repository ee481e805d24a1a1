"""A local OpenAI-compatible chat endpoint, so tests exercise the real ``openai`` client.

It listens on 127.0.0.1 on a free port and records every request. By default it answers from a
list of canned responses (the last one repeats), so a test can make the "model" fail, stall or
talk nonsense exactly when it wants to; a ``responder`` can decide per request instead (the
judge panel's tests script each model separately). Used by the LLM customer and the LLM judge
panel tests alike.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Canned:
    status: int = 200
    body: str = ""
    delay: float = 0.0
    content_type: str = "application/json"


def completion(content: str | None, model: str = "customer-test-model") -> Canned:
    """A well-formed chat completion whose answer is ``content``."""
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    return Canned(body=json.dumps(body))


def server_error(status: int = 500) -> Canned:
    return Canned(status=status, body=json.dumps({"error": {"message": "boom"}}))


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: str


@dataclass
class FakeChatServer:
    responses: list[Canned] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    responder: Callable[[Recorded], Canned] | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        # A short poll interval keeps shutdown (once per test) from costing half a second.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies the client sent, in order."""
        return [recorded.body for recorded in self.requests]

    def calls_for(self, model: str) -> int:
        return sum(1 for body in self.bodies if body.get("model") == model)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, recorded: Recorded) -> Canned:
        with self._lock:
            self.requests.append(recorded)
            if self.responder is not None:
                return self.responder(recorded)
            index = min(len(self.requests) - 1, len(self.responses) - 1)
            return self.responses[index]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                headers = {k.lower(): v for k, v in self.headers.items()}
                recorded = Recorded(self.path, headers, json.loads(raw), raw)
                canned = server._next(recorded)
                if self.path != "/v1/chat/completions":
                    canned = Canned(status=404, body='{"error": {"message": "no route"}}')
                time.sleep(canned.delay)
                payload = canned.body.encode()
                try:
                    self.send_response(canned.status)
                    self.send_header("Content-Type", canned.content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
