"""Data sets on demand: the de Souto et al. (2008) gene expression benchmark.

:func:`fetch_gene_expression` downloads the 35 labelled cancer microarray studies used in
Section 5.4 of Gates & Ahn (2017) from a public copy pinned to one commit, checks every file
against the SHA-256 registry kept here, and caches them, so a second call is offline.
Downloading needs the optional ``pooch`` package (in the ``paper`` extra: ``pip install ".[paper]"`` from a checkout); it is
imported only when a download is needed, never by ``import chanceclust``.

The files are plain tab-separated text, genes as rows and samples as columns, row 2 the class
labels (:func:`chanceclust.paper.genes.read_study` reads one). The data belong to de Souto et
al. and the original study authors:

    de Souto MCP, Costa IG, de Araujo DSA, Ludermir TB, Schliep A. Clustering cancer gene
    expression data: a comparative study. BMC Bioinformatics 9:497 (2008).
    doi:10.1186/1471-2105-9-497
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from chanceclust.exceptions import InvalidFileError, InvalidInputError

__all__ = [
    "GENE_EXPRESSION_REGISTRY",
    "GENE_EXPRESSION_SOURCE",
    "check_gene_expression",
    "fetch_gene_expression",
    "get_data_home",
]

#: The public copy the files come from: one commit, so the bytes cannot change under us.
GENE_EXPRESSION_SOURCE = ("https://github.com/dcyoung/MultinomialRegression/tree/"
                          "2a8f8b6f77afdf0587f1f9db58356e514c340179/src/data")
#: Raw-file base URL of that commit (file name appended).
_BASE_URL = ("https://raw.githubusercontent.com/dcyoung/MultinomialRegression/"
             "2a8f8b6f77afdf0587f1f9db58356e514c340179/src/data/")
#: Environment variable that sets the data home (like scikit-learn's SCIKIT_LEARN_DATA).
DATA_HOME_ENV = "CHANCECLUST_DATA"
#: Sub-folder of the data home that holds the 35 files.
_FOLDER = "gene-expression"

# Study, SHA-256 and size in bytes of each file <study>_database.txt.
_REGISTRY_TABLE = """
alizadeh-2000-v1 32c84ddcf25637a3c644737cd4713796a9f89e3e7921bbdbb1889faf3eebee6d 254245
alizadeh-2000-v2 722208727f878ea624feb13429490ec05adf55a817a967cae4909270e93692e8 708159
alizadeh-2000-v3 72134615b6094f149be7a64f18cb2f25feb712d5966efbc029427dca7c7e805b 708201
armstrong-2002-v1 2bf3119a539daff84e2b8df2d428dd34fed8ac342823053f0276bc4cddde95ef 280126
armstrong-2002-v2 c91209c2fa9f579fa04dc69a0f526d02ed384eba233ea18f7328f25dc9f22697 588034
bhattacharjee-2001 1024038e2e298bb71aebacb320768ef6f2f348358fdadeba61e04bfad007d1f9 1734001
bittner-2000 a6c34f536938e86f120d87214be830bbe9494f197bd354671073a840bcc6af86 462246
bredel-2005 1c63bb041f1fbc3c8c1cb08a70564bd0f27a825cc3c8169d40054a9d70bd7f4a 477594
chen-2002 c01ce5d8f29a5b582bd37029137df10bf815672199411ff96e4260db76c6cd88 85153
chowdary-2006 b7649c2b6b18326feaa1d8e25dff36ae61ee24e5d3ff4e8c62e7c68062a18949 90024
dyrskjot-2003 e28982a21c9f53b00beff2fd9469020778b2733558026b42a58977e3cc3cc4fd 247407
garber-2001 26256d5dd854ad8351158c17b748d5149ad899864f478cbb82445908d9508447 1640511
golub-1999-v1 7f6b0705cc85ec33eef4d8ed5fad284a0b07e03d7fd0b7f9d8f1dd1d434c00fb 480804
golub-1999-v2 f2c0f1afa1ec4a77f32217522cad2946787849a1bf111e22f39abed62e781b31 480898
gordon-2002 6bbec06ef242c9128b1724a90b7c2470649099c1b013631bb37555b264b547c9 1397868
khan-2001 fcbda77b09e3d93a760bd7dddbb4871dbdc66235336b721055163a0d7a969cee 423412
laiho-2007 e9863f4bb3ab47915e3551bff84b3c4d598db81b1a3c6ae1133ce259399579d7 413803
lapointe-2004-v1 ac649ecd3f1b8d9e816f12398047d195ba4c9c0aea1969a1b6ac9e74776acc5b 608984
lapointe-2004-v2 809c14f7d1230cd372cc63cd7f5c9facf045ec4cc71006675d2b28f12c9c3dfc 1495367
liang-2005 7967f3ce3b33fa75e7065fb9e8a26bc9246e89b01419a87f58b3f736f92b44d9 288595
nutt-2003-v1 3c82e8a029cd8709fd272b64976557c91cdd57eff2caed445a1152fd826e991f 412629
nutt-2003-v2 4d89d758fb83b84778eb2c6779de1ff54e822a911dca71df4ac9fa677f9b7f7b 174577
nutt-2003-v3 3d03d4e349b179b47ea8ff2c0cb023cf6ba3fc36b049d7029eb0f4ea4d4d366b 152926
pomeroy-2002-v1 b883406e53c96816baa0e0448b99da1dc1f9f43b28301a4ff41c042b4bb2371d 109936
pomeroy-2002-v2 ceb220750fb0e2977282af9e3a88549ecec66e6891a8018c58e498075579febe 213017
ramaswamy-2001 c1dfb3829fb95e65ef74b143a0fc6a2b6240b9ae5552e6dc632cd22f70d42d65 853389
risinger-2003 ec49dc1181f5ca8fcb03d873ce145c3ea0ad3b132d83f90d869a49559f185004 376110
shipp-2002-v1 3d58071d2e404dd84dc9794fe50f3d3b2f3162a6a93a54f0c8b1a09ec35beff2 221016
singh-2002 561c6667625ff3877b3e21e3c4da3ffca6a282d3ec1c838c6995cade759c38ff 135415
su-2001 f5ee02d1d32d33aa850317d81f8c88555e93242f14248a19a92493c011456eaa 959813
tomlins-2006-v2 682c09e5886e4b4f3c6009523f1cabd60defd4669f74982ee280a380f2d61870 656428
tomlins-2006 8f1fa8373b1e90615d540d18ac5d6335e28535159e3502cb19b16dc444223d29 1329191
west-2001 cf91b485edde618b4a2ec1adbf23849ff79940b6cedcf9103c2a3f4492e03698 217333
yeoh-2002-v1 9179714d5ef593df0e8b90b09e3a983c3c168d3705442611e68ab973ce9333e8 2588880
yeoh-2002-v2 c9a00005e6d4a5d602f4a471dcbdde89d6b8e28a127299202f29ded4da51428a 2589493
"""
#: File name -> (SHA-256, size in bytes) of the 35 files (de Souto et al. 2008).
GENE_EXPRESSION_REGISTRY: dict[str, tuple[str, int]] = {
    f"{study}_database.txt": (sha, int(size))
    for study, sha, size in (line.split() for line in _REGISTRY_TABLE.strip().splitlines())
}


def get_data_home(data_home: str | os.PathLike[str] | None = None) -> Path:
    """The folder under which chanceclust keeps downloaded data (not created here).

    Parameters
    ----------
    data_home : str or path-like, optional
        Used as given (``~`` expanded). Default: the environment variable
        ``CHANCECLUST_DATA`` if set and not empty, else the platform's user cache folder
        for ``chanceclust`` (``pooch.os_cache``: ``~/.cache/chanceclust`` on Linux,
        ``~/Library/Caches/chanceclust`` on macOS, ``%LOCALAPPDATA%\\chanceclust\\Cache`` on
        Windows; ``XDG_CACHE_HOME`` is honoured).

    Returns
    -------
    Path

    Examples
    --------
    >>> str(get_data_home("my-data"))
    'my-data'
    """
    if data_home is None:
        data_home = os.environ.get(DATA_HOME_ENV) or None
    if data_home is None:
        return Path(_require_pooch().os_cache("chanceclust"))
    return Path(data_home).expanduser()


def check_gene_expression(folder: str | os.PathLike[str]) -> Path:
    """Check that ``folder`` holds the 35 gene expression files, byte for byte.

    Every file named in :data:`GENE_EXPRESSION_REGISTRY` must be there with its SHA-256;
    other files in the folder are ignored.

    Parameters
    ----------
    folder : str or path-like

    Returns
    -------
    Path
        ``folder``.

    Raises
    ------
    FileNotFoundError
        If ``folder`` is not a folder or some files are missing (all are named).
    ValueError
        If a file is empty or differs from the registry (each such file is named).
    """
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise FileNotFoundError(f"gene expression folder {folder} does not exist"
                                + (" (it is a file)" if folder.exists() else "")
                                + "; " + _where_to_get(folder))
    missing, wrong = _problems(folder)
    if missing:
        raise FileNotFoundError(
            f"{len(missing)} of the {len(GENE_EXPRESSION_REGISTRY)} gene expression files are "
            f"missing from {folder}: {_names(missing)}; " + _where_to_get(folder))
    if wrong:
        raise InvalidInputError("; ".join(wrong) + ". " + _where_to_get(folder, first='Download'))
    return folder


def fetch_gene_expression(data_home: str | os.PathLike[str] | None = None, *,
                          download_if_missing: bool = True,
                          progress: bool | None = None) -> Path:
    """Folder of the 35 de Souto et al. (2008) gene expression files, downloaded if needed.

    The files live in ``<data home>/gene-expression/``. Those missing or not matching the
    SHA-256 registry are downloaded from :data:`GENE_EXPRESSION_SOURCE` (one pinned commit
    of a public copy, 22.8 MiB in all) with ``pooch`` and checked against the registry
    before they are kept; the cached files are checked again on every call.

    Parameters
    ----------
    data_home : str or path-like, optional
        Data home (see :func:`get_data_home`): this argument, else ``$CHANCECLUST_DATA``,
        else the platform's user cache folder.
    download_if_missing : bool, default=True
        If False, raise instead of downloading.
    progress : bool, optional
        Report the download on stderr (a line saying what goes where, then a bar); None
        means only when stderr is a terminal. Nothing is printed when nothing is downloaded.

    Returns
    -------
    Path
        The folder holding the 35 verified ``*_database.txt`` files.

    Raises
    ------
    ImportError
        If a download is needed and ``pooch`` is not installed.
    ConnectionError
        If a file cannot be downloaded (e.g. offline); the message says what to download
        and where to put it.
    FileNotFoundError
        If files are missing and ``download_if_missing`` is False.
    ValueError
        If a downloaded file does not match the registry.

    Examples
    --------
    >>> from chanceclust.datasets import fetch_gene_expression
    >>> folder = fetch_gene_expression()  # doctest: +SKIP
    >>> len(list(folder.glob("*_database.txt")))  # doctest: +SKIP
    35
    """
    folder = get_data_home(data_home) / _FOLDER
    if folder.exists() and not folder.is_dir():
        raise FileNotFoundError(f"{folder} is a file, not a folder; " + _where_to_get(folder))
    missing, wrong = _problems(folder)
    todo = sorted(set(missing) | {w.split(":")[0] for w in wrong})
    if not todo:
        return folder
    if not download_if_missing:
        raise FileNotFoundError(
            f"{len(todo)} gene expression files are missing or damaged in {folder}: "
            f"{_names(todo)}; " + _where_to_get(folder))
    pooch = _require_pooch()
    folder.mkdir(parents=True, exist_ok=True)
    fetcher = pooch.create(path=folder, base_url=_BASE_URL, registry={
        name: f"sha256:{GENE_EXPRESSION_REGISTRY[name][0]}" for name in todo})
    size = sum(GENE_EXPRESSION_REGISTRY[n][1] for n in todo)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    if show:
        sys.stderr.write(f"chanceclust: downloading {len(todo)} gene expression files "
                         f"({size / 2**20:.1f} MiB) from {_BASE_URL} into {folder}\n")
    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel("WARNING")  # our own progress replaces pooch's line per file
    done = 0
    try:
        for name in todo:
            try:
                fetcher.fetch(name, downloader=_downloader(pooch))
            except ValueError as exc:  # pooch: hash mismatch of the downloaded file
                raise InvalidFileError(name, None, "the downloaded file does not match its "
                                       f"SHA-256 in chanceclust's registry ({exc}); "
                                       + _where_to_get(folder)) from exc
            except Exception as exc:  # requests / OS errors: offline, proxy, HTTP 404...
                raise ConnectionError(f"could not download {_BASE_URL}{name} "
                                      f"({type(exc).__name__}: {exc}). "
                                      + _where_to_get(folder, first='Download')) from exc
            done += GENE_EXPRESSION_REGISTRY[name][1]
            if show:
                _bar(done, size)
    finally:
        logger.setLevel(level)
        if show:
            sys.stderr.write("\n")
    return folder


def _problems(folder: Path) -> tuple[list[str], list[str]]:
    """(missing files, 'name: what is wrong' for the others that do not match)."""
    missing, wrong = [], []
    for name, (sha, size) in GENE_EXPRESSION_REGISTRY.items():
        path = folder / name
        if not path.is_file():
            missing.append(name)
        elif path.stat().st_size == 0:
            wrong.append(f"{name}: {path} is empty")
        elif _sha256(path) != sha:
            wrong.append(f"{name}: {path} differs from the published file ({path.stat().st_size}"
                         f" bytes, SHA-256 {_sha256(path)[:16]}...; expected {size} bytes, "
                         f"{sha[:16]}...)")
    return missing, wrong


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _names(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _where_to_get(folder: Path, first: str = "download") -> str:
    """What to download, from where, and where to put it (the offline instructions)."""
    return (f"{first} the {len(GENE_EXPRESSION_REGISTRY)} files *_database.txt (22.8 MiB) of "
            f"de Souto et al. (2008) from {GENE_EXPRESSION_SOURCE} and put them in {folder} "
            "(or pass their folder as --data DIR / data_dir=); their SHA-256 hashes are in "
            "chanceclust.datasets.GENE_EXPRESSION_REGISTRY")


def _bar(done: int, total: int) -> None:
    filled = 30 * done // max(total, 1)
    sys.stderr.write(f"\r{'gene data':>12} [{'#' * filled}{'-' * (30 - filled)}] "
                     f"{done / 2**20:5.1f}/{total / 2**20:.1f} MiB")
    sys.stderr.flush()


def _downloader(pooch: Any) -> Callable[..., Any]:
    """pooch's HTTP(S) downloader, plus ``file://`` URLs (a local mirror, used by the tests)."""
    http = pooch.HTTPDownloader(progressbar=False, timeout=60)

    def download(url: str, output_file: Any, fetcher: Any, check_only: bool = False) -> Any:
        parsed = urlparse(url)
        if parsed.scheme != "file":
            return http(url, output_file, fetcher, check_only=check_only)
        source = Path(url2pathname(parsed.path))
        if check_only:
            return source.is_file()
        shutil.copyfile(source, output_file)  # FileNotFoundError if the mirror lacks it
        return None

    return download


def _require_pooch() -> Any:
    try:
        import pooch  # optional dependency, imported on use
    except ImportError as exc:
        raise ImportError("downloading the gene expression data needs pooch; install it with: "
                          "pip install pooch (or, from a checkout of chanceclust: pip install '.[paper]')") from exc
    return pooch
