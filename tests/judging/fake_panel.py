"""A local OpenAI-compatible chat endpoint whose "models" answer from per-model scripts.

Each model name maps to a list of reply contents used in order (the last one repeats); a
content of ``None`` makes the server answer HTTP 500. Every request is recorded, so a test can
count how many judges were actually asked.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def verdict(covered: bool, ids: list[int] | None = None) -> str:
    return json.dumps({"covered": covered, "question_ids": ids or []})


@dataclass
class ScriptedPanelServer:
    scripts: dict[str, list[str | None]]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._served: dict[str, int] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def calls_for(self, model: str) -> int:
        return sum(1 for r in self.requests if r["model"] == model)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _reply_for(self, body: dict[str, Any]) -> str | None:
        with self._lock:
            self.requests.append(body)
            model = body["model"]
            script = self.scripts[model]
            position = self._served.get(model, 0)
            self._served[model] = position + 1
            return script[min(position, len(script) - 1)]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}})
                    return
                content = server._reply_for(body)
                if content is None:
                    self._send(500, {"error": {"message": "scripted failure"}})
                    return
                self._send(200, _completion(body["model"], content))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                return

        return Handler


def _completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-judge-test",
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
