"""How chanceclust computes expectations under the random models (private engine).

The public functions (:mod:`chanceclust.expectations`, :mod:`chanceclust.adjusted`,
:mod:`chanceclust.variance`, :mod:`chanceclust.significance`) validate their input, reduce a
random side to its *law* and call one function of this package for the formula. This
docstring is the map. Each entry: the formula -- the section of ``docs/math.md`` that
derives it -- the function that evaluates it (in this package unless prefixed).

- A random side as a law: a size law w(a), or a mixture of i.i.d. labelings with u labels and
  weights c_u -- #math-laws -- :func:`laws.law` (``fixed_law``, ``num_law``, ``all_law``).

  - ``all``: Stam's mixture c_u = u^N / (e u! B_N) -- ``laws._stam_mixture``.
  - ``num``: inclusion-exclusion over the unused labels -- ``laws._surjection_mixture``.
  - ``num`` with small clusters: K i.i.d. zero-truncated Poisson sizes conditioned on their
    sum (convolutions) -- ``laws._surjection_size_law``, rate by
    :func:`elementary.truncated_poisson_rate`; where the lattice variance K Var X >= 1000,
    its saddle-point (Edgeworth) expansion -- ``laws._edgeworth_size_law``.

- p_X = P(two given elements share a cluster) = sum_u c_u / u, or sum_a w(a) (a)_2 / (N)_2;
  E[RI] = p_A p_B + (1 - p_A)(1 - p_B) -- #math-expected-rand --
  ``chanceclust.expectations._pair_probabilities`` (p and 1 - p, each a sum of non-negative
  terms) and ``chanceclust.expectations._expected_rand_index``; m elements together (m = 3, 4
  for the variance, #math-rand-variance) -- :func:`laws.falling_moment`.
- E[MI] = sum_{a,b} w_A(a) w_B(b) I(a, b) for two size laws -- #math-collapsed-sums --
  :func:`mutual_information.expected_mi_of_laws` (every pair of laws enters here).
- I(a, b) = E[bd0(X, ab/N)] / N, X ~ Hypergeometric(N, a, b), for many size pairs --
  #math-perm-groups -- :func:`size_pairs.pair_information` (each unordered pair of sizes once:
  :func:`size_pairs.pair_information_grid`); pairs of mean ab/N >= 100 by the series in
  1/mean with exact hypergeometric cumulants -- #math-perm-groups --
  :func:`deviance_series.series_expected_deviance`.
- E[MI] = (1/N) sum_u c_u (sum_a w(a) D(a, u) - D(N, u)), a size law against a mixture, and
  the joint form for two mixtures -- #math-collapsed-sums --
  ``mutual_information._sizes_mixture``, ``mutual_information._mixture_mixture``.
- The slot deviance D(a, u) = u E[bd0(Y, a/u)], Y ~ Binomial(a, 1/u) -- #math-collapsed-sums
  -- :func:`mutual_information.slot_deviance`.
- sum_u c_u D(a, u) by a Chebyshev fit in log u -- #math-fits --
  :func:`mixture_fits.fitted_mixture_sums`, :func:`mixture_fits.fitted_joint_sum`.
- Windows (Bennett: mass < 1e-20 outside) and sums carried from the pmf's mode by its ratio
  recurrence -- #math-windows -- :func:`windows.tail_halfwidth`,
  :func:`windows.mode_recurrence_sums`.
- bd0 and the binomial and hypergeometric pmfs at their mode (Loader 2000) -- #math-windows
  -- :func:`pmfs.deviance`, :func:`pmfs.binom_pmf`, :func:`pmfs.hypergeom_pmf`.
- log-gamma, logsumexp, Lambert W (numpy stand-ins for scipy.special on short arrays), the
  Stirling series and falling factorials -- :mod:`elementary`.

Numerical contract, stated once here (the accuracy of each public function is in
``docs/math.md#math-accuracy``): windows drop probability mass below 1e-20 (Bennett's
inequality); mixture weights below ~1e-30 of the largest are dropped (Stam's window keeps
``log w > log(1e-30) - 10``, i.e. drops below ~4.5e-35); pmfs at their mode are accurate to
a few units of 1e-15 relative (Loader 2000); E[MI] is within 1e-13 relative of the 50-60
digit references in ``tests/reference/`` (measured at most ~8e-15).

Modules, by role: :mod:`laws` (the random models as laws), :mod:`mutual_information`
(E[MI] of two laws), :mod:`size_pairs` (I(a, b) for many size pairs: perm's whole cost),
:mod:`deviance_series` (E[bd0] of a hypergeometric of large mean: its series in 1/mean),
:mod:`mixture_fits` (Chebyshev fits in log u), :mod:`windows` (Bennett windows and
ratio-recurrence sums), :mod:`pmfs` (Loader's pmfs), :mod:`elementary` (elementary
special functions).
"""
