"""Tests of chanceclust.datasets: the SHA-256 registry and the gene expression fetcher.

The fetcher runs its real download path (pooch, hash check, cache) against the local copy of
the files in ``../shared/data/gene-expression`` given as a ``file://`` base URL, so no network
is needed. The registry is checked against two sources that do not go through chanceclust:
hashlib over those files and the SHA-256 list in the data folder's README.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chanceclust import datasets

#: CI clones the repository next to a copy of shared/.
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "gene-expression"
NEEDS_DATA = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"gene expression data not found at {DATA} (../shared next to "
    "the repository)")
REGISTRY = datasets.GENE_EXPRESSION_REGISTRY


@pytest.fixture
def local_source(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the fetcher's base URL at the local copy (the same code path as a download)."""
    pytest.importorskip("pooch")
    monkeypatch.setattr(datasets, "_BASE_URL", DATA.as_uri() + "/")
    monkeypatch.delenv("CHANCECLUST_DATA", raising=False)
    return DATA


def test_import_does_not_import_pooch() -> None:
    code = "import sys, chanceclust, chanceclust.datasets; print('pooch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_registry_shape() -> None:
    assert len(REGISTRY) == 35
    assert all(name.endswith("_database.txt") for name in REGISTRY)
    assert all(re.fullmatch("[0-9a-f]{64}", sha) for sha, _ in REGISTRY.values())
    # The data README: 35 files, 23,855,585 bytes in all.
    assert sum(size for _, size in REGISTRY.values()) == 23_855_585
    assert "2a8f8b6f77afdf0587f1f9db58356e514c340179" in datasets._BASE_URL
    assert "2a8f8b6f77afdf0587f1f9db58356e514c340179" in datasets.GENE_EXPRESSION_SOURCE


@NEEDS_DATA
def test_registry_matches_files_and_readme() -> None:
    """Every hash and size equals hashlib over the local files and the README's list."""
    readme = dict(re.findall(r"^([0-9a-f]{64})  (\S+_database\.txt)$",
                             (DATA / "README.md").read_text(), flags=re.MULTILINE))
    readme = {name: sha for sha, name in readme.items()}
    assert readme.keys() == REGISTRY.keys()
    for name, (sha, size) in REGISTRY.items():
        blob = (DATA / name).read_bytes()
        assert hashlib.sha256(blob).hexdigest() == sha == readme[name], name
        assert len(blob) == size, name


@NEEDS_DATA
def test_fetch_downloads_verifies_and_caches(local_source: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = datasets.fetch_gene_expression(tmp_path, progress=True)
    assert folder == tmp_path / "gene-expression"
    for name in REGISTRY:
        assert (folder / name).read_bytes() == (local_source / name).read_bytes()
    err = capsys.readouterr().err
    assert "downloading 35 gene expression files (22.8 MiB)" in err
    assert "22.8/22.8 MiB" in err
    # Cached: a second call downloads nothing, even with the source gone.
    datasets._BASE_URL = "file:///nonexistent-chanceclust-mirror/"
    assert datasets.fetch_gene_expression(tmp_path, progress=True) == folder
    assert capsys.readouterr().err == ""
    assert datasets.check_gene_expression(folder) == folder


@NEEDS_DATA
def test_fetch_replaces_damaged_files(local_source: Path, tmp_path: Path) -> None:
    folder = datasets.fetch_gene_expression(tmp_path, progress=False)
    damaged = folder / "chen-2002_database.txt"
    damaged.write_bytes(damaged.read_bytes().replace(b"\n", b"\r\n"))
    with pytest.raises(ValueError, match=r"chen-2002_database.txt: .* differs"):
        datasets.check_gene_expression(folder)
    (folder / "khan-2001_database.txt").unlink()
    with pytest.raises(FileNotFoundError, match=r"1 of the 35 .* missing .*: khan-2001"):
        datasets.check_gene_expression(folder)
    datasets.fetch_gene_expression(tmp_path, progress=False)
    assert datasets.check_gene_expression(folder) == folder


@NEEDS_DATA
def test_data_home_from_environment(local_source: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANCECLUST_DATA", str(tmp_path / "home"))
    assert datasets.get_data_home() == tmp_path / "home"
    assert datasets.get_data_home(tmp_path) == tmp_path  # the argument wins
    folder = datasets.fetch_gene_expression(progress=False)
    assert folder == tmp_path / "home" / "gene-expression"


def test_default_data_home_is_the_user_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    pooch = pytest.importorskip("pooch")
    monkeypatch.delenv("CHANCECLUST_DATA", raising=False)
    assert datasets.get_data_home() == Path(pooch.os_cache("chanceclust"))
    monkeypatch.setenv("CHANCECLUST_DATA", "")  # empty means unset
    assert datasets.get_data_home() == Path(pooch.os_cache("chanceclust"))


@NEEDS_DATA
def test_offline_message_says_what_and_where(local_source: Path, tmp_path: Path) -> None:
    datasets._BASE_URL = (tmp_path / "no-mirror").as_uri() + "/"
    with pytest.raises(ConnectionError) as info:
        datasets.fetch_gene_expression(tmp_path, progress=False)
    message = str(info.value)
    assert "could not download" in message
    assert datasets.GENE_EXPRESSION_SOURCE in message
    assert str(tmp_path / "gene-expression") in message
    assert "--data" in message


def test_no_download_when_not_allowed(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"35 gene expression files are missing or "
                       r"damaged in .*gene-expression: alizadeh-2000-v1_database.txt, .* and 30 "
                       "more; download the 35 files"):
        datasets.fetch_gene_expression(tmp_path, download_if_missing=False)


def test_check_names_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        datasets.check_gene_expression(tmp_path / "absent")
    with pytest.raises(FileNotFoundError, match="35 of the 35 gene expression files are "
                       "missing"):
        datasets.check_gene_expression(tmp_path)


@NEEDS_DATA
def test_check_names_an_empty_file(tmp_path: Path) -> None:
    for name in REGISTRY:
        (tmp_path / name).symlink_to(DATA / name)
    (tmp_path / "west-2001_database.txt").unlink()
    (tmp_path / "west-2001_database.txt").write_text("")
    with pytest.raises(ValueError, match=r"west-2001_database.txt: .*west-2001_database.txt "
                       "is empty"):
        datasets.check_gene_expression(tmp_path)


@NEEDS_DATA
def test_altered_download_is_rejected(local_source: Path, tmp_path: Path) -> None:
    """A source serving other bytes (here CRLF line ends) fails the registry check."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name in REGISTRY:
        (mirror / name).symlink_to(local_source / name)
    (mirror / "bredel-2005_database.txt").unlink()
    (mirror / "bredel-2005_database.txt").write_bytes(
        (local_source / "bredel-2005_database.txt").read_bytes().replace(b"\n", b"\r\n"))
    datasets._BASE_URL = mirror.as_uri() + "/"
    with pytest.raises(ValueError, match=r"bredel-2005_database.txt: the downloaded file does "
                       "not match its SHA-256"):
        datasets.fetch_gene_expression(tmp_path / "home", progress=False)
    assert not (tmp_path / "home" / "gene-expression" / "bredel-2005_database.txt").exists()
