"""open_package(): zips are extracted safely and then load like folders."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from evaluators.archive import PackageError, open_package
from evaluators.package import load_package, package_digest

from .conftest import FIXTURE_CASES


def zip_folder(folder: Path, archive: Path, *, prefix: str) -> Path:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                bundle.write(path, prefix + path.relative_to(folder).as_posix())
    return archive


def open_problems(archive: Path, **kwargs: int) -> list[str]:
    with pytest.raises(PackageError) as caught, open_package(archive, **kwargs):
        pass
    return caught.value.problems


def test_a_zip_with_one_top_folder_loads_as_that_package(tmp_path: Path) -> None:
    source = FIXTURE_CASES / "tiny-knapsack"
    archive = zip_folder(source, tmp_path / "upload.zip", prefix="tiny-knapsack/")
    with open_package(archive) as root:
        assert root.name == "tiny-knapsack"
        assert load_package(root).slug == "tiny-knapsack"
        extracted = root
    assert not extracted.exists()
    assert package_digest(archive) == package_digest(source)


def test_a_flat_zip_is_named_after_the_archive(tmp_path: Path) -> None:
    archive = zip_folder(FIXTURE_CASES / "tiny-restock", tmp_path / "tiny-restock.zip", prefix="")
    with open_package(archive) as root:
        assert load_package(root).slug == "tiny-restock"


@pytest.mark.parametrize("name", ["../evil.txt", "tiny/../../evil.txt", "/etc/evil", "C:/evil"])
def test_it_refuses_entries_that_escape_the_folder(tmp_path: Path, name: str) -> None:
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("tiny/case.toml", "slug = 'tiny'")
        bundle.writestr(name, "gotcha")
    assert open_problems(archive) == [
        f"bad.zip: entry {name!r} would be written outside the package"
    ]
    assert not (tmp_path / "evil.txt").exists()


def test_it_refuses_symbolic_links(tmp_path: Path) -> None:
    archive = tmp_path / "link.zip"
    link = zipfile.ZipInfo("tiny/data/secret.csv")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(link, "../hidden/information.md")
    assert open_problems(archive) == [
        "link.zip: entry 'tiny/data/secret.csv' is a symbolic link; links are not allowed"
    ]


def test_it_stops_extracting_past_the_size_cap(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("tiny/data/zeros.csv", b"0" * 5_000_000)
    assert archive.stat().st_size < 50_000
    assert open_problems(archive, max_bytes=1_000_000) == ["bomb.zip: unpacks to more than 1.0 MB"]


def test_it_refuses_a_file_that_is_neither_folder_nor_zip(tmp_path: Path) -> None:
    path = tmp_path / "case.tar"
    path.write_bytes(b"not a zip")
    assert open_problems(path) == ["case.tar: neither a package folder nor a zip archive"]
