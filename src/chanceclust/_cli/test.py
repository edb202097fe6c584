"""``chanceclust test``: Monte Carlo significance of the agreement of two clusterings."""

from __future__ import annotations

import argparse

from chanceclust._cli import inputs, options
from chanceclust._cli.options import MAX_TEST_SAMPLES
from chanceclust._cli.results import MEASURES, load, out, summary
from chanceclust._validation import ALTERNATIVES

#: significance_test's routes (chanceclust.significance.METHODS, without importing it here).
METHODS = ("monte-carlo", "exact", "gamma")


HELP = "significance of the agreement of two clusterings against random clusterings"
EXAMPLES = """\
test truth.txt pred.txt --model num --samples 999 --seed 1
test truth.txt pred.txt --measure ami --model all --one-sided --seed 1
test truth.txt pred.txt --measure smi --method exact
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="first clustering (the reference with --one-sided)")
    p.add_argument("b", metavar="B", help="second clustering")
    p.add_argument(
        "--measure",
        choices=tuple(MEASURES),
        default="ari",
        help="statistic (default: %(default)s)",
    )
    p.add_argument(
        "--alternative",
        choices=ALTERNATIVES,
        help="greater: p = P(null >= observed), less, or two-sided (default: the measure's "
        "direction of agreement, as in the library: 'less' for vi, else 'greater')",
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default="monte-carlo",
        help="monte-carlo: sample the null; exact: no sampling, the null law summed over "
        "every table (measures monotone in RI or MI); gamma: the gamma law with the exact "
        "mean and variance of MI (MI measures, perm) (default: %(default)s)",
    )
    options.add_models(p, single=True, one_sided=options.ONE_SIDED_A)
    p.add_argument(
        "--samples",
        type=options.bounded_int(1, MAX_TEST_SAMPLES),
        default=999,
        metavar="M",
        help=f"random clusterings drawn, at most {MAX_TEST_SAMPLES} (default: %(default)s)",
    )
    p.add_argument("--seed", type=options.seed, help="random seed >= 0 (default: fresh entropy)")
    options.add_inputs(p)


def run(args: argparse.Namespace) -> int:
    a, b = inputs.read_inputs(args, [args.a, args.b])
    c = inputs.aligned(args, a, b)
    ca, cb = c.codes_true, c.codes_pred
    significance_test = load("chanceclust.significance", "significance_test")
    analytic = args.method != "monte-carlo"
    progress = options.progress("test", 0 if analytic else args.samples, args)
    result = significance_test(
        args.measure,
        ca,
        cb,
        model=args.model,
        one_sided=args.one_sided,
        alternative=args.alternative,  # None: the library's default for the measure
        method=args.method,
        n_resamples=args.samples,
        rng=args.seed,
        progress=lambda done, _total: progress.set(done),
    )
    progress.close()
    alternative = result.alternative
    fields = {
        "statistic": result.statistic,
        "null_mean": result.null_mean,
        "null_std": result.null_std,
        "zscore": result.zscore,
        "pvalue": result.pvalue,
        "alternative": alternative,
        "n_samples": len(result.null_distribution),
    }
    rows = [{"quantity": k, "value": v} for k, v in fields.items()]
    meta = summary(a, b, ca, cb, args.unassigned_report)
    meta.update(measure=args.measure, model=args.model, one_sided=args.one_sided,
                samples=0 if analytic else args.samples, seed=args.seed,
                alternative=alternative, method=result.method)
    meta["summary"] += (
        f"; {args.measure} under {args.model}{', one-sided' if args.one_sided else ''}, "
        + (f"{args.method} null law" if analytic else f"{args.samples} random clusterings")
    )
    out(args, rows, ["quantity", "value"], meta)
    return 0
