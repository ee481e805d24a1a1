"""Fixtures for the ``fde`` client's tests.

The client is imported from ``clients/fde/src`` (not installed), so these tests check the code
in the checkout. ``protocol`` tests talk HTTP to the stdlib fake in ``fake_server.py``;
``test_live.py`` talks to the real platform.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

CLIENT_SRC = Path(__file__).resolve().parents[2] / "clients" / "fde" / "src"
if str(CLIENT_SRC) not in sys.path:
    sys.path.insert(0, str(CLIENT_SRC))

from fde_client.cli import main  # noqa: E402

from tests.client.fake_server import TOKEN, FakePlatform, serve  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "protocol: client unit test against the stdlib fake server in tests/client/fake_server.py",
    )


@dataclass
class Outcome:
    code: int
    out: str
    err: str


FdeRunner = Callable[..., Outcome]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own FDE_* settings must not leak into a test."""
    for name in ("FDE_URL", "FDE_TOKEN", "FDE_DEBUG", "FDE_RUN_ID", "FDE_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fde(capsys: pytest.CaptureFixture[str]) -> FdeRunner:
    """Run ``fde ARGS`` in-process and return its exit code and output."""

    def run(*args: str) -> Outcome:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
def server(platform: FakePlatform, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The fake platform on a free port, configured the way a user would: FDE_URL/FDE_TOKEN."""
    with serve(platform) as url:
        monkeypatch.setenv("FDE_URL", url)
        monkeypatch.setenv("FDE_TOKEN", TOKEN)
        yield url


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path
