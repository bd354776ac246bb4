/*
 * report.c - the CSV writers, manifest.txt and the printed table (see
 * report.h; what each column means is in columns.c).  Groups are walked in table order, replications in order, so
 * every file is a pure function of the table.
 */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "csv.h"
#include "../plot/plot.h"
#include "stats.h"

/* The leading columns: variant (if any), one per swept key, then
 * strategy. */
static void key_header(csv_out *o, const rep_table *t)
{
    int first = 1;
    if (t->variants) {
        csv_str(o, "variant", 1);
        first = 0;
    }
    for (uint32_t i = 0; i < t->nkeys; i++, first = 0)
        csv_str(o, t->keys[i], first);
    csv_str(o, "strategy", first);
}

static void key_row(csv_out *o, const rep_table *t, const rep_group *g)
{
    int first = 1;
    if (t->variants) {
        csv_str(o, g->variant, 1);
        first = 0;
    }
    for (uint32_t i = 0; i < t->nkeys; i++, first = 0)
        csv_str(o, g->values[i], first);
    csv_str(o, hp_strategy_name(g->strategy), first);
}

/* The columns NAME_mean and NAME_ci95 (or NAME_SUFFIX_mean / _ci95). */
static void header_pair(csv_out *o, const char *name, const char *suffix)
{
    char col[128];
    snprintf(col, sizeof col, "%s%s_mean", name, suffix);
    csv_str(o, col, 0);
    snprintf(col, sizeof col, "%s%s_ci95", name, suffix);
    csv_str(o, col, 0);
}

/* The mean of x[0..n) and its 95% CI half-width, as two cells. */
static void cells_pair(csv_out *o, const double *x, uint32_t n)
{
    double mean, half;
    stats_mean_ci95(x, n, &mean, &half);
    csv_dbl(o, mean, 0);
    csv_dbl(o, half, 0);
}

/* A metric's cells of aggregate.csv (see metric_desc's agg): mean and CI
 * over the runs where it is defined (x[r] NaN: n/a in run r; none
 * defined: n/a), then a proportion's Wilson interval over those runs, or
 * a partly defined metric's number of defined runs. */
static void aggregate_cells(csv_out *o, const metric_desc *d, const double *x, uint32_t n)
{
    double mean, half;
    size_t defined;
    stats_mean_ci95_defined(x, n, &mean, &half, &defined);
    csv_dbl(o, mean, 0);
    csv_dbl(o, half, 0);
    if (d->agg == AGG_DEFINED) {
        csv_u64(o, defined, 0);
    } else if (d->agg == AGG_PROPORTION) {
        double k = 0, lo, hi;
        for (uint32_t r = 0; r < n; r++)
            k += !isnan(x[r]) && x[r] != 0;
        stats_wilson95(k, (double)defined, &lo, &hi);
        csv_dbl(o, lo, 0);
        csv_dbl(o, hi, 0);
        csv_u64(o, defined, 0);
    }
}

static void write_summary(csv_out *o, const rep_table *t)
{
    key_header(o, t);
    csv_str(o, "replication", 0);
    csv_str(o, "seed", 0);
    for (size_t k = 0; k < metric_count; k++)
        csv_str(o, metric_table[k].name, 0);
    csv_end(o);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        for (uint32_t r = 0; r < grp->nreps; r++) {
            key_row(o, t, grp);
            csv_u64(o, r, 0);
            csv_u64(o, grp->seeds[r], 0);
            for (size_t k = 0; k < metric_count; k++) {
                double v = metric_value(&grp->runs[r].m, &metric_table[k]);
                if (isnan(v)) /* n/a: the manifest says why */
                    csv_str(o, CSV_NA, 0);
                else if (metric_table[k].type == METRIC_U64) /* exact: a count never goes through a double */
                    csv_u64(o, metric_count_value(&grp->runs[r].m, &metric_table[k]), 0);
                else
                    csv_dbl(o, v, 0);
            }
            csv_end(o);
        }
    }
}

static void write_aggregate(csv_out *o, const rep_table *t, double *scratch)
{
    key_header(o, t);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < metric_count; k++) {
        header_pair(o, metric_table[k].name, "");
        size_t ne;
        const char *const *extra = metric_agg_extra(&metric_table[k], &ne);
        for (size_t e = 0; e < ne; e++) {
            char col[128];
            snprintf(col, sizeof col, "%s%s", metric_table[k].name, extra[e]);
            csv_str(o, col, 0);
        }
    }
    csv_end(o);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        key_row(o, t, grp);
        csv_u64(o, grp->nreps, 0);
        for (size_t k = 0; k < metric_count; k++) {
            for (uint32_t r = 0; r < grp->nreps; r++)
                scratch[r] = metric_value(&grp->runs[r].m, &metric_table[k]);
            aggregate_cells(o, &metric_table[k], scratch, grp->nreps);
        }
        csv_end(o);
    }
}

/* The bucket columns of one series file (after replication and time_s). */
typedef struct series_kind {
    const char *const *cols;
    size_t ncols;
    size_t (*len)(const model_results *r);
    void (*cells)(csv_out *o, const model_results *r, size_t i);
} series_kind;

static size_t ts_len(const model_results *r) { return r->ts.len; }

static void ts_cells(csv_out *o, const model_results *r, size_t i)
{
    const ts_bucket *b = &r->ts.b[i];
    csv_u64(o, b->arrivals, 0);
    csv_u64(o, b->refused, 0);
    csv_u64(o, b->in_flight, 0);
    csv_u64(o, b->successes, 0);
    csv_u64(o, b->errors, 0);
    csv_u64(o, b->retries_scheduled, 0);
    csv_u64(o, b->offered, 0);
    csv_u64(o, b->goodput, 0);
    csv_u64(o, b->turned_away, 0);
}

static size_t mech_len(const model_results *r) { return r->ms.len; }

static void mech_cells(csv_out *o, const model_results *r, size_t i)
{
    const mech_bucket *b = &r->ms.b[i];
    csv_flt(o, b->breaker_open_s, 0);
    csv_flt(o, b->breaker_half_open_s, 0);
    csv_flt(o, b->throttle_reject_p, 0);
    csv_u64(o, b->throttle_requests, 0);
    csv_u64(o, b->throttle_accepts, 0);
    csv_u64(o, b->limiter_allowed, 0);
    csv_u64(o, b->limiter_denied, 0);
    csv_flt(o, b->limiter_balance, 0);
}

/* A series file in long format: one row per (group, replication, bucket):
 * the key columns, replication, time_s (bucket start), the kind's cells. */
static void write_series(csv_out *o, const rep_table *t, const series_kind *k)
{
    key_header(o, t);
    csv_str(o, "replication", 0);
    csv_str(o, "time_s", 0);
    for (size_t c = 0; c < k->ncols; c++)
        csv_str(o, k->cols[c], 0);
    csv_end(o);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        for (uint32_t r = 0; r < grp->nreps; r++) {
            const model_results *res = &grp->runs[r];
            for (size_t i = 0; i < k->len(res); i++) {
                key_row(o, t, grp);
                csv_u64(o, r, 0);
                csv_dbl(o, (double)i * grp->bucket_s, 0);
                k->cells(o, res, i);
                csv_end(o);
            }
        }
    }
}

static void write_timeseries(csv_out *o, const rep_table *t)
{
    static const char *const cols[] = {"arrivals", "refused",           "in_flight", "successes",
                                       "errors",   "retries_scheduled", "offered",   "goodput", "turned_away"};
    series_kind k = {cols, sizeof cols / sizeof cols[0], ts_len, ts_cells};
    write_series(o, t, &k);
}

/* mechanisms.csv: per run with a [limits] mechanism, what it was doing in
 * each bucket (mech_bucket). */
static void write_mechanisms(csv_out *o, const rep_table *t)
{
    static const char *const cols[] = {"breaker_open_s",   "breaker_half_open_s", "throttle_reject_p",
                                       "throttle_requests", "throttle_accepts",   "limiter_allowed",
                                       "limiter_denied",   "limiter_balance"};
    series_kind k = {cols, sizeof cols / sizeof cols[0], mech_len, mech_cells};
    write_series(o, t, &k);
}

static double metric_by_name(const metrics *m, const char *name)
{
    const metric_desc *d = metric_find(name);
    return d ? metric_value(m, d) : NAN;
}

/* compare.csv: per group of a point with a baseline, the paired change of
 * each metric against the baseline strategy at the same point and
 * replication: 100 * (x - x_baseline) / x_baseline, then mean and CI over
 * replications.  Pairing uses the common random numbers: replication r of
 * both strategies saw the same streams. */
static const char *const compared[] = {"completion_time_s", "calls",         "retries",
                                       "successes",         "failures",      "peak_inflight",
                                       "peak_arrivals_per_s", "mean_latency_s", "p99_latency_s"};

/* compare.csv (by_variant 0: against the baseline strategy) or
 * compare_variants.csv (1: against the baseline variant's group at the
 * same point and strategy); groups without a partner, or whose partner ran
 * another number of replications, have no row. */
static void write_compare(csv_out *o, const rep_table *t, double *scratch, int by_variant)
{
    key_header(o, t);
    csv_str(o, by_variant ? "baseline_variant" : "baseline", 0);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < sizeof compared / sizeof compared[0]; k++)
        header_pair(o, compared[k], "_change_pct");
    csv_end(o);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        long b = by_variant ? grp->vbaseline : grp->baseline;
        if (b < 0 || t->groups[b].nreps != grp->nreps)
            continue;
        const rep_group *base = &t->groups[b];
        key_row(o, t, grp);
        csv_str(o, by_variant ? base->variant : hp_strategy_name(base->strategy), 0);
        csv_u64(o, grp->nreps, 0);
        for (size_t k = 0; k < sizeof compared / sizeof compared[0]; k++) {
            for (uint32_t r = 0; r < grp->nreps; r++) {
                double x = metric_by_name(&grp->runs[r].m, compared[k]);
                double y = metric_by_name(&base->runs[r].m, compared[k]);
                scratch[r] = y != 0 ? 100.0 * (x - y) / y : NAN;
            }
            cells_pair(o, scratch, grp->nreps);
        }
        csv_end(o);
    }
}

/* tools.csv: per group and tool, the mean and CI of each tool's counters. */
static const struct {
    const char *name;
    size_t off;
} tool_cols[] = {
    {"requests", offsetof(tool_metrics, requests)},
    {"successes", offsetof(tool_metrics, successes)},
    {"failures", offsetof(tool_metrics, failures)},
    {"unknown_outcomes", offsetof(tool_metrics, unknown_outcomes)},
    {"calls", offsetof(tool_metrics, calls)},
    {"effects", offsetof(tool_metrics, effects)},
    {"duplicate_effects", offsetof(tool_metrics, duplicate_effects)},
    {"lost_operations", offsetof(tool_metrics, lost_operations)},
};

static void write_tools(csv_out *o, const rep_table *t, double *scratch)
{
    key_header(o, t);
    csv_str(o, "tool", 0);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < sizeof tool_cols / sizeof tool_cols[0]; k++)
        header_pair(o, tool_cols[k].name, "");
    csv_end(o);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        for (uint32_t tl = 0; tl < grp->ntools; tl++) {
            key_row(o, t, grp);
            csv_str(o, grp->tools[tl], 0);
            csv_u64(o, grp->nreps, 0);
            for (size_t k = 0; k < sizeof tool_cols / sizeof tool_cols[0]; k++) {
                for (uint32_t r = 0; r < grp->nreps; r++) {
                    uint64_t v;
                    memcpy(&v, (const char *)&grp->runs[r].tm[tl] + tool_cols[k].off, sizeof v);
                    scratch[r] = (double)v;
                }
                cells_pair(o, scratch, grp->nreps);
            }
            csv_end(o);
        }
    }
}

/* A group as the manifest names it: "variant=V point=a,b strategy". */
static void group_name(FILE *f, const rep_table *t, const rep_group *g)
{
    if (t->variants)
        fprintf(f, "variant=%s ", g->variant);
    for (uint32_t i = 0; i < t->nkeys; i++)
        fprintf(f, "%s=%s ", t->keys[i], g->values[i]);
    fputs(hp_strategy_name(g->strategy), f);
}

/* The manifest's list of undefined metrics: every metric that is n/a in
 * some run, once per reason, with the runs it applies to (every run, or
 * per group: "k of n runs"; at most 20 groups listed). */
static void write_undefined(FILE *f, const rep_table *t)
{
    size_t total = 0;
    for (size_t g = 0; g < t->ngroups; g++)
        total += t->groups[g].nreps;
    bool header = false;
    for (size_t k = 0; k < metric_count; k++) {
        const metric_desc *d = &metric_table[k];
        const char *seen[16];
        size_t nseen = 0;
        for (size_t g = 0; g < t->ngroups; g++)
            for (uint32_t r = 0; r < t->groups[g].nreps; r++) {
                const char *w = metric_reason(&t->groups[g].runs[r].m, d);
                size_t i = 0;
                while (w && i < nseen && strcmp(seen[i], w))
                    i++;
                if (w && i == nseen && nseen < 16)
                    seen[nseen++] = w;
            }
        for (size_t i = 0; i < nseen; i++) {
            if (!header) {
                fprintf(f, "undefined metrics (n/a in summary.csv, aggregate.csv and the table), %zu run(s) in all:\n",
                        total);
                header = true;
            }
            size_t count = 0, listed = 0, groups = 0;
            for (size_t g = 0; g < t->ngroups; g++)
                for (uint32_t r = 0; r < t->groups[g].nreps; r++) {
                    const char *w = metric_reason(&t->groups[g].runs[r].m, d);
                    count += w && !strcmp(w, seen[i]);
                }
            fprintf(f, "n/a: %s: ", d->name);
            if (count == total) {
                fprintf(f, "every run");
            } else {
                fprintf(f, "%zu of %zu runs (", count, total);
                for (size_t g = 0; g < t->ngroups; g++) {
                    const rep_group *grp = &t->groups[g];
                    size_t c = 0;
                    for (uint32_t r = 0; r < grp->nreps; r++) {
                        const char *w = metric_reason(&grp->runs[r].m, d);
                        c += w && !strcmp(w, seen[i]);
                    }
                    if (!c)
                        continue;
                    if (listed++ < 20) {
                        fputs(listed > 1 ? "; " : "", f);
                        group_name(f, t, grp);
                        fprintf(f, ": %zu of %u", c, grp->nreps);
                    } else {
                        groups++;
                    }
                }
                if (groups)
                    fprintf(f, "; and %zu more group(s)", groups);
                fputc(')', f);
            }
            fprintf(f, ": because %s\n", seen[i]);
        }
    }
    if (!header)
        fprintf(f, "undefined metrics: none (every metric is defined in every run)\n");
}

enum { F_SUMMARY, F_AGGREGATE, F_TIMESERIES, F_COMPARE, F_TOOLS, F_VCOMPARE, F_MECHANISMS, F_MANIFEST, F_INPUT, F_COUNT };

static bool any_compare(const rep_table *t)
{
    for (size_t g = 0; g < t->ngroups; g++)
        if (t->groups[g].baseline >= 0)
            return true;
    return false;
}

static bool any_vcompare(const rep_table *t)
{
    for (size_t g = 0; g < t->ngroups; g++)
        if (t->groups[g].vbaseline >= 0)
            return true;
    return false;
}

static bool any_tools(const rep_table *t)
{
    for (size_t g = 0; g < t->ngroups; g++)
        if (t->groups[g].ntools)
            return true;
    return false;
}

/* A run of the table has a [limits] mechanism (and so a mechanism series). */
static bool any_mechanisms(const rep_table *t)
{
    for (size_t g = 0; g < t->ngroups; g++)
        for (uint32_t r = 0; r < t->groups[g].nreps; r++)
            if (t->groups[g].runs[r].m.mechanisms)
                return true;
    return false;
}

int rep_check_outdir(const char *outdir, char *err, size_t errlen)
{
    if (!*outdir) {
        snprintf(err, errlen, "-o: expected a directory, got an empty path");
        return -1;
    }
    char path[PATH_MAX];
    if (strlen(outdir) >= sizeof path) {
        snprintf(err, errlen, "-o: the output path is longer than %d bytes", PATH_MAX - 1);
        return -1;
    }
    snprintf(path, sizeof path, "%s", outdir);
    for (;;) {
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                if (!strcmp(path, outdir))
                    snprintf(err, errlen, "%s: not a directory", outdir);
                else
                    snprintf(err, errlen, "%s: cannot create output directory: Not a directory (%s)", outdir, path);
                return -1;
            }
            if (access(path, W_OK | X_OK) != 0) {
                snprintf(err, errlen, "%s: cannot create output directory: %s: %s", outdir, path, strerror(errno));
                return -1;
            }
            return 0;
        }
        if (errno != ENOENT) {
            snprintf(err, errlen, "%s: cannot create output directory: %s", outdir, strerror(errno));
            return -1;
        }
        char *slash = strrchr(path, '/');
        while (slash && slash > path && slash[1] == '\0') { /* trailing slashes */
            *slash = '\0';
            slash = strrchr(path, '/');
        }
        if (!slash)
            snprintf(path, sizeof path, ".");
        else if (slash == path)
            path[1] = '\0';
        else
            *slash = '\0';
    }
}

int rep_write(const rep_table *t, const char *outdir, const char *manifest, char *err, size_t errlen)
{
    csv_out out[F_COUNT];
    memset(out, 0, sizeof out);
    static const char *const names[F_COUNT] = {"summary.csv", "aggregate.csv",         "timeseries.csv",
                                               "compare.csv", "tools.csv",             "compare_variants.csv",
                                               "mechanisms.csv", "manifest.txt", "input.csv"};
    bool want[F_COUNT] = {true, true, true, any_compare(t), any_tools(t), any_vcompare(t), any_mechanisms(t),
                          manifest != NULL, t->input != NULL};
    int rc = -1;
    uint32_t maxreps = 1;
    for (size_t g = 0; g < t->ngroups; g++)
        if (t->groups[g].nreps > maxreps)
            maxreps = t->groups[g].nreps;
    double *scratch = herd_malloc_array(maxreps, sizeof *scratch);
    if (!scratch) {
        snprintf(err, errlen, "out of memory writing the results");
        return -1;
    }
    /* the first ancestor of outdir that does not exist yet: removed again
     * (when empty) if the run fails, so a failure leaves no directory */
    char created[PATH_MAX] = "";
    {
        struct stat st;
        char probe[PATH_MAX];
        snprintf(probe, sizeof probe, "%s", outdir);
        while (stat(probe, &st) != 0 && errno == ENOENT) {
            snprintf(created, sizeof created, "%s", probe);
            char *slash = strrchr(probe, '/');
            while (slash && slash > probe && slash[1] == '\0') {
                *slash = '\0';
                slash = strrchr(probe, '/');
            }
            if (!slash || slash == probe)
                break;
            *slash = '\0';
        }
    }
    if (csv_mkdirs(outdir, err, errlen) != 0)
        goto done;
    for (int i = 0; i < F_COUNT; i++)
        if (want[i] && csv_open(&out[i], outdir, names[i], err, errlen) != 0)
            goto done;
    write_summary(&out[F_SUMMARY], t);
    write_aggregate(&out[F_AGGREGATE], t, scratch);
    write_timeseries(&out[F_TIMESERIES], t);
    if (want[F_COMPARE])
        write_compare(&out[F_COMPARE], t, scratch, 0);
    if (want[F_VCOMPARE])
        write_compare(&out[F_VCOMPARE], t, scratch, 1);
    if (want[F_TOOLS])
        write_tools(&out[F_TOOLS], t, scratch);
    if (want[F_MECHANISMS])
        write_mechanisms(&out[F_MECHANISMS], t);
    if (want[F_MANIFEST]) {
        fputs(manifest, out[F_MANIFEST].f);
        write_undefined(out[F_MANIFEST].f, t);
    }
    if (want[F_INPUT])
        fputs(t->input, out[F_INPUT].f);
    for (int i = 0; i < F_COUNT; i++)
        if (want[i] && csv_finish(&out[i], err, errlen) != 0)
            goto done; /* every temporary is removed below: none published */
    csv_pub pub;
    if (csv_publish_begin(&pub, outdir, err, errlen) != 0)
        goto done;
    for (int i = 0; i < F_COUNT; i++)
        if (want[i] && csv_publish(&out[i], err, errlen) != 0) {
            csv_publish_end(&pub);
            goto done;
        }
    /* the folder holds the results of this run only: the outputs of herd
     * that it did not write (an earlier run's compare.csv, an earlier herd
     * plot's figures) go, once this run's are all in place; a file that
     * herd does not write is never touched */
    for (int i = 0; i < F_COUNT; i++) {
        char stale[PATH_MAX];
        if (!want[i] && snprintf(stale, sizeof stale, "%s/%s", outdir, names[i]) < (int)sizeof stale)
            unlink(stale);
    }
    plot_remove_figures(outdir);
    csv_publish_end(&pub);
    rc = 0;
done:
    for (int i = 0; i < F_COUNT; i++)
        csv_abort(&out[i]);
    if (rc != 0 && *created) { /* remove what this call created, leaf first, if empty */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", outdir);
        for (;;) {
            if (rmdir(dir) != 0 || !strcmp(dir, created))
                break;
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir)
                break;
            *slash = '\0';
        }
    }
    herd_free(scratch);
    return rc;
}

/* Short human number: integers up to 1e9 in full, else `digits`
 * significant digits. */
static void fmt_num(char *buf, size_t n, double v, int digits)
{
    if (isnan(v))
        snprintf(buf, n, CSV_NA);
    else if (fabs(v) >= 1000 && fabs(v) < 1e9)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.*g", digits, v);
}

/* One cell of the printed table: "mean +/- CI"; a proportion as "k/n"
 * (its Wilson interval is in aggregate.csv); a partly defined metric over
 * the runs where it is defined, with their number: "14.6 +/- 0.5 (7)". */
static void table_cell(char *cell, size_t size, const metric_desc *d, const double *x, uint32_t n)
{
    double mean, half;
    size_t defined;
    stats_mean_ci95_defined(x, n, &mean, &half, &defined);
    if (!defined) {
        snprintf(cell, size, CSV_NA);
        return;
    }
    if (d && d->agg == AGG_PROPORTION) {
        size_t k = 0;
        for (uint32_t r = 0; r < n; r++)
            k += !isnan(x[r]) && x[r] != 0;
        if (defined == n)
            snprintf(cell, size, "%zu/%u", k, n);
        else
            snprintf(cell, size, "%zu/%zu (of %u)", k, defined, n);
        return;
    }
    char a[24], b[24], c[24] = "";
    fmt_num(a, sizeof a, mean, 4);
    fmt_num(b, sizeof b, half, 2);
    if (defined != n)
        snprintf(c, sizeof c, " (%zu)", defined);
    if (isnan(half))
        snprintf(cell, size, "%s%s", a, c);
    else
        snprintf(cell, size, "%s +/- %s%s", a, b, c);
}

/* Prints text on f, broken after its commas ("A, B, C") so that no line
 * passes width (0: no limit; a piece longer than width stays whole),
 * continuation lines indented by two blanks. */
static void put_wrapped(FILE *f, const char *text, int width)
{
    int col = 0;
    for (const char *s = text; *s;) {
        const char *comma = strstr(s, ", ");
        size_t n = comma ? (size_t)(comma - s) + 1 : strlen(s);
        if (col > 0 && width > 0 && col + 1 + (int)n > width) {
            fputs("\n  ", f);
            col = 2;
        } else if (col > 0) {
            fputc(' ', f);
            col++;
        }
        fwrite(s, 1, n, f);
        col += (int)n;
        s += n;
        while (*s == ' ')
            s++;
    }
    fputc('\n', f);
}

/* The widest of the strings s[0], s[stride], ... (n of them). */
static int widest(char (*s)[64], size_t n, size_t stride)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        int l = (int)strlen(s[i * stride]);
        if (l > w)
            w = l;
    }
    return w;
}

int rep_print_table(FILE *f, const rep_table *t, const char *outdir)
{
    char names[1024];
    const char *cols[32];
    size_t ncols = 0;
    snprintf(names, sizeof names, "%s", t->columns);
    for (char *s = names; *s && ncols < 32;) {
        cols[ncols++] = s;
        s += strcspn(s, ",");
        if (*s)
            *s++ = '\0';
    }
    uint32_t maxreps = 1;
    for (size_t g = 0; g < t->ngroups; g++)
        if (t->groups[g].nreps > maxreps)
            maxreps = t->groups[g].nreps;
    double *scratch = herd_malloc_array(maxreps, sizeof *scratch);
    /* every cell first, so that each column is as wide as its widest cell:
     * row 0 the header, then a row per group; the label columns (variant,
     * swept keys, strategy) then the metrics */
    size_t nlab = (t->variants ? 1 : 0) + t->nkeys + 1, ncell = nlab + ncols;
    char(*cell)[64] = herd_malloc_array((t->ngroups + 1) * ncell, sizeof *cell);
    if (!scratch || !cell) {
        herd_free(scratch);
        herd_free(cell);
        return -1;
    }
    size_t k = 0;
    if (t->variants)
        snprintf(cell[k++], 64, "variant");
    for (uint32_t i = 0; i < t->nkeys; i++)
        snprintf(cell[k++], 64, "%s", t->keys[i]);
    snprintf(cell[k++], 64, "strategy");
    for (size_t c = 0; c < ncols; c++)
        snprintf(cell[k++], 64, "%s", cols[c]);
    double cmin = INFINITY, cmax = -INFINITY; /* the clients of each group (variants may set other counts) */
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *grp = &t->groups[g];
        if (t->variants)
            snprintf(cell[k++], 64, "%s", grp->variant);
        for (uint32_t i = 0; i < t->nkeys; i++)
            snprintf(cell[k++], 64, "%s", grp->values[i]);
        snprintf(cell[k++], 64, "%s", hp_strategy_name(grp->strategy));
        for (size_t c = 0; c < ncols; c++) {
            for (uint32_t r = 0; r < grp->nreps; r++)
                scratch[r] = metric_by_name(&grp->runs[r].m, cols[c]);
            table_cell(cell[k++], 64, metric_find(cols[c]), scratch, grp->nreps);
        }
        if (grp->nreps) {
            double n = metric_by_name(&grp->runs[0].m, "clients");
            cmin = fmin(cmin, n);
            cmax = fmax(cmax, n);
        }
    }
    char head[1024];
    if (t->clients && isfinite(cmin) && cmin != cmax) /* 0: from an arrival trace, one client per arrival */
        snprintf(head, sizeof head, "herd: %s: %.0f to %.0f clients (by variant or point) x %u request(s), %u "
                 "replication(s), seed %llu", t->scenario, cmin, cmax, t->requests_per_client, t->replications,
                 (unsigned long long)t->seed);
    else if (t->clients)
        snprintf(head, sizeof head, "herd: %s: %.0f clients x %u request(s), %u replication(s), seed %llu",
                 t->scenario, isfinite(cmin) ? cmin : (double)t->clients, t->requests_per_client, t->replications,
                 (unsigned long long)t->seed);
    else
        snprintf(head, sizeof head, "herd: %s: a client per arrival of the trace x %u request(s), %u replication(s), "
                 "seed %llu", t->scenario, t->requests_per_client, t->replications, (unsigned long long)t->seed);
    size_t o = strlen(head);
    if (t->nvariants)
        o += (size_t)snprintf(head + o, sizeof head - o, ", %u variants", t->nvariants);
    if (t->nkeys && o < sizeof head)
        snprintf(head + o, sizeof head - o, ", %zu sweep points", t->points_per_variant);
    put_wrapped(f, head, t->width);
    put_wrapped(f, "mean +/- 95% CI half-width over replications", t->width);
    /* the metric columns in blocks that fit the width (t->width 0: one
     * block), each block after the label columns */
    int labw = 0, w[64];
    for (size_t c = 0; c < ncell; c++) {
        w[c] = widest(&cell[c], t->ngroups + 1, ncell);
        if (c < nlab)
            labw += w[c] + (c + 1 < nlab ? 1 : 0);
    }
    for (size_t first = 0; first < ncols || (ncols == 0 && first == 0);) {
        size_t last = first;
        int used = labw;
        while (last < ncols && (last == first || t->width <= 0 || used + 2 + w[nlab + last] <= t->width))
            used += 2 + w[nlab + last++];
        fputc('\n', f);
        for (size_t row = 0; row <= t->ngroups; row++) {
            const char(*r)[64] = &cell[row * ncell];
            for (size_t c = 0; c < nlab; c++)
                fprintf(f, "%-*s%s", c + 1 < nlab || last > first ? w[c] : 0, r[c], c + 1 < nlab ? " " : "");
            for (size_t c = first; c < last; c++)
                fprintf(f, "  %*s", w[nlab + c], r[nlab + c]);
            fputc('\n', f);
        }
        if (last == first)
            break;
        first = last;
    }
    char od[4 * PATH_MAX], wrote[4 * PATH_MAX + 256]; /* a folder name's control bytes escaped, as in every message */
    text_visible(outdir, od, sizeof od);
    o = (size_t)snprintf(wrote, sizeof wrote, "wrote %s/summary.csv, aggregate.csv, timeseries.csv", od);
    if (any_compare(t) && o < sizeof wrote)
        o += (size_t)snprintf(wrote + o, sizeof wrote - o, ", compare.csv");
    if (any_tools(t) && o < sizeof wrote)
        o += (size_t)snprintf(wrote + o, sizeof wrote - o, ", tools.csv");
    if (any_vcompare(t) && o < sizeof wrote)
        o += (size_t)snprintf(wrote + o, sizeof wrote - o, ", compare_variants.csv");
    if (o < sizeof wrote)
        snprintf(wrote + o, sizeof wrote - o, ", manifest.txt");
    fputc('\n', f);
    put_wrapped(f, wrote, t->width);
    herd_free(scratch);
    herd_free(cell);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
