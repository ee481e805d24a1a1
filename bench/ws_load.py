"""Websocket question throughput: N agents x M questions, the platform beside a bare echo.

Starts two servers the way ``script/server`` does (``fdeplatform.core.serve``: the same number
of daphne processes, same settings): the platform, and ``bench/echo_asgi.py``. Then, for each
agent count, every agent gets its own user, token and practice run on a bundled case, opens
the run's websocket and asks M questions one after another (waiting for each ``answer``),
while the same number of clients bounce M frames off the echo consumer. Printed side by side
from one run: questions/s, p50 and p99 latency, errors and 1011 closes, and the ratio to echo.
``--profile`` adds the time per stage of one question (auth, lock, customer, write, snapshot,
fan-out) measured in-process on the same database and channel layer.

Run it against the deployment you care about, e.g. PostgreSQL + Redis:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/1 \\
    SECRET_KEY=... .venv/bin/python bench/ws_load.py --agents 50,200,500 --questions 20
The database is migrated and the bundled cases loaded first; bench users are named bench-*.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")

QUESTIONS = [
    "Is the 90 % efficiency round-trip or per direction?",
    "Which time zone are the day-ahead prices in?",
    "May the battery export to the grid?",
    "What state of charge should the battery end the day at?",
    "How is the demand charge counted for one day?",
    "Who should I ask about the warranty?",
]


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    closed_1011: int = 0
    elapsed: float = 0.0

    def row(self) -> dict[str, float]:
        lat = sorted(self.latencies) or [float("nan")]
        return {
            "rate": len(self.latencies) / self.elapsed if self.elapsed else 0.0,
            "p50": lat[len(lat) // 2],
            "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))],
        }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(app: str, port: int, processes: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "fdeplatform.core.serve", "127.0.0.1", str(port)]
    command += ["--app", app, "--processes", str(processes)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(1.5)  # every process up, not just the first
                return server
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"{app} did not start on port {port}")


def _prepare(agents: int, case: str) -> list[tuple[str, str]]:
    """(run id, token) per agent: fresh practice runs, so no round budget runs out."""
    from django.contrib.auth.models import User

    from fdeplatform.accounts.services import agent_token_issue
    from fdeplatform.runs.services import run_start

    pairs = []
    for index in range(agents):
        user, _ = User.objects.get_or_create(username=f"bench-{index:04d}")
        run = run_start(
            player=user, case_slug=case, condition="interact_req", mode="practice", is_agent=True
        )
        pairs.append((str(run.id), agent_token_issue(user=user)))
    return pairs


async def _agent(url: str, questions: int, load: Load, echo: bool) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.typing import Origin

    origin = Origin("http://" + url.split("/")[2])
    try:
        async with connect(url, origin=origin, open_timeout=60, max_size=2**22) as ws:
            if not echo:
                await _until(ws, lambda frame: frame.get("type") == "status")
            for turn in range(questions):
                msg_id = f"q{turn}"
                text = QUESTIONS[turn % len(QUESTIONS)]
                frame = json.dumps({"type": "ask", "text": text, "id": msg_id})
                started = time.perf_counter()
                await ws.send(frame)
                if echo:
                    await ws.recv()
                else:
                    reply = await _until(
                        ws,
                        lambda f, m=msg_id: f.get("id") == m and f["type"] in ("answer", "error"),
                    )
                    if reply["type"] == "error":
                        load.errors += 1
                        continue
                load.latencies.append(time.perf_counter() - started)
    except ConnectionClosed as exc:
        load.errors += 1
        if exc.rcvd is not None and exc.rcvd.code == 1011:
            load.closed_1011 += 1
    except (OSError, TimeoutError, InvalidStatus):
        load.errors += 1


async def _until(ws: object, wanted: object) -> dict[str, object]:
    while True:
        frame = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if wanted(frame):  # type: ignore[operator]
            return frame  # type: ignore[no-any-return]


async def _drive(urls: list[str], questions: int, echo: bool) -> Load:
    load = Load()
    started = time.perf_counter()
    await asyncio.gather(*(_agent(url, questions, load, echo) for url in urls))
    load.elapsed = time.perf_counter() - started
    return load


def _profile(case: str, rounds: int = 60) -> dict[str, float]:
    """Mean milliseconds per stage of one question, in-process (see module docstring)."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.contrib.auth.models import User
    from django.db import transaction

    from fdeplatform.accounts.services import agent_token_issue, user_for_key
    from fdeplatform.runs import services
    from fdeplatform.runs.customer import customer_for, history_from
    from fdeplatform.runs.selectors import run_snapshot

    user, _ = User.objects.get_or_create(username="bench-profile")
    key = agent_token_issue(user=user)
    run = services.run_start(
        player=user, case_slug=case, condition="interact_req", mode="practice", is_agent=True
    )
    layer = get_channel_layer()
    stages: dict[str, list[float]] = {s: [] for s in ("auth", "lock", "customer", "write")}
    stages |= {"snapshot": [], "fan-out": []}
    for turn in range(min(rounds, run.rounds_limit)):
        t0 = time.perf_counter()
        user_for_key(key)
        t1 = time.perf_counter()
        with transaction.atomic():
            locked = services.lock_own_run(run.id, user)
            exchanges = list(locked.exchanges.order_by("turn"))
            t2 = time.perf_counter()
            question = QUESTIONS[turn % len(QUESTIONS)]
            reply = customer_for(locked).reply(question, history_from(exchanges))
            t3 = time.perf_counter()
            locked.rounds_used += 1
            locked.save(update_fields=["rounds_used"])
            locked.exchanges.create(
                turn=locked.rounds_used, client_id=f"p{turn}", question="q", answer=reply.text
            )
        t4 = time.perf_counter()
        snapshot = run_snapshot(run_id=run.id, player=user)
        t5 = time.perf_counter()
        async_to_sync(layer.group_send)("bench-profile", {"type": "run.frame", "frame": snapshot})
        t6 = time.perf_counter()
        for stage, (a, b) in zip(
            stages, [(t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6)], strict=True
        ):
            stages[stage].append((b - a) * 1000)
    return {stage: statistics.mean(values) for stage, values in stages.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description="Websocket question throughput benchmark.")
    parser.add_argument("--agents", default="50,200", help="comma-separated agent counts")
    parser.add_argument("--questions", type=int, default=20, help="questions per agent")
    parser.add_argument("--case", default="battery-dispatch")
    parser.add_argument("--processes", type=int, default=None, help="daphne processes")
    parser.add_argument("--profile", action="store_true", help="time each stage of a question")
    args = parser.parse_args()

    import django
    from django.core.management import call_command

    from fdeplatform.core.serve import process_count

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("load_bundled_cases", verbosity=0)
    from django.conf import settings
    from django.db import connection

    processes = args.processes or process_count()
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"# {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores: database "
        f"{connection.vendor}, channel layer {layer}, {processes} daphne process(es), "
        f"{args.questions} questions per agent"
    )
    platform_port, echo_port = _free_port(), _free_port()
    servers = [
        _start("fdeplatform.asgi:application", platform_port, processes),
        _start("bench.echo_asgi:application", echo_port, processes),
    ]
    try:
        print(
            "| agents x questions | platform q/s | p50 | p99 | errors (1011) | echo msg/s | "
            "echo p99 | ratio |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for agents in (int(n) for n in args.agents.split(",")):
            pairs = _prepare(agents, args.case)
            connection.close()
            urls = [
                f"ws://127.0.0.1:{platform_port}/ws/runs/{run}/?token={key}" for run, key in pairs
            ]
            platform = asyncio.run(_drive(urls, args.questions, echo=False))
            echo = asyncio.run(
                _drive([f"ws://127.0.0.1:{echo_port}/ws/echo/"] * agents, args.questions, echo=True)
            )
            p, e = platform.row(), echo.row()
            print(
                f"| {agents} x {args.questions} | {p['rate']:.0f} | {p['p50'] * 1000:.0f} ms | "
                f"{p['p99'] * 1000:.0f} ms | {platform.errors} ({platform.closed_1011}) | "
                f"{e['rate']:.0f} | {e['p99'] * 1000:.0f} ms | {p['rate'] / e['rate']:.3f} |",
                flush=True,
            )
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=15)
    if args.profile:
        stages = _profile(args.case)
        total = sum(stages.values())
        print(
            "\nOne question, in-process (ms, share): "
            + ", ".join(f"{name} {ms:.2f} ({ms / total:.0%})" for name, ms in stages.items())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
