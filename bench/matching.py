"""Benchmark the scripted customer's question matching on every case's ``matching.json``.

Each benchmark question goes to a fresh ``ScriptedCustomer`` (empty history), through the same
``reply`` a player's question takes, so addressing, unit splitting and gates are all exercised.

Definitions (per case):

- paraphrase accuracy: among questions with ``expect`` set (a fact key, or a list of keys for a
  message asking several things), the share whose reply disclosed every expected fact;
- wrong extras: among those same questions, how many also disclosed a fact not expected (the
  question is still counted correct for accuracy, but the extra is a leak worth seeing);
- near-miss leak rate: among questions with ``expect: null`` (near misses and off-topic), the
  share whose reply disclosed any fact.

A case passes with accuracy >= 90% and leak rate <= 5%; the exit code is 1 if any case fails.
Usage: ``python bench/matching.py [--cases DIR] [--verbose] [SLUG ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from customer_sim.scripted import ScriptedCustomer, load_fitted  # noqa: E402

MIN_ACCURACY = 0.90
MAX_LEAK_RATE = 0.05


@dataclass
class CaseResult:
    slug: str
    paraphrases: int = 0
    correct: int = 0
    with_extras: int = 0
    near_misses: int = 0
    leaks: int = 0
    build_ms: float = 0.0
    reply_ms: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.paraphrases if self.paraphrases else 1.0

    @property
    def leak_rate(self) -> float:
        return self.leaks / self.near_misses if self.near_misses else 0.0

    @property
    def passed(self) -> bool:
        return self.accuracy >= MIN_ACCURACY and self.leak_rate <= MAX_LEAK_RATE


def run_case(hidden_dir: Path) -> CaseResult:
    result = CaseResult(slug=hidden_dir.parent.name)
    started = time.perf_counter()
    load_fitted(hidden_dir / "customer.json")
    result.build_ms = (time.perf_counter() - started) * 1000
    customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    questions = json.loads((hidden_dir / "matching.json").read_text(encoding="utf-8"))["questions"]
    started = time.perf_counter()
    for question in questions:
        _score_question(result, question, customer.reply(question["text"]).disclosed)
    result.reply_ms = (time.perf_counter() - started) * 1000 / max(len(questions), 1)
    return result


def _score_question(result: CaseResult, question: dict[str, object], disclosed: list[str]) -> None:
    expect = question.get("expect")
    text = str(question["text"])
    if expect is None:
        result.near_misses += 1
        if disclosed:
            result.leaks += 1
            kind = question.get("kind", "near_miss")
            result.failures.append(f"LEAK ({kind}) {text!r} -> {disclosed}")
        return
    expected = [str(expect)] if isinstance(expect, str) else [str(k) for k in expect]  # type: ignore[attr-defined]
    result.paraphrases += 1
    extras = [key for key in disclosed if key not in expected]
    if all(key in disclosed for key in expected):
        result.correct += 1
    else:
        result.failures.append(f"MISS {text!r} expected {expected}, got {disclosed}")
    if extras:
        result.with_extras += 1
        result.failures.append(f"EXTRA {text!r} expected {expected}, also got {extras}")


def render(results: list[CaseResult], verbose: bool) -> str:
    lines = [
        "| case | paraphrase accuracy | with wrong extras | near-miss leak rate | "
        "build ms | ms/question | pass |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.slug} | {r.accuracy:.1%} ({r.correct}/{r.paraphrases}) "
            f"| {r.with_extras} | {r.leak_rate:.1%} ({r.leaks}/{r.near_misses}) "
            f"| {r.build_ms:.0f} | {r.reply_ms:.1f} | {'yes' if r.passed else 'NO'} |"
        )
    lines.append("")
    lines.append(
        f"Targets: accuracy >= {MIN_ACCURACY:.0%}, leak rate <= {MAX_LEAK_RATE:.0%}. "
        "Correct = every expected fact disclosed; extras = other facts disclosed as well."
    )
    if verbose:
        for r in results:
            lines.extend(["", f"{r.slug}:", *(f"  {f}" for f in r.failures or ["no failures"])])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("slugs", nargs="*", help="only these cases (default: all)")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases", help="cases folder")
    parser.add_argument("--verbose", action="store_true", help="list every failure")
    args = parser.parse_args(argv)
    hidden_dirs = sorted(
        path.parent
        for path in args.cases.glob("*/hidden/customer.json")
        if (path.parent / "matching.json").exists()
        and (not args.slugs or path.parent.parent.name in args.slugs)
    )
    if not hidden_dirs:
        print(f"no case with hidden/customer.json and hidden/matching.json under {args.cases}")
        return 1
    results = [run_case(hidden_dir) for hidden_dir in hidden_dirs]
    print(render(results, args.verbose))
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
