/* Every 3 x 4 contingency table with given margins, enumerated (reference for #34).
 *
 * Independent of chanceclust: reads "a1 a2 a3 b1 b2 b3 b4 m" then m observed tables of 12
 * counts (row by row) on stdin; for each observed table prints, in long double,
 *   P(N11 >= n11_obs)  P(N11 <= n11_obs)  P(T >= T_obs)  P(T <= T_obs)  near
 * under the Fisher-Freeman-Halton law P(n) = prod a! prod b! / (N! prod n!) (lgammal), where
 * N11 = sum C(n_ij, 2) (exact integer) and T = sum n_ij ln n_ij, where values within
 * 2^-28 N ln N of T_obs count as equal (chanceclust's documented tie rule for T), and "near"
 * the number of tables whose distance to T_obs is within 1e-11 N ln N of that tie width
 * (where rounding could decide the side: must be 0).
 * The innermost loop works in double (its sums are of at most N + 1 terms); its sums are
 * added to the totals in long double.
 * Build: cc -O2 -o enumerate exact_3x4_enumerate.c -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXOBS 16

int main(void) {
    int a[3], b[4], m;
    if (scanf("%d %d %d %d %d %d %d %d", &a[0], &a[1], &a[2], &b[0], &b[1], &b[2], &b[3], &m) != 8)
        return 2;
    if (m > MAXOBS) return 2;
    int n = a[0] + a[1] + a[2];
    long double *lf = malloc(sizeof(long double) * (n + 1));
    long double *xl = malloc(sizeof(long double) * (n + 1));
    long long *pr = malloc(sizeof(long long) * (n + 1));
    for (int v = 0; v <= n; v++) {
        lf[v] = lgammal((long double)v + 1.0L);
        xl[v] = v > 1 ? (long double)v * logl((long double)v) : 0.0L;
        pr[v] = (long long)v * (v - 1) / 2;
    }
    long double constant = -lf[n];
    for (int i = 0; i < 3; i++) constant += lf[a[i]];
    for (int j = 0; j < 4; j++) constant += lf[b[j]];
    long long obs_pairs[MAXOBS];
    long double obs_t[MAXOBS];
    for (int k = 0; k < m; k++) {
        obs_pairs[k] = 0;
        obs_t[k] = 0.0L;
        for (int c = 0; c < 12; c++) {
            int v;
            if (scanf("%d", &v) != 1) return 2;
            obs_pairs[k] += pr[v];
            obs_t[k] += xl[v];
        }
    }
    long double scale = n > 1 ? (long double)n * logl((long double)n) : 1.0L;
    long double tie = ldexpl(scale, -28), near_width = 1e-11L * scale;
    long double tot[MAXOBS][4] = {{0}};
    long long near[MAXOBS] = {0};
    /* The inner loop in double (T ~ 10^3: 1e-13 absolute, far inside the near width of
     * 1e-11 N ln N; log weights to 1e-13, relative error of each probability ~1e-13). */
    double *lfd = malloc(sizeof(double) * (n + 1)), *xld = malloc(sizeof(double) * (n + 1));
    for (int v = 0; v <= n; v++) {
        lfd[v] = (double)lf[v];
        xld[v] = (double)xl[v];
    }
    double obs_td[MAXOBS], tied = (double)tie, near_widthd = (double)near_width;
    for (int k = 0; k < m; k++) obs_td[k] = (double)obs_t[k];
    long double total = 0.0L;
    long long tables = 0;
    int x[3][4];
    for (x[0][0] = 0; x[0][0] <= a[0] && x[0][0] <= b[0]; x[0][0]++)
    for (x[0][1] = 0; x[0][0] + x[0][1] <= a[0] && x[0][1] <= b[1]; x[0][1]++)
    for (x[0][2] = 0; x[0][0] + x[0][1] + x[0][2] <= a[0] && x[0][2] <= b[2]; x[0][2]++) {
        x[0][3] = a[0] - x[0][0] - x[0][1] - x[0][2];
        if (x[0][3] > b[3]) continue;
        for (x[1][0] = 0; x[1][0] <= a[1] && x[0][0] + x[1][0] <= b[0]; x[1][0]++)
        for (x[1][1] = 0; x[1][0] + x[1][1] <= a[1] && x[0][1] + x[1][1] <= b[1]; x[1][1]++) {
            /* The cells fixed in the inner loop: row 0, n_20, n_21, n_30, n_31. */
            x[2][0] = b[0] - x[0][0] - x[1][0];
            x[2][1] = b[1] - x[0][1] - x[1][1];
            long double lw0 = constant, t0 = 0.0L;  /* then double in the inner loop */
            long long p0 = 0;
            int fixed[8] = {x[0][0], x[0][1], x[0][2], x[0][3], x[1][0], x[1][1], x[2][0], x[2][1]};
            for (int c = 0; c < 8; c++) {
                lw0 -= lf[fixed[c]];
                t0 += xl[fixed[c]];
                p0 += pr[fixed[c]];
            }
            double part[MAXOBS][4] = {{0}};
            double part_total = 0.0, lw0d = (double)lw0, t0d = (double)t0;
            for (x[1][2] = 0; x[1][0] + x[1][1] + x[1][2] <= a[1] && x[0][2] + x[1][2] <= b[2]; x[1][2]++) {
                x[1][3] = a[1] - x[1][0] - x[1][1] - x[1][2];
                if (x[0][3] + x[1][3] > b[3]) continue;
                x[2][2] = b[2] - x[0][2] - x[1][2];
                x[2][3] = b[3] - x[0][3] - x[1][3];
                int v[4] = {x[1][2], x[1][3], x[2][2], x[2][3]};
                double lw = lw0d - lfd[v[0]] - lfd[v[1]] - lfd[v[2]] - lfd[v[3]];
                double t = t0d + xld[v[0]] + xld[v[1]] + xld[v[2]] + xld[v[3]];
                long long p = p0 + pr[v[0]] + pr[v[1]] + pr[v[2]] + pr[v[3]];
                double w = exp(lw);
                part_total += w;
                tables++;
                for (int k = 0; k < m; k++) {
                    double d = t - obs_td[k];
                    if (p >= obs_pairs[k]) part[k][0] += w;
                    if (p <= obs_pairs[k]) part[k][1] += w;
                    if (d >= -tied) part[k][2] += w;
                    if (d <= tied) part[k][3] += w;
                    if (fabs(fabs(d) - tied) < near_widthd) near[k]++;
                }
            }
            total += part_total;
            for (int k = 0; k < m; k++)
                for (int q = 0; q < 4; q++) tot[k][q] += part[k][q];
        }
    }
    printf("%lld %.21Le\n", tables, total);
    for (int k = 0; k < m; k++)
        printf("%.21Le %.21Le %.21Le %.21Le %lld\n", tot[k][0], tot[k][1], tot[k][2], tot[k][3], near[k]);
    return 0;
}
