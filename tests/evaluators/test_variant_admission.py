"""Loading and admitting a package with variants (tests/fixtures/cases/tiny-variants)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluators.admission import AdmissionReport, admit
from evaluators.archive import PackageError
from evaluators.package import CasePackage, Target, all_variants, load_package

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "tiny-variants"


def _always(package: CasePackage, target: Target) -> bool:
    return True


@pytest.fixture(scope="module")
def report() -> AdmissionReport:
    return admit(load_package(FIXTURE))


def test_it_loads_the_base_with_its_variants_materialised() -> None:
    package = load_package(FIXTURE)
    assert [p.variant for p in all_variants(package)] == ["base", "big-fee", "light-van"]
    assert package.source == FIXTURE and package.root != FIXTURE
    light = package.variants[1]
    assert light.scoring["reference_value"] == 40.0 and package.scoring["reference_value"] == 44.0
    assert light.variant_title == "Lighter van"
    answers = {f["key"]: f["answer"] for f in light.customer["facts"]}
    assert answers["van_capacity"].endswith("the van only takes 10 kg.")
    assert "{{" not in (package.hidden_dir / "information.md").read_text()


def test_every_variant_is_admitted_and_listed_with_its_anchors(report: AdmissionReport) -> None:
    assert report.ok, report.problems
    rows = {row["id"]: row for row in report.variants}
    assert list(rows) == ["base", "big-fee", "light-van"]
    assert rows["light-van"]["anchors"]["reference"] == 1.0
    assert rows["light-van"]["counterfactuals"]["capacity_reduced"] == "invalid"
    assert rows["big-fee"]["counterfactuals"]["handling_fee"] == pytest.approx(0.2)
    assert rows["light-van"]["value_probes"] == 2 == rows["light-van"]["value_probes_ok"]


def test_each_reference_is_crossed_with_every_other_variant(report: AdmissionReport) -> None:
    pairs = {(p["reference_of"], p["scored_on"]): p for p in report.cross_variant}
    assert len(pairs) == 6 and all(p["ok"] for p in pairs.values())
    assert pairs[("base", "light-van")]["valid"] is False
    assert pairs[("light-van", "base")]["score"] == pytest.approx(40 / 44)


def test_a_case_without_variants_reports_its_base_row_only() -> None:
    fixture = FIXTURE.parent / "tiny-knapsack"
    report = admit(load_package(fixture), answerability=_always)
    assert [row["id"] for row in report.variants] == ["base"] and report.cross_variant == []


def _copy(tmp_path: Path) -> Path:
    """The fixture without its `big-fee` variant (fewer sandbox runs)."""
    root = tmp_path / "tiny-variants"
    shutil.copytree(FIXTURE, root)
    shutil.rmtree(root / "hidden" / "variants" / "big-fee")
    return root


def test_a_variant_whose_reference_replays_on_another_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    same = root / "hidden" / "variants" / "same-work"
    (same / "hidden").mkdir(parents=True)
    (same / "variant.toml").write_text('title = "Half a kilo more"\n')
    # 12.5 kg changes a parameter but not the best load: the base's answer replays.
    (same / "hidden" / "params.json").write_text(
        json.dumps({"capacity_kg": 12.5, "line_fee_eur": 10})
    )
    report = admit(load_package(root), answerability=_always)
    assert any(
        "variant `same-work`" in p and "variant `base`'s reference scores 1.0000" in p
        for p in report.problems
    )
    assert not report.ok


def test_a_variant_that_alters_no_fact_is_refused_at_load(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    light = root / "hidden" / "variants" / "light-van" / "hidden"
    shutil.copy(root / "hidden" / "params.json", light / "params.json")
    shutil.copy(root / "hidden" / "values.json", light / "values.json")
    with pytest.raises(PackageError) as raised:
        load_package(root)
    assert any("light-van" in p and "alter nothing" in p for p in raised.value.problems)


def test_a_variant_failing_its_anchors_names_the_variant(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    toml = root / "hidden" / "variants" / "light-van" / "variant.toml"
    toml.write_text(toml.read_text().replace("reference_value = 40.0", "reference_value = 41.0"))
    report = admit(load_package(root), answerability=_always)
    assert any(
        p.startswith("variant `light-van`: reference: raw value 40.0") for p in report.problems
    )
