"""What a campaign plays: cases x conditions x repeats, checked before any run starts.

Every refusal here happens before the first run exists, so a typo, a tutorial in a ranked
campaign or an unknown condition never costs a counted run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fde_client.errors import UsageError
from fde_client.play import CONDITIONS


@dataclass(frozen=True)
class RunKey:
    case: str
    condition: str
    repeat: int

    @property
    def key(self) -> str:
        return f"{self.case}/{self.condition}/{self.repeat}"


def parse_list(text: str, what: str) -> list[str]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise UsageError(f"{what} needs at least one value")
    return list(dict.fromkeys(items))  # a repeated name would play the same runs twice


def parse_conditions(text: str) -> list[str]:
    conditions = parse_list(text, "--conditions")
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown:
        raise UsageError(
            f"unknown condition(s): {', '.join(unknown)}; choose from {', '.join(CONDITIONS)}"
        )
    return conditions


def select_cases(
    published: list[dict[str, Any]],
    spec: str,
    *,
    family: str | None,
    sector: str | None,
    mode: str,
) -> list[str]:
    """The case slugs to play: ``all`` or a comma list, narrowed by family and sector.

    ``all`` leaves tutorials out (they have no board). Naming one in a ranked campaign is
    refused: the server would refuse each of its runs, after the campaign had started others.
    """
    by_slug = {str(case.get("slug")): case for case in published}
    if spec.strip() == "all":
        chosen = [slug for slug, case in by_slug.items() if not _is_tutorial(case)]
    else:
        chosen = parse_list(spec, "--cases")
        unknown = [slug for slug in chosen if slug not in by_slug]
        if unknown:
            raise UsageError(
                f"unknown case(s): {', '.join(unknown)}; "
                f"the server has: {', '.join(sorted(by_slug))}"
            )
        tutorials = [slug for slug in chosen if _is_tutorial(by_slug[slug])]
        if tutorials and mode == "ranked":
            raise UsageError(
                f"{', '.join(tutorials)} is a tutorial: it takes practice runs only and has no "
                "board; leave it out of a ranked campaign (or pass --mode practice)"
            )
    if family:
        chosen = [s for s in chosen if str(by_slug[s].get("family", "")).lower() == family.lower()]
    if sector:
        chosen = [s for s in chosen if str(by_slug[s].get("sector", "")).lower() == sector.lower()]
    if not chosen:
        raise UsageError("no case left to play after the --family/--sector filters")
    return chosen


def _is_tutorial(case: dict[str, Any]) -> bool:
    # Servers before the "tutorial" field: the guided case's slug says it.
    return bool(case.get("tutorial")) or str(case.get("slug", "")).startswith("tutorial-")


def plan(cases: list[str], conditions: list[str], repeats: int) -> list[RunKey]:
    """Repeat-major order: an interrupted campaign has played every cell about equally."""
    if repeats < 1:
        raise UsageError("--repeats must be at least 1")
    return [
        RunKey(case, condition, repeat)
        for repeat in range(1, repeats + 1)
        for condition in conditions
        for case in cases
    ]
