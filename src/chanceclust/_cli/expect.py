"""``chanceclust expect``: E[RI] and E[MI] under a random model, from N, K or sizes."""

from __future__ import annotations

import argparse

from chanceclust._cli import options
from chanceclust._cli.options import MAX_N
from chanceclust._cli.results import load, out


HELP = "expected Rand index and mutual information under a random model, without data"
EXAMPLES = """\
expect --n 1000 --k-true 5 --k-pred 8 --model num --model all
expect --n 10 --sizes-true 5,3,2 --sizes-pred 4,3,3 --model perm
expect --n 10 --sizes-true 5,3,2 --k-pred 4 --model num --one-sided
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--n", type=options.bounded_int(1, MAX_N), required=True,
        help="number of elements (< 2**63)",
    )
    for side, which in (("true", "first"), ("pred", "second")):
        p.add_argument(f"--k-{side}", type=options.positive_int, metavar="K",
                       help=f"clusters of the {which}")
    for side, which in (("true", "first"), ("pred", "second")):
        p.add_argument(f"--sizes-{side}", type=options.int_list, metavar="S1,S2,...",
                       help=f"cluster sizes of the {which}")
    p.add_argument(
        "--measure",
        action="append",
        type=options.comma_list(("ri", "mi"), "measure"),
        metavar="LIST",
        help="ri (expected Rand index) and/or mi (expected mutual information, nats); "
        "default: ri,mi",
    )
    options.add_models(
        p, one_sided="the first clustering (--sizes-true) is a fixed reference; only the "
        "other is random",
    )


def _check_options(args: argparse.Namespace, models: list[str]) -> None:
    """The library's rules for the two sides (``_validation.check_summaries``), checked
    before any computation and with the option names in the messages (exit status 2)."""
    from chanceclust._validation import check_setting, check_summaries

    names = {"n": "--n", "sizes_true": "--sizes-true", "sizes_pred": "--sizes-pred",
             "n_clusters_true": "--k-true", "n_clusters_pred": "--k-pred"}
    for model in models:
        check_summaries(args.n, check_setting(model, args.one_sided), args.sizes_true,
                        args.k_true, args.sizes_pred, args.k_pred, names=names)


def run(args: argparse.Namespace) -> int:
    measures = options.flatten(args.measure, ["ri", "mi"])
    funcs = {
        "ri": ("E[RI]", load("chanceclust.expectations", "expected_rand_index_baseline")),
        "mi": ("E[MI]", load("chanceclust.expectations", "expected_mutual_information_baseline")),
    }
    models = options.models(args)
    _check_options(args, models)
    sided = "one-sided" if args.one_sided else "two-sided"
    rows = []
    for name in measures:
        quantity, func = funcs[name]
        for model in models:
            value = func(
                args.n,
                model=model,
                one_sided=args.one_sided,
                sizes_true=args.sizes_true,
                sizes_pred=args.sizes_pred,
                n_clusters_true=args.k_true if args.sizes_true is None else len(args.sizes_true),
                n_clusters_pred=args.k_pred if args.sizes_pred is None else len(args.sizes_pred),
            )
            rows.append(
                {"quantity": quantity, "model": model, "sided": sided, "value": float(value)}
            )
    meta = {"n": args.n, "k_true": args.k_true, "k_pred": args.k_pred,
            "sizes_true": args.sizes_true, "sizes_pred": args.sizes_pred}
    out(args, rows, ["quantity", "model", "sided", "value"], meta)
    return 0
