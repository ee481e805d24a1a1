"""A case's editorial: the author's write-up of its rules, why each mattered and how the
reference was built (``hidden/editorial.md``, optional).

It spells out every target and its answer, so it follows the targets rule exactly
(``leaderboards.privacy.target_access``: a player's counted ranked runs on the case are done,
or for a tutorial one run has ended, and none is open; staff always) and is recorded as a
targets exposure when shown. It is read from the case's current version, not from a run's
variant: it describes the case as a whole and says which figures are the base task's.
"""

from __future__ import annotations

from fdeplatform.cases.models import CaseVersion
from fdeplatform.core.markdown import render_markdown

EDITORIAL = "hidden/editorial.md"


def has_editorial(version: CaseVersion | None) -> bool:
    return version is not None and (version.package_dir / EDITORIAL).is_file()


def editorial_html(version: CaseVersion) -> str:
    """The editorial as sanitised HTML ("" when the package has none or it cannot be read).

    Only call it once the viewer may see the targets: the text is the hidden side."""
    try:
        text = (version.package_dir / EDITORIAL).read_text(encoding="utf-8")
    except OSError:
        return ""
    # The page has its own heading; the file's title line would repeat it.
    lines = text.lstrip().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return render_markdown("\n".join(lines))
