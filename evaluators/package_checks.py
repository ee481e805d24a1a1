"""Format checks of a case package, one function per file.

Each check appends to a ``Findings``: ``problems`` block loading (the package breaks the
contract in cases/README.md), ``warnings`` are worth an author's attention but do not. Every
message starts with the file it is about, so an author can go straight to it. Checks keep
going after a problem: an author fixing a package wants the whole list at once.
"""

from __future__ import annotations

import ast
import json
import math
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, TypeGuard

ISSUE_TYPES = ("missing", "ambiguous", "invalidated", "conflicting")
DOMAINS = ("scoring_convention", "constraint_rule", "computation_convention", "data_semantics")
FAMILIES = ("CO", "ML")
MIN_TARGETS = 5
MIN_MATCHING_QUESTIONS = 40
MIN_FACT_TRIGGERS = 5
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TARGET_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$")
REQUIRED_FILES = (
    "case.toml",
    "instruction.md",
    "submission_schema.json",
    "hidden/information.md",
    "hidden/gt.json",
    "hidden/customer.json",
    "hidden/evaluator.py",
    "hidden/generate.py",
    "hidden/solver.py",
    "hidden/matching.json",
)
_TOP_LEVEL = {"case.toml", "instruction.md", "submission_schema.json", "data", "hidden"}
_TEXT_FIELDS = ("slug", "title", "summary", "family", "sector", "subtype", "version")
_SCORING_KEYS = {"normalisation", "direction", "reference_value", "baseline_value", "unit"}
_LIMIT_KEYS = {"rounds", "wall_clock_minutes", "max_upload_mb", "max_data_mb"}
_ANCHOR_KEYS = {"reference", "baseline", "literal", "shortcuts", "literal_is_correct"}
#: FDE-Gym §3.4 admits a case whose request, read literally, is correct and complete; the author
#: must say why in this many characters at least (the report shows it to reviewers).
MIN_LITERAL_JUSTIFICATION = 40
_TOML_KEYS = {
    *_TEXT_FIELDS,
    "authors",
    "data_licence",
    "provenance",
    "scoring",
    "limits",
    "anchors",
    "counterfactual_breaks",
    "tutorial",
}


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def is_text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def is_text_list(value: Any, *, allow_empty: bool = False) -> TypeGuard[list[str]]:
    return (
        isinstance(value, list)
        and (allow_empty or bool(value))
        and all(is_text(item) for item in value)
    )


def safe_relative(path: Any) -> bool:
    """A path written in a package file must stay inside the package."""
    if not isinstance(path, str) or not path or "\\" in path:
        return False
    pure = PurePosixPath(path)
    return not pure.is_absolute() and ".." not in pure.parts


def read_json(root: Path, name: str, findings: Findings) -> Any:
    """Parse a package JSON file, refusing duplicate keys (the last one would silently win)."""
    path = root / name
    if not path.is_file():
        return None

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                findings.problems.append(f"{name}: key `{key}` appears twice in one object")
            result[key] = value
        return result

    try:
        return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=pairs)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        findings.problems.append(f"{name}: not valid JSON ({exc})")
        return None


def symlinks_in(root: Path) -> list[str]:
    """Links could point a served data/ file at hidden/ or outside the package."""
    found = []
    for folder, directories, files in os.walk(root):  # os.walk never follows links
        for name in sorted(directories + files):
            path = Path(folder) / name
            if path.is_symlink():
                found.append(path.relative_to(root).as_posix())
    return sorted(found)


# --- files ---------------------------------------------------------------------------------


def check_files(root: Path, findings: Findings) -> None:
    for name in REQUIRED_FILES:
        if not (root / name).is_file():
            findings.problems.append(f"{name}: missing")
    for name in ("instruction.md", "hidden/information.md"):
        path = root / name
        if path.is_file() and not path.read_text(encoding="utf-8", errors="replace").strip():
            findings.problems.append(f"{name}: empty")
    data = root / "data"
    if not data.is_dir() or not any(item.is_file() for item in data.rglob("*")):
        findings.problems.append("data/: missing or holds no files")
    for relative in symlinks_in(root):
        findings.problems.append(f"{relative}: symbolic links are not allowed in a package")
    for entry in sorted(root.iterdir()):
        if entry.name not in _TOP_LEVEL and not entry.name.startswith("."):
            findings.warnings.append(f"{entry.name}: unexpected at the top level (never served)")


def check_evaluator(root: Path, findings: Findings) -> None:
    path = root / "hidden" / "evaluator.py"
    if not path.is_file():
        return
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as exc:
        findings.problems.append(f"hidden/evaluator.py: does not compile ({exc})")
        return
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    evaluate = next((node for node in functions if node.name == "evaluate"), None)
    if evaluate is None:
        findings.problems.append("hidden/evaluator.py: defines no top-level evaluate() function")
    elif len(evaluate.args.args) != 3:
        findings.problems.append(
            "hidden/evaluator.py: evaluate() must take (submission, data_dir, hidden_dir)"
        )
    findings.problems += _import_problems(root / "hidden", tree, "hidden/evaluator.py")


#: What an evaluator may import besides the standard library and modules beside it: the
#: numeric stack the scoring image guarantees, and the runtime's contract. Anything else may be
#: installed on one machine and missing on the next, and the sandbox would fail it at scoring.
EVALUATOR_IMPORTS = {"numpy", "scipy", "sklearn", "evaluators"}


def _import_problems(hidden: Path, tree: ast.Module, where: str) -> list[str]:
    local = {path.stem for path in hidden.glob("*.py")}
    allowed = set(sys.stdlib_module_names) | EVALUATOR_IMPORTS | local | {"__future__"}
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top == "evaluators" and name not in ("evaluators", "evaluators.api"):
                problems.append(f"{where}: imports {name}; of `evaluators` only `evaluators.api`")
            elif top not in allowed:
                problems.append(
                    f"{where}: imports {top}, which evaluators may not use (allowed: the standard "
                    "library, numpy, scipy, scikit-learn, evaluators.api and modules beside it)"
                )
    return problems


# --- case.toml -----------------------------------------------------------------------------


def load_case_toml(root: Path, expected_slug: str, findings: Findings) -> dict[str, Any] | None:
    path = root / "case.toml"
    if not path.is_file():
        return None
    try:
        metadata = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        findings.problems.append(f"case.toml: not valid TOML ({exc})")
        return None
    _check_identity(metadata, expected_slug, findings)
    _check_scoring(metadata.get("scoring"), findings)
    _check_limits(metadata.get("limits", {}), findings)
    _check_anchors(root, metadata.get("anchors"), findings)
    _check_breaks(metadata.get("counterfactual_breaks", {}), findings)
    for key in metadata:
        if key not in _TOML_KEYS:
            findings.warnings.append(f"case.toml: unknown key `{key}` (ignored)")
    return metadata


def _check_breaks(table: Any, findings: Findings) -> None:
    """``[counterfactual_breaks]``: target key -> list of rule names (see admission)."""
    if not isinstance(table, dict) or not all(is_text_list(v) for v in table.values()):
        findings.problems.append(
            "case.toml: [counterfactual_breaks] must map target keys to lists of rule names"
        )


def _check_identity(metadata: dict[str, Any], expected_slug: str, findings: Findings) -> None:
    for key in (*_TEXT_FIELDS, "data_licence"):
        if not is_text(metadata.get(key)):
            findings.problems.append(f"case.toml: `{key}` must be a non-empty string")
    slug = metadata.get("slug")
    if is_text(slug) and not SLUG.match(slug):
        findings.problems.append(f"case.toml: slug {slug!r} must match [a-z0-9-]+")
    elif is_text(slug) and slug != expected_slug:
        findings.problems.append(
            f"case.toml: slug {slug!r} does not match the folder name {expected_slug!r}"
        )
    if metadata.get("family") not in (None, *FAMILIES):
        findings.problems.append(f"case.toml: family {metadata['family']!r} must be CO or ML")
    version = metadata.get("version")
    if is_text(version) and not VERSION.match(version):
        findings.problems.append(f"case.toml: version {version!r} must look like 1.0.0")
    if not is_text_list(metadata.get("authors")):
        findings.problems.append("case.toml: `authors` must be a non-empty list of names")


def _check_scoring(scoring: Any, findings: Findings) -> None:
    if not isinstance(scoring, dict):
        findings.problems.append("case.toml: the [scoring] table is missing")
        return
    _unknown(scoring, _SCORING_KEYS, "case.toml: [scoring]", findings)
    normalisation, direction = scoring.get("normalisation"), scoring.get("direction")
    if normalisation == "uplift":
        # Packages written before both scales were stored: the score is the ratio all the same.
        findings.warnings.append(
            'case.toml: [scoring] normalisation "uplift" is read as "ratio": Quality is always '
            "FDE-Bench's ratio to the reference, and the FDE-Gym uplift is computed from "
            'baseline_value; write normalisation = "ratio"'
        )
    elif normalisation != "ratio":
        findings.problems.append(
            f'case.toml: [scoring] normalisation {normalisation!r} must be "ratio" '
            "(FDE-Bench: x/R when maximising, R/x when minimising)"
        )
    if direction not in ("max", "min"):
        findings.problems.append(f"case.toml: [scoring] direction {direction!r} must be max or min")
    reference, baseline = scoring.get("reference_value"), scoring.get("baseline_value")
    if not is_number(reference):
        findings.problems.append("case.toml: [scoring] reference_value must be a number")
        return
    if reference <= 0:
        findings.problems.append("case.toml: [scoring] ratio needs a positive reference_value")
    if baseline is None:
        findings.warnings.append(
            "case.toml: [scoring] no baseline_value: the FDE-Gym uplift and score are "
            "unavailable and the anchors are judged on the ratio"
        )
    else:
        _check_uplift(reference, baseline, direction, findings)
    if "unit" in scoring and not isinstance(scoring["unit"], str):
        findings.problems.append("case.toml: [scoring] unit must be a string")


def _check_uplift(reference: float, baseline: Any, direction: Any, findings: Findings) -> None:
    if not is_number(baseline):
        findings.problems.append("case.toml: [scoring] uplift needs a numeric baseline_value")
        return
    better = reference > baseline if direction == "max" else reference < baseline
    if not better:
        findings.problems.append(
            f"case.toml: [scoring] under direction {direction!r} the reference_value "
            f"({reference:g}) must be better than the baseline_value ({baseline:g})"
        )


def _check_limits(limits: Any, findings: Findings) -> None:
    if not isinstance(limits, dict):
        findings.problems.append("case.toml: [limits] must be a table")
        return
    _unknown(limits, _LIMIT_KEYS, "case.toml: [limits]", findings)
    for key in ("rounds", "wall_clock_minutes"):
        value = limits.get(key, 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            findings.problems.append(f"case.toml: [limits] {key} must be a positive integer")
    for key in ("max_upload_mb", "max_data_mb"):
        value = limits.get(key, 1)
        if not is_number(value) or value <= 0:
            findings.problems.append(f"case.toml: [limits] {key} must be a positive number")


def _check_anchors(root: Path, anchors: Any, findings: Findings) -> None:
    if not isinstance(anchors, dict):
        findings.problems.append("case.toml: the [anchors] table is missing")
        return
    _unknown(anchors, _ANCHOR_KEYS, "case.toml: [anchors]", findings)
    exception = anchors.get("literal_is_correct")
    if exception is not None and (
        not isinstance(exception, str) or len(exception.strip()) < MIN_LITERAL_JUSTIFICATION
    ):
        findings.problems.append(
            "case.toml: [anchors] literal_is_correct must be the justification (at least "
            f"{MIN_LITERAL_JUSTIFICATION} characters) of why the literal reading is correct "
            "and complete (FDE-Gym §3.4)"
        )
    shortcuts = anchors.get("shortcuts", [])
    if not isinstance(shortcuts, list):
        findings.problems.append("case.toml: [anchors] shortcuts must be a list of paths")
        shortcuts = []
    named = [(name, anchors.get(name)) for name in ("reference", "baseline", "literal")]
    named += [(f"shortcuts[{index}]", path) for index, path in enumerate(shortcuts)]
    for name, path in named:
        check_hidden_path(root, path, f"case.toml: [anchors] {name}", findings)


def check_hidden_path(root: Path, path: Any, where: str, findings: Findings) -> None:
    """A deliverable named by a package file: inside hidden/ and present."""
    if path is None:
        findings.problems.append(f"{where}: missing")
    elif not safe_relative(path):
        findings.problems.append(f"{where}: {path!r} must be a relative path inside hidden/")
    elif not (root / "hidden" / path).is_file():
        findings.problems.append(f"{where}: hidden/{path} does not exist")


def _unknown(table: dict[str, Any], allowed: set[str], where: str, findings: Findings) -> None:
    for key in table:
        if key not in allowed:
            findings.problems.append(f"{where} has an unknown key `{key}`")
