"""A crawler over every route of the site, as every kind of visitor, looking for hidden text.

Routes come from Django's URL resolver (a new route is crawled without touching this file);
path parameters are filled with real values (the case, each role's own and others' runs, the
case's version). Each route is fetched as: anonymous, a player with an open ranked run, a
player whose ranked run is closed, another player, and an agent with a token. No response (or
file inside a zip) may contain a distinctive string of the case's hidden files: none of these
roles has earned the hidden side (fewer than k counted runs ended).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.services import run_ask, run_start

pytestmark = pytest.mark.django_db(transaction=True)
HIDDEN = Path(__file__).resolve().parent / "fixtures" / "cases" / "tiny-knapsack" / "hidden"
SECRETS = [
    "shelving fitted last month",  # information.md
    "Editorial marker: the reference was built",  # editorial.md (issue 28)
    "Each loaded line costs a 10 EUR handling fee",  # a target's requirement (gt.json)
    "capacity_reduced",  # a target key
    "hazmat_excluded",
    "def evaluate",  # evaluator source
    "reference_value",
    "counterfactual",
]
#: Routes staff-only or without a GET (they answer 403/404/405 to these roles; still crawled).
SKIP = re.compile(r"^(admin/|\^)")


def _routes() -> Iterator[str]:
    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> Iterator[str]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif not SKIP.match(route):
                yield route

    yield from walk(get_resolver().url_patterns, "")


def _fill(route: str, values: dict[str, list[str]]) -> list[str]:
    """Every way to fill the route's parameters from ``values`` (by parameter name)."""
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    urls = ["/" + route]
    for name in names:
        options = values.get(name, ["x"])
        urls = [
            re.sub(rf"<(?:\w+:)?{name}>", option, url, count=1)
            for url in urls
            for option in options
        ]
    return urls


def _bodies(response: object) -> Iterator[str]:
    content = (
        b"".join(response.streaming_content)
        if getattr(response, "streaming", False)
        else response.content
    )  # type: ignore[attr-defined]
    if content[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            for name in archive.namelist():
                yield name
                yield archive.read(name).decode("utf-8", "replace")
    else:
        yield content.decode("utf-8", "replace")


def test_no_route_shows_hidden_text_to_any_role(alice: User, bob: User, knapsack: Case) -> None:
    carol = User.objects.create_user("carol", password="carol-password-1")
    agent = User.objects.create_user("agent-9")
    open_run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked"
    )
    run_ask(run_id=open_run.id, player=alice, text="Is hazmat allowed on the van?")
    closed_run = run_start(
        player=bob, case_slug=knapsack.slug, condition="interact_req", mode="ranked"
    )
    run_ask(run_id=closed_run.id, player=bob, text="What does the van take?")
    run_close(run_id=closed_run.id, player=bob)
    agent_run = run_start(player=agent, case_slug=knapsack.slug, condition="full", mode="practice")

    roles: dict[str, Client] = {"anonymous": Client()}
    for name, user in (
        ("open-run player", alice),
        ("closed-run player", bob),
        ("other player", carol),
    ):
        roles[name] = Client()
        roles[name].force_login(user)
    roles["agent"] = Client(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=agent)}")

    version = knapsack.current_version
    assert version is not None
    values = {
        "slug": [knapsack.slug],
        "run_id": [str(open_run.id), str(closed_run.id), str(agent_run.id)],
        "name": ["items.csv", "information.md", "..%2Fhidden%2Finformation.md"],
        "pk": [str(version.pk)],
        "kind": ["player", "label"],
        "key": ["alice", "agent-9"],
        "username": ["alice", "bob", "agent-9"],
        "version": ["x"],
    }
    crawled = 0
    for route in _routes():
        for url in _fill(route, values):
            for role, client in roles.items():
                response = client.get(url)
                crawled += 1
                # /healthz answers 503 by design when a service is down; nothing else may 5xx.
                if url != "/healthz":
                    assert response.status_code < 500, f"{role} GET {url}: {response.status_code}"
                for body in _bodies(response):
                    for secret in SECRETS:
                        assert secret not in body, f"{role} GET {url} shows {secret!r}"
    assert crawled > 200  # the resolver really gave the crawler the site
