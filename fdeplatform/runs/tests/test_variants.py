"""Runs on a case with variants (issue 26): assignment, the variant's files, customer and
evaluator, and the id hidden while the run is open (tests/fixtures/cases/tiny-variants)."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.cases.services import case_import
from fdeplatform.core.background import drain
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.models import Run
from fdeplatform.runs.services import run_ask, run_start
from fdeplatform.runs.submissions import submission_receive
from fdeplatform.runs.variants import pick_variant, variant_order

pytestmark = pytest.mark.django_db(transaction=True)
FIXTURE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-variants"
VARIANTS = ["base", "big-fee", "light-van"]


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


@pytest.fixture
def van(tmp_path: Path) -> Case:
    """tiny-variants with a data file of its own for `light-van` (a dearer camp stove)."""
    root = tmp_path / "tiny-variants"
    shutil.copytree(FIXTURE, root)
    data = root / "hidden" / "variants" / "light-van" / "data"
    data.mkdir()
    items = (root / "data" / "items.csv").read_text()
    (data / "items.csv").write_text(
        items.replace("Camp stove,6.0,1,70,32", "Camp stove,6.0,1,75,32")
    )
    return case_import(source=root, check_anchors=False).version.case


def _start(user: User, case: Case, mode: str = "ranked") -> Run:
    return run_start(player=user, case_slug=case.slug, condition="interact_req", mode=mode)


def _played(user: User, case: Case, mode: str, count: int) -> list[str]:
    variants = []
    for _ in range(count):
        run = _start(user, case, mode)
        variants.append(run.variant)
        run_close(run_id=run.pk, player=user)
    return variants


def test_the_order_is_each_players_own_and_stable() -> None:
    orders = {
        tuple(variant_order(VARIANTS, player_id=p, case_slug="c", mode="ranked")) for p in range(20)
    }
    assert len(orders) > 1  # not every player meets the variants in one order
    picks = [
        pick_variant(VARIANTS, player_id=7, case_slug="c", mode="ranked", index=i) for i in range(4)
    ]
    assert sorted(picks[:3]) == VARIANTS and picks[3] == picks[0]


def test_three_counted_ranked_runs_get_three_different_variants(
    alice: User, bob: User, van: Case
) -> None:
    played = _played(alice, van, "ranked", 3)
    assert sorted(played) == VARIANTS
    assert sorted(_played(bob, van, "ranked", 3)) == VARIANTS
    assert Run.objects.filter(player=alice, standing="counted").count() == 3


def test_practice_runs_draw_from_the_same_pool(alice: User, van: Case) -> None:
    assert sorted(_played(alice, van, "practice", 3)) == VARIANTS


def _run_on(user: User, case: Case, variant: str) -> Run:
    """A practice run that got ``variant`` (the assignment is deterministic, so replay it)."""
    for _ in range(len(VARIANTS)):
        run = _start(user, case, "practice")
        if run.variant == variant:
            return run
        run_close(run_id=run.pk, player=user)
    raise AssertionError(f"no run got {variant}")


def test_the_run_plays_its_variants_customer_data_and_evaluator(alice: User, van: Case) -> None:
    run = _run_on(alice, van, "light-van")
    answer = run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry now?")
    assert "10 kg" in answer.answer and "{{" not in answer.answer
    assert "Camp stove,6.0,1,75,32" in (run.package_dir / "data" / "items.csv").read_text()
    reference = FIXTURE / "hidden" / "variants" / "light-van" / "hidden" / "reference.csv"
    submission_receive(
        run_id=run.pk, player=alice, upload=SimpleUploadedFile("d.csv", reference.read_bytes())
    )
    drain()
    submission = run.submissions.get()
    # Normalised by the variant's own R (40 EUR), not the base's 44.
    assert submission.score == pytest.approx(1.0) and submission.result["reference_value"] == 40.0


def test_the_workspace_and_api_never_name_the_variant_while_open(
    client: Client, alice: User, van: Case
) -> None:
    run = _run_on(alice, van, "light-van")
    client.force_login(alice)
    page = client.get(f"/runs/{run.pk}/").content.decode()
    assert "light-van" not in page and "Lighter van" not in page
    assert f"/runs/{run.pk}/data/items.csv" in page
    token = agent_token_issue(user=alice)
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    detail = api.get(f"/api/runs/{run.pk}/").json()
    assert detail["variant"] is None and "light-van" not in str(detail)
    data = api.get(f"/api/runs/{run.pk}/data/items.csv")
    assert b"Camp stove,6.0,1,75,32" in b"".join(data.streaming_content)  # type: ignore[attr-defined]
    bundle = api.get(f"/api/runs/{run.pk}/bundle/")
    assert bundle["Content-Disposition"] == 'attachment; filename="tiny-variants.zip"'
    with zipfile.ZipFile(io.BytesIO(bundle.content)) as archive:
        assert b"75,32" in archive.read("data/items.csv")
        assert not [n for n in archive.namelist() if "hidden" in n or "variant" in n]
    # The case's own data is its base variant's.
    case_data = api.get("/api/cases/tiny-variants/data/items.csv")
    assert b"Camp stove,6.0,1,70,32" in b"".join(case_data.streaming_content)  # type: ignore[attr-defined]


def test_the_variant_is_named_once_the_run_has_ended(
    client: Client, alice: User, bob: User, van: Case
) -> None:
    run = _run_on(alice, van, "light-van")
    run_close(run_id=run.pk, player=alice)
    token = agent_token_issue(user=alice)
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(f"/api/runs/{run.pk}/").json()["variant"] == "light-van"
    other = Client(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=bob)}")
    assert other.get(f"/api/runs/{run.pk}/data/items.csv").status_code == 404
    client.force_login(alice)
    report = client.get(f"/runs/{run.pk}/report/")
    assert 'id="run-variant">light-van<' in report.content.decode()


def test_the_websocket_answers_from_the_variant_and_never_names_it(alice: User, van: Case) -> None:
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from fdeplatform.asgi import application

    run = _run_on(alice, van, "light-van")

    async def talk() -> list[dict[str, Any]]:
        path = f"/ws/runs/{run.pk}/?token={agent_token_issue(user=alice)}"
        comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1")])
        connected, _ = await comm.connect()
        assert connected
        frames = [await comm.receive_json_from(20)]
        await comm.send_json_to({"type": "ask", "text": "How much weight can the van carry now?"})
        while len(frames) < 4:
            frames.append(await comm.receive_json_from(20))
        await comm.disconnect()
        return frames

    frames = async_to_sync(talk)()
    answer = next(f for f in frames if f["type"] == "answer")
    assert "10 kg" in answer["text"]
    assert "light-van" not in str(frames) and "Lighter van" not in str(frames)
