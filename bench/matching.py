"""Benchmark the scripted customer on each case's outside probe set, dev and frozen test half.

Every probe message goes to a fresh ``ScriptedCustomer`` (empty history) through the same
``reply`` a player's message takes, so addressing, segmentation and patterns are all exercised.
What is counted is defined in ``customer_sim.probes`` (pair hits, near-miss and other leaks,
wrong answers, trigger overlap).

A case passes on its test half with hit rate >= 90 %, near-miss leak <= 3 % and no wrong answer;
the exit code is 1 if any case fails. Failures are listed for the dev half only (``--verbose``);
``--reveal-test`` lists test failures too and is for reporting, never for tuning.
Usage: ``python bench/matching.py [--cases DIR] [--verbose] [--reveal-test] [SLUG ...]``.
Leave-one-writer-out on the dev half: ``--half dev --writer writer7`` scores one writer's dev
items alone (a held-out writer: look at its aggregate only), ``--half dev --exclude-writer
writer7`` the others (tune on these). ``--half dev --no-vetoes`` drops every pattern's
``unless`` groups: the leaks and wrong answers that then appear are the ones per-item vetoes
catch, a proxy for near misses nobody has written a veto for yet. ``--half dev --miss-proxy``
also asks each single-target rule question with its target unable to fire and counts how often
another fact answers instead: the wrong answers a real miss would get (``probes.miss_proxy``).
``--by-writer`` adds each writer's aggregates (no item text) and each half's standard error.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from customer_sim import probes  # noqa: E402
from customer_sim.probes import MAX_NEAR_LEAK, MIN_HIT_RATE, Half  # noqa: E402
from customer_sim.scripted import load_fitted  # noqa: E402


@dataclass
class CaseResult:
    slug: str
    halves: dict[str, Half]
    build_ms: float
    reply_ms: float


def run_case(
    hidden_dir: Path,
    writers: list[str] | None = None,
    exclude: tuple[str, ...] = (),
    *,
    vetoes: bool = True,
) -> CaseResult | None:
    started = time.perf_counter()
    load_fitted(hidden_dir)
    build_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    halves = probes.measure(hidden_dir, writers, exclude, vetoes=vetoes)
    if halves is None:
        return None
    count = sum(h.messages for h in halves.values())
    reply_ms = (time.perf_counter() - started) * 1000 / max(count, 1)
    return CaseResult(hidden_dir.parent.name, halves, build_ms, reply_ms)


def render(results: list[CaseResult], verbose: bool, reveal_test: bool) -> str:
    lines = [
        "| case | half | pair hit rate | near-miss leaks | other leaks | wrong answers "
        "| misconception answers | misses pointed on | trigger overlap (median) | pass |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for name, h in r.halves.items():
            if not h.messages:
                lines.append(f"| {r.slug} | {name} | n/a | | | | | | | |")
                continue
            # A set of near misses alone (a stress set) has no pairs and so no overlap.
            overlap = probes.median(h.overlaps)
            lines.append(
                f"| {r.slug} | {name} | {probes.percent(h.hits, h.pairs)} "
                f"| {probes.percent(h.near_leaks, h.near)} "
                f"| {probes.percent(h.other_leaks, h.other)} | {h.wrong} | {h.misconceptions} "
                f"| {h.pointed} | {'n/a' if overlap is None else f'{overlap:.2f}'} "
                f"| {'yes' if h.passed else 'NO'} |"
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


def render_miss_proxy(
    hidden_dirs: list[Path],
    writers: list[str] | None,
    exclude: tuple[str, ...],
    vetoes: bool,
    verbose: bool,
) -> str:
    """The miss proxy of each case's dev half (``customer_sim.probes.miss_proxy``)."""
    lines = [
        "",
        "Miss proxy (dev): single-target rule questions asked with their target unable to fire",
        "| case | questions | another fact answers | designed misconception | no fact (unsure) |",
        "|---|---|---|---|---|",
    ]
    details: list[str] = []
    for hidden_dir in hidden_dirs:
        proxy = probes.miss_proxy(hidden_dir, writers, exclude, vetoes=vetoes)
        if proxy is None:
            continue
        slug = hidden_dir.parent.name
        lines.append(
            f"| {slug} | {proxy.items} | {probes.percent(proxy.other, proxy.items)} "
            f"| {proxy.designed} | {proxy.unsure} |"
        )
        if verbose:
            details += ["", f"{slug} (miss proxy):", *(f"  {f}" for f in proxy.failures)]
    return "\n".join(lines + details)


def render_by_writer(results: list[CaseResult], cases: Path) -> str:
    """Aggregates per writer (no item text, so the test half may be shown): how much one
    writer's questions differ from another's, next to each half's binomial standard error, so
    a change of a point or two is read against the measurement's own noise."""
    lines = [
        "",
        "Per writer (aggregates only)",
        "| case | half | writer | pair hit rate | near-miss leaks | wrong answers | pointed on |",
        "|---|---|---|---|---|---|---|",
    ]
    notes = []
    for r in results:
        hidden_dir = cases / r.slug / "hidden"
        by_writer = {
            w: probes.measure(hidden_dir, [w]) or {} for w in probes.writers_of(hidden_dir)
        }
        for name, whole in r.halves.items():
            for writer, halves in by_writer.items():
                h = halves.get(name)
                if h is not None and h.messages:
                    lines.append(
                        f"| {r.slug} | {name} | {writer} | {probes.percent(h.hits, h.pairs)} "
                        f"| {probes.percent(h.near_leaks, h.near)} | {h.wrong} | {h.pointed} |"
                    )
            if whole.pairs:
                error = (whole.hit_rate * (1 - whole.hit_rate) / whole.pairs) ** 0.5
                notes.append(
                    f"{r.slug} {name}: hit rate {whole.hit_rate:.1%} of {whole.pairs} pairs, "
                    f"standard error {error:.1%}"
                )
    return "\n".join([*lines, "", *notes])


def _materialised_cases(cases: Path, variant: str, slugs: list[str]) -> Path:
    """A temporary cases folder holding ``variant`` of every case that has it."""
    import atexit
    import shutil
    import tempfile

    from evaluators.variants import materialise, variant_ids

    folder = Path(tempfile.mkdtemp(prefix="fde-bench-variant-"))
    atexit.register(shutil.rmtree, folder, True)
    for case in sorted(p for p in cases.iterdir() if (p / "case.toml").is_file()):
        if (not slugs or case.name in slugs) and variant in variant_ids(case):
            materialise(case, variant, folder / case.name)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("slugs", nargs="*", help="only these cases (default: all)")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases", help="cases folder")
    parser.add_argument("--verbose", action="store_true", help="list the dev half's failures")
    parser.add_argument(
        "--reveal-test", action="store_true", help="list test failures too (reporting only)"
    )
    parser.add_argument(
        "--half", choices=probes.HALVES, help="show only this half (tune with --half dev)"
    )
    parser.add_argument(
        "--writer",
        action="append",
        metavar="LABEL",
        help="only this writer's items (writer1 = questions.json, writer7 = questions.writer7"
        ".json; repeatable; needs --half dev): a held-out writer measured apart",
    )
    parser.add_argument(
        "--exclude-writer",
        action="append",
        default=[],
        metavar="LABEL",
        help="leave this writer's items out (repeatable; needs --half dev)",
    )
    parser.add_argument(
        "--miss-proxy",
        action="store_true",
        help="also ask each single-target rule question with its target unable to fire (needs "
        "--half dev): how often another fact answers a miss",
    )
    parser.add_argument(
        "--no-vetoes",
        action="store_true",
        help="drop every pattern's `unless` groups (needs --half dev): a proxy for near misses "
        "nobody wrote a veto for",
    )
    parser.add_argument(
        "--by-writer",
        action="store_true",
        help="also show each writer's aggregates and the half's standard error (no item text)",
    )
    parser.add_argument(
        "--variant",
        metavar="ID",
        help="measure this variant of each case that has it (docs/variants.md): the case is "
        "materialised, placeholders filled, and its probe sets asked of that variant's texts",
    )
    args = parser.parse_args(argv)
    if args.variant:
        args.cases = _materialised_cases(args.cases, args.variant, args.slugs)
    if (args.writer or args.exclude_writer or args.no_vetoes or args.miss_proxy) and (
        args.half != "dev"
    ):
        parser.error(
            "--writer, --exclude-writer, --no-vetoes and --miss-proxy measure the dev half only: "
            "add --half dev"
        )
    hidden_dirs = sorted(
        path.parent.parent
        for path in args.cases.glob("*/hidden/probes/questions.json")
        if not args.slugs or path.parent.parent.parent.name in args.slugs
    )
    results = [
        r
        for d in hidden_dirs
        if (r := run_case(d, args.writer, tuple(args.exclude_writer), vetoes=not args.no_vetoes))
        is not None
    ]
    if not results:
        print(f"no case with hidden/probes/questions.json under {args.cases}")
        return 1
    if args.half:
        for r in results:
            r.halves = {args.half: r.halves[args.half]}
    print(render(results, args.verbose, args.reveal_test))
    if args.by_writer:
        print(render_by_writer(results, args.cases))
    if args.miss_proxy:
        print(
            render_miss_proxy(
                hidden_dirs,
                args.writer,
                tuple(args.exclude_writer),
                not args.no_vetoes,
                args.verbose,
            )
        )
    return (
        0
        if all(
            h.passed for r in results for name, h in r.halves.items() if name == "test" or args.half
        )
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
