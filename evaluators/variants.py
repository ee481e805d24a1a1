"""A case's fact-altering variants (docs/variants.md): list them, materialise one.

A variant is the base package with its own ``data/``, some hidden files replaced or added,
a few ``[scoring]`` values and its own figures in ``values.json``. Materialising it writes an
ordinary package, so the format checks, admission, the evaluator sandbox and the customer
never need to know variants exist: everything downstream takes a package folder.

The base package is variant ``base``; a package without ``hidden/variants/`` has that one.
Placeholders (``{{name}}``, see ``customer_sim.placeholders``) are filled in every variant,
the base included, so a template a variant does not fill is a problem at import, not a
``{{cold_limit}}`` in a player's chat.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from customer_sim.placeholders import (
    RENDERED_FILES,
    VALUES_FILE,
    PlaceholderError,
    names_in,
    read_values,
    render_file,
)
from evaluators.archive import PackageError

BASE = "base"
VARIANT_ID = re.compile(r"^[a-z0-9-]+$")
VARIANTS_DIR = Path("hidden") / "variants"
PARAMS_FILE = "params.json"
#: What a variant's hidden/ may replace or add (docs/variants.md); anything else is a warning,
#: since the texts, the evaluator and the probe sets are the scenario's and shared.
VARIANT_HIDDEN = (
    "params.json",
    "values.json",
    "reference.",
    "anchors/",
    "counterfactuals/",
    "truth/",
    "value_probes/",
    "value_probes.json",
)
_VARIANT_TOML_KEYS = {"title", "summary", "scoring"}
_SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".DS_Store")


@dataclass(frozen=True)
class Variant:
    """One task of the scenario: ``folder`` is None for the base package."""

    id: str
    title: str = ""
    summary: str = ""
    scoring: dict[str, Any] = field(default_factory=dict)
    folder: Path | None = None

    @property
    def is_base(self) -> bool:
        return self.folder is None


def variant_ids(root: Path) -> list[str]:
    """``base`` and the ids of ``hidden/variants/*/``, sorted (no checks; see list_variants)."""
    folder = Path(root) / VARIANTS_DIR
    others = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    return [BASE, *others]


def list_variants(root: Path) -> list[Variant]:
    """Every variant of the package at ``root``, base first; PackageError on a malformed one."""
    problems, _warnings, variants = variant_findings(root)
    if problems:
        raise PackageError(problems)
    return variants


def variant_findings(root: Path) -> tuple[list[str], list[str], list[Variant]]:
    """(problems, warnings, variants) of the declarations alone: ids, variant.toml, which
    files a variant replaces. Whether each materialises (placeholders) is ``render_problems``'.
    """
    root = Path(root)
    problems: list[str] = []
    warnings: list[str] = []
    variants = [Variant(BASE)]
    for variant_id in variant_ids(root)[1:]:
        folder = root / VARIANTS_DIR / variant_id
        where = f"{VARIANTS_DIR.as_posix()}/{variant_id}"
        if variant_id == BASE or not VARIANT_ID.match(variant_id):
            problems.append(f"{where}: a variant id must match [a-z0-9-]+ and not be `base`")
            continue
        variant = _read_variant(folder, variant_id, where, problems, warnings)
        if variant is not None:
            variants.append(variant)
    stray = [p.name for p in (root / VARIANTS_DIR).glob("*") if p.is_file()]
    warnings += [
        f"{VARIANTS_DIR.as_posix()}/{name}: not a variant folder (ignored)" for name in stray
    ]
    return problems, warnings, variants


def _read_variant(
    folder: Path, variant_id: str, where: str, problems: list[str], warnings: list[str]
) -> Variant | None:
    path = folder / "variant.toml"
    if not path.is_file():
        problems.append(f"{where}/variant.toml: missing (title, summary and [scoring])")
        return None
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        problems.append(f"{where}/variant.toml: not valid TOML ({exc})")
        return None
    for key in sorted(set(document) - _VARIANT_TOML_KEYS):
        warnings.append(f"{where}/variant.toml: unknown key `{key}` (ignored)")
    scoring = document.get("scoring", {})
    if not isinstance(scoring, dict) or not all(
        isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in scoring.values()
    ):
        problems.append(f"{where}/variant.toml: [scoring] must map keys to numbers or strings")
        scoring = {}
    if not isinstance(document.get("title"), str) or not document["title"].strip():
        problems.append(f"{where}/variant.toml: `title` must be a non-empty string")
    warnings += _unexpected_files(folder, where)
    return Variant(
        id=variant_id,
        title=str(document.get("title", "")).strip(),
        summary=str(document.get("summary", "")).strip(),
        scoring=dict(scoring),
        folder=folder,
    )


def _unexpected_files(folder: Path, where: str) -> list[str]:
    hidden = folder / "hidden"
    if not hidden.is_dir():
        return []
    found = []
    for path in sorted(p for p in hidden.rglob("*") if p.is_file()):
        relative = path.relative_to(hidden).as_posix()
        if "__pycache__" not in relative and not relative.startswith(VARIANT_HIDDEN):
            found.append(
                f"{where}/hidden/{relative}: a variant replaces only parameters, values, the "
                "reference, anchors, counterfactuals, truth and value probes; this file "
                "overrides the scenario's shared one"
            )
    return found


def materialise(root: Path, variant: Variant | str, dest: Path) -> Path:
    """Write ``variant`` of the package at ``root`` as an ordinary package at ``dest``.

    ``dest`` must not exist. Raises PackageError when a placeholder has no value (naming the
    variant, the file and the placeholder) or values.json is malformed.
    """
    root, dest = Path(root), Path(dest)
    chosen = variant if isinstance(variant, Variant) else _variant_named(root, variant)
    shutil.copytree(root, dest, ignore=_without_variants(root))
    if chosen.folder is not None:
        _overlay(chosen.folder, dest)
        if chosen.scoring:
            _set_scoring(dest / "case.toml", chosen.scoring)
    problems = _render(dest / "hidden", chosen.id)
    if problems:
        shutil.rmtree(dest, ignore_errors=True)
        raise PackageError(problems)
    return dest


@contextmanager
def materialised(root: Path, variant: Variant | str) -> Iterator[Path]:
    """``variant`` materialised into a temporary folder (removed afterwards), named like
    the case so that the slug check still matches the folder name."""
    with tempfile.TemporaryDirectory(prefix="fde-variant-") as tmp:
        yield materialise(root, variant, Path(tmp) / Path(root).name)


def _variant_named(root: Path, variant_id: str) -> Variant:
    for variant in list_variants(root):
        if variant.id == variant_id:
            return variant
    raise PackageError([f"{VARIANTS_DIR.as_posix()}/{variant_id}: no such variant"])


def _without_variants(root: Path) -> Any:
    variants = (root / VARIANTS_DIR).resolve()

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = set(_SKIPPED(directory, names))
        if Path(directory).resolve() == variants.parent and "variants" in names:
            skipped.add("variants")
        return skipped

    return ignore


def _overlay(folder: Path, dest: Path) -> None:
    """The variant's data/ replaces the base's whole; its hidden/ files replace one by one."""
    if (folder / "data").is_dir():
        shutil.rmtree(dest / "data", ignore_errors=True)
        shutil.copytree(folder / "data", dest / "data", ignore=_SKIPPED)
    if (folder / "hidden").is_dir():
        shutil.copytree(folder / "hidden", dest / "hidden", ignore=_SKIPPED, dirs_exist_ok=True)


def _render(hidden: Path, variant_id: str) -> list[str]:
    """Fill the placeholders of the rendered files in place; the problems, if any."""
    where = f"variant `{variant_id}`"
    try:
        values = read_values(hidden)
    except PlaceholderError as exc:
        return [f"{where}: {problem}" for problem in exc.problems]
    problems = []
    for name in RENDERED_FILES:
        path = hidden / name
        if not path.is_file():
            continue
        if values is None:
            problems += [
                f"{where}: hidden/{name}: placeholder {{{{{key}}}}} has no value "
                f"(the variant has no hidden/{VALUES_FILE})"
                for key in names_in(path.read_text(encoding="utf-8"))
            ]
            continue
        text, missing = render_file(path, values)
        problems += [
            f"{where}: hidden/{name}: placeholder {{{{{key}}}}} has no value in "
            f"hidden/{VALUES_FILE}"
            for key in missing
        ]
        path.write_text(text, encoding="utf-8")
    return problems


def _set_scoring(case_toml: Path, scoring: dict[str, Any]) -> None:
    """Set ``[scoring]`` keys in case.toml's text (no TOML writer in the standard library):
    each key's line in that table is replaced, or added right under the table's header."""
    lines = case_toml.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "[scoring]"), None)
    if start is None:
        lines += ["", "[scoring]"]
        start = len(lines) - 1
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
        len(lines),
    )
    for key, value in scoring.items():
        line = f"{key} = {_toml_value(value)}"
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        index = next((i for i in range(start + 1, end) if pattern.match(lines[i])), None)
        if index is None:
            lines.insert(start + 1, line)
            end += 1
        else:
            lines[index] = line
    case_toml.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    return repr(float(value)) if isinstance(value, float) else str(value)


def facts_of(root: Path) -> dict[str, tuple[Any, Any]]:
    """Each variant's (params.json, values.json) as parsed JSON (None when absent), from the
    files a materialised variant would hold: its own where it has them, else the base's."""
    root = Path(root)
    facts = {}
    for variant in list_variants(root):
        hidden = (
            [root / "hidden"]
            if variant.folder is None
            else [variant.folder / "hidden", root / "hidden"]
        )
        facts[variant.id] = tuple(_first_json(hidden, name) for name in (PARAMS_FILE, VALUES_FILE))
    return facts  # type: ignore[return-value]


def _first_json(folders: list[Path], name: str) -> Any:
    for folder in folders:
        path = folder / name
        if path.is_file():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                return {"<unreadable>": path.read_bytes().hex()}
    return None


def duplicate_problems(root: Path) -> list[str]:
    """A variant whose params.json and values.json equal an earlier one's alters nothing."""
    seen: dict[str, str] = {}
    problems = []
    for variant_id, facts in facts_of(root).items():
        key = json.dumps(facts, sort_keys=True)
        if key in seen:
            problems.append(
                f"{VARIANTS_DIR.as_posix()}/{variant_id}: params.json and values.json equal "
                f"variant `{seen[key]}`'s: it would alter nothing"
            )
        else:
            seen[key] = variant_id
    return problems


# --- the materialised variants, cached by the package's digest -----------------------------

#: Raised when ``materialise`` changes what it writes, so old cached copies are not reused.
MATERIALISE_FORMAT = 1


def default_cache_dir() -> Path:
    """The checks' cache (a temporary folder); the site keeps its own under CASE_STORE,
    which web processes and workers share."""
    return Path(tempfile.gettempdir()) / f"fde-variants-{os.getuid()}"


def needs_materialising(root: Path) -> bool:
    """Whether the folder is not already what its base variant materialises to: it has
    further variants or placeholders left to fill (a materialised copy has neither)."""
    hidden = Path(root) / "hidden"
    if (hidden / "variants").is_dir():
        return True
    return any(
        names_in((hidden / name).read_text(encoding="utf-8", errors="replace"))
        for name in RENDERED_FILES
        if (hidden / name).is_file()
    )


def cached_variant(
    root: Path, variant: Variant | str, digest: str, cache: Path | None = None
) -> Path:
    """``variant`` of the package (whose ``package_digest`` is ``digest``) materialised once
    under the cache folder and reused: a version's files never change, so neither does this.

    Built beside its final place and renamed into it, so two processes asking at once never
    see a half-written folder (the loser's copy is discarded).
    """
    variant_id = variant.id if isinstance(variant, Variant) else variant
    final = (
        (cache or default_cache_dir())
        / f"{digest[:32]}-m{MATERIALISE_FORMAT}"
        / variant_id
        / Path(root).name
    )
    if final.is_dir():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=final.parent))
    try:
        materialise(root, variant, staging / final.name)
        try:
            os.rename(staging / final.name, final)
        except OSError:
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final
