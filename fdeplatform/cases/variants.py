"""A stored version's variants as the site plays them (docs/variants.md).

The stored copy in ``CASE_STORE`` is the package as authored (its digest, its export zip);
a run plays one variant of it, materialised once under ``CASE_STORE/.variants/`` (shared by
web processes and workers like the store itself) and reused: versions are immutable, so
their variants are too. A package without further variants and without placeholders is its
own base variant and is played from the stored copy directly, as before variants existed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

from evaluators.variants import BASE, cached_variant, needs_materialising, variant_ids

if TYPE_CHECKING:
    from fdeplatform.cases.models import CaseVersion


def cache_dir() -> Path:
    return Path(settings.CASE_STORE) / ".variants"


def version_variants(version: CaseVersion) -> list[str]:
    """The version's variant ids, base first (read from its stored folder)."""
    return list(_ids(str(version.package_dir), version.digest))


def variant_dir(version: CaseVersion, variant: str) -> Path:
    """The folder of ``variant`` of ``version``: an ordinary package (data/, hidden/, ...)."""
    root = version.package_dir
    if not _materialised(str(root), version.digest):
        return root
    if variant not in version_variants(version):
        # A variant id the version does not have (a hand-edited row): the base, never an error
        # page that would tell a player anything.
        variant = BASE
    return cached_variant(root, variant, version.digest, cache=cache_dir())


@lru_cache(maxsize=256)
def _ids(root: str, digest: str) -> tuple[str, ...]:
    return tuple(variant_ids(Path(root)))


@lru_cache(maxsize=256)
def _materialised(root: str, digest: str) -> bool:
    return needs_materialising(Path(root))
