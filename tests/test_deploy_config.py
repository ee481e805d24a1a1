"""The production layout in compose.yaml and deploy/Caddyfile, checked as files (no Docker
engine on the CI machine): only the proxy is published, it limits request bodies before daphne
reads them, and the app's HTTPS settings match what the proxy serves."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_only_the_proxy_is_published_and_it_limits_bodies() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    published = {name for name, spec in services.items() if spec.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["ports"] == ["80:80", "443:443"]
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    limit = re.search(r"max_size\s+(\d+)MB", caddy)
    assert limit is not None and int(limit.group(1)) <= 51  # MAX_UPLOAD_REQUEST_MB is 50
    assert "reverse_proxy web:8000" in caddy


def test_the_apps_https_settings_match_the_tls_proxy() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    env = compose["x-app"]["environment"]
    assert env["HTTPS"].startswith("${HTTPS:-true}")
    assert env["EVALUATOR_ISOLATION"].startswith("${EVALUATOR_ISOLATION:-bwrap}")
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--proxy-headers" in dockerfile and "bubblewrap" in dockerfile
