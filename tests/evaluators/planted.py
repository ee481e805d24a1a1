"""A planted evaluator for the sandbox tests: ``evaluate`` runs a given body first, so a test
can try what an untrusted evaluator would (open a socket, read a file, unshare) and read the
verdict the scorer gives."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from evaluators.runtime import Result, score_file

Upload = Callable[..., Path]


def attempt(case_dir: Path, upload: Upload, body: str) -> Result:
    """Score one file with an evaluator whose ``evaluate`` runs ``body`` first."""
    code = "import ctypes, os, socket, subprocess, sys\nfrom pathlib import Path\n"
    code += "from evaluators.api import Assessment\n"
    code += "def evaluate(submission, data_dir, hidden_dir):\n"
    code += textwrap.indent(textwrap.dedent(body).strip(), "    ")
    code += "\n    return Assessment(value=44.0)\n"
    (case_dir / "hidden" / "evaluator.py").write_text(code)
    return score_file(case_dir, upload("item_id\nI01\n"))
