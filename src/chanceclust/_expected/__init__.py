"""How chanceclust computes expectations under the random models (private engine).

This package is the engine: its numeric primitives and the modules above them, which import
nothing public and raise only ``InternalError`` (their layers are in ``ARCHITECTURE.md``, which
``tests/test_architecture.py`` holds equal to the imports).

The public functions validate their input, reduce a random side to its *law* and call one
function of this package for the formula. This docstring is the map. Each entry: the formula
-- the section of ``docs/math.md`` that derives it -- the function that evaluates it (in this
package unless prefixed); every switch between routes, with its threshold, accuracy and
test, is in the table of ``docs/math.md#math-routes``.

- A random side as a law: a size law w(a), or a mixture of i.i.d. labelings with u labels and
  weights c_u -- #math-laws -- ``laws.fixed_law``, ``laws.num_law``, ``laws.all_law``;
  the random sides of :mod:`chanceclust._models` (``FixedSide``, ``NumSide``, ``AllSide``)
  hold them.

  - ``all``: Stam's mixture c_u = u^N / (e u! B_N) -- ``laws._stam_mixture`` for N < 10^4;
    from ``laws.STAM_QUADRATURE_FROM`` = 10^4 a 48-node Gauss-Hermite rule in real u,
    :class:`laws.StamQuadrature` (``laws._stam_quadrature``).
  - ``num``: K = 1 and K >= N - 1 are fixed size sequences; otherwise inclusion-exclusion over
    the unused labels -- ``laws._surjection_mixture``, accepted while sum |c| <= 2 T(N, K).
  - ``num`` with small clusters: K i.i.d. zero-truncated Poisson sizes conditioned on their
    sum -- ``laws._small_cluster_size_law``: convolutions (``laws._surjection_size_law``,
    ``laws._convolve_trimmed``: direct up to lengths' product 2^22, FFT beyond), rate by
    :func:`elementary.truncated_poisson_rate`; where the lattice variance K Var X >=
    ``edgeworth.LATTICE_EXPANSION_FROM`` (1000), the saddle-point (Edgeworth) expansion --
    ``laws._edgeworth_size_law``, from the series of :mod:`edgeworth`.

- p_X = P(two given elements share a cluster) = sum_u c_u / u, or sum_a w(a) (a)_2 / (N)_2;
  E[RI] = p_A p_B + (1 - p_A)(1 - p_B) -- #math-expected-rand -- :func:`laws.pair_probabilities`
  (p and 1 - p, each a sum of non-negative terms; the one definition of p_X) and
  ``chanceclust.expectations._expected_rand_index_and_spread``; m elements together (m = 3, 4
  for the variance) -- :func:`laws.falling_moment`; p_X as an exact fraction for RI - E[RI] --
  :func:`laws.exact_pair_probability`.
- Var[RI] -- #math-rand-variance -- ``chanceclust.variance`` from (p1, g, v) of each random
  side, :func:`laws.inverse_moments`: for a mixture (Stam's law or quadrature, num's
  inclusion-exclusion) offsets d = 1/u - 1/u0 from the heaviest slot; for a num size law
  v = p1^2 expm1(c), c the curvature log[S(N-2,K) S(N,K) / S(N-1,K)^2] --
  :func:`curvature.stirling2_ratio_curvature`, by three routes: the asymptotic expansion
  (``curvature._stirling2_curvature_expansion``, K Var X >= 1000), exact integers
  (``curvature._stirling2_curvature_exact``, N K <= ``curvature.CURVATURE_EXACT_MAX_NK`` =
  10^6), Fourier trapezoid sums (``curvature._stirling2_curvature_fourier``, the rest; its
  lattice sums from :mod:`lattice`).
- E[MI] = sum_{a,b} w_A(a) w_B(b) I(a, b) for two size laws -- #math-collapsed-sums --
  :func:`mutual_information.expected_mi_of_laws` (every pair of laws enters here).
- I(a, b) = E[bd0(X, ab/N)] / N, X ~ Hypergeometric(N, a, b), for many size pairs --
  #math-perm-groups -- :func:`size_pairs.pair_information`; the weighted sum over all size
  pairs streamed in 2-D blocks, each unordered pair of sizes once --
  :func:`size_pairs.information_sum`; pairs of mean ab/N <= 1 by the factorial-moment series
  -- :func:`small_means.small_mean_information`, :func:`small_means.small_mean_block`; means
  1 .. 10 in blocks by Horner's rule over the pmf ratios (``size_pairs._MidBlocks``, the blocks of one sum
  stepped together) where a law pair's sum has at least ``size_pairs._MID_MIN_CELLS`` of them;
  rectangles of >= 4096 gathered pairs of means 10 .. 100 interpolated in (a, b) from exact
  values at rounded Chebyshev nodes, where checks between the nodes agree
  (``size_pairs._smooth_block``; the nodes and basis from :mod:`interpolation`);
  pairs of mean ab/N >= 100 by the series in
  1/mean with exact hypergeometric cumulants -- :func:`deviance_series.series_expected_deviance`;
  the others grouped (``size_pairs._grouped_information``) or at each pair's mode
  (``size_pairs._general_information``); beyond N = ``size_pairs.INT64_EXACT_MAX_N``
  (3,037,000,499) without int64 products -- ``size_pairs._huge_pair_information``,
  ``size_pairs._folded_information``.
- E[MI] = (1/N) sum_u c_u (sum_a w(a) D(a, u) - D(N, u)), a size law against a mixture, and
  the joint form for two mixtures -- #math-collapsed-sums --
  ``mutual_information._sizes_mixture``, ``mutual_information._mixture_mixture``
  (``mutual_information._joint_direct``: pairs of weight below 1e-22 of the largest dropped,
  slot products u_A u_B >= 2^62 as real slots).
- The slot deviance D(a, u) = u E[bd0(Y, a/u)], Y ~ Binomial(a, 1/u) -- #math-collapsed-sums
  -- :func:`mutual_information.slot_deviance`: windows from 0 of at most 48 points by the
  recurrence from P(0) (``mutual_information._short_slot_deviance``), variance >= 2^20 by the
  moment expansion (``mutual_information._expanded_slot_deviance``), otherwise Loader's pmf at
  the mode.
- Var[MI] given both sides' size moments (perm; num and all up to their size-sum ranges): the
  same-cell sum directly, the pairs of distinct cells by their Lancaster expansion over the
  Hahn polynomials of each cell's law -- #math-mi-lancaster -- :func:`lancaster.hahn_coefficients`
  (three-term recurrence, Parseval remainders; a cell's coefficients stop where a shadow
  recurrence puts their rounding error above ``mi_variance.COEF_TOL`` of its sd),
  :func:`lancaster.correlation_factors`, summed
  per order by ``mi_variance._lancaster_pairs`` (8 orders, then 48: ``mi_variance.LANCASTER_ORDERS``,
  until the bound of the rest is <= ``mi_variance.LANCASTER_TOL`` of the same-cell sum);
  where it is not reached, the pair sums ``mi_variance._pair_route``
  (``mi_variance._add_pair_rows``, ``mi_variance._cross_sum``; pair rows from 9 nodes,
  ``mi_variance.PAIR_NODES``, windows of 32-95 positions too, ``mi_variance.PAIR_SHORT``;
  pmf rows divided by their sums where their outside mass is provably < 1e-17,
  ``mi_variance._normalized``).
- Var[MI] with a random side that is a slot mixture (one-sided ``num`` and ``all`` beyond
  ``mi_variance.MAX_RANDOM_N``; two-sided beyond ``mi_variance.SLOT_TWO_SIDED_N``): the rows
  multinomial given u, Var = E_u Var_u + Var_u E_u -- #math-mi-variance --
  :func:`mi_variance_slots.one_sided_slot_variance`,
  :func:`mi_variance_slots.two_sided_slot_variance` (all slots at once in batches of similar
  windows, ``mi_variance_slots._batches``; phi(a) shared per v where the joint cells' mean is
  below 1, ``mi_variance_slots._shared``).
- Var[MI] of two fixed sides whose variance is below ``mi_variance.LINEAR_EXACT_BELOW`` (1e-3)
  of the same-cell sum: order 1 as one linear permutation statistic --
  #math-mi-lancaster -- :func:`mi_variance._linear_variance`. Var[MI] of a fixed side
  against a slot mixture -- #math-mi-variance --
  :func:`mi_variance_slots.one_sided_slot_variance`: rows in batches of similar windows
  (``mi_variance_slots._rows_terms``), their column correlations interpolated beyond
  ``mi_variance_slots._CORRELATED`` multiply-adds; a row of all but at most
  ``mi_variance_slots.HUGE_ROW_REST`` (64) elements taken with the column totals
  (``mi_variance_slots._huge_row``).
- sum_u c_u D(a, u) by a Chebyshev fit in log u -- #math-fits --
  :func:`mixture_fits.fitted_mixture_sums`, :func:`mixture_fits.fitted_joint_sum`.
- E[H_q] and E[H_q(A, B)] of the Tsallis family, sums of g_q(n) = (n/N)(1 - (n/N)^(q-1))/(q-1)
  over a side's sizes or the table's cells -- #math-tsallis --
  :func:`tsallis.expected_entropy_q`, :func:`tsallis.expected_joint_entropy_q`: two size laws
  by hypergeometric windows (Loader's pmf at the mode), a slot mixture by binomial cells
  sum_u c_u u E[g(Binomial(N, 1/u))] (windows normalized by their own sums); the cost
  (pmf points) that the public layer bounds -- :func:`tsallis.window_points`.
  Var[MI_q] from the sides' size moments: the covariances of pairs of cells given the sizes
  (multivariate hypergeometric, a table of log k!) plus the variance over the sizes
  (``mi_variance._between_variance``) -- #math-tsallis -- :func:`tsallis.mi_q_variance`.
- Windows (Bennett: mass < 1e-20 outside) and sums carried from the pmf's mode by its ratio
  recurrence -- #math-windows -- :func:`windows.tail_halfwidth`,
  :func:`windows.mode_recurrence_sums`.
- bd0 and the binomial and hypergeometric pmfs at their mode (Loader 2000) -- #math-windows
  -- :func:`pmfs.deviance`, :func:`pmfs.binom_pmf`, :func:`pmfs.hypergeom_pmf`.
- Lattice probabilities of zero-truncated Poisson sums (shared with ``chanceclust.special``'s
  log S and log B) -- #math-special -- :func:`lattice.lattice_probability`,
  :func:`lattice.surjection_counts`.
- log-gamma, logsumexp, Lambert W (numpy stand-ins for scipy.special on short arrays), the
  Stirling series and falling factorials -- :mod:`elementary`; truncated Taylor series
  arithmetic -- :mod:`taylor`.

Numerical contract, stated once here (the accuracy of each public function is in
``docs/math.md#math-accuracy``): windows drop probability mass below 1e-20 (Bennett's
inequality); mixture weights below ~1e-30 of the largest are dropped (Stam's window keeps
``log w > log(1e-30) - 10``, i.e. drops below ~4.5e-35); pmfs at their mode are accurate to
a few units of 1e-15 relative (Loader 2000); E[MI] is tested within 1e-12 relative of the
50-60 digit references in ``tests/reference/`` (measured at most ~8e-15). A failed invariant
raises ``chanceclust.exceptions.InternalError`` (a bug, never the user's input).
"""
