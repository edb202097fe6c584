#!/usr/bin/env bash
# The scaling benchmarks of issue 12 as run for benchmarks/RESULTS.md (2-core machine).
# Usage, from the repository root, chanceclust importable (pip install -e ".[dask,test]"):
#   sh benchmarks/scaling/run_all.sh [DATA_DIR]
# then: python benchmarks/scaling/report.py   (rewrites the scaling section of RESULTS.md)
set -eu
DATA=${1:-${TMPDIR:-/tmp}/chanceclust-bench-data}
PY=${PYTHON:-python}
B=benchmarks/scaling
M=${M:-100}
for model in perm num; do
  $PY $B/bench_pairwise.py --method serial --model $model --m $M
  $PY $B/bench_pairwise.py --method pool --model $model --m $M
  $PY $B/bench_pairwise.py --method dask --model $model --m $M
  $PY $B/bench_pairwise.py --method loop --model $model --m $M --subset 300
done
$PY $B/bench_pairwise.py --method sklearn --model perm --m $M --subset 100
# the allocator setting Dask's nanny gives its workers, here in one plain process
MALLOC_TRIM_THRESHOLD_=65536 $PY $B/bench_pairwise.py --method serial --model perm --m $M
MALLOC_TRIM_THRESHOLD_=65536 $PY $B/bench_pairwise.py --method loop --model perm --m $M --subset 300
$PY $B/bench_summary.py --n ${SUMMARY_N:-2e7} --k 1e6
$PY $B/check_mi_accuracy.py --n ${SUMMARY_N:-2e7} --k 1e6
$PY $B/bench_parquet.py --data $DATA/k1e3 --n ${PARQUET_N:-2e7} --k 1e3
$PY $B/bench_parquet.py --data $DATA/k1e5 --n ${PARQUET_N:-2e7} --k 1e5
# the size (~6 min on the loaded 2-core machine)
$PY $B/bench_parquet.py --data $DATA/k1e3-n1e8 --n 1e8 --k 1e3
