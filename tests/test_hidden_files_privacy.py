"""No route gives a player any part of a case's hidden files.

Every page, API endpoint, download and websocket frame a player can reach during an open run is
fetched and searched for phrases that exist only in the hidden files.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.asgi import application
from fdeplatform.cases.models import Case

pytestmark = pytest.mark.django_db(transaction=True)
HIDDEN = Path(__file__).resolve().parent / "fixtures" / "cases" / "tiny-knapsack" / "hidden"
SECRETS = [
    "shelving fitted last month",  # information.md
    "Editorial marker: the reference was built",  # editorial.md (issue 28)
    "Each loaded line costs a 10 EUR handling fee",  # gt.json requirement
    "capacity_reduced",  # a target key
    "def evaluate",  # evaluator source
    "reference_value",
    "44.0",  # R
    "counterfactual",
]


# R as a number on its own: a clock time such as "13:33:44.063" is not the reference value
# (that read as a leak once a minute, whenever a page showed a time with 44 seconds).
_REFERENCE_VALUE = re.compile(r"(?<![\d:.])44\.0(?!\d)")


def _assert_clean(where: str, body: str) -> None:
    for secret in SECRETS:
        if secret == "44.0":
            assert not _REFERENCE_VALUE.search(body), f"{where} leaks {secret!r}"
            continue
        assert secret not in body, f"{where} leaks {secret!r}"


def _ws_status(run_id: str, key: str) -> str:
    async def go() -> str:
        comm = WebsocketCommunicator(
            application,
            f"/ws/runs/{run_id}/?token={key}",
            headers=[(b"origin", b"http://127.0.0.1")],
        )
        await comm.connect()
        frame = await comm.receive_from(20)
        await comm.disconnect()
        return str(frame)

    return async_to_sync(go)()


def test_no_player_route_serves_hidden_material(alice: User, knapsack: Case) -> None:
    browser = Client()
    browser.force_login(alice)
    key = agent_token_issue(user=alice)
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    run: dict[str, Any] = api.post(
        "/api/runs/", {"case": knapsack.slug, "mode": "ranked"}, content_type="application/json"
    ).json()
    pages = [
        "/", "/cases/", f"/cases/{knapsack.slug}/", f"/runs/{run['id']}/", "/runs/", "/leaderboard/",
        f"/cases/{knapsack.slug}/editorial/",
        "/api/cases/", f"/api/cases/{knapsack.slug}/", f"/api/runs/{run['id']}/",
        f"/api/runs/{run['id']}/questions/", f"/api/runs/{run['id']}/result/", "/api/schema/",
    ]  # fmt: skip
    for url in pages:
        response = (api if url.startswith("/api/") else browser).get(url)
        assert response.status_code == 200, url
        _assert_clean(url, response.content.decode())
    for url in [f"/cases/{knapsack.slug}/bundle.zip", f"/api/cases/{knapsack.slug}/bundle/"]:
        archive = zipfile.ZipFile(io.BytesIO(browser.get(url).content))
        assert all(not n.startswith("hidden") for n in archive.namelist())
        for name in archive.namelist():
            _assert_clean(f"{url}:{name}", archive.read(name).decode())
    _assert_clean("websocket status", _ws_status(run["id"], key))


@pytest.mark.parametrize(
    "name",
    [
        "../hidden/gt.json",
        "..%2Fhidden%2Fgt.json",
        "%2e%2e/hidden/information.md",
        "gt.json",
        "evaluator.py",
    ],
)
def test_data_downloads_refuse_paths_outside_data(alice: User, knapsack: Case, name: str) -> None:
    browser = Client()
    browser.force_login(alice)
    for prefix in (f"/cases/{knapsack.slug}/data/", f"/api/cases/{knapsack.slug}/data/"):
        response = browser.get(prefix + name)
        assert response.status_code == 404, prefix + name
        _assert_clean(prefix + name, response.content.decode(errors="replace"))


def test_the_hidden_fixture_really_contains_the_secrets() -> None:
    text = "".join(
        p.read_text()
        for p in HIDDEN.rglob("*")
        if p.is_file() and p.suffix in {".md", ".json", ".py"}
    )
    text += (HIDDEN.parent / "case.toml").read_text()
    for secret in SECRETS:
        assert secret in text, secret  # otherwise the privacy test above proves nothing
    json.loads((HIDDEN / "gt.json").read_text())
