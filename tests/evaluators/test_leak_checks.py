"""Hidden files never reach a player: copies of them in any served file are refused at import.

Each test plants one mistake in a copy of a bundled case (issue 24's list) and checks that the
package is refused with both the served file and the hidden file named.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from evaluators.package import PackageError, check_package, load_package

BUNDLED = Path(__file__).resolve().parents[2] / "cases"


def bundled(slug: str, destination: Path) -> Path:
    """A writable copy of a bundled case (its probe sets are not needed by these checks)."""
    target = destination / slug
    shutil.copytree(
        BUNDLED / slug, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "probes")
    )
    return target


def problems_of(root: Path) -> list[str]:
    """Every format problem of the package, its variants materialised and checked as the site
    loads them (a variant's problems are prefixed with its name)."""
    try:
        load_package(root)
    except PackageError as exc:
        return exc.problems
    return []


def the_finding(root: Path, served: str, hidden: str) -> str:
    """The one problem about ``served``; it must name ``hidden`` too."""
    found = [problem for problem in problems_of(root) if problem.startswith(f"{served}:")]
    assert len(found) == 1, problems_of(root)
    assert hidden in found[0], found[0]
    return found[0]


@pytest.mark.parametrize(
    "slug", ["battery-dispatch", "credit-default", "warehouse-restack", "tutorial-bake-sale"]
)
def test_the_bundled_cases_have_no_leak(slug: str) -> None:
    # load_package materialises every variant and checks each (it raises on any problem);
    # the raw folder holds {{placeholders}} and variant data, which only make sense rendered.
    package = load_package(BUNDLED / slug)
    assert package.slug == slug


def test_a_crlf_copy_of_the_reference_in_data_is_refused(tmp_path: Path) -> None:
    root = bundled("battery-dispatch", tmp_path)
    lines = (root / "hidden" / "reference.csv").read_text().splitlines()
    (root / "data" / "plan.csv").write_bytes("\r\n".join(lines).encode() + b"\r\n")
    finding = the_finding(root, "data/plan.csv", "hidden/reference.csv")
    # Every row that is not also in the exempt baseline (the idle quarter-hours) is found.
    assert re.search(r"repeats (\d+) of the \1 rows", finding), finding


def test_the_reference_with_its_rows_reversed_is_refused(tmp_path: Path) -> None:
    root = bundled("credit-default", tmp_path)
    header, *rows = (root / "hidden" / "reference.csv").read_text().splitlines()
    (root / "data" / "old_scores.csv").write_text("\n".join([header, *reversed(rows)]) + "\n")
    the_finding(root, "data/old_scores.csv", "hidden/reference.csv")


def test_the_reference_under_a_renamed_header_is_refused(tmp_path: Path) -> None:
    root = bundled("warehouse-restack", tmp_path)
    _, *rows = (root / "hidden" / "reference.csv").read_text().splitlines()
    renamed = ["n;Pallet;Source;Target", *(row.replace(",", ";").upper() for row in rows)]
    (root / "data" / "moves_draft.csv").write_text("\n".join(renamed) + "\n")
    the_finding(root, "data/moves_draft.csv", "hidden/reference.csv")


def test_the_tutorials_tiny_reference_copied_byte_for_byte_is_refused(tmp_path: Path) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    reference = root / "hidden" / "reference.csv"
    assert reference.stat().st_size == 38  # below the digest check's 64 bytes
    shutil.copy(reference, root / "data" / "last_year.csv")
    finding = the_finding(root, "data/last_year.csv", "hidden/reference.csv")
    assert "repeats 4 of the 4 rows" in finding


def test_the_test_labels_pasted_into_the_instruction_are_refused(tmp_path: Path) -> None:
    root = bundled("credit-default", tmp_path)
    labels = (root / "hidden" / "truth" / "test_labels.csv").read_text().splitlines()
    table = "\n".join(f"| {row.replace(',', ' | ')} |" for row in labels[1:41])
    with (root / "instruction.md").open("a") as instruction:
        instruction.write("\nFor reference, outcomes we already know:\n\n" + table + "\n")
    the_finding(root, "instruction.md", "hidden/truth/test_labels.csv")


def test_information_appended_to_the_instruction_is_refused(tmp_path: Path) -> None:
    root = bundled("battery-dispatch", tmp_path)
    information = (root / "hidden" / "information.md").read_text()
    with (root / "instruction.md").open("a") as instruction:
        instruction.write("\n\n" + information)
    the_finding(root, "instruction.md", "hidden/information.md")


def test_sentences_of_the_information_reworded_in_markdown_are_refused(tmp_path: Path) -> None:
    """Case, line breaks and markdown marks do not hide a sentence."""
    root = bundled("warehouse-restack", tmp_path)
    information = (root / "hidden" / "information.md").read_text()
    paragraphs = [p for p in information.split("\n\n") if len(p.split()) > 30][:3]
    pasted = "\n\n".join("**" + p.upper().replace(" ", "\n", 3) + "**" for p in paragraphs)
    (root / "data" / "site_notes.md").write_text("# Site notes\n\n" + pasted + "\n")
    finding = the_finding(root, "data/site_notes.md", "hidden/information.md")
    assert "sentences of hidden/information.md" in finding


def test_reference_rows_in_the_schema_description_are_refused(tmp_path: Path) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    schema_path = root / "submission_schema.json"
    schema = json.loads(schema_path.read_text())
    rows = (root / "hidden" / "reference.csv").read_text().splitlines()[1:]
    schema["description"] = "One row per bake. A plan looks like:\n" + "\n".join(rows)
    schema_path.write_text(json.dumps(schema, indent=2))
    the_finding(root, "submission_schema.json", "hidden/reference.csv")


def test_reference_rows_in_the_summary_are_refused(tmp_path: Path) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    toml = root / "case.toml"
    rows = (root / "hidden" / "reference.csv").read_text().splitlines()[1:]
    lines = toml.read_text().splitlines()
    lines = [
        'summary = """Plan the trays, for example:\n' + "\n".join(rows) + '"""'
        if line.startswith("summary =")
        else line
        for line in lines
    ]
    toml.write_text("\n".join(lines) + "\n")
    the_finding(root, "case.toml", "hidden/reference.csv")


def test_a_time_column_shared_with_the_reference_is_no_finding(tmp_path: Path) -> None:
    """A lone timestamp or number is in the visible inputs of any good package: no evidence."""
    root = bundled("battery-dispatch", tmp_path)
    rows = (root / "hidden" / "reference.csv").read_text().splitlines()[1:]
    times = [row.split(",")[0] for row in rows]
    (root / "data" / "intervals.csv").write_text("interval_start\n" + "\n".join(times) + "\n")
    (root / "data" / "zeros.txt").write_text("0.000000\n" * 96)
    assert problems_of(root) == []


def test_the_baseline_and_shortcuts_stay_exempt(tmp_path: Path) -> None:
    root = bundled("battery-dispatch", tmp_path)
    baseline = (root / "hidden" / "anchors" / "baseline.csv").read_text()
    (root / "data" / "current_plan.csv").write_text(baseline.replace("\n", "\r\n"))
    assert problems_of(root) == []


# --- the size of data/ ------------------------------------------------------------------------


def test_a_300_mb_data_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    with (root / "data" / "dump.bin").open("wb") as sparse:
        sparse.truncate(300 * 1024 * 1024)  # sparse: no 300 MB written, nothing read back
    problems = problems_of(root)
    assert any(
        p.startswith("data/dump.bin: 300.0 MB is more than the 50 MB a data/ file may hold")
        for p in problems
    ), problems
    assert any(p.startswith("data/: 300.0 MB in 2 files") for p in problems), problems


def test_the_data_cap_comes_from_case_toml_or_the_site_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    with (root / "data" / "sample.csv").open("wb") as sparse:
        sparse.truncate(3 * 1024 * 1024)
    assert problems_of(root) == []  # under the default 50 MB
    monkeypatch.setenv("CASE_DATA_MAX_MB", "2")
    assert problems_of(root)[0].startswith("data/sample.csv: 3.0 MB is more than the 2 MB")
    toml = root / "case.toml"
    toml.write_text(
        toml.read_text().replace("max_upload_mb = 1", "max_upload_mb = 1\nmax_data_mb = 4")
    )
    assert problems_of(root) == []
    assert any("raises the site's data/ cap of 2 MB" in w for w in load_package(root).warnings)
    toml.write_text(toml.read_text().replace("max_data_mb = 4", "max_data_mb = -1"))
    assert "case.toml: [limits] max_data_mb must be a positive number" in problems_of(root)


# --- the staff directory ----------------------------------------------------------------------


def test_a_stakeholder_who_owns_no_fact_but_costs_per_message_is_a_warning(tmp_path: Path) -> None:
    root = bundled("tutorial-bake-sale", tmp_path)
    path = root / "hidden" / "customer.json"
    script = json.loads(path.read_text())
    script["stakeholders"].append(
        {**script["stakeholders"][1], "id": "jo", "name": "Jo Price", "aliases": ["jo"]}
    )
    path.write_text(json.dumps(script, indent=2))
    findings, _ = check_package(root)
    assert [w for w in findings.warnings if "owns no fact" in w] == [
        "hidden/customer.json: stakeholder `jo` owns no fact but costs 0.008 per message; "
        "give them facts, or a contact_cost of 0"
    ]
    script["stakeholders"][-1]["contact_cost"] = 0
    path.write_text(json.dumps(script, indent=2))
    findings, _ = check_package(root)
    assert not [w for w in findings.warnings if "owns no fact" in w]
