"""Write the value probes of lead-scoring: each territory capacity at its limit and one past it.

``python hidden/make_value_probes.py [--root ROOT]`` writes ``ROOT/hidden/value_probes/`` and
``ROOT/hidden/value_probes.json`` (cases/README.md, "Value probes"); ROOT is this case (the
base variant) unless given, e.g. a variant folder. Two figures are pinned:

- ``territory_rule`` ("15 leads" per AE): the reference fills a territory the roster has right
  exactly (its AEs x ``leads_per_ae``) and stays valid; one more lead of that territory (a new
  company, not a customer) must break ``territory_capacity``.
- ``roster_change`` (the moved AE's territory, e.g. "30 leads"): the reference fills it to the
  real capacity and stays valid; one more lead there must break ``roster_change``, although
  it is still within what ``sales_team.csv`` lists.

Figures and labels come from the evaluator's own ``params.json`` and ``data/``, and every file
is checked with the evaluator before it is written.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def verdict(ids: list[str], root: Path) -> set[str] | None:
    """Rules broken (empty set: valid), or None for a fatal reason."""
    rows = [{"lead_id": i} for i in ids]
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if assessment.fatal:
        return None
    return {violation.rule for violation in assessment.violations}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    root = parser.parse_args().root
    hidden = root / "hidden"
    params = json.loads((hidden / "params.json").read_text(encoding="utf-8"))
    leads = read(root / "data" / "lead_queue.csv")
    territory_of = {r["lead_id"]: r["territory"] for r in leads}
    listed = Counter(r["territory"] for r in read(root / "data" / "sales_team.csv"))
    reference = [r["lead_id"] for r in read(hidden / "reference.csv")]
    counts = Counter(territory_of[i] for i in reference)
    cap = params["leads_per_ae"]
    moved = params["moved_territory"]
    full = [t for t in sorted(listed) if t != moved and counts[t] == listed[t] * cap]
    if counts[moved] != (listed[moved] - 1) * cap or not full:
        raise SystemExit("the reference does not fill the territories to their capacity")
    companies = {r["company_domain"] for r in leads if r["lead_id"] in set(reference)}

    def extra(territory: str) -> str:
        for r in leads:
            if (r["territory"] == territory and r["account_status"] != "active_customer"
                    and r["company_domain"] not in companies):
                return r["lead_id"]
        raise SystemExit(f"no spare lead in {territory}")

    plan = [
        ("territory_rule", f"{cap} leads", full[0], listed[full[0]] * cap, "territory_capacity"),
        ("roster_out_of_date", f"{(listed[moved] - 1) * cap} leads", moved, (listed[moved] - 1) * cap,
         "roster_change"),
    ]
    probes = []
    (hidden / "value_probes").mkdir(exist_ok=True)
    for fact, label, territory, limit, rule in plan:
        slug = territory.lower()
        for suffix, ids, expect in (
            ("at-limit", reference, "valid"),
            ("past-limit", [*reference, extra(territory)], rule),
        ):
            got = verdict(ids, root)
            if got != (set() if expect == "valid" else {rule}):
                raise SystemExit(f"{fact} {suffix}: the evaluator finds {got}")
            file = f"value_probes/{slug}-{suffix}.csv"
            with (hidden / file).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(["lead_id"])
                writer.writerows([i] for i in ids)
            shown = sum(1 for i in ids if territory_of[i] == territory)
            probes.append({"fact": fact, "value": label, "file": file, "expect": expect,
                           "note": f"{shown} leads in {territory} (capacity {limit})"})
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (hidden / "value_probes.json").write_text(json.dumps(document, indent=2) + "\n",
                                              encoding="utf-8")


if __name__ == "__main__":
    main()
