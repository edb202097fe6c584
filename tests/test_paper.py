"""Smoke and consistency tests of the paper reproductions (``chanceclust reproduce --quick``).

They run the four experiments in quick mode into a temporary folder (about a minute on two
cores, hence the ``slow`` mark; CI still runs them), check the files, the CSV columns and the
report, and check a few numbers against oracles that do not go through chanceclust: brute-force
pair counting and exact Bell numbers for the ranking example, scikit-learn's ARI for a re-run
K-means seed, the data README's table for the gene expression reader.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="the paper extra (matplotlib) is not installed")
pytest.importorskip("sklearn", reason="the paper extra (scikit-learn) is not installed")

from chanceclust import datasets, paper
from chanceclust.paper import genes, preferential


#: Data homes searched for the gene expression files, in order: that of
#: ``chanceclust.datasets.fetch_gene_expression`` (``$CHANCECLUST_DATA``, else the user cache
#: folder), then ``../shared/data`` beside the checkout (CI clones the repository next to a copy
#: of shared/). Each holds the files in ``gene-expression/``.
DATA_HOMES = (None, Path(__file__).resolve().parents[1].parent / "shared" / "data")


def find_gene_data() -> Path | None:
    """The folder of the 35 verified files in the first data home that has them; never
    downloads."""
    for home in DATA_HOMES:
        try:
            return datasets.fetch_gene_expression(home, download_if_missing=False)
        except (FileNotFoundError, ValueError, ImportError):  # absent, damaged, or no pooch
            continue
    return None


DATA = find_gene_data()
HAVE_DATA = DATA is not None
NEEDS_DATA = pytest.mark.skipif(
    not HAVE_DATA, reason="gene expression data not found in the data home ($CHANCECLUST_DATA or "
    "the user cache; chanceclust.datasets.fetch_gene_expression() downloads it) nor in "
    "../shared/data/gene-expression next to the repository")

FILES = {
    "ranking": ["ranking_rand.png", "ranking_rand.pdf", "ranking_mi.png", "ranking_mi.pdf",
                "ranking.csv", "ranking_clusterings.csv", "ranking_z_candidates.csv"],
    "digits": ["digits.png", "digits.pdf", "digits.csv", "digits_embedding.csv"],
    "preferential": ["preferential.png", "preferential.pdf", "preferential.csv"],
    "genes": ["genes.png", "genes.pdf", "genes.csv", "genes_quadrants.csv",
              "genes_preprocessing.csv"],
}
COLUMNS = {
    "ranking.csv": ["pair", "measure", "model", "normalization", "value", "rank",
                    "rank_changed"],
    "ranking_clusterings.csv": ["element", "W", "X", "Y", "Z"],
    "digits.csv": ["run", "seed", "ari_perm", "ari_num1", "rank_perm", "rank_num1", "sizes"],
    "digits_embedding.csv": ["point", "x", "y", "digit", "kmeans_run0"],
    "preferential.csv": ["step", "entropy_bits", "ari_perm", "ari_num", "ami_perm", "ami_num",
                         "largest"],
    "genes.csv": ["study", "n_samples", "n_genes", "n_classes", "n_clusters", "ari_perm",
                  "ari_num1", "ari_num", "ari_all", "ari_all1", "quadrant_num1"],
    "genes_quadrants.csv": ["model", "I", "II", "III", "IV"],
    "genes_preprocessing.csv": ["study"] + [f"{k}_{how}" for how in ("none", "log2", "z", "log2+z")
                                           for k in ("ari_perm", "ari_num1")],
}
SECTIONS = {
    "ranking": "## 1. Ranking of clustering pairs",
    "digits": "## 2. K-means on the digits",
    "preferential": "## 3. Preferential attachment",
    "genes": "## 4. Gene expression studies",
}


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Quick runs of every experiment into one folder (genes only if the data is there)."""
    path = tmp_path_factory.mktemp("reproduce")
    cwd = os.getcwd()
    os.chdir(path.parent)  # relative --out, as a user would type it
    try:
        for name in ("ranking", "digits", "preferential"):
            paper.reproduce(name, path.name, quick=True, seed=7, progress=False)
        if HAVE_DATA:
            paper.reproduce("genes", path.name, quick=True, data_dir=DATA, progress=False)
    finally:
        os.chdir(cwd)
    return path


@pytest.mark.parametrize("name", ["ranking", "digits", "preferential",
                                  pytest.param("genes", marks=NEEDS_DATA)])
def test_files_columns_and_section(out: Path, name: str) -> None:
    """Every figure (PNG and PDF) and CSV exists; CSVs have the documented columns."""
    for file in FILES[name]:
        path = out / name / file
        assert path.is_file(), path
        assert path.stat().st_size > 0, path
        if file in COLUMNS:
            columns, rows = read_csv(path)
            assert columns == COLUMNS[file]
            assert rows
    report = (out / "REPORT.md").read_text()
    assert SECTIONS[name] in report
    section = report.split(SECTIONS[name])[1].split("\n## ")[0]
    assert "| claim (paper) | ours | verdict |" in section
    assert "holds" in section  # each claim row ends in holds / does not hold / partly


@NEEDS_DATA
def test_report_has_four_sections_in_order(out: Path) -> None:
    report = (out / "REPORT.md").read_text()
    positions = [report.index(SECTIONS[n]) for n in ("ranking", "digits", "preferential",
                                                     "genes")]
    assert positions == sorted(positions)


def _bell(n: int) -> int:
    row = [1]  # Bell triangle
    for _ in range(n):
        new = [row[-1]]
        for x in row:
            new.append(new[-1] + x)
        row = new
    return row[0]


def test_ranking_z_meets_the_text(out: Path) -> None:
    """The reported Z: ten clusters, RI about 0.76 with W, X, Y, and ARI under M_all < 0.

    Oracle: pair counting by brute force and E[RI] under M_all from exact Bell numbers,
    p = B_19 / B_20, E = p^2 + (1 - p)^2.
    """
    _, rows = read_csv(out / "ranking" / "ranking_clusterings.csv")
    lab = {k: [int(r[k]) for r in rows] for k in "WXYZ"}
    assert len(set(lab["Z"])) == 10
    assert len(set(lab["Y"])) == 10
    assert sorted(np.bincount(lab["W"])[1:]) == [5, 5, 5, 5]
    assert sum(a != b for a, b in zip(lab["W"], lab["X"], strict=False)) == 1
    p = Fraction(_bell(19), _bell(20))
    expected_all = p * p + (1 - p) * (1 - p)
    for other in "WXY":
        agree = sum((lab["Z"][i] == lab["Z"][j]) == (lab[other][i] == lab[other][j])
                    for i, j in combinations(range(20), 2))
        ri = Fraction(agree, 190)
        assert round(float(ri), 2) == 0.76
        assert ri < expected_all  # ARI under M_all is negative
    _, scores = read_csv(out / "ranking" / "ranking.csv")
    for row in scores:
        if row["measure"] == "ARI" and row["model"] == "all" and "Z" in row["pair"]:
            assert float(row["value"]) < 0


def test_ranking_rand_values_against_brute_force(out: Path) -> None:
    """RI of all six pairs in ranking.csv equals brute-force pair counting."""
    _, rows = read_csv(out / "ranking" / "ranking_clusterings.csv")
    lab = {k: [int(r[k]) for r in rows] for k in "WXYZ"}
    _, scores = read_csv(out / "ranking" / "ranking.csv")
    ri = {r["pair"]: float(r["value"]) for r in scores if r["measure"] == "RI"}
    assert len(ri) == 6
    for a, b in combinations("WXYZ", 2):
        agree = sum((lab[a][i] == lab[a][j]) == (lab[b][i] == lab[b][j])
                    for i, j in combinations(range(20), 2))
        assert ri[f"{a}-{b}"] == pytest.approx(agree / 190, rel=1e-14)


def test_digits_seed_reproduces_run(out: Path) -> None:
    """Re-running K-means with a recorded seed gives the recorded ARI (scikit-learn's ARI)."""
    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits
    from sklearn.metrics import adjusted_rand_score

    _, rows = read_csv(out / "digits" / "digits.csv")
    digits = load_digits()
    row = rows[3]
    labels = KMeans(n_clusters=10, init="random", n_init=1,
                    random_state=int(row["seed"])).fit_predict(digits.data)
    assert float(row["ari_perm"]) == pytest.approx(adjusted_rand_score(digits.target, labels),
                                                   abs=1e-12)
    assert len({r["seed"] for r in rows}) == len(rows)
    assert sorted(int(r["rank_perm"]) for r in rows) == list(range(1, len(rows) + 1))


def test_preferential_keeps_fifty_clusters() -> None:
    """Rejected moves never empty a cluster; the first checkpoint is A itself."""
    seen = []
    preferential.simulate(20_000, np.array([0, 1, 5000, 20_000]), np.random.default_rng(1),
                          lambda step, b: seen.append((step, np.bincount(b, minlength=60))))
    assert [s for s, _ in seen] == [0, 1, 5000, 20_000]
    assert np.all(seen[0][1][:50] == 20)
    for _, sizes in seen:
        assert sizes.sum() == 1000
        assert np.count_nonzero(sizes) == 50
    assert seen[-1][1].max() > 20  # sizes drifted apart


def test_preferential_csv(out: Path) -> None:
    _, rows = read_csv(out / "preferential" / "preferential.csv")
    assert float(rows[0]["entropy_bits"]) == pytest.approx(math.log2(50), rel=1e-12)
    # B starts as a shuffled copy of A: unrelated to A from the first checkpoint on.
    assert abs(float(rows[0]["ari_perm"])) < 0.02
    assert abs(float(rows[0]["ami_perm"])) < 0.05
    assert int(rows[-1]["step"]) == 100_000


@NEEDS_DATA
@pytest.mark.parametrize(("stem", "shape", "sizes"), [
    ("lapointe-2004-v1", (69, 1625), [11, 39, 19]),          # no gene-ID column
    ("khan-2001", (83, 1069), [29, 11, 18, 25]),            # repeated gene IDs
    ("laiho-2007", (37, 2202), [8, 29]),                     # labels with spaces
    ("golub-1999-v1", (72, 1868), [47, 25]),                 # quoted labels
])
def test_gene_reader_matches_data_readme(stem: str, shape: tuple[int, int],
                                         sizes: list[int]) -> None:
    """Shapes and class sizes as in the data README's table (label counts in file order)."""
    data, labels = genes.read_study(DATA / f"{stem}_database.txt")
    assert data.shape == shape
    _, first, counts = np.unique(labels, return_index=True, return_counts=True)
    assert counts[np.argsort(first)].tolist() == sizes
    assert np.isfinite(data).all()


def test_quadrant() -> None:
    assert [genes.quadrant(*p) for p in [(0.3, 0.1), (-0.1, 0.2), (-0.1, -0.2), (0.4, -0.1),
                                         (0.0, 0.0)]] == ["I", "II", "III", "IV", "III"]


def test_cli_parser_and_errors(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="chanceclust")
    paper.add_reproduce_parser(parser.add_subparsers())
    args = parser.parse_args(["reproduce", "genes", "--out", str(tmp_path), "--quick",
                              "--seed", "3", "--data", str(tmp_path / "nothing")])
    assert (args.experiment, args.quick, args.seed, args.command) == ("genes", True, 3,
                                                                      "reproduce")
    assert args.func is paper.run_reproduce
    with pytest.raises(SystemExit):
        parser.parse_args(["reproduce", "bogus", "--out", str(tmp_path)])
    # A data folder without the files is an input error (status 2), not a crash.
    assert paper.run_reproduce(args) == 2
    with pytest.raises(ValueError, match="`name` must be one of"):
        paper.reproduce("bogus", tmp_path)


def _run_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(paper.__file__).parents[2])}
    return subprocess.run([sys.executable, "-m", "chanceclust", *argv], capture_output=True,
                          text=True, env=env, check=False)


@NEEDS_DATA
@pytest.mark.slow
def test_all_checks_the_data_before_any_experiment(tmp_path: Path) -> None:
    """An empty data file stops `reproduce all` with status 2 naming it; nothing is written."""
    data = tmp_path / "data"
    data.mkdir()
    for name in datasets.GENE_EXPRESSION_REGISTRY:
        (data / name).symlink_to(DATA / name)
    (data / "su-2001_database.txt").unlink()
    (data / "su-2001_database.txt").write_text("")
    out = tmp_path / "out"
    result = _run_cli("reproduce", "all", "--out", str(out), "--data", str(data), "--quick")
    assert result.returncode == 2, result.stderr
    assert "su-2001_database.txt" in result.stderr
    assert "is empty" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()  # failed before the first experiment


def test_out_naming_a_file_is_an_input_error(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    target.write_text("keep me")
    result = _run_cli("reproduce", "ranking", "--out", str(target), "--quick")
    assert result.returncode == 2
    assert str(target) in result.stderr
    assert "is a file" in result.stderr
    assert target.read_text() == "keep me"


@pytest.mark.slow
def test_offline_without_data_says_what_to_download(tmp_path: Path) -> None:
    """No --data and no network: status 2 and where to get the files (checked first)."""
    pytest.importorskip("pooch")
    env_home = tmp_path / "home"
    code = ("import sys, chanceclust.datasets as d; "
            f"d._BASE_URL = {(tmp_path / 'no-mirror').as_uri() + '/'!r}; "
            "from chanceclust.cli import main; sys.exit(main(sys.argv[1:]))")
    env = {**os.environ, "PYTHONPATH": str(Path(paper.__file__).parents[2]),
           "CHANCECLUST_DATA": str(env_home)}
    result = subprocess.run([sys.executable, "-c", code, "reproduce", "all", "--out",
                             str(tmp_path / "out"), "--quick"], capture_output=True, text=True,
                            env=env, check=False)
    assert result.returncode == 2, result.stderr
    assert datasets.GENE_EXPRESSION_SOURCE in result.stderr
    assert str(env_home / "gene-expression") in result.stderr
    assert not (tmp_path / "out").exists()


def test_command_lines_carry_no_absolute_paths(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path / "..")
    line = paper.command("genes", tmp_path / "results", data_dir=tmp_path / "data", seed=5)
    assert line == (f"chanceclust reproduce genes --out {tmp_path.name}/results --data "
                    f"{tmp_path.name}/data --seed 5")
    monkeypatch.chdir(tmp_path)
    line = paper.command("genes", "out dir", data_dir=tmp_path.parent / "data", quick=True)
    assert line == "chanceclust reproduce genes --out 'out dir' --data ../data --quick --seed 2017"


@pytest.mark.slow
def test_admissible_z_against_full_enumeration() -> None:
    """The pruned exhaustive search equals a plain enumeration of every ten-cluster Z.

    Oracle: for each of the four size families (11,1^9), (10,2,1^8), (9,3,1^8),
    (9,2,2,1^7) every largest cluster S is joined with every placement of the other
    non-singleton clusters that is disjoint from it; agreements with W, X, Y are counted
    from pair-indicator vectors (190 pairs), 190 - Q(ref) - Q(Z) + 2 n11. No pruning bound.
    """
    from collections import defaultdict

    from chanceclust.paper import ranking

    refs = list(ranking.fixed_clusterings().values())
    pair_index = {pq: k for k, pq in enumerate(combinations(range(20), 2))}
    same = np.array([[int(r[a] == r[b]) for a, b in pair_index] for r in refs])  # 3 x 190
    q_ref = same.sum(axis=1)

    def n11(groups: list[tuple[int, ...]]) -> tuple[int, ...]:
        cols = [pair_index[pq] for g in groups for pq in combinations(g, 2)]
        return tuple(same[:, cols].sum(axis=1).tolist())

    # For the large cluster S: pairs of S inside one cluster of each reference, by popcounts.
    ref_masks = [[sum(1 << i for i in range(20) if r[i] == c) for c in set(r.tolist())]
                 for r in refs]

    def n11_big(mask: int) -> tuple[int, ...]:
        return tuple(sum(k * (k - 1) // 2 for k in ((mask & m).bit_count() for m in masks))
                     for masks in ref_masks)

    found = set()
    for big, smalls in ((11, ()), (10, (2,)), (9, (3,)), (9, (2, 2))):
        q_z = sum(k * (k - 1) // 2 for k in (big, *smalls))
        placements: dict[tuple[int, ...], list[tuple[int, list]]] = defaultdict(list)
        if not smalls:
            placements[(0, 0, 0)].append((0, []))
        elif len(smalls) == 1:
            for g in combinations(range(20), smalls[0]):
                placements[n11([g])].append((sum(1 << i for i in g), [g]))
        else:
            for g, h in combinations(combinations(range(20), 2), 2):
                if not set(g) & set(h):
                    placements[n11([g, h])].append((sum(1 << i for i in g + h), [g, h]))
        targets = [[t for t in ((a - 190 + q + q_z) // 2 for a in (144, 145) if
                               (a - 190 + q + q_z) % 2 == 0)] for q in q_ref]
        for s_big in combinations(range(20), big):
            mask = sum(1 << i for i in s_big)
            have = n11_big(mask)
            for want in itertools.product(*targets):
                key = tuple(w - h for w, h in zip(want, have, strict=True))
                for g_mask, groups in placements.get(key, ()):
                    if g_mask & mask:
                        continue
                    z = np.arange(20) + 100
                    z[list(s_big)] = 0
                    for k, g in enumerate(groups, 1):
                        z[list(g)] = k
                    found.add(tuple(ranking._canonical(z).tolist()))
    assert found == {tuple(z.tolist()) for z in ranking.admissible_z()}
    assert len(found) == 28


def test_report_verdicts_and_run_lines(out: Path) -> None:
    """The honest verdicts of issue #14 are stated; Run lines are full commands, no paths."""
    report = (out / "REPORT.md").read_text()
    digits = report.split(SECTIONS["digits"])[1].split("\n## ")[0]
    top10 = next(line for line in digits.splitlines() if "The top 10 differ" in line)
    assert top10.endswith("**does not hold** |")
    assert "ARI num1 ranks exactly as the raw RI (checked" in top10
    assert "The best run differs between perm and num1." in digits
    ranking = report.split(SECTIONS["ranking"])[1].split("\n## ")[0]
    assert "finds exactly\n28 admissible Zs" in ranking
    for kind in ("tested", "by construction", "identity", "implied by claim 1"):
        assert kind in ranking
    assert str(out) not in report
    assert str(Path.home()) not in report
    runs = [line for line in report.splitlines() if line.startswith("Run: ")]
    assert len(runs) == (4 if HAVE_DATA else 3)
    assert all(" --out " in line and " --seed " in line for line in runs)
    if HAVE_DATA:
        genes_run = next(line for line in runs if "reproduce genes" in line)
        assert " --data " in genes_run


def test_digits_num1_orders_as_rand_index(out: Path) -> None:
    """Oracle: scikit-learn's rand_score of re-run K-means seeds orders them as ARI num1."""
    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits
    from sklearn.metrics import rand_score

    _, rows = read_csv(out / "digits" / "digits.csv")
    digits = load_digits()
    ri = [rand_score(digits.target, KMeans(n_clusters=10, init="random", n_init=1,
                                           random_state=int(r["seed"])).fit_predict(digits.data))
          for r in rows[:8]]
    num1 = [float(r["ari_num1"]) for r in rows[:8]]
    assert np.argsort(ri).tolist() == np.argsort(num1).tolist()


@NEEDS_DATA
def test_genes_fragility_and_preprocessing(out: Path) -> None:
    report = (out / "REPORT.md").read_text()
    section = report.split(SECTIONS["genes"])[1]
    assert "5 studies\nsit at chance" in section or "5 studies sit at chance" in section
    _, rows = read_csv(out / "genes" / "genes_preprocessing.csv")
    assert len(rows) == 35
    counts = {how: sum(genes.quadrant(float(r[f"ari_perm_{how}"]), float(r[f"ari_num1_{how}"]))
                       == "IV" for r in rows) for how in genes.PREPROCESSING}
    assert counts["none"] == 7  # the paper's count, with the values as in the files
    assert "| log2: " in section
    assert "| z: " in section


@NEEDS_DATA
@pytest.mark.slow
def test_genes_without_data_fetches_into_the_data_home(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """No data_dir: the fetcher downloads (from the local copy as a file:// URL) and caches."""
    pytest.importorskip("pooch")
    monkeypatch.setattr(datasets, "_BASE_URL", DATA.as_uri() + "/")
    monkeypatch.setenv("CHANCECLUST_DATA", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    report = paper.reproduce("genes", "out", quick=True, progress=False).read_text()
    assert datasets.check_gene_expression(tmp_path / "home" / "gene-expression")
    run = next(line for line in report.splitlines() if line.startswith("Run: "))
    assert run.startswith("Run: `chanceclust reproduce genes --out out --quick --seed 2017` (")
    assert "gene data fetched into the data home and checked against the SHA-256" in run


@NEEDS_DATA
def test_gene_data_found_in_the_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests find the files where fetch_gene_expression keeps them ($CHANCECLUST_DATA
    here), not only beside the checkout (issue 21)."""
    home = tmp_path / "home"
    (home / "gene-expression").mkdir(parents=True)
    for name in datasets.GENE_EXPRESSION_REGISTRY:
        (home / "gene-expression" / name).symlink_to(DATA / name)
    monkeypatch.setenv("CHANCECLUST_DATA", str(home))
    monkeypatch.setitem(globals(), "DATA_HOMES", (None, tmp_path / "elsewhere"))
    assert find_gene_data() == home / "gene-expression"
    monkeypatch.setenv("CHANCECLUST_DATA", str(tmp_path / "empty"))
    assert find_gene_data() is None
