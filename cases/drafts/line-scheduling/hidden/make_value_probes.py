"""Write the value probes of line-scheduling: the reference moved to each limit and just past it.

``python cases/drafts/line-scheduling/hidden/make_value_probes.py [--root ROOT]`` writes
``ROOT/hidden/value_probes/`` and ``ROOT/hidden/value_probes.json`` (cases/README.md, "Value
probes"); ROOT is this case (the base variant) unless given, e.g. a variant's folder. Every
limit and every label comes from what the evaluator itself reads (``plant.py`` over ROOT's
``data/`` and ``hidden/params.json``), each file changes one or two runs of the reference, and
each is checked with ``evaluate()`` before it is written:

- friday_no_night: the last run of a line ending exactly at the end of the week, then a
  minute later;
- maintenance_window: a run on the maintenance line ending exactly as the window opens (or
  starting as it closes), then overlapping it by a minute;
- allergen_clean: after a milk product, the next milk-free run starting exactly when the
  changeover and the clean allow, then a minute earlier;
- rate_in_bottles: a run exactly as long as its bottles at the line's rate, then a minute
  shorter.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]

from evaluator import evaluate  # noqa: E402
from plant import Plant, load_params, load_plant  # noqa: E402
from solver import read_plan, solve, write_plan  # noqa: E402

from evaluators.api import Submission  # noqa: E402


FORCED_TIME = 5.0


def verdict(plant: Plant, plan: list[dict], root: Path) -> set[str]:
    rows = [{"order_id": r["order_id"], "line_id": r["line_id"],
             "start": plant.stamp(r["start"]).strftime("%Y-%m-%dT%H:%M"),
             "end": plant.stamp(r["end"]).strftime("%Y-%m-%dT%H:%M")} for r in plan]
    result = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    assert not result.fatal, result.fatal
    return {v.rule for v in result.violations}


def by_line(plan: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in sorted(plan, key=lambda r: (r["line_id"], r["start"])):
        out.setdefault(r["line_id"], []).append(r)
    return out


def shifted(plan: list[dict], order_id: str, delta: int, shorten: bool = False) -> list[dict]:
    out = copy.deepcopy(plan)
    for r in out:
        if r["order_id"] == order_id:
            if shorten:
                r["end"] += delta
            else:
                r["start"] += delta
                r["end"] += delta
    return out


def pairs(plant: Plant, plan: list[dict], counterfactual: list[dict], values: dict[str, str],
          root: Path):
    """(fact, value, name, at-limit plan, past-limit plan, note) for each limit rule."""
    lines = by_line(plan)
    index = {o.order_id: o for o in plant.orders}
    # friday_no_night: a line whose last run can end exactly at the week's end.
    for l, seq in lines.items():
        last = seq[-1]
        if last["end"] == plant.week_end:
            at = plan
        else:
            at = shifted(plan, last["order_id"], plant.week_end - last["end"])
        yield ("friday_no_night", values["week_end"], "week-end", at,
               shifted(at, last["order_id"], 1),
               f"{last['order_id']} on {l} ends at the end of the week, then a minute later")
        break
    # maintenance_window: the run just before (or just after) the window on its line.
    for l in sorted(lines):
        for a, b in plant.downtime(l):
            before = [r for r in lines[l] if r["end"] <= a]
            after = [r for r in lines[l] if r["start"] >= b]
            options = []
            if before:   # the last run before the window, moved to end as it opens
                r = before[-1]
                options.append((shifted(plan, r["order_id"], a - r["end"]), r, 1,
                                "ends as the maintenance starts, then a minute later"))
            if after:    # the first run after it, moved to start as it closes
                r = after[0]
                options.append((shifted(plan, r["order_id"], b - r["start"]), r, -1,
                                "starts as the maintenance ends, then a minute earlier"))
            for at, r, step, how in options:
                if not verdict(plant, at, root):
                    yield ("maintenance_window", values["maint_when"], "maintenance", at,
                           shifted(at, r["order_id"], step), f"{r['order_id']} on {l} {how}")
                    break
            else:
                raise SystemExit(f"no run of {l} can be moved onto its maintenance window")
    # allergen_clean: a milk-free run straight after a milk one, at the earliest start the
    # changeover and the clean allow. The reference may avoid the clean altogether; then the
    # allergen_clean counterfactual (which skips it) is respaced to exactly the clean, or
    # failing that the solver's cheapest plan with one clean between two orders.
    for source in (plan, counterfactual, None):
        if source is None:   # neither has one: the cheapest plan with a clean between orders
            source = solve(plant, FORCED_TIME, plan, force_clean=True)
        probe = clean_pair(plant, source, root)
        if probe:
            at, r, l, need, prev_sku = probe
            yield ("allergen_clean", values["clean_min"], "allergen-clean", at,
                   shifted(at, r["order_id"], -1),
                   f"{r['order_id']} on {l} starts {need} minutes after the milk product "
                   f"{prev_sku} (clean included), then a minute earlier")
            break
    else:
        raise SystemExit("no milk-to-milk-free changeover to probe")
    # rate_in_bottles: the reference's runs are exactly their filling time; one a minute short.
    r = plan[0]
    yield ("rate_in_bottles", "bottles per minute", "run-length", plan,
           shifted(plan, r["order_id"], -1, shorten=True),
           f"{r['order_id']} runs {r['end'] - r['start']} minutes (its bottles at the line's "
           "rate), then a minute less")


def clean_pair(plant: Plant, plan: list[dict], root: Path):
    """The plan with its first milk-to-milk-free change given exactly the changeover and the
    clean (later runs on the line pushed back, or earlier ones pulled forward), if valid."""
    index = {o.order_id: o for o in plant.orders}
    for l, seq in sorted(by_line(plan).items()):
        skus = [plant.lines[l].last_sku] + [index[r["order_id"]].sku for r in seq]
        for k, r in enumerate(seq):
            if not plant.allergen_clean(skus[k], skus[k + 1]):
                continue
            need = plant.changeover(skus[k], skus[k + 1], l)
            for direction in ("later", "earlier"):
                new = copy.deepcopy(seq)
                if direction == "later":
                    floor = 0 if k == 0 else new[k - 1]["end"]
                    for i in range(k, len(new)):
                        gap = plant.changeover(skus[i], skus[i + 1], l)
                        begin = (floor + gap) if i == k else max(new[i]["start"], floor + gap)
                        d = new[i]["end"] - new[i]["start"]
                        new[i]["start"], new[i]["end"] = begin, begin + d
                        floor = new[i]["end"]
                else:
                    ceiling = new[k]["start"] - need
                    for i in range(k - 1, -1, -1):
                        d = new[i]["end"] - new[i]["start"]
                        end = ceiling if i == k - 1 else min(new[i]["end"], ceiling)
                        new[i]["start"], new[i]["end"] = end - d, end
                        ceiling = new[i]["start"] - plant.changeover(skus[i], skus[i + 1], l)
                moved = {x["order_id"]: x for x in new}
                out = [moved.get(x["order_id"], x) for x in plan]
                if not verdict(plant, out, root):
                    return out, moved[r["order_id"]], l, need, skus[k]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    root = parser.parse_args().root
    hidden = root / "hidden"
    plant = load_plant(root / "data", load_params(hidden))
    plan = read_plan(plant, hidden / "reference.csv")
    values = json.loads((hidden / "values.json").read_text(encoding="utf-8"))
    probes = []
    (hidden / "value_probes").mkdir(exist_ok=True)
    for old in (hidden / "value_probes").glob("*.csv"):
        old.unlink()
    cf_path = hidden / "counterfactuals" / "allergen_clean.csv"
    counterfactual = read_plan(plant, cf_path) if cf_path.exists() else []
    for fact, value, name, at, past, note in pairs(plant, plan, counterfactual, values, root):
        for suffix, probe, expect in (("at-limit", at, "valid"), ("past-limit", past, fact)):
            got = verdict(plant, probe, root)
            if got != (set() if expect == "valid" else {fact}):
                raise SystemExit(f"{name} {suffix}: the evaluator finds {got or 'nothing'}")
            file = f"value_probes/{name}-{suffix}.csv"
            write_plan(plant, probe, hidden / file)
            probes.append({"fact": fact, "value": value, "file": file, "expect": expect,
                           "note": note})
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (hidden / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
