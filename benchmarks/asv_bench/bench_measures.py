"""The single calls at the sizes users have: the table, ARI and AMI under perm."""

from __future__ import annotations

import chanceclust as cc

from ._inputs import SHAPES, pair


class PermSizes:
    """N from 10^2 to 10^7, K from 2 to 10^4, every shape; perm, two-sided."""

    params = ([10**2, 10**4, 10**5, 10**6, 10**7], [2, 100, 10**4], list(SHAPES))
    param_names = ["n", "k", "shape"]
    timeout = 300

    def setup(self, n, k, shape):
        if k >= n:
            raise NotImplementedError("K >= N: not a case")
        self.a, self.b = pair(shape, n, k)

    def time_contingency_table(self, n, k, shape):
        cc.contingency_table(self.a, self.b)

    def time_ari(self, n, k, shape):
        cc.adjusted_rand_index(self.a, self.b)

    def time_ami(self, n, k, shape):
        cc.adjusted_mutual_information(self.a, self.b)


class SmallCalls:
    """N = 100: where the fixed costs of a call are most of it."""

    def setup(self):
        self.a, self.b = pair("uniform", 100, 5)

    def time_ari(self):
        cc.adjusted_rand_index(self.a, self.b)

    def time_ami(self):
        cc.adjusted_mutual_information(self.a, self.b)

    def time_contingency_table(self):
        cc.contingency_table(self.a, self.b)

    def time_ami_num_one_sided(self):
        cc.adjusted_mutual_information(self.a, self.b, model="num", one_sided=True)

    def time_ami_all(self):
        cc.adjusted_mutual_information(self.a, self.b, model="all")


def timeraw_first_ari():
    """Import and the first ARI of a fresh process (the cold cost users see once)."""
    return """
    import chanceclust as cc
    cc.adjusted_rand_index([0, 0, 1, 1, 2], [0, 1, 1, 2, 2])
    """


def timeraw_import():
    """``import chanceclust`` alone, in a fresh process."""
    return "import chanceclust"
