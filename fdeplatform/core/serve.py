"""Serve the ASGI app from several daphne processes sharing one listening socket.

One daphne process runs Python on one core, so a 2-core box serving hundreds of agents wants
two. Daphne has no worker option, but it can adopt an inherited socket (``--fd``): this
launcher binds the port once, starts ``processes`` daphne children on the same socket (the
kernel spreads new connections between them) and stops them all when it is stopped or when
any of them dies.

Several processes need a channel layer they share (Redis): the in-memory layer lives inside
one process, so a score pushed from one would miss sockets held by another. ``processes`` is
therefore forced to 1 without Redis; with it, ``WEB_PROCESSES`` (default: the number of cores)
decides.

Usage: ``python -m fdeplatform.core.serve [--app fdeplatform.asgi:application] HOST PORT``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

MAX_MESSAGE_BYTES = 1_048_576  # the consumer answers frames above 16 KB with an error frame


def process_count(environ: dict[str, str] | os._Environ[str] = os.environ) -> int:
    """How many daphne processes to run (see the module docstring)."""
    if not (environ.get("REDIS_URL") or "").strip():
        return 1
    wanted = (environ.get("WEB_PROCESSES") or "").strip()
    if wanted:
        try:
            return max(1, int(wanted))
        except ValueError:
            raise SystemExit(f"WEB_PROCESSES={wanted!r} is not a whole number") from None
    return max(1, os.cpu_count() or 1)


#: PostgreSQL connections pooled per web process when ``DB_POOL_SIZE`` is not set.
DEFAULT_POOL_SIZE = 10


def child_environment(environ: dict[str, str] | os._Environ[str] = os.environ) -> dict[str, str]:
    """The daphne processes' environment: on PostgreSQL, a connection pool unless configured.

    Without one, each question's database call opened (and closed) its own PostgreSQL
    connection, a new server process each time: 93 instead of 150-177 questions/s in the
    websocket benchmark. The settings' default stays 0 (no pool) for everything else.
    """
    env = dict(environ)
    if (env.get("DATABASE_URL") or "").startswith("postgres") and not env.get("DB_POOL_SIZE"):
        env["DB_POOL_SIZE"] = str(DEFAULT_POOL_SIZE)
    return env


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def serve(app: str, host: str, port: int, processes: int, extra: list[str]) -> int:
    sock = _listen(host, port)
    daphne = str(Path(sys.executable).with_name("daphne"))
    command = [
        daphne,
        "--fd",
        str(sock.fileno()),
        "--websocket-max-message-size",
        str(MAX_MESSAGE_BYTES),
        *extra,
        app,
    ]
    env = child_environment()
    children = [
        subprocess.Popen(command, pass_fds=(sock.fileno(),), env=env) for _ in range(processes)
    ]
    print(f"==> {processes} daphne process(es) on http://{host}:{port}/", flush=True)
    return supervise(children)


#: How long children get to finish after SIGTERM (open websockets keep daphne waiting).
GRACE_S = 10.0


def supervise(children: list[subprocess.Popen[bytes]], grace_s: float = GRACE_S) -> int:
    """Wait for the children; on SIGTERM or SIGINT stop them and return within ``grace_s``.

    Why a flag and not only the handler: daphne with open websockets does not exit on SIGTERM
    until its sockets close, so a loop waiting for the children to exit never ended and the
    supervisor needed SIGKILL. The signal now ends the wait itself; children still running
    after the grace period are killed.

    Why the handler only flips a plain flag: a handler runs between two bytecodes of the main
    thread, which may be inside ``threading.Event.wait`` holding the event's (non-reentrant)
    lock; a handler that called ``Event.set`` then waited for that lock forever, and the
    supervisor hung about once in a few hundred stops. ``time.sleep`` holds no lock.
    """
    stopping: list[bool] = []

    def stop(*_: object) -> None:
        stopping.append(True)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + grace_s
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return next((c.returncode for c in children if c.returncode and c.returncode > 0), 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--app", default="fdeplatform.asgi:application")
    parser.add_argument("--processes", type=int, default=None, help="default: process_count()")
    args, extra = parser.parse_known_args(argv)
    processes = args.processes or process_count()
    return serve(args.app, args.host, args.port, processes, extra)


if __name__ == "__main__":
    sys.exit(main())
