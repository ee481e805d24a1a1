"""score_file(): the order of checks, the sandbox limits and what a player may see."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from evaluators.runtime import Result, score_file

Upload = Callable[..., Path]


def replace_evaluator(case_dir: Path, body: str) -> None:
    header = "from pathlib import Path\nfrom evaluators.api import Assessment, Submission\n"
    (case_dir / "hidden" / "evaluator.py").write_text(header + textwrap.dedent(body))


def assert_execution_error_hides_internals(result: Result) -> None:
    assert result.error_kind == "execution"
    assert not result.valid
    assert result.score == 0.0
    assert "Traceback" not in (result.error_message or "")
    assert "hidden" not in (result.error_message or "")
    assert "internal_log" not in result.to_player_dict()


def test_the_reference_scores_one(knapsack: Path) -> None:
    result = score_file(knapsack, knapsack / "hidden" / "reference.csv")
    assert result.valid
    assert result.score == 1.0
    assert result.raw_value == 44.0
    assert result.error_kind is None
    assert result.details == {"weight_kg": 12.0, "lines": 4}
    assert (result.normalisation, result.direction) == ("ratio", "max")


def test_a_worse_plan_scores_its_ratio(knapsack: Path, upload: Upload) -> None:
    result = score_file(knapsack, upload("item_id\nI12\n"))
    assert result.valid
    assert result.score == pytest.approx(22 / 44)


def test_uplift_scores_below_zero_for_a_plan_worse_than_nothing(
    restock: Path, upload: Upload
) -> None:
    shortcut = restock / "hidden" / "anchors" / "shortcut-one-case-each.json"
    result = score_file(restock, shortcut)
    assert result.valid
    assert result.raw_value == 2093.0
    assert result.uplift == pytest.approx((2093 - 2060) / (1378 - 2060))
    assert result.score == pytest.approx(1378 / 2093)  # FDE-Bench Quality stays a ratio


def test_a_schema_error_stops_before_the_evaluator(knapsack: Path, upload: Upload) -> None:
    replace_evaluator(knapsack, "def evaluate(s, d, h):\n    raise SystemExit('never called')\n")
    result = score_file(knapsack, upload("item_id,qty\nI01,3\n"))
    assert result.error_kind == "schema"
    assert result.format_errors == ["line 1: unexpected column `qty`"]
    assert result.format_error_count == 1
    assert result.error_message == (
        "The file does not match the submission format (1 problem): line 1: unexpected column `qty`"
    )


def test_a_fatal_assessment_is_reported_in_business_words(knapsack: Path, upload: Upload) -> None:
    result = score_file(knapsack, upload("item_id\nI99\n"))
    assert result.error_kind == "fatal"
    assert result.error_message == "These lines are not in our stock list: I99."
    assert result.score == 0.0


def test_violations_give_zero_with_rules_and_examples(knapsack: Path, upload: Upload) -> None:
    result = score_file(knapsack, upload("item_id\nI04\nI12\nI07\n"))
    assert result.error_kind == "constraint"
    assert result.score == 0.0
    assert result.error_message == "2 hard rules are broken, so the score is 0."
    assert result.violations == [
        {
            "rule": "hazmat_excluded",
            "message": "Hazardous goods may not travel in the van.",
            "count": 1,
            "examples": [{"line": 2, "item_id": "I04"}],
        },
        {
            "rule": "capacity_reduced",
            "message": "The load weighs 13 kg; the van takes 12 kg.",
            "count": 1,
            "examples": [{"weight_kg": 13.0}],
        },
    ]


def test_an_oversized_upload_is_refused_before_parsing(knapsack: Path, upload: Upload) -> None:
    big = upload("item_id\n" + "I01\n" * 300_000)  # 1.2 MB; the case allows 1 MB
    result = score_file(knapsack, big)
    assert result.error_kind == "schema"
    assert result.format_errors == ["the file is 1.1 MB; the limit for this case is 1.0 MB"]
    small = score_file(knapsack, upload("item_id\nI01\n"), max_bytes=5)
    assert small.format_errors[0].startswith("the file is 0.0 MB")


def test_a_binary_upload_is_refused(knapsack: Path, upload: Upload) -> None:
    result = score_file(knapsack, upload(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
    assert result.error_kind == "schema"
    assert result.format_errors == ["the file is binary (it contains NUL bytes), not text"]


def test_an_evaluator_that_crashes_is_an_execution_error_without_traceback(
    knapsack: Path, upload: Upload
) -> None:
    replace_evaluator(
        knapsack,
        """
        def evaluate(submission, data_dir, hidden_dir):
            secret = (hidden_dir / "information.md").read_text()
            raise RuntimeError("leaked: " + secret[:40])
        """,
    )
    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert_execution_error_hides_internals(result)
    assert "leaked" not in str(result.to_player_dict())
    assert "Traceback" in result.internal_log
    assert "RuntimeError: leaked: # Complete business information" in result.internal_log


def test_an_evaluator_that_loops_is_killed_at_the_timeout(knapsack: Path, upload: Upload) -> None:
    replace_evaluator(
        knapsack,
        """
        def evaluate(submission, data_dir, hidden_dir):
            while True:
                pass
        """,
    )
    started = time.monotonic()
    result = score_file(knapsack, upload("item_id\nI01\n"), timeout_s=1)
    assert time.monotonic() - started < 5
    assert_execution_error_hides_internals(result)
    assert result.error_message.startswith("The evaluation did not finish within the 1 s limit")
    assert result.internal_log.startswith("[timeout]")


def test_an_evaluator_that_allocates_4_gb_hits_the_memory_limit(
    knapsack: Path, upload: Upload
) -> None:
    replace_evaluator(
        knapsack,
        """
        def evaluate(submission, data_dir, hidden_dir):
            hoard = bytearray(4 * 1024 ** 3)
            return Assessment(value=len(hoard))
        """,
    )
    result = score_file(knapsack, upload("item_id\nI01\n"), memory_mb=2048)
    assert_execution_error_hides_internals(result)
    assert result.error_message.startswith("The evaluation ran out of memory (limit 2048 MB)")


def test_an_evaluator_may_use_numpy_within_the_memory_limit(knapsack: Path, upload: Upload) -> None:
    replace_evaluator(
        knapsack,
        """
        import numpy as np
        def evaluate(submission, data_dir, hidden_dir):
            values = np.ones(1_000_000)
            return Assessment(value=np.float64(values.sum() / 25_000), details={"n": np.int64(3)})
        """,
    )
    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert result.valid
    assert result.raw_value == 40.0
    assert result.details == {"n": 3}


BROKEN_EVALUATORS = {
    "float": "return 44.0",
    "empty-assessment": "return Assessment()",
    "nan": "return Assessment(value=float('nan'))",
    "string-value": "return Assessment(value='44')",
    "sys-exit": "import sys; sys.exit(3)",
    "silent-exit": "import os; os._exit(0)",
    "segfault": "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)",
}
BROKEN_MODULES = {
    "no-evaluate": "def score(submission, data_dir, hidden_dir):\n    return Assessment()\n",
    "syntax-error": "this is not python\n",
}
BROKEN_MODULES |= {
    name: f"def evaluate(submission, data_dir, hidden_dir):\n    {line}\n"
    for name, line in BROKEN_EVALUATORS.items()
}


@pytest.mark.parametrize("body", BROKEN_MODULES.values(), ids=BROKEN_MODULES.keys())
def test_anything_but_a_proper_assessment_is_an_execution_error(
    knapsack: Path, upload: Upload, body: str
) -> None:
    replace_evaluator(knapsack, body)
    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert_execution_error_hides_internals(result)
    assert result.internal_log


def test_prints_in_the_evaluator_do_not_break_the_protocol(knapsack: Path, upload: Upload) -> None:
    replace_evaluator(
        knapsack,
        """
        import os
        def evaluate(submission, data_dir, hidden_dir):
            print("debug output")
            os.write(1, b"raw bytes on fd 1")
            return Assessment(value=44.0)
        """,
    )
    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert result.valid
    assert result.score == 1.0
    assert "debug output" in result.internal_log


def test_the_evaluator_does_not_see_the_sites_secrets(
    knapsack: Path, upload: Upload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-do-not-leak")
    replace_evaluator(
        knapsack,
        """
        import os
        def evaluate(submission, data_dir, hidden_dir):
            return Assessment(value=44.0, details={"key": os.environ.get("OPENAI_API_KEY")})
        """,
    )
    assert score_file(knapsack, upload("item_id\nI01\n")).details == {"key": None}


def test_a_misconfigured_case_fails_without_blaming_the_player(
    knapsack: Path, upload: Upload
) -> None:
    (knapsack / "case.toml").write_text("slug = 'tiny-knapsack'\n[scoring]\n")
    result = score_file(knapsack, upload("item_id\nI01\n"))
    assert_execution_error_hides_internals(result)
    assert result.error_message.startswith("This case cannot be scored right now")
    assert "case.toml" in result.internal_log


def test_results_carry_the_evaluator_version_and_round_trip(knapsack: Path) -> None:
    result = score_file(knapsack, knapsack / "hidden" / "reference.csv")
    assert len(result.evaluator_version) == 12
    int(result.evaluator_version, 16)
    assert result.duration_s > 0
    assert Result.from_dict(result.to_dict()) == result
    player_view = result.to_player_dict()
    assert {"internal_log", "reference_value", "baseline_value"}.isdisjoint(player_view)
    assert player_view["score"] == 1.0
