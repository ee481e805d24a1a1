"""Websocket question throughput: N agents x M questions, the platform beside a bare echo.

Starts two servers the way ``script/server`` does (``fdeplatform.core.serve``: the same number
of daphne processes, same settings): the platform, and ``bench/echo_asgi.py``. Then, for each
agent count, every agent gets its own user, token and practice run on a bundled case, opens
the run's websocket and asks M questions one after another (waiting for each ``answer``),
while the same number of clients bounce M frames off the echo consumer. Printed side by side
from one run: questions/s, p50 and p99 latency, errors and 1011 closes, the ratio to echo, and
the CPU the web processes spent per question (and the echo's per message), read from /proc.

Questions are the case's outside probe questions (``hidden/probes/questions*.json``), each
agent starting at its own place in the list, so the customer matches text it has not cached,
as it would for real agents; ``--questions-from fixed`` asks six fixed questions instead (the
customer's per-text cache then answers nearly all of them). Before timing, a warm-up of
``--warmup`` questions lets each process build its customer.

``--profile`` adds the time per stage of one question (lock, limit, customer, write, snapshot,
fan-out, and auth once per socket), measured in-process on the same database and channel
layer by timing the functions the question path calls.

Run it against the deployment you care about, e.g. PostgreSQL + Redis:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/1 \\
    DB_POOL_SIZE=10 SECRET_KEY=... .venv/bin/python bench/ws_load.py --agents 50,200,500
The database is migrated and the bundled cases loaded first; bench users are named bench-*,
and runs they left open are closed first (a player may hold only OPEN_RUNS_PER_USER).
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
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")

#: An answer that takes longer counts as an error (and ends that agent's run).
ANSWER_TIMEOUT_S = 120
FIXED_QUESTIONS = [
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
    cpu_s: float = 0.0  # the servers' processes, during the timed part
    kinds: Counter[str] = field(default_factory=Counter)  # what the errors were

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


def question_pool(case: str, source: str) -> list[str]:
    """The questions agents ask: the case's probe questions, or the six fixed ones."""
    if source == "fixed":
        return list(FIXED_QUESTIONS)
    found: dict[str, None] = {}
    for path in sorted((ROOT / "cases" / case / "hidden" / "probes").glob("questions*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")).get("questions", []):
            if isinstance(item, dict) and str(item.get("text", "")).strip():
                found[str(item["text"]).strip()] = None
    if not found:
        raise SystemExit(f"{case} has no probe questions; use --questions-from fixed")
    return list(found)


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of ``pids`` so far (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _children(server: subprocess.Popen[bytes]) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == server.pid:
                found.append(int(entry.name))
    return found


def _start(app: str, port: int, processes: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "fdeplatform.core.serve", "127.0.0.1", str(port)]
    command += ["--app", app, "--processes", str(processes)]
    # Questions are counted against the fair-use rate as usual (its Redis round trip is part of
    # the cost), but never refused: an agent answered in 100 ms asks ten times a second, which
    # is the default limit, and a refusal is not what this measures.
    env = {**os.environ, "QUESTION_RATE": os.environ.get("BENCH_QUESTION_RATE", "1000000/s")}
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, env=env)
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
    from django.utils import timezone

    from fdeplatform.accounts.services import agent_token_issue
    from fdeplatform.runs.models import Run, RunStatus
    from fdeplatform.runs.services import run_start

    # Runs earlier bench rounds left open count against OPEN_RUNS_PER_USER.
    Run.objects.filter(player__username__startswith="bench-", status=RunStatus.OPEN).update(
        status=RunStatus.CLOSED, closed_at=timezone.now(), ended_by="player"
    )
    pairs = []
    for index in range(agents):
        user, _ = User.objects.get_or_create(username=f"bench-{index:04d}")
        run = run_start(
            player=user, case_slug=case, condition="interact_req", mode="practice", is_agent=True
        )
        pairs.append((str(run.id), agent_token_issue(user=user)))
    return pairs


async def _agent(
    url: str, questions: list[str], load: Load, echo: bool, timings: bool = True
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    origin = Origin("http://" + url.split("/")[2])
    try:
        async with connect(url, origin=origin, open_timeout=60, max_size=2**22) as ws:
            if not echo:
                await _until(ws, lambda frame: frame.get("type") == "status")
            for turn, text in enumerate(questions):
                msg_id = f"q{turn}"
                frame = json.dumps({"type": "ask", "text": text, "id": msg_id})
                started = time.perf_counter()
                await ws.send(frame)
                if echo:
                    await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT_S)
                else:
                    reply = await asyncio.wait_for(
                        _until(
                            ws,
                            lambda f, m=msg_id: (
                                f.get("id") == m and f["type"] in ("answer", "error")
                            ),
                        ),
                        ANSWER_TIMEOUT_S,
                    )
                    if reply["type"] == "error":
                        load.errors += 1
                        load.kinds[f"error frame {reply.get('code')}"] += 1
                        continue
                if timings:
                    load.latencies.append(time.perf_counter() - started)
    except ConnectionClosed as exc:
        load.errors += 1
        code = exc.rcvd.code if exc.rcvd is not None else None
        load.kinds[f"closed ({code})"] += 1
        if code == 1011:
            load.closed_1011 += 1
    except Exception as exc:  # a refused or dropped handshake, a timeout: an error, not a crash
        load.errors += 1
        load.kinds[type(exc).__name__] += 1


async def _until(ws: object, wanted: object) -> dict[str, object]:
    while True:
        frame = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if wanted(frame):  # type: ignore[operator]
            return frame  # type: ignore[no-any-return]


async def _drive(urls: list[str], asks: list[list[str]], echo: bool) -> Load:
    load = Load()
    started = time.perf_counter()
    await asyncio.gather(*(_agent(url, qs, load, echo) for url, qs in zip(urls, asks, strict=True)))
    load.elapsed = time.perf_counter() - started
    return load


def _timed(
    servers: list[subprocess.Popen[bytes]], urls: list[str], asks: list[list[str]], echo: bool
) -> Load:
    pids = [pid for server in servers for pid in _children(server)]
    before = _cpu_seconds(pids)
    load = asyncio.run(_drive(urls, asks, echo))
    load.cpu_s = _cpu_seconds(pids) - before
    return load


def _asks(pool: list[str], agents: int, questions: int, offset: int = 0) -> list[list[str]]:
    """Each agent's questions: consecutive probes from its own starting place in the pool."""
    return [
        [pool[(offset + agent * questions + turn) % len(pool)] for turn in range(questions)]
        for agent in range(agents)
    ]


class _Stages:
    """Wall time per stage of each question, by wrapping the functions the path calls."""

    def __init__(self) -> None:
        self.done: list[dict[str, float]] = []
        self.current: dict[str, float] = {}

    @contextmanager
    def wrapped(self, owner: Any, name: str, stage: str) -> Iterator[None]:
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.add(stage, (time.perf_counter() - started) * 1000)

        setattr(owner, name, timed)
        try:
            yield
        finally:
            setattr(owner, name, original)

    def add(self, stage: str, ms: float) -> None:
        self.current[stage] = self.current.get(stage, 0.0) + ms

    def next_question(self) -> None:
        self.done.append(self.current)
        self.current = {}

    def means(self, order: list[str]) -> dict[str, float]:
        return {s: statistics.mean(q.get(s, 0.0) for q in self.done) for s in order}


def _profile(
    case: str, pool: list[str], rounds: int = 60, warmup: int = 20
) -> tuple[dict[str, float], float]:
    """Mean ms per stage of one question (and of the per-socket token check), in-process."""
    from contextlib import ExitStack

    from channels.layers import get_channel_layer
    from django.conf import settings
    from django.contrib.auth.models import User

    from fdeplatform.accounts.services import agent_token_issue, user_for_key
    from fdeplatform.core import ratelimit
    from fdeplatform.core.channel_layer import send_to_others
    from fdeplatform.runs import asking, question_sql, selectors, services
    from fdeplatform.runs.presenters import exchange_view

    # The question rate is counted as usual (the "limit" stage), but never refuses here.
    settings.QUESTION_RATE = "1000000/s"
    user, _ = User.objects.get_or_create(username="bench-profile")
    key = agent_token_issue(user=user)
    stages = _Stages()
    layer = get_channel_layer()
    # One event loop throughout, as in a web process (the layer keeps its pools per loop).
    loop = asyncio.new_event_loop()
    channel = loop.run_until_complete(layer.new_channel())
    loop.run_until_complete(layer.group_add("bench-profile", channel))
    auth: list[float] = []
    run = services.run_start(
        player=user, case_slug=case, condition="interact_req", mode="practice", is_agent=True
    )
    with ExitStack() as patches:
        for owner, name, stage in [
            (question_sql, "lock_run", "lock"),
            (question_sql, "exchanges_of", "lock"),
            (ratelimit, "hit", "limit"),
            (asking, "customer_reply", "customer"),
            (question_sql, "record", "write"),
            (question_sql, "submissions_of", "snapshot"),
            (selectors, "snapshot_of", "snapshot"),
        ]:
            patches.enter_context(stages.wrapped(owner, name, stage))
        for turn in range(warmup + rounds):
            if turn == warmup:  # the process's first questions build caches: not timed
                stages.done.clear()
                auth.clear()
            if turn and turn % run.rounds_limit == 0:
                run = services.run_start(
                    player=user, case_slug=case, condition="interact_req", mode="practice"
                )
            started = time.perf_counter()
            user_for_key(key)
            auth.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            exchange, snapshot = services.run_ask_live(
                run_id=run.pk, player=user, text=pool[turn % len(pool)], client_id=f"p{turn}"
            )
            total = (time.perf_counter() - started) * 1000
            stages.add("commit", total - sum(stages.current.values()))  # BEGIN, COMMIT, glue
            started = time.perf_counter()
            frames = [{"type": "answer", **exchange_view(exchange)}, {"type": "status", **snapshot}]
            for frame in frames:
                json.dumps(frame)  # what send_json does with them
            loop.run_until_complete(
                send_to_others(
                    layer, "bench-profile", {"type": "run.frames", "frames": frames}, channel
                )
            )
            stages.add("fan-out", (time.perf_counter() - started) * 1000)
            stages.next_question()
    loop.close()
    order = ["lock", "limit", "customer", "write", "commit", "snapshot", "fan-out"]
    return stages.means(order), statistics.mean(auth)


def main() -> int:
    parser = argparse.ArgumentParser(description="Websocket question throughput benchmark.")
    parser.add_argument("--agents", default="50,200", help="comma-separated agent counts")
    parser.add_argument("--questions", type=int, default=20, help="questions per agent")
    parser.add_argument("--case", default="battery-dispatch")
    parser.add_argument("--questions-from", choices=["probes", "fixed"], default="probes")
    parser.add_argument("--warmup", type=int, default=40, help="untimed questions first")
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
    layer = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    pool = question_pool(args.case, args.questions_from)
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} on {os.cpu_count()} cores (load average "
        f"{os.getloadavg()[0]:.1f}): database {connection.vendor}, channel layer {layer}, "
        f"{processes} daphne process(es), {args.questions} questions per agent from "
        f"{len(pool)} {args.questions_from} questions, warm-up {args.warmup}"
    )
    platform_port, echo_port = _free_port(), _free_port()
    platform = _start("fdeplatform.asgi:application", platform_port, processes)
    echo_server = _start("bench.echo_asgi:application", echo_port, processes)
    servers = [platform, echo_server]
    try:
        warm = _prepare(max(1, args.warmup // 2), args.case)
        connection.close()
        asyncio.run(
            _drive(
                [_url(platform_port, run, key) for run, key in warm],
                _asks(pool, len(warm), 2, offset=len(pool) // 2),
                echo=False,
            )
        )
        print(
            "| agents x questions | platform q/s | p50 | p99 | errors (1011) | web CPU/question"
            " | echo msg/s | echo p99 | echo CPU/msg | ratio |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        errors: list[str] = []
        for agents in (int(n) for n in args.agents.split(",")):
            pairs = _prepare(agents, args.case)
            connection.close()
            asks = _asks(pool, agents, args.questions)
            urls = [_url(platform_port, run, key) for run, key in pairs]
            ours = _timed([platform], urls, asks, echo=False)
            echoed = _timed(
                [echo_server], [f"ws://127.0.0.1:{echo_port}/ws/echo/"] * agents, asks, echo=True
            )
            p, e = ours.row(), echoed.row()
            asked, bounced = max(1, len(ours.latencies)), max(1, len(echoed.latencies))
            print(
                f"| {agents} x {args.questions} | {p['rate']:.0f} | {p['p50'] * 1000:.0f} ms | "
                f"{p['p99'] * 1000:.0f} ms | {ours.errors} ({ours.closed_1011}) | "
                f"{ours.cpu_s / asked * 1000:.1f} ms | {e['rate']:.0f} | "
                f"{e['p99'] * 1000:.0f} ms | {echoed.cpu_s / bounced * 1000:.2f} ms | "
                f"{p['rate'] / e['rate']:.3f} |",
                flush=True,
            )
            if ours.kinds:
                errors.append(
                    f"{agents} agents: " + ", ".join(f"{n} {k}" for k, n in ours.kinds.items())
                )
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=15)
    if errors:
        print("\nErrors: " + "; ".join(errors))
    if args.profile:
        stages, auth = _profile(args.case, pool)
        total = sum(stages.values())
        print(
            f"\nOne question, in-process ({total:.1f} ms; ms and share): "
            + ", ".join(f"{name} {ms:.2f} ({ms / total:.0%})" for name, ms in stages.items())
            + f". Token check, once per socket: {auth:.2f} ms."
        )
    return 0


def _url(port: int, run: str, key: str) -> str:
    return f"ws://127.0.0.1:{port}/ws/runs/{run}/?token={key}"


if __name__ == "__main__":
    sys.exit(main())
