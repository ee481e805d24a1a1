"""What an evaluator writes cannot grow the scorer: stderr keeps a tail, stdout has a cap.

An outside review had an evaluator write 300 MB to stderr, and the parent (the web worker,
with the in-process scorer) grew by 900 MB while it buffered and decoded all of it. The peak
is measured in a fresh interpreter, so what earlier tests allocated cannot hide it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from evaluators import sandbox

Upload = Callable[..., Path]
REPO_ROOT = Path(__file__).resolve().parents[2]
MB = 1_048_576

LOUD = """
import sys
from evaluators.api import Assessment
def evaluate(submission, data_dir, hidden_dir):
    line = "x" * 1023 + "\\n"
    chunk = line * 1024
    for _ in range(200):  # 200 MB
        sys.stderr.write(chunk)
    sys.stderr.write("the last words")
    return Assessment(value=44.0)
"""

# Scores one file in a fresh interpreter and reports its peak resident size before and after
# (ru_maxrss is in KiB on Linux).
HARNESS = """
import json, resource, sys
from pathlib import Path
from evaluators.runtime import score_file
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = score_file(Path(sys.argv[1]), Path(sys.argv[2]), timeout_s=120)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_kb": before, "after_kb": after, "valid": result.valid,
                  "log_chars": len(result.internal_log), "log_end": result.internal_log[-400:],
                  "log_start": result.internal_log[:300]}))
"""


def test_200_mb_of_stderr_leave_the_scorer_small(knapsack: Path, upload: Upload) -> None:
    (knapsack / "hidden" / "evaluator.py").write_text(textwrap.dedent(LOUD))
    done = subprocess.run(
        [sys.executable, "-c", HARNESS, str(knapsack), str(upload("item_id\nI01\n"))],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=300,
        check=True,
    )
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    growth_mb = (measured["after_kb"] - measured["before_kb"]) / 1024
    assert measured["valid"], measured
    assert growth_mb < 100, f"the scorer grew by {growth_mb:.0f} MB"
    assert measured["log_chars"] < sandbox.LOG_TAIL + 1_000
    assert measured["log_end"].endswith("the last words")
    assert "bytes dropped]" in measured["log_start"]


def test_an_oversized_result_stops_the_child_with_a_clear_error(
    knapsack: Path, upload: Upload
) -> None:
    (knapsack / "hidden" / "evaluator.py").write_text(
        "from evaluators.api import Assessment\n"
        "def evaluate(submission, data_dir, hidden_dir):\n"
        f"    return Assessment(value=44.0, details={{'blob': 'x' * {sandbox.STDOUT_LIMIT + MB}}})\n"
    )
    from evaluators.runtime import score_file

    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert result.error_kind == "execution"
    assert result.error_message.startswith("The evaluation failed with an internal error")
    assert "the evaluator's result passed 16 MB; the child was stopped" in result.internal_log
    assert len(result.internal_log) < sandbox.LOG_TAIL + 1_000
