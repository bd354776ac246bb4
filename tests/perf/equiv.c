/*
 * equiv.c - do two herd binaries simulate the same model?  Compares two
 * summary.csv files of one scenario, OLD (the old binary's) and NEW (the
 * new one's), written by `herd run` over independent replications (or
 * replications whose draws a change reordered).  The rule it serves:
 * outputs may change when a draw order must change, if each affected
 * scenario's metrics agree with the old binary within CIs at 100
 * replications (tests/perf/equiv.sh runs every scenario).
 *
 * Rows are grouped by every key column: the columns before `replication`
 * (variant, the swept section.key columns, strategy).  Every other column
 * but `replication`, `seed` and `events` (engine events, which a change of
 * draw order may reduce on purpose; -x adds more) is a metric, and each
 * metric's mean is compared per group with Welch's two-sample t test at a
 * family-wise level of 5% (Bonferroni over every comparison made): a
 * difference is a disagreement when it exceeds
 *     t(1 - 0.025 / m, df) * sqrt(s1^2 / n1 + s2^2 / n2)
 * with Welch-Satterthwaite's df.  A metric constant in both samples must
 * be equal (within 1e-9 relative).
 *
 * Undefined cells ('n/a' or empty): where a metric is defined in some rows
 * of a group but not in all, on either side (e.g. recovery_time_s, only in
 * runs that recovered), the number of rows where it is defined is itself
 * random, so two independent samples' counts often differ (75 times in
 * the 28 scenarios of an old-vs-old run): the counts are compared with
 * Fisher's exact test (one more comparison of the family) and the line
 * says when they differ.  The means of the defined values are compared as
 * above where each side has at least two.  A metric undefined in every
 * row of both sides is not compared.  A group or a metric column that
 * only one file has is a disagreement.
 *
 * The test takes the two samples as independent.  Where the new binary
 * runs the same seeds and only some draws moved, its replications may be
 * positively correlated with the old ones; the test is then conservative
 * (fewer false alarms, somewhat less power), not wrong.
 *
 *   build/perf_equiv [-t TITLE] [-m TABLE.md] [-l] [-H m1,m2,...]
 *                    [-x COLUMN]... [-a ALPHA] OLD_SUMMARY_CSV NEW_SUMMARY_CSV
 *
 * Prints one line per comparison, then a markdown table of the headline
 * metrics (-H; default below): a row per group, a column per metric, each
 * cell the old and the new mean +- the half-width of its 95% Student t
 * interval, the last column the group's verdict over all its metrics (-l:
 * a row per group and metric instead; -m: appended to TABLE.md instead of
 * printed), then `equiv: N comparisons, K disagree`.  -a: the family-wise
 * level (default 0.05).  Exits 1 on any disagreement, 2 on bad input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#define MAXCOL 256
#define MAXKEY 32
#define LINE (1 << 20)

static const char *default_headline =
    "completion_time_s,calls,failures,successes,timeouts,retries,peak_arrivals_per_s,p99_latency_s,recovery_time_s";

typedef struct {
    double *v;         /* defined values */
    unsigned n, cap;   /* defined */
    unsigned rows;     /* rows of the group (defined or not) */
} sample;

typedef struct {
    char *key;        /* "variant=x strategy=y" */
    char *kv[MAXKEY]; /* the key columns' values */
    unsigned tests, bad; /* comparisons made, disagreements */
    int seen[2];
    unsigned rows[2]; /* replications */
    sample *s[2];     /* [side][metric] */
} group;

static char *metric[MAXCOL];
static int nmetric;
static int has_metric[2][MAXCOL];
static group *groups;
static int ngroups, capgroups;
static char *excluded[64];
static int nexcluded;

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "perf_equiv: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = xmalloc(strlen(s) + 1);
    strcpy(p, s);
    return p;
}

/* Splits one CSV line in place (RFC 4180 quotes, as herd's csv_str writes
 * them); returns the number of fields. */
static int split(char *line, char **f)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    char *r = line;
    for (;;) {
        if (n == MAXCOL) {
            fprintf(stderr, "perf_equiv: more than %d columns\n", MAXCOL);
            exit(2);
        }
        char *w = r;
        f[n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (!*r)
                    break;
                if (*r == '"') {
                    if (r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                        continue;
                    }
                    r++;
                    break;
                }
                *w++ = *r++;
            }
            while (*r && *r != ',')
                *w++ = *r++;
        } else {
            while (*r && *r != ',')
                *w++ = *r++;
        }
        int more = *r == ',';
        *w = 0;
        if (!more)
            break;
        r++;
    }
    return n;
}

static int is_excluded(const char *c)
{
    if (!strcmp(c, "replication") || !strcmp(c, "seed") || !strcmp(c, "events"))
        return 1;
    for (int i = 0; i < nexcluded; i++)
        if (!strcmp(c, excluded[i]))
            return 1;
    return 0;
}

static int metric_index(const char *c)
{
    for (int i = 0; i < nmetric; i++)
        if (!strcmp(metric[i], c))
            return i;
    if (nmetric == MAXCOL) {
        fprintf(stderr, "perf_equiv: too many metrics\n");
        exit(2);
    }
    metric[nmetric] = xstrdup(c);
    return nmetric++;
}

static group *find(const char *key)
{
    for (int i = 0; i < ngroups; i++)
        if (!strcmp(groups[i].key, key))
            return &groups[i];
    if (ngroups == capgroups) {
        capgroups = capgroups ? 2 * capgroups : 64;
        group *g = realloc(groups, capgroups * sizeof *g);
        if (!g) {
            fprintf(stderr, "perf_equiv: out of memory\n");
            exit(2);
        }
        groups = g;
    }
    group *g = &groups[ngroups++];
    memset(g, 0, sizeof *g);
    g->key = xstrdup(key);
    g->s[0] = xmalloc(MAXCOL * sizeof(sample));
    g->s[1] = xmalloc(MAXCOL * sizeof(sample));
    return g;
}

static void push(sample *s, double x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 128;
        double *v = realloc(s->v, s->cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "perf_equiv: out of memory\n");
            exit(2);
        }
        s->v = v;
    }
    s->v[s->n++] = x;
}

static char keyhdr[2][4096];
static char *keyname[MAXKEY];
static int nkeys;

static void load(int side, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    static char hl[LINE], line[LINE];
    char *h[MAXCOL], *v[MAXCOL];
    if (!fgets(hl, sizeof hl, f)) {
        fprintf(stderr, "perf_equiv: %s: empty\n", path);
        exit(2);
    }
    int nh = split(hl, h), rep = -1, mi[MAXCOL];
    for (int i = 0; i < nh; i++)
        if (!strcmp(h[i], "replication")) {
            rep = i;
            break;
        }
    if (rep < 0) {
        fprintf(stderr, "perf_equiv: %s: no column replication (not a herd summary.csv?)\n", path);
        exit(2);
    }
    if (rep > MAXKEY) {
        fprintf(stderr, "perf_equiv: %s: more than %d key columns\n", path, MAXKEY);
        exit(2);
    }
    if (!side) {
        nkeys = rep;
        for (int i = 0; i < rep; i++)
            keyname[i] = xstrdup(h[i]);
    }
    keyhdr[side][0] = 0;
    for (int i = 0; i < rep; i++) {
        size_t l = strlen(keyhdr[side]);
        snprintf(keyhdr[side] + l, sizeof keyhdr[side] - l, "%s%s", i ? "," : "", h[i]);
    }
    for (int i = 0; i < nh; i++) {
        mi[i] = -1;
        if (i > rep && !is_excluded(h[i])) {
            mi[i] = metric_index(h[i]);
            has_metric[side][mi[i]] = 1;
        }
    }
    unsigned lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '\n' || line[0] == '\r' || !line[0])
            continue;
        int n = split(line, v);
        if (n != nh) {
            fprintf(stderr, "perf_equiv: %s:%u: %d fields, the header has %d\n", path, lineno, n, nh);
            exit(2);
        }
        char key[4096];
        key[0] = 0;
        for (int i = 0; i < rep; i++) {
            size_t l = strlen(key);
            snprintf(key + l, sizeof key - l, "%s%s=%s", i ? " " : "", h[i], v[i]);
        }
        if (!rep)
            snprintf(key, sizeof key, "all");
        group *g = find(key);
        if (!g->seen[0] && !g->seen[1])
            for (int i = 0; i < rep && i < nkeys; i++)
                g->kv[i] = xstrdup(v[i]);
        g->seen[side] = 1;
        g->rows[side]++;
        for (int i = 0; i < nh; i++) {
            if (mi[i] < 0)
                continue;
            sample *s = &g->s[side][mi[i]];
            s->rows++;
            char *end;
            double x = strtod(v[i], &end);
            if (end == v[i] || *end || !isfinite(x))
                continue; /* n/a or empty: undefined */
            push(s, x);
        }
    }
    fclose(f);
}

static void moments(const sample *s, double *mean, double *var)
{
    double m = 0, q = 0;
    for (unsigned i = 0; i < s->n; i++)
        m += s->v[i];
    m = s->n ? m / s->n : NAN;
    for (unsigned i = 0; i < s->n; i++)
        q += (s->v[i] - m) * (s->v[i] - m);
    *mean = m;
    *var = s->n > 1 ? q / (s->n - 1) : NAN;
}

static int constant(const sample *s)
{
    for (unsigned i = 1; i < s->n; i++)
        if (s->v[i] != s->v[0])
            return 0;
    return 1;
}

/* Fisher's exact test, two-sided: a defined in a of r1 rows, b of r2. */
static double fisher(unsigned a, unsigned r1, unsigned b, unsigned r2)
{
    unsigned t = a + b, n1 = r1, n2 = r2; /* t draws from n1 "old" + n2 "new" */
    double p0 = gsl_ran_hypergeometric_pdf(a, n1, n2, t), p = 0;
    unsigned lo = t > n2 ? t - n2 : 0, hi = t < n1 ? t : n1;
    for (unsigned k = lo; k <= hi; k++) {
        double pk = gsl_ran_hypergeometric_pdf(k, n1, n2, t);
        if (pk <= p0 * (1 + 1e-7))
            p += pk;
    }
    return p > 1 ? 1 : p;
}

enum { T_NONE, T_MEAN, T_CONST, T_TOOFEW };

/* What is compared for group g, metric m: *def says whether the
 * definedness counts are tested; returns the kind of the means' test. */
static int plan(const group *g, int m, int *def)
{
    const sample *a = &g->s[0][m], *b = &g->s[1][m];
    *def = 0;
    if (!a->n && !b->n)
        return T_NONE;
    if (!(a->n == a->rows && b->n == b->rows))
        *def = 1;
    if (a->n < 2 || b->n < 2)
        return T_TOOFEW;
    return constant(a) && constant(b) ? T_CONST : T_MEAN;
}

/* x to sig significant digits, without an exponent where it is under 1e9 */
static const char *num(char *buf, size_t sz, double x, int sig)
{
    double a = fabs(x);
    if (a >= pow(10, sig) && a < 1e9)
        snprintf(buf, sz, "%.0f", x);
    else
        snprintf(buf, sz, "%.*g", sig, x);
    return buf;
}

static void fmt_ci(char *buf, size_t sz, const sample *s)
{
    double mean, var;
    char b1[40], b2[40];
    moments(s, &mean, &var);
    if (!s->n)
        snprintf(buf, sz, "n/a");
    else if (s->n < 2)
        snprintf(buf, sz, "%s (n=1)", num(b1, sizeof b1, mean, 5));
    else {
        double hw = gsl_cdf_tdist_Pinv(0.975, s->n - 1) * sqrt(var / s->n);
        int k = snprintf(buf, sz, "%s ± %s", num(b1, sizeof b1, mean, 5), num(b2, sizeof b2, hw, 2));
        if (s->n != s->rows && k > 0 && (size_t)k < sz)
            snprintf(buf + k, sz - k, " (n=%u)", s->n);
    }
}

/* constant and equal on both sides, defined in every row (e.g. timeouts = 0) */
static int same_constant(const sample *a, const sample *b)
{
    return a->n == a->rows && b->n == b->rows && a->n && constant(a) && constant(b) && a->v[0] == b->v[0];
}

/* Markdown: by default one row per group, one column per headline metric
 * ("old mean ± half-width / new mean ± half-width"), the group's verdict
 * over all its metrics last; with -l, one row per group and metric.  Key
 * columns with one value in every group and headline metrics constant and
 * equal everywhere are left out (named above the table). */
static void table_out(FILE *md, const char *title, const char *oldp, const char *newp, double alpha, unsigned tests,
                      unsigned bad, const char *headline, const signed char *verdict, int longform)
{
    int hm[MAXCOL], nhm = 0, keep[MAXCOL], vary[MAXKEY];
    char hcopy[4096], *save = NULL, b1[96], b2[96];
    snprintf(hcopy, sizeof hcopy, "%s", headline);
    for (char *name = strtok_r(hcopy, ",", &save); name && nhm < MAXCOL; name = strtok_r(NULL, ",", &save))
        for (int j = 0; j < nmetric; j++)
            if (!strcmp(metric[j], name) && has_metric[0][j] && has_metric[1][j])
                hm[nhm++] = j;
    for (int c = 0; c < nhm; c++) {
        keep[c] = 0;
        for (int k = 0; k < ngroups; k++)
            if (groups[k].seen[0] && groups[k].seen[1] && verdict[(size_t)k * MAXCOL + hm[c]] >= 0 &&
                !same_constant(&groups[k].s[0][hm[c]], &groups[k].s[1][hm[c]]))
                keep[c] = 1;
    }
    for (int j = 0; j < nkeys; j++) {
        vary[j] = 0;
        for (int k = 1; k < ngroups; k++)
            if (groups[k].kv[j] && groups[0].kv[j] && strcmp(groups[k].kv[j], groups[0].kv[j]))
                vary[j] = 1;
    }
    fprintf(md, "\n### %s\n\n", title ? title : "old vs new");
    fprintf(md, "old: %s, new: %s; %u comparisons at a family-wise %g%% (Welch, Bonferroni), %u disagree. ", oldp,
            newp, tests, 100 * alpha, bad);
    fprintf(md, "Cells: mean ± half-width of its 95%% Student t interval, old / new (n= where a metric is "
                "undefined in some runs).");
    int first = 1;
    for (int j = 0; j < nkeys; j++)
        if (!vary[j] && ngroups && groups[0].kv[j]) {
            fprintf(md, "%s%s=%s", first ? " In every row: " : ", ", keyname[j], groups[0].kv[j]);
            first = 0;
        }
    fprintf(md, "%s", first ? "" : ".");
    first = 1;
    for (int c = 0; c < nhm; c++)
        if (!keep[c]) {
            fprintf(md, "%s%s", first ? " Constant and equal (or undefined) on both sides: " : ", ", metric[hm[c]]);
            first = 0;
        }
    fprintf(md, "%s\n\n", first ? "" : ".");

    /* the group's name: its varying key columns */
    char name[4096];
#define GROUP_NAME(g)                                                                                            \
    do {                                                                                                         \
        name[0] = 0;                                                                                             \
        for (int j = 0; j < nkeys; j++)                                                                          \
            if (vary[j] && (g)->kv[j]) {                                                                         \
                size_t l = strlen(name);                                                                         \
                snprintf(name + l, sizeof name - l, "%s%s", l ? " " : "", (g)->kv[j]);                            \
            }                                                                                                    \
        if (!name[0])                                                                                            \
            snprintf(name, sizeof name, "all");                                                                  \
    } while (0)
    char keys[1024];
    keys[0] = 0;
    for (int j = 0; j < nkeys; j++)
        if (vary[j]) {
            size_t l = strlen(keys);
            snprintf(keys + l, sizeof keys - l, "%s%s", l ? " " : "", keyname[j]);
        }
    if (!keys[0])
        snprintf(keys, sizeof keys, "group");

    if (longform) {
        fprintf(md, "| %s | metric | old | new | verdict |\n|---|---|---|---|---|\n", keys);
        for (int k = 0; k < ngroups; k++) {
            group *g = &groups[k];
            if (!g->seen[0] || !g->seen[1])
                continue;
            GROUP_NAME(g);
            for (int c = 0; c < nhm; c++) {
                int m = hm[c];
                signed char v = verdict[(size_t)k * MAXCOL + m];
                if (v < 0 || same_constant(&g->s[0][m], &g->s[1][m]))
                    continue;
                fmt_ci(b1, sizeof b1, &g->s[0][m]);
                fmt_ci(b2, sizeof b2, &g->s[1][m]);
                fprintf(md, "| %s | %s | %s | %s | %s |\n", name, metric[m], b1, b2, v ? "agree" : "**DISAGREE**");
            }
        }
        fprintf(md, "\n");
        return;
    }
    fprintf(md, "| %s |", keys);
    for (int c = 0; c < nhm; c++)
        if (keep[c])
            fprintf(md, " %s |", metric[hm[c]]);
    fprintf(md, " all metrics |\n|---|");
    for (int c = 0; c < nhm; c++)
        if (keep[c])
            fprintf(md, "---|");
    fprintf(md, "---|\n");
    for (int k = 0; k < ngroups; k++) {
        group *g = &groups[k];
        if (!g->seen[0] || !g->seen[1])
            continue;
        GROUP_NAME(g);
        fprintf(md, "| %s |", name);
        for (int c = 0; c < nhm; c++) {
            if (!keep[c])
                continue;
            int m = hm[c];
            signed char v = verdict[(size_t)k * MAXCOL + m];
            sample *a = &g->s[0][m], *b = &g->s[1][m];
            if (v < 0 && !a->n && !b->n)
                fprintf(md, " n/a |");
            else if (same_constant(a, b))
                fprintf(md, " %s (both) |", num(b1, sizeof b1, a->v[0], 5));
            else {
                fmt_ci(b1, sizeof b1, a);
                fmt_ci(b2, sizeof b2, b);
                fprintf(md, " %s%s / %s%s |", v == 0 ? "**" : "", b1, b2, v == 0 ? "**" : "");
            }
        }
        if (g->bad)
            fprintf(md, " **%u of %u disagree** |\n", g->bad, g->tests);
        else
            fprintf(md, " %u agree |\n", g->tests);
    }
#undef GROUP_NAME
    fprintf(md, "\n");
}

static void usage(void)
{
    fprintf(stderr, "usage: perf_equiv [-t TITLE] [-m TABLE.md] [-l] [-H m1,m2,...] [-x COLUMN]... [-a ALPHA]\n"
                    "                  OLD_SUMMARY_CSV NEW_SUMMARY_CSV\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *title = NULL, *table = NULL, *headline = default_headline;
    double alpha = 0.05;
    int longform = 0;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "-l")) {
            longform = 1;
            continue;
        }
        if (i + 1 >= argc)
            usage();
        if (!strcmp(argv[i], "-t"))
            title = argv[++i];
        else if (!strcmp(argv[i], "-m"))
            table = argv[++i];
        else if (!strcmp(argv[i], "-H"))
            headline = argv[++i];
        else if (!strcmp(argv[i], "-a")) {
            alpha = atof(argv[++i]);
            if (!(alpha > 0 && alpha < 1))
                usage();
        } else if (!strcmp(argv[i], "-x")) {
            if (nexcluded == 64)
                usage();
            excluded[nexcluded++] = argv[++i];
        } else
            usage();
    }
    if (argc - i != 2)
        usage();
    const char *oldp = argv[i], *newp = argv[i + 1];
    load(0, oldp);
    load(1, newp);

    unsigned tests = 0, bad = 0, skipped = 0;
    if (strcmp(keyhdr[0], keyhdr[1])) {
        printf("equiv: key columns differ: old (%s), new (%s)  DISAGREE\n", keyhdr[0], keyhdr[1]);
        bad++;
    }
    for (int m = 0; m < nmetric; m++)
        if (has_metric[0][m] != has_metric[1][m]) {
            printf("equiv: column %s only in %s  DISAGREE\n", metric[m], has_metric[0][m] ? "old" : "new");
            bad++;
        }
    for (int k = 0; k < ngroups; k++) {
        if (!groups[k].seen[0] || !groups[k].seen[1]) {
            printf("equiv: group %s only in %s  DISAGREE\n", groups[k].key, groups[k].seen[0] ? "old" : "new");
            bad++;
            continue;
        }
        for (int m = 0; m < nmetric; m++) {
            if (!has_metric[0][m] || !has_metric[1][m])
                continue;
            int def, t = plan(&groups[k], m, &def);
            tests += def + (t == T_MEAN || t == T_CONST);
            skipped += t == T_NONE;
        }
    }
    if (!tests && !bad) {
        fprintf(stderr, "perf_equiv: nothing to compare\n");
        return 2;
    }
    double level = alpha / (tests ? tests : 1); /* per comparison */
    /* verdicts for the table: [group][metric] 1 ok, 0 disagree, -1 none */
    signed char *verdict = xmalloc((size_t)ngroups * MAXCOL);
    memset(verdict, -1, (size_t)ngroups * MAXCOL);
    for (int k = 0; k < ngroups; k++) {
        group *g = &groups[k];
        if (!g->seen[0] || !g->seen[1])
            continue;
        if (g->rows[0] != g->rows[1])
            printf("equiv: %s: %u replications old, %u new (compared as they are)\n", g->key, g->rows[0],
                   g->rows[1]);
        for (int m = 0; m < nmetric; m++) {
            if (!has_metric[0][m] || !has_metric[1][m])
                continue;
            sample *a = &g->s[0][m], *b = &g->s[1][m];
            int def, t = plan(g, m, &def), ok_all = 1;
            if (def) {
                double p = fisher(a->n, a->rows, b->n, b->rows);
                int ok = p >= level;
                bad += !ok;
                g->tests++;
                g->bad += !ok;
                ok_all &= ok;
                printf("equiv: %s %s defined in old %u/%u, new %u/%u%s p=%.3g (Fisher; alpha/m=%.3g) %s\n", g->key,
                       metric[m], a->n, a->rows, b->n, b->rows, a->n == b->n ? "" : " (counts differ)", p, level,
                       ok ? "ok" : "DISAGREE");
            }
            if (t == T_TOOFEW) {
                printf("equiv: %s %s means not compared: %u and %u defined values\n", g->key, metric[m], a->n, b->n);
            } else if (t == T_CONST) {
                double d = fabs(a->v[0] - b->v[0]);
                int ok = d <= 1e-9 * fmax(fabs(a->v[0]), fabs(b->v[0]));
                bad += !ok;
                g->tests++;
                g->bad += !ok;
                ok_all &= ok;
                printf("equiv: %s %s constant old=%.9g new=%.9g %s\n", g->key, metric[m], a->v[0], b->v[0],
                       ok ? "ok" : "DISAGREE");
            } else if (t == T_MEAN) {
                double m1, v1, m2, v2;
                moments(a, &m1, &v1);
                moments(b, &m2, &v2);
                double n1 = a->n, n2 = b->n, se2 = v1 / n1 + v2 / n2, tol = 0;
                /* two-pass variances of equal values are exactly 0, but
                 * guard against rounding noise all the same */
                if (se2 <= 1e-24 * (m1 * m1 + m2 * m2 + 1e-300))
                    se2 = 0;
                double df = 0;
                if (se2 > 0) {
                    double q1 = v1 / n1, q2 = v2 / n2;
                    df = se2 * se2 / (q1 * q1 / (n1 - 1) + q2 * q2 / (n2 - 1));
                    tol = gsl_cdf_tdist_Pinv(1 - level / 2, df) * sqrt(se2);
                }
                double d = fabs(m1 - m2);
                int ok = se2 > 0 ? d <= tol : d <= 1e-9 * fmax(fabs(m1), fabs(m2));
                bad += !ok;
                g->tests++;
                g->bad += !ok;
                ok_all &= ok;
                printf("equiv: %s %s old=%.6g new=%.6g diff=%.4g tol=%.4g (t=%.2f df=%.0f) %s\n", g->key, metric[m],
                       m1, m2, d, tol, se2 > 0 ? d / sqrt(se2) : 0.0, df, ok ? "ok" : "DISAGREE");
            }
            if (def || t == T_MEAN || t == T_CONST)
                verdict[(size_t)k * MAXCOL + m] = (signed char)ok_all;
        }
    }

    /* the table of the headline metrics (-H, in that order) */
    FILE *md = stdout;
    if (table && !(md = fopen(table, "a"))) {
        perror(table);
        return 2;
    }
    table_out(md, title, oldp, newp, alpha, tests, bad, headline, verdict, longform);
    if (md != stdout)
        fclose(md);
    if (skipped)
        printf("equiv: %u metric(s) of a group undefined on both sides, not compared\n", skipped);
    printf("equiv: %u comparisons, %u disagree\n", tests, bad);
    return bad ? 1 : 0;
}
