"""A judge panel on the shared local OpenAI-compatible server: each model answers from a script.

Each model name maps to a list of reply contents used in order (the last one repeats); a
content of ``None`` makes the server answer HTTP 500. The server records every request, so a
test can count how many judges were actually asked.
"""

from __future__ import annotations

import json
from collections import Counter

from tests.support.fake_openai import Canned, FakeChatServer, Recorded, completion, server_error


def verdict(covered: bool, ids: list[int] | None = None) -> str:
    return json.dumps({"covered": covered, "question_ids": ids or []})


def ScriptedPanelServer(scripts: dict[str, list[str | None]]) -> FakeChatServer:
    served: Counter[str] = Counter()

    def respond(recorded: Recorded) -> Canned:
        model = str(recorded.body["model"])
        script = scripts[model]
        content = script[min(served[model], len(script) - 1)]
        served[model] += 1
        return server_error() if content is None else completion(content, model=model)

    return FakeChatServer(responder=respond)
