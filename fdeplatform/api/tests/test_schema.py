from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client


def test_the_openapi_schema_builds_without_warnings(tmp_path: object) -> None:
    call_command(
        "spectacular",
        "--fail-on-warn",
        "--validate",
        "--file",
        str(tmp_path) + "/schema.yml",
        stdout=StringIO(),
    )


@pytest.mark.django_db
def test_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/runs/{run_id}/questions/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content
    assert b"cdn" not in docs.content.lower()  # assets served with the site, not from a CDN
