"""``chanceclust sample``: random clusterings drawn from a random model."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chanceclust._cli import options
from chanceclust._cli.options import MAX_COUNT, MAX_SAMPLE_LABELS, UsageError
from chanceclust._cli.results import load
from chanceclust._output import write_clusterings
from chanceclust._validation import MODELS, check_model


HELP = "draw random clusterings from a random model"
DIGITS = False  # integer labels: no --digits to choose
EXAMPLES = """\
sample --n 10 --model all --count 3 --seed 1
sample --n 100 --model num --k 4 --seed 7 > random.txt
sample --n 10 --model perm --sizes 5,3,2 --count 4 --format tsv --seed 1
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--n",
        type=options.bounded_int(1, MAX_SAMPLE_LABELS),
        required=True,
        help=f"number of elements (at most {MAX_SAMPLE_LABELS})",
    )
    p.add_argument("--model", choices=MODELS, required=True, help="random model")
    p.add_argument("--k", type=options.positive_int, help="number of clusters (model num)")
    p.add_argument(
        "--sizes", type=options.int_list, metavar="S1,S2,...", help="cluster sizes (perm)"
    )
    p.add_argument(
        "--count",
        type=options.bounded_int(1, MAX_COUNT),
        default=1,
        help=f"how many clusterings (default: 1; --n times --count at most {MAX_SAMPLE_LABELS})",
    )
    p.add_argument("--seed", type=options.seed, help="random seed >= 0 (default: fresh entropy)")


def _sampler_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """--k and --sizes checked against what --model needs, as the sampler's keywords."""
    model = check_model(args.model)
    if model.needs == "n_clusters" and args.k is None:
        raise UsageError(f"--model {model.name} needs --k (number of clusters)")
    if model.needs == "sizes" and args.sizes is None:
        raise UsageError(f"--model {model.name} needs --sizes (cluster sizes, e.g. 5,3,2)")
    if args.sizes is not None and model.needs != "sizes":
        raise UsageError(f"--sizes applies to --model perm, not --model {model.name}")
    if args.k is not None and model.needs is None:
        raise UsageError(
            f"--k applies to --model num (or perm, as len(--sizes)), not --model {model.name}"
        )
    if args.sizes is not None and sum(args.sizes) != args.n:
        raise UsageError(f"--sizes add up to {sum(args.sizes)}, not --n {args.n}")
    if args.sizes is not None and args.k is not None and args.k != len(args.sizes):
        raise UsageError(f"--sizes has {len(args.sizes)} clusters but --k is {args.k}")
    if args.k is not None and args.k > args.n:
        raise UsageError(f"--k {args.k} is more than --n {args.n} (at most N clusters)")
    given = {"n_clusters": args.k, "sizes": args.sizes}
    return {} if model.needs is None else {model.needs: given[model.needs]}


def run(args: argparse.Namespace) -> int:
    import numpy as np

    keywords = _sampler_keywords(args)
    if args.n * args.count > MAX_SAMPLE_LABELS:
        raise UsageError(
            f"--n {args.n} times --count {args.count} is {args.n * args.count} labels; "
            f"at most {MAX_SAMPLE_LABELS} are written at once (run it several times)"
        )
    random_clusterings = load("chanceclust.samplers", "random_clusterings")
    rng = np.random.default_rng(args.seed)
    samples = np.asarray(random_clusterings(args.count, args.n, model=args.model, rng=rng,
                                            **keywords))  # fmt: skip
    write_clusterings(list(samples), args.format, sys.stdout)
    return 0
