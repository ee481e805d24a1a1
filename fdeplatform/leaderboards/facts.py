"""Key facts obtained (FDE-Gym §5.3): the share of a run's targets whose facts it was told.

The scripted customer records, on each exchange, the fact keys its reply disclosed
(``Exchange.disclosed``); the case's ``hidden/gt.json`` names the facts that state each target.
A target counts as obtained in a run when any of its facts was disclosed to the player during
the run (``cases/README.md``: the facts "whose disclosure answers this target"). The share is
pooled over runs: targets obtained summed over the runs, over targets summed over the runs.

Only runs that had a scripted customer are counted: Hidden and Full have no customer, and the
LLM customer records no fact keys, so for them the share is not measured rather than zero.
The result holds counts only; no target key leaves this module, so the analyses page shows it
to everyone (``privacy``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from fdeplatform.cases.models import CaseVersion
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import Filters, filtered_runs
from fdeplatform.leaderboards.selectors import annotated_runs
from fdeplatform.runs.models import CUSTOMER_CONDITIONS, Exchange

# Customers whose disclosures the scripted engine decides (hybrid only rewords them).
SCRIPTED = ("scripted", "hybrid")


@dataclass(frozen=True)
class FactsStat:
    """Key facts obtained by one configuration's runs."""

    config: ConfigId
    runs: int
    obtained: int
    targets: int

    @property
    def share(self) -> float | None:
        return self.obtained / self.targets if self.targets else None


def facts_obtained(filters: Filters) -> dict[ConfigId, FactsStat]:
    """Key facts obtained per configuration, for configurations with a scripted customer.

    Runs whose case version's ``gt.json`` cannot be read are left out (and not counted in
    ``runs``). Two queries: the runs, and the exchanges that disclosed something.
    """
    runs = list(
        annotated_runs(filters)
        .filter(condition__in=CUSTOMER_CONDITIONS, customer_backend__in=SCRIPTED)
        .values_list("pk", "cfg_kind", "cfg_key", "condition", "case_version_id")
    )
    targets_of = _target_facts({version for *_, version in runs})
    told = _disclosed(filters)
    totals: defaultdict[ConfigId, list[int]] = defaultdict(lambda: [0, 0, 0])
    for pk, kind, key, condition, version in runs:
        targets = targets_of.get(version)
        if targets is None:
            continue
        total = totals[ConfigId(kind, key, condition)]
        total[0] += 1
        total[1] += sum(1 for facts in targets if facts & told.get(pk, set()))
        total[2] += len(targets)
    return {
        config: FactsStat(config, runs=n, obtained=obtained, targets=targets)
        for config, (n, obtained, targets) in totals.items()
    }


def _disclosed(filters: Filters) -> dict[object, set[str]]:
    """Fact keys disclosed in each run (runs that were told nothing are absent)."""
    exchanges = (
        Exchange.objects.filter(
            run__in=filtered_runs(filters)
            .filter(condition__in=CUSTOMER_CONDITIONS, customer_backend__in=SCRIPTED)
            .values("pk")
        )
        .exclude(disclosed=[])
        .values_list("run_id", "disclosed")
    )
    told: defaultdict[object, set[str]] = defaultdict(set)
    for run_id, keys in exchanges:
        if isinstance(keys, list):
            told[run_id].update(str(key) for key in keys)
    return told


def _target_facts(versions: set[int]) -> dict[int, list[frozenset[str]]]:
    """For each case version, the facts of each of its targets (versions without a readable
    ``gt.json`` are absent)."""
    found = {}
    for version in CaseVersion.objects.filter(pk__in=versions):
        path = version.package_dir / "hidden" / "gt.json"
        try:
            targets = json.loads(path.read_text(encoding="utf-8")).get("targets", [])
        except (OSError, ValueError, AttributeError):
            continue
        found[version.pk] = [
            frozenset(str(fact) for fact in target.get("facts", []))
            for target in targets
            if isinstance(target, dict)
        ]
    return found
