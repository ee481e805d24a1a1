"""The commands the production image runs, run natively (no Docker engine here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_collectstatic_builds_a_manifest_as_in_the_dockerfile(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        SECRET_KEY="build-only-key-not-used-at-runtime-000000000",
        STATIC_ROOT=str(tmp_path),
    )
    env.pop("STATIC_MANIFEST", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "staticfiles.json").is_file()
    assert any(tmp_path.glob("css/site.*.css"))
