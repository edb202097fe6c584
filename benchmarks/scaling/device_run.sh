#!/usr/bin/env bash
# The 16-core rows of issue 23 as run on the lent device machine (one command, ~6 min there).
# From the repository root, with the dask/distributed wheels the machine lacks in .whl/
# (benchmarks/README.md, "Scaling out"):
#   OUT=/some/folder BENCH_GIT=$(git rev-parse --short HEAD) bash benchmarks/scaling/device_run.sh
# Rows go to $OUT/scaling.jsonl (BENCH_RESULTS), the log to $OUT/log.txt; then
#   python benchmarks/scaling/report.py   tabulates them (copy scaling.jsonl to results/ first).
set -u
PY=${PYTHON:-python3}
TMP=${TMPDIR:-/tmp}
if [ -d .whl ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$TMP/cc-site" .whl/*.whl || exit 1
  export PYTHONPATH=$TMP/cc-site
fi
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
export BENCH_RESULTS=${OUT:?set OUT to the results folder} PYTHONUNBUFFERED=1
nproc
$PY -c "import numpy, scipy, pyarrow, dask, distributed; print('numpy', numpy.__version__, 'scipy', scipy.__version__, 'pyarrow', pyarrow.__version__, 'dask', dask.__version__)" || exit 1
# 4x10^8 rows in 64 files x 5 row groups (320 row groups), K = 10^3; pairwise: 100 x 10^5.
# Worker counts 1 and 16 first, so that a run stopped at its limit still has both ends.
$PY benchmarks/scaling/scaling_workers.py --data ${DATA:-$TMP/cc-scaling-4e8} --n ${N:-4e8} --k 1e3 \
    --files 64 --workers ${WORKERS:-1,16,2,4,8} --tasks ${TASKS:-table,pairwise_perm,pairwise_num} \
    --pairwise-m ${PM:-100} --pairwise-n ${PN:-100000} --worker-memory 6GiB 2>&1 | tee "$OUT/log.txt"
