"""Tests of chanceclust._output: the CLI's text, TSV and JSON writers (read back with io)."""

from __future__ import annotations

import io
import json

import pytest

from chanceclust._output import format_text_table, write_clusterings, write_rows
from chanceclust.exceptions import InvalidInputError
from chanceclust.io import read_clustering


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_write_rows_formats():
    rows = [{"measure": "ari", "model": "perm", "value": 0.1 + 0.2},
            {"measure": "ri", "model": None, "value": 1.0}]
    cols = ["measure", "model", "value"]
    out = io.StringIO()
    write_rows(rows, cols, "tsv", out)
    assert out.getvalue().splitlines() == [
        "measure\tmodel\tvalue", f"ari\tperm\t{0.1 + 0.2!r}", "ri\t\t1.0"]
    out = io.StringIO()
    write_rows(rows, cols, "json", out, meta={"n": 3})
    doc = json.loads(out.getvalue())
    assert doc["n"] == 3
    assert doc["results"][0]["value"] == 0.1 + 0.2  # full precision round-trips
    assert doc["results"][1]["model"] is None
    text = format_text_table(rows, cols, digits=3)
    assert text.splitlines() == ["measure  model  value", "ari      perm   0.300",
                                 "ri       -      1.000"]
    with pytest.raises(InvalidInputError, match="`fmt`"):
        write_rows(rows, cols, "xml", out)


def test_write_clusterings_round_trip(tmp_path):
    samples = [[0, 1, 1], [2, 0, 1]]
    out = io.StringIO()
    write_clusterings(samples, "tsv", out)
    p = write(tmp_path, "s.tsv", out.getvalue())
    assert read_clustering(p, column="sample2", id_column="element").labels == ["2", "0", "1"]
    out = io.StringIO()
    write_clusterings(samples, "json", out)
    assert json.loads(out.getvalue()) == samples
    out = io.StringIO()
    write_clusterings(samples, "text", out)
    assert out.getvalue() == "0 1 1\n2 0 1\n"
