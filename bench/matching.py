"""Benchmark the scripted customer on each case's outside probe set, dev and frozen test half.

Every probe message goes to a fresh ``ScriptedCustomer`` (empty history) through the same
``reply`` a player's message takes, so addressing, segmentation and patterns are all exercised.
What is counted, per case and half (targets are ``gt.json`` keys; a target counts as revealed
when the reply disclosed one of its facts):

- pair hit rate: (message, expected target) pairs whose target was revealed;
- near-miss leak rate: ``near_miss`` messages that revealed any target;
- other leaks: ``background`` and ``off_topic`` messages that revealed any target;
- wrong answers: rule messages that missed an expected target and disclosed some other fact
  instead (the confidently-wrong class: the player gets an answer, but not to the question);
- trigger overlap: median share of a rule message's content words found in the nearest authored
  example question of its target (how far the probes are from what the author wrote).

A case passes on its test half with hit rate >= 90 %, near-miss leak <= 3 % and no wrong answer;
the exit code is 1 if any case fails. Failures are listed for the dev half only (``--verbose``);
``--reveal-test`` lists test failures too and is for reporting, never for tuning.
Usage: ``python bench/matching.py [--cases DIR] [--verbose] [--reveal-test] [SLUG ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from bench import probe_sets  # noqa: E402
from customer_sim.scripted import ScriptedCustomer, load_fitted  # noqa: E402

MIN_HIT_RATE = 0.90
MAX_NEAR_LEAK = 0.03


@dataclass
class Half:
    pairs: int = 0
    hits: int = 0
    near: int = 0
    near_leaks: int = 0
    other: int = 0
    other_leaks: int = 0
    wrong: int = 0
    overlaps: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.pairs if self.pairs else 1.0

    @property
    def near_leak_rate(self) -> float:
        return self.near_leaks / self.near if self.near else 0.0

    @property
    def passed(self) -> bool:
        return (
            self.hit_rate >= MIN_HIT_RATE
            and self.near_leak_rate <= MAX_NEAR_LEAK
            and self.wrong == 0
        )


@dataclass
class CaseResult:
    slug: str
    halves: dict[str, Half]
    build_ms: float
    reply_ms: float


def run_case(hidden_dir: Path) -> CaseResult | None:
    probes = probe_sets.load(hidden_dir, "questions.json")
    if probes is None:
        return None
    started = time.perf_counter()
    load_fitted(hidden_dir)
    build_ms = (time.perf_counter() - started) * 1000
    customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    gt = probe_sets.gt_of(hidden_dir)
    facts_of = probe_sets.target_facts(gt)
    examples = probe_sets.examples_by_target(hidden_dir, gt)
    halves = {half: Half() for half in probe_sets.HALVES}
    started = time.perf_counter()
    for question in probes["questions"]:
        disclosed = customer.reply(question["text"]).disclosed
        _score(halves[question["split"]], question, disclosed, facts_of, examples)
    reply_ms = (time.perf_counter() - started) * 1000 / max(len(probes["questions"]), 1)
    return CaseResult(hidden_dir.parent.name, halves, build_ms, reply_ms)


def _score(
    half: Half,
    question: dict[str, Any],
    disclosed: list[str],
    facts_of: dict[str, set[str]],
    examples: dict[str, list[str]],
) -> None:
    text, expect = question["text"], list(question.get("expect") or [])
    revealed = sorted(key for key, facts in facts_of.items() if facts & set(disclosed))
    if not expect:
        leaked = bool(revealed)
        if question.get("kind") == "near_miss":
            half.near += 1
            half.near_leaks += leaked
        else:
            half.other += 1
            half.other_leaks += leaked
        if leaked:
            half.failures.append(f"LEAK ({question.get('kind')}) {text!r} -> {revealed}")
        return
    missed = [key for key in expect if key not in revealed]
    half.pairs += len(expect)
    half.hits += len(expect) - len(missed)
    for key in expect:
        half.overlaps.append(probe_sets.overlap(text, examples.get(key, [])))
    expected_facts = set().union(*(facts_of.get(key, set()) for key in expect))
    others = [key for key in disclosed if key not in expected_facts]
    if missed:
        half.wrong += bool(others)
        label = "WRONG" if others else "MISS"
        half.failures.append(f"{label} {text!r} expected {missed}, disclosed {disclosed}")


def render(results: list[CaseResult], verbose: bool, reveal_test: bool) -> str:
    lines = [
        "| case | half | pair hit rate | near-miss leaks | other leaks | wrong answers "
        "| trigger overlap (median) | pass |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for name, h in r.halves.items():
            overlap = probe_sets.median(h.overlaps)
            lines.append(
                f"| {r.slug} | {name} | {probe_sets.percent(h.hits, h.pairs)} "
                f"| {probe_sets.percent(h.near_leaks, h.near)} "
                f"| {probe_sets.percent(h.other_leaks, h.other)} | {h.wrong} "
                f"| {overlap:.2f} | {'yes' if h.passed else 'NO'} |"
                if overlap is not None
                else f"| {r.slug} | {name} | n/a | | | | | |"
            )
    lines.append("")
    lines.append(
        f"Targets on the test half: pair hit rate >= {MIN_HIT_RATE:.0%}, near-miss leaks <= "
        f"{MAX_NEAR_LEAK:.0%}, no wrong answer. Timing: "
        + ", ".join(
            f"{r.slug} build {r.build_ms:.0f} ms, {r.reply_ms:.1f} ms/message" for r in results
        )
    )
    for r in results:
        for name, h in r.halves.items():
            if (verbose and name == "dev") or (reveal_test and name == "test"):
                lines.extend(
                    ["", f"{r.slug} ({name}):", *(f"  {f}" for f in h.failures or ["no failures"])]
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("slugs", nargs="*", help="only these cases (default: all)")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases", help="cases folder")
    parser.add_argument("--verbose", action="store_true", help="list the dev half's failures")
    parser.add_argument(
        "--reveal-test", action="store_true", help="list test failures too (reporting only)"
    )
    parser.add_argument(
        "--half", choices=probe_sets.HALVES, help="show only this half (tune with --half dev)"
    )
    args = parser.parse_args(argv)
    hidden_dirs = sorted(
        path.parent.parent
        for path in args.cases.glob("*/hidden/probes/questions.json")
        if not args.slugs or path.parent.parent.parent.name in args.slugs
    )
    results = [r for d in hidden_dirs if (r := run_case(d)) is not None]
    if not results:
        print(f"no case with hidden/probes/questions.json under {args.cases}")
        return 1
    if args.half:
        for r in results:
            r.halves = {args.half: r.halves[args.half]}
    print(render(results, args.verbose, args.reveal_test))
    return (
        0
        if all(
            h.passed for r in results for name, h in r.halves.items() if name == "test" or args.half
        )
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
