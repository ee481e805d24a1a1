"""Talk to an evaluator child without letting it grow the parent: bounded stdout and stderr.

``Popen.communicate`` keeps everything a child writes; an evaluator that writes 300 MB to
stderr grew the web worker by 900 MB. Here one thread per stream reads in small chunks: stderr
keeps only its last ``tail`` bytes (all an admin log shows anyway), stdout (the one JSON
message) stops the child once it passes ``stdout_limit``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

CHUNK = 65_536
#: How long the readers may take to drain the pipes after the child is gone.
DRAIN_S = 10.0


@dataclass
class Exchange:
    """What came back from the child."""

    stdout: bytes
    stderr_tail: bytes
    stderr_total: int
    stdout_overflow: bool = False
    timed_out: bool = False


class _Tail:
    """The last ``size`` bytes of a stream, in memory bounded by about twice that."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.buffer = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self.buffer += chunk
        if len(self.buffer) > 2 * self.size:
            del self.buffer[: -self.size]

    def value(self) -> bytes:
        return bytes(self.buffer[-self.size :])


def _read_stderr(stream: IO[bytes], tail: _Tail) -> None:
    with contextlib.suppress(OSError, ValueError):
        while chunk := os.read(stream.fileno(), CHUNK):
            tail.add(chunk)


def _read_stdout(
    stream: IO[bytes], kept: bytearray, limit: int, on_overflow: Callable[[], None]
) -> None:
    with contextlib.suppress(OSError, ValueError):
        while chunk := os.read(stream.fileno(), CHUNK):
            if len(kept) + len(chunk) > limit:
                on_overflow()
                return
            kept += chunk


def _write_stdin(stream: IO[bytes], payload: bytes) -> None:
    # A child that dies (or stops reading) early is reported by its exit, not by a pipe error.
    with contextlib.suppress(OSError, ValueError):
        stream.write(payload)
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def exchange(
    process: subprocess.Popen[bytes],
    payload: bytes,
    *,
    timeout_s: float,
    stdout_limit: int,
    stderr_tail: int,
    kill: Callable[[], None],
) -> Exchange:
    """Send ``payload``, wait at most ``timeout_s`` and collect bounded output.

    ``kill`` stops the child and everything it started; it runs on a timeout and when stdout
    passes ``stdout_limit``.
    """
    assert process.stdin and process.stdout and process.stderr  # started with three pipes
    kept = bytearray()
    tail = _Tail(stderr_tail)
    overflow = threading.Event()

    def stop_for_overflow() -> None:
        overflow.set()
        kill()

    threads = [
        threading.Thread(target=_write_stdin, args=(process.stdin, payload), daemon=True),
        threading.Thread(
            target=_read_stdout,
            args=(process.stdout, kept, stdout_limit, stop_for_overflow),
            daemon=True,
        ),
        threading.Thread(target=_read_stderr, args=(process.stderr, tail), daemon=True),
    ]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill()
        process.wait()
    for thread in threads:
        thread.join(DRAIN_S)
    for stream in (process.stdout, process.stderr):
        stream.close()
    return Exchange(bytes(kept), tail.value(), tail.total, overflow.is_set(), timed_out)
