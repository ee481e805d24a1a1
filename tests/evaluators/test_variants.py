"""Variants of a package (docs/variants.md): listing, materialising, placeholders."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer
from evaluators.archive import PackageError
from evaluators.variants import (
    duplicate_problems,
    list_variants,
    materialise,
    materialised,
    variant_findings,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "tiny-knapsack"
ANSWER = "Ah - since the shelving went in last month the van only takes 12 kg."


def _templated(tmp_path: Path) -> Path:
    """tiny-knapsack with its capacity answer as a placeholder and one further variant."""
    root = tmp_path / "tiny-knapsack"
    shutil.copytree(FIXTURE, root)
    hidden = root / "hidden"
    customer = hidden / "customer.json"
    customer.write_text(
        customer.read_text()
        .replace(ANSWER, ANSWER.replace("12 kg", "{{van_capacity}}"))
        .replace('"values": ["12 kg"]', '"values": ["{{van_capacity}}"]')
    )
    info = hidden / "information.md"
    info.write_text(info.read_text().replace("takes 12 kg,", "takes {{ van_capacity }},"))
    (hidden / "params.json").write_text(json.dumps({"capacity_kg": 12}))
    (hidden / "values.json").write_text(json.dumps({"van_capacity": "12 kg"}))
    light = hidden / "variants" / "light-van"
    (light / "hidden").mkdir(parents=True)
    (light / "variant.toml").write_text(
        'title = "Lighter van"\nsummary = "10 kg"\n[scoring]\nreference_value = 30.5\n'
    )
    (light / "hidden" / "params.json").write_text(json.dumps({"capacity_kg": 10}))
    (light / "hidden" / "values.json").write_text(json.dumps({"van_capacity": "10 kg"}))
    (light / "data").mkdir()
    (light / "data" / "items.csv").write_text((root / "data" / "items.csv").read_text())
    return root


def test_a_package_without_variants_has_only_base() -> None:
    assert [v.id for v in list_variants(FIXTURE)] == ["base"]


def test_it_lists_base_first_then_the_variant_folders(tmp_path: Path) -> None:
    variants = list_variants(_templated(tmp_path))
    assert [v.id for v in variants] == ["base", "light-van"]
    assert variants[1].title == "Lighter van" and variants[1].scoring == {"reference_value": 30.5}


def test_materialising_a_variant_overlays_its_files_and_scoring(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    out = materialise(root, "light-van", tmp_path / "out" / "tiny-knapsack")
    assert not (out / "hidden" / "variants").exists()
    assert json.loads((out / "hidden" / "params.json").read_text()) == {"capacity_kg": 10}
    scoring = tomllib.loads((out / "case.toml").read_text())["scoring"]
    assert scoring["reference_value"] == 30.5 and scoring["normalisation"] == "ratio"
    assert "takes 10 kg, not the 15 kg" in (out / "hidden" / "information.md").read_text()
    script = json.loads((out / "hidden" / "customer.json").read_text())
    assert script["facts"][0]["answer"] == ANSWER.replace("12 kg", "10 kg")
    assert script["facts"][0]["values"] == ["10 kg"]


def test_the_base_variant_is_rendered_too(tmp_path: Path) -> None:
    with materialised(_templated(tmp_path), "base") as out:
        assert out.name == "tiny-knapsack"
        assert "{{" not in (out / "hidden" / "customer.json").read_text()
        assert ANSWER in (out / "hidden" / "customer.json").read_text()
    assert not out.exists()


def test_a_placeholder_without_a_value_names_the_file_and_the_placeholder(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    light = root / "hidden" / "variants" / "light-van" / "hidden" / "values.json"
    light.write_text(json.dumps({"other": "x"}))
    with pytest.raises(PackageError) as raised:
        materialise(root, "light-van", tmp_path / "out")
    assert any(
        "light-van" in p and "hidden/customer.json" in p and "{{van_capacity}}" in p
        for p in raised.value.problems
    )
    assert not (tmp_path / "out").exists()


def test_a_variant_without_variant_toml_or_with_a_bad_id_is_a_problem(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    (root / "hidden" / "variants" / "Bad_Id").mkdir()
    (root / "hidden" / "variants" / "light-van" / "variant.toml").unlink()
    problems, _warnings, variants = variant_findings(root)
    assert [v.id for v in variants] == ["base"]
    assert any("Bad_Id" in p for p in problems)
    assert any("light-van/variant.toml: missing" in p for p in problems)


def test_a_variant_replacing_the_evaluator_is_warned_about(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    (root / "hidden" / "variants" / "light-van" / "hidden" / "evaluator.py").write_text("")
    _problems, warnings, _variants = variant_findings(root)
    assert any("light-van/hidden/evaluator.py" in w for w in warnings)


def test_a_variant_with_the_same_facts_as_another_is_refused(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    assert duplicate_problems(root) == []
    light = root / "hidden" / "variants" / "light-van" / "hidden"
    (light / "params.json").write_text(json.dumps({"capacity_kg": 12}))
    (light / "values.json").write_text(json.dumps({"van_capacity": "12 kg"}))
    assert any("light-van" in p and "`base`" in p for p in duplicate_problems(root))


def test_the_customer_loaded_from_a_hidden_dir_fills_placeholders(tmp_path: Path) -> None:
    root = _templated(tmp_path)
    customer = ScriptedCustomer.from_hidden_dir(root / "hidden")
    reply = customer.reply("How much weight can the van carry now?")
    assert "van_capacity" in reply.disclosed
    assert "12 kg" in reply.text and "{{" not in reply.text


def test_the_customer_refuses_a_placeholder_without_a_value(tmp_path: Path) -> None:
    from customer_sim.script import ScriptError

    root = _templated(tmp_path)
    (root / "hidden" / "values.json").write_text("{}")
    with pytest.raises(ScriptError, match="van_capacity"):
        ScriptedCustomer.from_hidden_dir(root / "hidden")


def test_information_read_for_the_llm_customer_is_rendered(tmp_path: Path) -> None:
    from customer_sim.placeholders import read_rendered

    root = _templated(tmp_path)
    assert "takes 12 kg, not the 15 kg" in read_rendered(root / "hidden", "information.md")
