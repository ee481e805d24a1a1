"""The llm agent: a small tool-using loop on the ``openai`` client.

Any OpenAI-compatible endpoint (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``; ``--model``). The
system message is the run's solving prompt (``PROMPT.md``, FDE-Bench A.9.1); the tools are the
server's (``/api/agent-tools/``: ask_customer, list_files, read_file, submit), executed by
``fde_client.toolbox``, plus ``run_python``, which writes the model's code to a temporary folder
and runs it there with the workspace in ``FDE_WORKSPACE``. The loop ends when the model stops
calling tools after a submission; a model that stops without one is pushed on up to three
times (A.9.3's continuation), and ``--max-steps`` bounds the whole conversation.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fde_client.prompt import render_prompt

from fde_agents.context import AgentContext, common_options, context, say

OUTPUT_LIMIT = 8_000
PUSHES = 3
CONTINUE = (
    "You have not submitted a deliverable yet. Continue: build it from what you have and "
    "submit it with the submit tool."
)
RUN_PYTHON = {
    "type": "function",
    "function": {
        "name": "run_python",
        "description": "Write this Python code to a file in a temporary folder and run it "
        "there (timeout 120 s). The workspace's path is in os.environ['FDE_WORKSPACE']: read "
        "its data/ and write the deliverable into it. Returns exit code, stdout and stderr.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "minLength": 1}},
            "required": ["code"],
            "additionalProperties": False,
        },
    },
}


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fde_agents llm", description=__doc__)
    common_options(parser)
    parser.add_argument("--model", required=True, help="model name at the endpoint")
    parser.add_argument("--max-steps", type=int, default=40, help="model calls at most (40)")
    args = parser.parse_args(list(argv))
    agent = context(args)
    try:
        from openai import OpenAI
    except ImportError:
        say("llm: the openai package is missing: pip install './clients/agents[llm]'")
        return 2
    model = OpenAI(
        base_url=os.environ.get("OPENAI_BASE_URL") or None,
        api_key=os.environ.get("OPENAI_API_KEY") or "not-needed",
        max_retries=1,
    )
    with tempfile.TemporaryDirectory(prefix="fde-llm-") as scratch:
        submitted = Loop(agent, model, args.model, Path(scratch)).run(args.max_steps)
    say(f"llm: finished, {'a deliverable was submitted' if submitted else 'nothing submitted'}")
    return 0 if submitted else 1


class Loop:
    def __init__(self, agent: AgentContext, client: Any, model: str, scratch: Path) -> None:
        self.agent, self.client, self.model, self.scratch = agent, client, model, scratch
        self.tools = agent.toolbox()
        served = agent.client.agent_tools()["tools"]
        self.definitions = [*served, RUN_PYTHON]
        self.submitted = False
        self.steps = 0

    def prompt(self) -> str:
        path = self.agent.workspace / "PROMPT.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
        run = {"condition": self.agent.run.get("condition"), **self.agent.run}
        return render_prompt(self.agent.workspace, run, self.agent.deliverable)

    def run(self, max_steps: int) -> bool:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.prompt()},
            {"role": "user", "content": "Begin. Use the tools; submit the deliverable."},
        ]
        pushes = 0
        for self.steps in range(1, max_steps + 1):
            reply = self.client.chat.completions.create(
                model=self.model, messages=messages, tools=self.definitions
            )
            message = reply.choices[0].message
            messages.append(_assistant(message))
            if not message.tool_calls:
                if self.submitted or pushes >= PUSHES:
                    break
                pushes += 1
                messages.append({"role": "user", "content": CONTINUE})
                continue
            for call in message.tool_calls:
                result = self.call(call.function.name, call.function.arguments)
                say(f"llm: {call.function.name} -> {json.dumps(result)[:300]}")
                content = json.dumps(result, ensure_ascii=False)[:OUTPUT_LIMIT]
                messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
        return self.submitted

    def call(self, name: str, arguments: str) -> dict[str, Any]:
        if name == "run_python":
            try:
                code = json.loads(arguments or "{}").get("code", "")
            except (json.JSONDecodeError, AttributeError):
                return {"error": "the arguments must be a JSON object with 'code'"}
            return self.run_python(str(code))
        result = self.tools.call(name, arguments)
        check = result.get("format")
        if name == "submit" and isinstance(check, dict) and check.get("ok"):
            self.submitted = True
        return result

    def run_python(self, code: str) -> dict[str, Any]:
        script = self.scratch / f"step_{self.steps}.py"
        script.write_text(code, encoding="utf-8")
        env = {**os.environ, "FDE_WORKSPACE": str(self.agent.workspace)}
        try:
            done = subprocess.run(
                [sys.executable, script.name], cwd=self.scratch, env=env,
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return {"error": "the code ran longer than 120 s and was stopped"}
        return {
            "exit_code": done.returncode,
            "stdout": done.stdout[-OUTPUT_LIMIT // 2 :],
            "stderr": done.stderr[-OUTPUT_LIMIT // 2 :],
        }


def _assistant(message: Any) -> dict[str, Any]:
    """The assistant turn as the next request must carry it (tool calls included)."""
    turn: dict[str, Any] = {"role": "assistant", "content": message.content or ""}
    if message.tool_calls:
        turn["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in message.tool_calls
        ]
    return turn
