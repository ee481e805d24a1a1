"""OpenAI-style tool definitions for an agent loop (FDE-Bench A.9.3's question interfaces).

Served at ``/api/agent-tools/`` and printed by ``fde tools`` so any function-calling loop can
register them as they are (``tools=body["tools"]``). Each tool maps onto what a player already
has, so a loop that registers them plays exactly the run a shell agent plays:

- ``ask_customer``: ``POST /api/runs/{id}/questions/`` (one round per call, like ``./ask``);
- ``list_files`` / ``read_file``: the run's workspace as ``fde start`` writes it (instruction,
  schema, data, README.txt; never anything hidden: the workspace holds only the visible bundle);
- ``submit``: ``POST /api/runs/{id}/submissions/`` with a file of the workspace.

The client's ``fde_client.toolbox`` executes these calls against a workspace; a scaffold with
its own executor needs only this schema and the four routes above.
"""

from __future__ import annotations

from typing import Any

TOOLS_VERSION = 1


def _function(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
        },
    }


AGENT_TOOLS: list[dict[str, Any]] = [
    _function(
        "ask_customer",
        "Send one message to the simulated customer and get the answer. Each call is one "
        "clarification round of the run's limit, whatever it holds; one message may ask "
        "several questions. Only in conditions with a customer (interact_req, interact, "
        "gym_l0-l2).",
        {
            "text": {"type": "string", "minLength": 1, "maxLength": 4000},
            "to": {
                "type": "string",
                "maxLength": 80,
                "description": "A stakeholder's handle, name or role (README.txt lists them); "
                "empty: whoever knows the answer.",
            },
        },
        ["text"],
    ),
    _function(
        "list_files",
        "List the files of the run's workspace (instruction.md, submission_schema.json, "
        "data/, README.txt and what you wrote), with their sizes in bytes.",
        {
            "path": {
                "type": "string",
                "description": "A folder relative to the workspace; default the workspace.",
            }
        },
        [],
    ),
    _function(
        "read_file",
        "Read a text file of the workspace (a slice of it for a large file).",
        {
            "path": {"type": "string", "minLength": 1, "description": "Relative to the workspace."},
            "offset": {"type": "integer", "minimum": 0, "description": "First character (0)."},
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 100000,
                "description": "Characters to return (20000).",
            },
        },
        ["path"],
    ),
    _function(
        "submit",
        "Submit a deliverable file of the workspace. The answer is the format check against "
        "submission_schema.json (a practice run also gets its score band). You may resubmit "
        "until the run is closed; the last upload that passed the format check counts.",
        {"path": {"type": "string", "minLength": 1, "description": "Relative to the workspace."}},
        ["path"],
    ),
]


def agent_tools_document() -> dict[str, Any]:
    """The body of ``GET /api/agent-tools/``."""
    return {
        "version": TOOLS_VERSION,
        "tools": AGENT_TOOLS,
        "routes": {
            "ask_customer": "POST /api/runs/{id}/questions/ {text, to}",
            "list_files": "the workspace written by `fde start` (GET /api/runs/{id}/bundle/)",
            "read_file": "the workspace written by `fde start` (GET /api/runs/{id}/bundle/)",
            "submit": "POST /api/runs/{id}/submissions/ (multipart file)",
        },
    }
