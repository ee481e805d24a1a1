"""Steps shared by single commands and ``fde campaign``: start a run into a workspace, and
wait for a result."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fde_client.api import Client, JSONObject
from fde_client.archive import check_archive, open_bundle
from fde_client.errors import ApiError, FdeError
from fde_client.workspace import check_target_folder, create_workspace, default_folder

CONDITIONS = (
    "interact_req", "interact", "hidden", "full",
    "oracle_0", "oracle_25", "oracle_50", "oracle_75", "oracle_100",
    "gym_l0", "gym_l1", "gym_l2",
)  # fmt: skip
MODES = ("ranked", "practice")
PENDING = frozenset({"pending", "queued", "running", "scoring"})


def start_workspace(
    client: Client,
    *,
    case: str,
    condition: str,
    mode: str,
    label: str,
    folder: Path | None = None,
    parent: Path = Path(),
    on_started: Callable[[JSONObject, Path], None] | None = None,
) -> tuple[JSONObject, Path]:
    """Start a run and materialise its workspace; return the run object and the folder.

    The case's bundle is downloaded and checked before the run starts, so a server-side
    problem with the bundle does not spend a run (and its wall-clock budget) that can never be
    played. The workspace is then written from the run's own bundle (``bundle_url``): a case
    with variants gives each run its variant's data, which the case's bundle does not hold.
    ``on_started`` hears of the run as soon as it exists (a campaign records it at once, so an
    interruption while the workspace is written does not lose the run).
    """
    if folder is not None:
        check_target_folder(folder)
    with tempfile.TemporaryFile() as download:
        client.download_bundle(case, download)
        download.seek(0)
        with open_bundle(download) as bundle:
            check_archive(bundle)
        run = client.start_run(case=case, condition=condition, mode=mode, label=label)
        run_id = require_text(run, "id")
        target = folder or parent / default_folder(case, run_id)
        if on_started is not None:
            on_started(run, target)
        try:
            if run.get("bundle_url"):
                download.seek(0)
                download.truncate()
                client.download_run_bundle(run_id, download)
            download.seek(0)
            with open_bundle(download) as bundle:
                check_archive(bundle)
                check_target_folder(target)
                create_workspace(target, run=run, bundle=bundle, server=client.base_url)
        except (FdeError, OSError) as exc:
            raise FdeError(
                f"run {run_id} was started but its workspace could not be written: {exc}"
            ) from None
    return run, target


def require_text(obj: JSONObject, key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        raise ApiError(0, "bad_response", f"the server's answer has no '{key}'")
    return value


def wait_for_result(
    client: Client,
    run_id: str,
    *,
    timeout: float,
    poll: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> JSONObject | None:
    """Poll ``/result/`` until it leaves the pending states; None if ``timeout`` runs out."""
    deadline = clock() + timeout
    while True:
        result = client.result(run_id)
        if str(result.get("status", "")) not in PENDING:
            return result
        if clock() + poll > deadline:
            return None
        sleep(poll)


def is_pending(result: Any) -> bool:
    return isinstance(result, dict) and str(result.get("status", "")) in PENDING
