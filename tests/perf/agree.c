/*
 * agree.c - do herd and the speed reference (tests/perf/ref.c) simulate the
 * same model?  Compares, per strategy (and number of clients), the means
 * of each metric over independent replications, herd's summary.csv
 * against perf_ref's output, with Welch's two-sample t test at a
 * family-wise level of 5% (Bonferroni over every comparison made): a
 * difference is a disagreement when it exceeds
 *     t(1 - 0.025 / m, df) * sqrt(s1^2 / n1 + s2^2 / n2)
 * with Welch-Satterthwaite's df.  A metric constant in both samples must
 * be equal.  The two programs draw from independent streams, so the test's
 * false-alarm rate is the 5% chosen; with fixed seeds a run is repeatable.
 *
 *   build/perf_agree HERD_SUMMARY_CSV REF_CSV METRIC...
 *
 * Prints one line per comparison; exits 1 on any disagreement, 2 on bad
 * input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#define MAXG 256
#define MAXM 8
#define MAXCOL 128

typedef struct {
    char key[64];
    double s[2][MAXM], ss[2][MAXM];
    unsigned n[2][MAXM];
} group;

static group g[MAXG];
static unsigned ng;

static group *find(const char *key)
{
    for (unsigned i = 0; i < ng; i++)
        if (!strcmp(g[i].key, key))
            return &g[i];
    if (ng == MAXG) {
        fprintf(stderr, "perf_agree: too many groups\n");
        exit(2);
    }
    snprintf(g[ng].key, sizeof g[ng].key, "%s", key);
    return &g[ng++];
}

static int split(char *line, char **f)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < MAXCOL;) {
        f[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = 0;
    }
    return n;
}

static int col(char **h, int nh, const char *name, const char *path)
{
    for (int i = 0; i < nh; i++)
        if (!strcmp(h[i], name))
            return i;
    fprintf(stderr, "perf_agree: %s: no column %s\n", path, name);
    exit(2);
}

/* Reads file `side` (0: herd, 1: reference) into the groups. */
static void load(int side, const char *path, int nm, char **metric)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    static char hl[65536], line[65536];
    char *h[MAXCOL], *v[MAXCOL];
    if (!fgets(hl, sizeof hl, f)) {
        fprintf(stderr, "perf_agree: %s: empty\n", path);
        exit(2);
    }
    int nh = split(hl, h), cs = col(h, nh, "strategy", path), cc = col(h, nh, "clients", path), cm[MAXM];
    for (int m = 0; m < nm; m++)
        cm[m] = col(h, nh, metric[m], path);
    while (fgets(line, sizeof line, f)) {
        int n = split(line, v);
        if (n < nh)
            continue;
        char key[64];
        snprintf(key, sizeof key, "%s@%s", v[cs], v[cc]);
        group *gr = find(key);
        for (int m = 0; m < nm; m++) {
            char *end;
            double x = strtod(v[cm[m]], &end);
            if (end == v[cm[m]] || *end)
                continue; /* n/a */
            gr->s[side][m] += x;
            gr->ss[side][m] += x * x;
            gr->n[side][m]++;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc - 3 > MAXM) {
        fprintf(stderr, "usage: perf_agree HERD_SUMMARY_CSV REF_CSV METRIC... (at most %d)\n", MAXM);
        return 2;
    }
    int nm = argc - 3;
    load(0, argv[1], nm, argv + 3);
    load(1, argv[2], nm, argv + 3);
    unsigned tests = 0, bad = 0;
    for (unsigned i = 0; i < ng; i++)
        for (int m = 0; m < nm; m++)
            tests += g[i].n[0][m] >= 2 && g[i].n[1][m] >= 2;
    if (!tests) {
        fprintf(stderr, "perf_agree: nothing to compare\n");
        return 2;
    }
    for (unsigned i = 0; i < ng; i++)
        for (int m = 0; m < nm; m++) {
            double n1 = g[i].n[0][m], n2 = g[i].n[1][m];
            if (n1 < 2 || n2 < 2) {
                if (n1 + n2 > 0) {
                    printf("agree: %-28s %-20s only one side has it (%g, %g replications)\n", g[i].key,
                           argv[3 + m], n1, n2);
                    bad++;
                }
                continue;
            }
            double m1 = g[i].s[0][m] / n1, m2 = g[i].s[1][m] / n2;
            double v1 = fmax(0, (g[i].ss[0][m] - n1 * m1 * m1) / (n1 - 1));
            double v2 = fmax(0, (g[i].ss[1][m] - n2 * m2 * m2) / (n2 - 1));
            double se2 = v1 / n1 + v2 / n2, tol = 0;
            /* sums of squares of equal values leave rounding noise */
            if (se2 <= 1e-24 * (m1 * m1 + m2 * m2 + 1e-300))
                se2 = 0;
            if (se2 > 0) {
                double df = se2 * se2 / ((v1 / n1) * (v1 / n1) / (n1 - 1) + (v2 / n2) * (v2 / n2) / (n2 - 1));
                tol = gsl_cdf_tdist_Pinv(1 - 0.025 / tests, df) * sqrt(se2);
            }
            double d = fabs(m1 - m2);
            int ok = se2 > 0 ? d <= tol : d <= 1e-9 * fmax(fabs(m1), fabs(m2));
            bad += !ok;
            printf("agree: %-28s %-20s herd=%-12.6g ref=%-12.6g diff=%-10.4g tol=%-10.4g %s\n", g[i].key,
                   argv[3 + m], m1, m2, d, tol, ok ? "ok" : "DISAGREE");
        }
    printf("agree: %u comparisons at a family-wise 5%%, %u disagree\n", tests, bad);
    return bad ? 1 : 0;
}
