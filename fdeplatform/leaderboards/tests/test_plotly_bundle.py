"""The charts load the vendored cartesian plotly.js: small, versioned with the Python package,
served under a content-hashed name with a long cache lifetime."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from plotly.offline import get_plotlyjs_version

from fdeplatform.leaderboards.templatetags.leaderboard_format import PLOTLY_BUNDLE, plotly_src

VENDORED = Path(settings.BASE_DIR) / "static" / PLOTLY_BUNDLE
TRACE_TYPES_USED = {"scatter", "bar", "heatmap"}


def test_vendored_bundle_matches_the_python_package() -> None:
    head = VENDORED.read_text(encoding="utf-8")[:300]
    match = re.search(r"plotly\.js \(cartesian - minified\) v(\S+)", head)
    assert match, head
    assert match.group(1) == get_plotlyjs_version()


def test_vendored_bundle_is_the_small_one_with_the_traces_the_site_draws() -> None:
    assert VENDORED.stat().st_size < 2_000_000  # the full bundle is 4.8 MB
    charts = (Path(settings.BASE_DIR) / "fdeplatform" / "leaderboards" / "charts.py").read_text()
    used = {name.lower() for name in re.findall(r"go\.(\w+)\(", charts)} - {"figure"}
    assert used <= TRACE_TYPES_USED, f"a chart uses {used - TRACE_TYPES_USED}: check the bundle"
    readme = (VENDORED.parent / "README.md").read_text()
    assert get_plotlyjs_version() in readme and (VENDORED.parent / "LICENSE").exists()


@pytest.mark.django_db
def test_bundle_is_served_hashed_and_cached_for_a_year(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "vendor" / "plotly").mkdir(parents=True)
    (source / PLOTLY_BUNDLE).write_bytes(VENDORED.read_bytes())
    manifest = "whitenoise.storage.CompressedManifestStaticFilesStorage"
    with override_settings(
        STATICFILES_DIRS=[source],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STATIC_ROOT=tmp_path / "root",
        STORAGES={**settings.STORAGES, "staticfiles": {"BACKEND": manifest}},
        WHITENOISE_USE_FINDERS=False,
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        url = plotly_src()
        assert re.search(r"plotly-cartesian\.min\.[0-9a-f]{12}\.js$", url), url
        response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200
        assert "immutable" in response["Cache-Control"]
        assert "max-age=315360000" in response["Cache-Control"]
        assert response["Content-Encoding"] == "gzip"
        assert int(response["Content-Length"]) < 600_000
