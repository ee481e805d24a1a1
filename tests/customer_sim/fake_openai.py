"""A local OpenAI-compatible chat endpoint for testing the LLM customer with the real client.

It listens on 127.0.0.1 on a free port, records every request it receives and answers from a
list of canned responses (the last one repeats), so a test can make the "model" fail, stall or
talk nonsense exactly when it wants to.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Canned:
    status: int = 200
    body: str = ""
    delay: float = 0.0
    content_type: str = "application/json"


def completion(content: str | None) -> Canned:
    """A well-formed chat completion whose answer is ``content``."""
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "customer-test-model",
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
    responses: list[Canned]
    requests: list[Recorded] = field(default_factory=list)

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

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, recorded: Recorded) -> Canned:
        with self._lock:
            self.requests.append(recorded)
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
