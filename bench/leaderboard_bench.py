"""Time the leaderboard page and API at 1k, 5k and 10k runs on PostgreSQL, side by side.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres SECRET_KEY=... \\
        python bench/leaderboard_bench.py [--database fde_bench] [--sizes 1000,5000,10000]
                                          [--repeat 7] [--keep] [--limit-ms 300]

The leaderboard aggregates in the database (one grouped query per configuration x case), so its
server time should stay well under the target and grow no worse than linearly with the number of
runs. This script checks that on realistic volume: it creates a separate database (``fde_bench``
on the server DATABASE_URL points at; dropped again unless ``--keep``), migrates it, and loads
runs with exchanges, coverage and per-target rows in steps. After each step it requests every
endpoint ``--repeat`` times through Django's test client (full middleware, templates, charts),
and prints the median and fastest wall time, the time spent in SQL and the number of queries.

Each endpoint is timed twice: *cold*, with the computed-board cache cleared before every request
(the first request after a run ends: grouped query, bootstraps, tests, charts), and *warm*, as
every other request is served (one stamp query, then the cached board is rendered).

Exits 1 if the warm page or API takes longer than ``--limit-ms`` (median) at the largest size,
or if any endpoint grows faster than the number of runs between the smallest and largest size.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

ENDPOINTS = {
    "page": "/leaderboard/",
    "page humans together": "/leaderboard/?humans=together&sort=-recall",
    "API": "/api/leaderboard/",
    "case page": "/leaderboard/case/bench-00/",
    "conditions page": "/leaderboard/conditions/",
}
DOMAINS = ["scoring_convention", "constraint_rule", "computation_convention", "data_semantics"]
CONDITIONS = ["interact_req"] * 7 + ["hidden"] * 2 + ["full"]


def recreate_database(server_url: str, name: str) -> str:
    """Drop and create ``name`` on the server of ``server_url``; return its URL."""
    import psycopg

    parsed = urlparse(server_url)
    if not parsed.scheme.startswith("postgres"):
        raise SystemExit("DATABASE_URL must point at a PostgreSQL server")
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(parsed._replace(path=f"/{name}"))


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    admin = urlunparse(urlparse(server_url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class World:
    """Cases, players and a seeded generator of finished runs (plus practice/open noise)."""

    rng: random.Random
    cases: list[Any] = field(default_factory=list)
    players: list[tuple[Any, str | None, float]] = field(default_factory=list)
    started: datetime = datetime(2025, 1, 1, tzinfo=UTC)

    def build(self, cases: int = 20, agents: int = 12, humans: int = 40) -> None:
        from django.contrib.auth.models import User

        from fdeplatform.cases.models import Case, CaseVersion

        for i in range(cases):
            case = Case.objects.create(
                slug=f"bench-{i:02d}", title=f"Bench case {i}", family="CO" if i % 2 else "ML",
                sector=["logistics", "energy", "finance", "retail"][i % 4], published=True,
            )  # fmt: skip
            case.current_version = CaseVersion.objects.create(
                case=case, version="1.0.0", digest=f"d{i}", storage_dir=f"bench/{i}",
                target_count=6,
            )  # fmt: skip
            case.save(update_fields=["current_version"])
            self.cases.append(case)
        owner = User.objects.create_user("agent-owner")
        for i in range(agents):
            self.players.append(
                (owner, f"scaffold-{i % 4} / model-{i}", self.rng.uniform(0.2, 0.9))
            )
        for i in range(humans):
            person = User.objects.create_user(f"human-{i:03d}")
            self.players.append((person, None, self.rng.uniform(0.1, 0.8)))

    def add_runs(self, count: int) -> None:
        """``count`` ranked runs that ended, and 10% more practice or open runs that do not count."""
        for start in range(0, count, 500):
            self._batch(min(500, count - start))

    def _batch(self, size: int) -> None:
        from fdeplatform.runs.models import Exchange, Run
        from fdeplatform.scoring.models import RunCoverage, TargetCoverage

        runs, exchanges, coverages, items = [], [], [], []
        for n in range(size + size // 10):
            counted = n < size
            run, run_exchanges = self._run(counted)
            runs.append(run)
            exchanges.extend(run_exchanges)
            if counted and self.rng.random() < 0.95:
                coverage, coverage_items = self._coverage(run, run_exchanges)
                coverages.append(coverage)
                items.extend(coverage_items)
        Run.objects.bulk_create(runs)
        Exchange.objects.bulk_create(exchanges, batch_size=2000)
        RunCoverage.objects.bulk_create(coverages, batch_size=2000)
        TargetCoverage.objects.bulk_create(items, batch_size=5000)

    def _run(self, counted: bool) -> tuple[Any, list[Any]]:
        from fdeplatform.runs.models import Exchange, Run

        player, label, skill = self.rng.choice(self.players)
        case = self.rng.choice(self.cases)
        started = self.started + timedelta(minutes=self.rng.randrange(0, 60 * 24 * 300))
        valid = self.rng.random() < skill + 0.15
        score = min(1.0, max(0.0, self.rng.gauss(skill, 0.2))) if valid else 0.0
        status = "closed" if counted else "open"
        run = Run(
            id=uuid.uuid4(), player=player, case_version=case.current_version,
            condition=self.rng.choice(CONDITIONS), mode="ranked" if counted else "practice",
            label=label or "", is_agent=label is not None, status=status,
            score=score if counted else None, valid=valid if counted else None,
            started_at=started, deadline=started + timedelta(hours=12),
            closed_at=started + timedelta(hours=1) if counted else None,
            incident=counted and valid and self.rng.random() < 0.02,
        )  # fmt: skip
        turns = self.rng.randrange(0, 13)
        exchanges = [
            Exchange(
                run=run,
                turn=t,
                question=f"Question {t} about the rules?",
                answer="An answer.",
                stakeholder="Dana",
                contact_cost=self.rng.choice([0.002, 0.004, 0.01]),
            )
            for t in range(1, turns + 1)
        ]
        run.rounds_used = turns
        return run, exchanges

    def _coverage(self, run: Any, exchanges: list[Any]) -> tuple[Any, list[Any]]:
        from fdeplatform.scoring.models import RunCoverage, TargetCoverage

        covered = [bool(exchanges) and self.rng.random() < 0.5 for _ in range(6)]
        hits = sum(covered)
        units = len(exchanges)
        precision = min(1.0, hits / units) if units else None
        recall = hits / 6
        coverage = RunCoverage(
            run=run, status="done", judge="offline", targets=6, covered=hits, recall=recall,
            precision=precision,
            ask_f1=(2 * precision * recall / (precision + recall) if precision and recall else
                    (0.0 if precision is not None else None)),
            kqc1=sum(covered[:1]) / 6, atc=1.0 + self.rng.random() * 4 if hits else None,
            redundant=max(0, units - hits),
        )  # fmt: skip
        items = [
            TargetCoverage(
                coverage=coverage,
                target=f"target_{k}",
                domain=DOMAINS[k % 4],
                issue_type="missing",
                covered=c,
                matched_units=[1] if c else [],
                first_turn=1 if c else None,
            )
            for k, c in enumerate(covered)
        ]
        return coverage, items


@contextmanager
def sql_timer() -> Iterator[list[float]]:
    """Collect the duration of every SQL statement run inside the block."""
    from django.db import connection

    durations: list[float] = []

    def wrapper(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            durations.append(time.perf_counter() - start)

    with connection.execute_wrapper(wrapper):
        yield durations


@dataclass
class Measure:
    runs: int
    endpoint: str
    mode: str
    wall_ms: list[float]
    sql_ms: float
    queries: int

    @property
    def median(self) -> float:
        return statistics.median(self.wall_ms)


def measure(runs: int, name: str, url: str, repeat: int, mode: str) -> Measure:
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    assert client.get(url).status_code == 200, url  # warm-up (and a check the page works)
    walls, sql, queries = [], 0.0, 0
    for _ in range(repeat):
        if mode == "cold":
            cache.clear()
        with sql_timer() as durations:
            start = time.perf_counter()
            response = client.get(url)
            walls.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
        sql, queries = sum(durations) * 1000, len(durations)
    return Measure(runs, name, mode, walls, sql, queries)


def print_table(results: list[Measure], sizes: list[int]) -> None:
    print()
    header = f"{'endpoint':<28}" + "".join(f"{f'{n:,} runs':>27}" for n in sizes) + f"{'growth':>9}"
    print(header)
    print(f"{'':<28}" + f"{'median / min / SQL ms (q)':>27}" * len(sizes))
    print("-" * len(header))
    for mode in ("warm", "cold"):
        for name in ENDPOINTS:
            row = [m for m in results if m.endpoint == name and m.mode == mode]
            cells = "".join(
                f"{f'{m.median:6.1f} / {min(m.wall_ms):6.1f} / {m.sql_ms:5.1f} ({m.queries})':>27}"
                for m in row
            )
            print(f"{f'{name} ({mode})':<28}{cells}{row[-1].median / row[0].median:>8.1f}x")
    print(f"{'runs ratio':<28}" + " " * 27 * len(sizes) + f"{sizes[-1] / sizes[0]:>8.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="fde_bench")
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--limit-ms", type=float, default=300.0)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    server = os.environ.get("DATABASE_URL", "")
    os.environ["DATABASE_URL"] = recreate_database(server, args.database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")
    os.environ.setdefault("HTTPS", "false")
    try:
        return run_bench(sizes, args.repeat, args.limit_ms)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(server, args.database)


def run_bench(sizes: list[int], repeat: int, limit_ms: float) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    world = World(random.Random(20261129))
    world.build()
    results: list[Measure] = []
    loaded = 0
    for size in sizes:
        start = time.perf_counter()
        world.add_runs(size - loaded)
        loaded = size
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"loaded {size:,} ranked runs in {time.perf_counter() - start:.1f} s", flush=True)
        for mode in ("warm", "cold"):
            results.extend(
                measure(size, name, url, repeat, mode) for name, url in ENDPOINTS.items()
            )
    print_table(results, sizes)
    return verdict(results, sizes, limit_ms)


def verdict(results: list[Measure], sizes: list[int], limit_ms: float) -> int:
    failed = []
    for name in ENDPOINTS:
        for mode in ("warm", "cold"):
            first, last = (
                next(m for m in results if (m.endpoint, m.mode, m.runs) == (name, mode, n))
                for n in (sizes[0], sizes[-1])
            )
            if mode == "warm" and name in {"page", "API"} and last.median > limit_ms:
                failed.append(f"{name}: {last.median:.0f} ms at {sizes[-1]:,} runs")
            if last.median / first.median > sizes[-1] / sizes[0]:
                failed.append(f"{name} ({mode}): grows faster than the number of runs")
    for problem in failed:
        print(f"FAIL {problem}")
    if not failed:
        print(
            f"\nOK: warm page and API under {limit_ms:.0f} ms at {sizes[-1]:,} runs; growth sub-linear"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
