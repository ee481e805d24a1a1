"""Play each case's outside conversation sets against the scripted customer, history growing.

Prints per case and half: asked rules revealed in the asked turn, known by then, near-miss
leaks, rules volunteered on greetings/thanks/sweeps/meta, and, where a rater's file exists, the
share of non-rule replies rated sensible (``customer_sim.conversation_sets``). A case passes on
its test half with >= 90 % revealed in turn, <= 3 % near-miss leaks, nothing volunteered; the
exit code is 1 if any case fails. ``--verbose`` lists dev failures; ``--reveal-test`` lists
test failures too and is for reporting, never for tuning; ``--transcript`` prints every dev
exchange as a player would read it.
Usage: ``python bench/conversations.py [--cases DIR] [--verbose] [--transcript] [SLUG ...]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make the repo importable
    sys.path.insert(0, str(ROOT))

from customer_sim import conversation_sets as sets  # noqa: E402
from customer_sim.probes import percent  # noqa: E402
from customer_sim.sense_ratings import sense_rate  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--reveal-test", action="store_true")
    parser.add_argument("--transcript", action="store_true")
    parser.add_argument(
        "--half",
        choices=("dev", "test", "both"),
        default="both",
        help="which halves to print; tune with --half dev (the frozen half is for reporting)",
    )
    args = parser.parse_args(argv)
    folders = [p for p in sorted(args.cases.iterdir()) if (p / "hidden").is_dir()]
    folders = [p for p in folders if not args.slugs or p.name in args.slugs]
    print(
        "| case | half | revealed in turn | known by then | near-miss leaks | volunteered "
        "| extra disclosures | sensible (rated) | pass |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    details: list[str] = []
    for folder in folders:
        halves = sets.measure(folder / "hidden")
        if halves is None:
            continue
        rates = sense_rate(folder / "hidden")
        for name, h in halves.items():
            if args.half not in ("both", name):
                continue
            rated = rates.get(name)
            sense = percent(*rated) if rated and rated[1] else "unrated"
            passed = h.passed if name == "test" else True
            ok &= passed
            print(
                f"| {folder.name} | {name} | {percent(h.revealed, h.asked)} "
                f"| {percent(h.known, h.asked)} | {percent(h.near_leaks, h.near)} "
                f"| {h.volunteered}/{h.social} | {h.extra}/{h.rules} | {sense} "
                f"| {'yes' if passed else 'NO'} |"
            )
            if args.verbose and (name == "dev" or args.reveal_test):
                details += [f"{folder.name} {name}: {line}" for line in h.failures]
        if args.transcript:
            details += _transcript(folder / "hidden")
    for line in details:
        print(line)
    return 0 if ok else 1


def _transcript(hidden_dir: Path) -> list[str]:
    split = {c["id"]: c.get("split", "dev") for c in sets.conversations(hidden_dir)}
    lines = []
    for played in sets.played_all(hidden_dir):
        if split.get(played.conversation) != "dev":
            continue
        lines.append(f"\n[{played.conversation}#{played.index} {played.kind}] > {played.text}")
        lines.append(f"  {', '.join(played.reply.speaker_labels)}: {played.reply.text}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
