"""The random models as values, for ``model=`` (docs/math.md#math-models).

``model="perm"``, ``"num"`` and ``"all"`` stand for :class:`Perm`, :class:`Num` and
:class:`All`; every function that takes ``model`` accepts these values too, and
:class:`PerSide` puts a different model on each side of a two-sided comparison. A new model
implements :class:`Model` (and its clusterings :class:`Side`): docs/guide/custom-models.md.

Examples
--------
>>> import chanceclust as cc
>>> from chanceclust import models
>>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
>>> cc.expected_rand_index(a, b, model=models.Num()) == cc.expected_rand_index(a, b, model="num")
True
>>> per_side = models.PerSide(true=models.Perm(), pred=models.All())
>>> round(cc.expected_rand_index(a, b, model=per_side), 6)  # p = 1/5, then B_5/B_6 = 52/203
0.646305
"""

from chanceclust._models import All, Model, Num, Perm, PerSide, Side

__all__ = ["All", "Model", "Num", "PerSide", "Perm", "Side"]
