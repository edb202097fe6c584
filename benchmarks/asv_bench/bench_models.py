"""ARI, AMI and SMI under every random model and side."""

from __future__ import annotations

import chanceclust as cc

from ._inputs import pair

MODELS = [("perm", False), ("num", False), ("num", True), ("all", False), ("all", True)]


def _name(model, one_sided):
    return f"{model}{'-one-sided' if one_sided else ''}"


class Models:
    """AMI and ARI at N = 10^3 and 10^5 (K = 10 and 100) under each model and side."""

    params = ([10**3, 10**5], [10, 100], [_name(*m) for m in MODELS])
    param_names = ["n", "k", "model"]
    timeout = 300

    def setup(self, n, k, model):
        self.a, self.b = pair("zipf", n, k)
        self.kw = {"model": model.split("-")[0], "one_sided": model.endswith("one-sided")}

    def time_ari(self, n, k, model):
        cc.adjusted_rand_index(self.a, self.b, **self.kw)

    def time_ami(self, n, k, model):
        cc.adjusted_mutual_information(self.a, self.b, **self.kw)


class ExactSMI:
    """The exact SMI (Var[MI]): N = 1000 with 4 x 700 clusters, and N = 10^4, 10 x 10."""

    params = ([_name(*m) for m in MODELS], ["1000-4x700", "10000-10x10"])
    param_names = ["model", "case"]
    timeout = 600

    def setup(self, model, case):
        n, shape = case.split("-")
        k_true, k_pred = (int(x) for x in shape.split("x"))
        self.a = pair("uniform", int(n), k_true)[0]
        self.b = pair("uniform", int(n), k_pred)[1]
        self.kw = {"model": model.split("-")[0], "one_sided": model.endswith("one-sided")}

    def time_smi(self, model, case):
        cc.standardized_mutual_information(self.a, self.b, **self.kw)
