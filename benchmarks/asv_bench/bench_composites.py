"""compare, pairwise, significance_test and confidence_interval."""

from __future__ import annotations

import numpy as np

import chanceclust as cc

from ._inputs import labels, pair


class Compare:
    """compare() of two labelings (every row it prints by default)."""

    params = [10**3, 10**5]
    param_names = ["n"]
    timeout = 300

    def setup(self, n):
        self.a, self.b = pair("zipf", n, 20)

    def time_compare(self, n):
        cc.compare(self.a, self.b)


class Pairwise:
    """pairwise() of M labelings of N elements, perm AMI, serial."""

    params = ([(10, 10**4), (50, 10**5)],)
    param_names = ["m_n"]
    timeout = 600

    def setup(self, m_n):
        m, n = m_n
        self.items = [labels("dirichlet", n, 30, seed) for seed in range(m)]

    def time_pairwise_ami(self, m_n):
        cc.pairwise(self.items, measure="ami")


class Significance:
    """significance_test of ARI and AMI under perm by permutations (999 resamples)."""

    params = ([10**3, 10**5], ["ari", "ami"])
    param_names = ["n", "measure"]
    timeout = 300

    def setup(self, n, measure):
        self.a, self.b = pair("zipf", n, 10)

    def time_significance_test(self, n, measure):
        cc.significance_test(measure, self.a, self.b, model="perm", n_resamples=999, rng=0)


class ConfidenceInterval:
    """confidence_interval of ARI and AMI: N = 10^7 labels in a 100 x 100 table whose diagonal
    holds half the elements (a real agreement: BCa needs one), 999 and 9,999 resamples."""

    params = (["ari", "ami"], [999, 9999])
    param_names = ["measure", "n_resamples"]
    timeout = 600

    def setup(self, measure, n_resamples):
        if not hasattr(cc, "confidence_interval"):
            raise NotImplementedError("confidence_interval is not in this commit")
        rng = np.random.default_rng(0)
        p = np.full((100, 100), 0.5 / 10**4) + np.eye(100) * 0.5 / 100
        self.table = rng.multinomial(10**7, p.ravel() / p.sum()).reshape(100, 100)

    def time_confidence_interval(self, measure, n_resamples):
        cc.confidence_interval(measure, contingency=self.table, n_resamples=n_resamples, rng=0)
