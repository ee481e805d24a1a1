"""Load a case package (cases/README.md) into a checked, typed ``CasePackage``.

``load_package`` runs every format check and raises ``PackageError`` with the complete list of
problems, so neither the site nor the checker ever works with a half-valid package. Whether
the package is *admissible* (anchors score as they should) is ``evaluators.admission``'s job.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.archive import PackageError, open_package
from evaluators.data_limits import data_size_findings
from evaluators.leak_checks import hidden_copies_served
from evaluators.package_checks import (
    Findings,
    check_evaluator,
    check_files,
    load_case_toml,
    read_json,
)
from evaluators.schema import schema_problems
from evaluators.script_checks import (
    Target,
    check_matching,
    fact_keys,
    load_customer,
    load_targets,
)
from evaluators.value_checks import check_value_probes, target_values_problems
from evaluators.variants import (
    BASE,
    cached_variant,
    duplicate_problems,
    needs_materialising,
    variant_findings,
)

__all__ = [
    "CasePackage",
    "PackageError",
    "Target",
    "all_variants",
    "load_package",
    "open_package",
]

DEFAULT_LIMITS = {"rounds": 30, "wall_clock_minutes": 720, "max_upload_mb": 5}
#: The metadata fields a player may see; everything else in case.toml stays with the admins.
PUBLIC_FIELDS = (
    "slug",
    "title",
    "summary",
    "family",
    "sector",
    "subtype",
    "tutorial",
    "version",
    "authors",
    "data_licence",
    "provenance",
)
#: The public fields written as prose, which can carry a paste of hidden text.
PUBLIC_PROSE = ("title", "summary", "provenance")
PUBLIC_SCORING_FIELDS = ("normalisation", "direction", "unit")
_DIGEST_SKIPPED = {"__pycache__", ".DS_Store"}


@dataclass
class CasePackage:
    """A case package that passed every format check."""

    slug: str
    root: Path
    metadata: dict[str, Any]
    targets: list[Target]
    customer: dict[str, Any]
    schema: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    #: Which variant this is (docs/variants.md). A package with variants loads as its base,
    #: materialised (``root`` is then a cached copy, ``source`` the folder as authored), with
    #: the further variants, each a package of its own, in ``variants``.
    variant: str = BASE
    variant_title: str = ""
    variant_summary: str = ""
    source: Path | None = None
    variants: list[CasePackage] = field(default_factory=list)

    @property
    def version(self) -> str:
        return str(self.metadata["version"])

    @property
    def family(self) -> str:
        return str(self.metadata["family"])

    @property
    def title(self) -> str:
        return str(self.metadata["title"])

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def hidden_dir(self) -> Path:
        return self.root / "hidden"

    @property
    def instruction_path(self) -> Path:
        return self.root / "instruction.md"

    @property
    def schema_path(self) -> Path:
        return self.root / "submission_schema.json"

    @property
    def evaluator_path(self) -> Path:
        return self.hidden_dir / "evaluator.py"

    @property
    def information_path(self) -> Path:
        return self.hidden_dir / "information.md"

    @property
    def scoring(self) -> dict[str, Any]:
        return dict(self.metadata["scoring"])

    @property
    def limits(self) -> dict[str, Any]:
        return {**DEFAULT_LIMITS, **self.metadata.get("limits", {})}

    def anchor_path(self, name: str) -> Path:
        """``reference``, ``baseline`` or ``literal`` deliverable."""
        return self.hidden_dir / str(self.metadata["anchors"][name])

    def shortcut_paths(self) -> list[Path]:
        return [self.hidden_dir / path for path in self.metadata["anchors"].get("shortcuts", [])]

    def counterfactual_path(self, target: Target) -> Path | None:
        return self.hidden_dir / target.counterfactual if target.counterfactual else None

    def data_files(self) -> list[Path]:
        return sorted(path for path in self.data_dir.rglob("*") if path.is_file())

    def public_metadata(self) -> dict[str, Any]:
        """What players may see: no reference or baseline values, nothing from hidden/."""
        public = {key: self.metadata[key] for key in PUBLIC_FIELDS if key in self.metadata}
        public["limits"] = self.limits
        public["scoring"] = {
            key: self.metadata["scoring"][key]
            for key in PUBLIC_SCORING_FIELDS
            if key in self.metadata["scoring"]
        }
        return public


def check_package(root: Path, expected_slug: str | None = None) -> tuple[Findings, CasePackage]:
    """Run every format check; the package is only usable when ``findings.problems`` is empty."""
    findings = Findings()
    check_files(root, findings)
    metadata = load_case_toml(root, expected_slug or root.name, findings)
    customer = load_customer(root, findings)
    facts = fact_keys(customer)
    targets = load_targets(root, facts, findings)
    findings.problems += target_values_problems(customer, targets)
    check_value_probes(root, customer, findings)
    check_matching(root, facts, findings)
    check_evaluator(root, findings)
    size_problems, size_warnings = data_size_findings(root, metadata)
    findings.problems += size_problems
    findings.warnings += size_warnings
    findings.problems += hidden_copies_served(
        root, _exempt_anchors(root, metadata), _public_texts(metadata)
    )
    schema = _load_schema(root, findings)
    package = CasePackage(
        slug=str((metadata or {}).get("slug", root.name)),
        root=root,
        metadata=metadata or {},
        targets=targets,
        customer=customer or {},
        schema=schema or {},
        warnings=findings.warnings,
    )
    return findings, package


def _public_texts(metadata: dict[str, Any] | None) -> dict[str, str]:
    """The case page's prose (title, summary, provenance): served like instruction.md."""
    fields = [key for key in PUBLIC_PROSE if isinstance((metadata or {}).get(key), str)]
    if not fields:
        return {}
    text = "\n".join(str((metadata or {})[key]) for key in fields)
    return {"case.toml": text}


def _exempt_anchors(root: Path, metadata: dict[str, Any] | None) -> set[Path]:
    """Anchors a player may legitimately see a copy of: the baseline and the shortcuts."""
    anchors = (metadata or {}).get("anchors")
    if not isinstance(anchors, dict):
        return set()
    names = [anchors.get("baseline"), *(anchors.get("shortcuts") or [])]
    return {root / "hidden" / name for name in names if isinstance(name, str)}


def load_package(path: Path, *, expected_slug: str | None = None) -> CasePackage:
    """Load the package folder at ``path`` or raise PackageError listing every problem."""
    root = Path(path)
    if not root.is_dir():
        raise PackageError([f"{root}: not a folder (open zips with open_package first)"])
    if needs_materialising(root):
        return _load_variants(root, expected_slug or root.name)
    findings, package = check_package(root, expected_slug)
    if findings.problems:
        raise PackageError(findings.problems)
    return package


def all_variants(package: CasePackage) -> list[CasePackage]:
    """The base and its further variants, base first."""
    return [package, *package.variants]


def _load_variants(source: Path, expected_slug: str) -> CasePackage:
    """Materialise every variant (cached by digest) and run the format checks on each; the
    problems of all of them at once, each naming its variant, or the base with the others."""
    problems, warnings, declared = variant_findings(source)
    if not problems:
        problems += duplicate_problems(source)
    digest = package_digest(source)
    loaded: list[CasePackage] = []
    for variant in declared:
        try:
            folder = cached_variant(source, variant, digest)
        except PackageError as exc:
            problems += exc.problems
            continue
        findings, package = check_package(folder, expected_slug)
        prefix = "" if variant.is_base else f"variant `{variant.id}`: "
        problems += [prefix + problem for problem in findings.problems]
        package.variant, package.source = variant.id, source
        package.variant_title, package.variant_summary = variant.title, variant.summary
        loaded.append(package)
    if problems:
        raise PackageError(problems)
    base, others = loaded[0], loaded[1:]
    for other in others:
        # Most warnings are the scenario's and the same on every variant: say them once.
        base.warnings += [
            f"variant `{other.variant}`: {w}" for w in other.warnings if w not in base.warnings
        ]
    base.warnings = warnings + base.warnings
    base.variants = others
    return base


def _load_schema(root: Path, findings: Findings) -> dict[str, Any] | None:
    document = read_json(root, "submission_schema.json", findings)
    if document is None:
        return None
    problems = schema_problems(document)
    findings.problems += [f"submission_schema.json: {problem}" for problem in problems]
    return document if not problems else None


def package_digest(path: Path) -> str:
    """sha256 over every file's relative path and content, in sorted order.

    Importing a package whose digest changed creates a new case version, so byte-identical
    packages (from a folder or a zip) get the same digest; caches Python leaves behind after
    running a solver are skipped because they do not change the package's meaning.
    """
    with open_package(Path(path)) as root:
        digest = hashlib.sha256()
        for file in sorted(_digest_files(root), key=lambda item: item.relative_to(root).as_posix()):
            relative = file.relative_to(root).as_posix()
            digest.update(relative.encode("utf-8") + b"\0")
            digest.update(hashlib.sha256(file.read_bytes()).digest())
        return digest.hexdigest()


def digest_files(root: Path) -> list[Path]:
    """The files ``package_digest`` hashes (an export of a version holds exactly these)."""
    return _digest_files(root)


def _digest_files(root: Path) -> list[Path]:
    files = []
    for file in root.rglob("*"):
        parts = file.relative_to(root).parts
        if file.is_file() and not _DIGEST_SKIPPED.intersection(parts) and file.suffix != ".pyc":
            files.append(file)
    return files
