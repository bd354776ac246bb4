/*
 * plot_load.c - herd plot's first stage: a results directory read and
 * validated (see plot.h, plot_internal.h).
 *
 * Every CSV of the directory is read once, line by line, and validated
 * (plot_csv.c); what the figures need is kept
 * (aggregate.csv and compare.csv rows with the metrics the figures draw,
 * the series of timeseries.csv of the selected replication at the selected
 * sweep point).  manifest.txt, if any, is read for the scenario's name,
 * [run] columns, outages and spike (plot_manifest.c).  The selection (--variant, --point,
 * --replication, --metric) is checked against the rows as they are read.
 * A malformed file is refused with "FILE:LINE: what is wrong; expected
 * ..." (PLOT_INVALID).
 */
#include "plot_internal.h"

#include "../base/text.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"

#define REP_MAX 1000000    /* replications that can be selected: 0 .. REP_MAX - 1 */

/* ------------------------------------------------------------------------
 * What the figures keep of the CSVs
 * ------------------------------------------------------------------------ */

/* Appends "a = b" (sep first unless out is empty) to out[n]. */
void plot_append(char *out, size_t n, const char *sep, const char *a, const char *b)
{
    size_t o = strlen(out);
    if (o < n)
        snprintf(out + o, n - o, "%s%s%s%s", o ? sep : "", a, b ? " = " : "", b ? b : "");
}

/* Index of a metric in metric_table, or -1. */
int plot_metric_index(const char *name)
{
    for (size_t k = 0; k < metric_count; k++)
        if (!strcmp(metric_table[k].name, name))
            return (int)k;
    return -1;
}

/* Index of a metric in plot_compared[] (the columns of compare.csv), or -1. */
int plot_compared_index(const char *name)
{
    for (size_t k = 0; k < PLOT_NCOMPARED; k++)
        if (!strcmp(plot_compared[k], name))
            return (int)k;
    return -1;
}

/* The position of metric m (metric_table index; plot_compared[] index for
 * compare.csv) among the metrics t keeps, or -1. */
int plot_kept(const ptable *t, int m)
{
    for (int w = 0; w < t->nw; w++)
        if (t->want[w] == m)
            return w;
    return -1;
}

/* Marks the replication of field seen in r (if below REP_MAX); -1 when out
 * of memory. */
static int repset_add(repset *r, const char *field)
{
    unsigned long long v = strtoull(field, NULL, 10);
    r->any = 1;
    if (v >= REP_MAX)
        return 0;
    if (v >= r->n) {
        size_t ncap = r->n ? r->n : 64;
        while (ncap <= v)
            ncap *= 2;
        if (ncap > REP_MAX)
            ncap = REP_MAX;
        unsigned char *ns = herd_realloc_array(r->seen, ncap, 1);
        if (!ns)
            return -1;
        memset(ns + r->n, 0, ncap - r->n);
        r->seen = ns;
        r->n = ncap;
    }
    r->seen[v] = 1;
    return 0;
}

/* The replications of r as "0-9, 12" into out. */
static void repset_text(const repset *r, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < r->n; i++) {
        if (!r->seen[i])
            continue;
        size_t j = i;
        while (j + 1 < r->n && r->seen[j + 1])
            j++;
        char t[64];
        if (j > i)
            snprintf(t, sizeof t, "%zu-%zu", i, j);
        else
            snprintf(t, sizeof t, "%zu", i);
        plot_append(out, n, ", ", t, NULL);
        i = j;
    }
}

void plot_folder_free(folder *fo)
{
    for (int k = 0; k < IN_COUNT; k++) {
        herd_free(fo->in.x[k]);
        herd_free(fo->in.y[k]);
    }
    ptable *t[2] = {&fo->agg, &fo->cmp};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < t[k]->n; i++)
            herd_free(t[k]->row[i].keys);
        herd_free(t[k]->row);
    }
    herd_free(fo->ts.r);
    herd_free(fo->ts.variant);
    herd_free(fo->ts.reps.seen);
    herd_free(fo->sumreps.seen);
    memset(fo, 0, sizeof *fo);
}

int plot_oom(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory reading the results");
    return -1;
}

/* Keeps a validated row of aggregate.csv or compare.csv. */
static int keep_prow(ptable *t, const keyset *ks, csv_rd *r, int strategy, char *err, size_t errlen)
{
    if (t->n == t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 64;
        prow *nr = herd_realloc_array(t->row, ncap, sizeof *nr);
        if (!nr)
            return plot_oom(err, errlen);
        t->row = nr;
        t->cap = ncap;
    }
    prow *p = &t->row[t->n];
    memset(p, 0, sizeof *p);
    size_t len = 0;
    for (int i = 0; i < ks->k; i++)
        len += strlen(r->field[i]) + 1;
    size_t vals = (len + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    p->keys = herd_malloc_array(vals + 2 * (size_t)(t->nw ? t->nw : 1) * sizeof(double), 1);
    if (!p->keys)
        return plot_oom(err, errlen);
    p->v = (double *)(void *)(p->keys + vals);
    char *o = p->keys;
    for (int i = 0; i < ks->k; i++) {
        size_t n = strlen(r->field[i]) + 1;
        memcpy(o, r->field[i], n);
        p->key[i] = o;
        o += n;
    }
    p->strategy = strategy;
    p->baseline = -1;
    if (t->cbase >= 0) {
        hp_strategy b;
        if (hp_strategy_parse(r->field[t->cbase], &b) == 0)
            p->baseline = (int)b;
    }
    p->reps = t->creps >= 0 ? strtoull(r->field[t->creps], NULL, 10) : 0;
    for (int w = 0; w < t->nw; w++) {
        p->v[2 * w] = t->cmean[w] >= 0 ? plot_dbl_of(r->field[t->cmean[w]]) : NAN;
        p->v[2 * w + 1] = t->cci[w] >= 0 ? plot_dbl_of(r->field[t->cci[w]]) : NAN;
    }
    t->n++;
    return 0;
}

static int variant_index(tstable *ts, const char *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < ts->nvariant; i++)
        if (!strcmp(ts->variant[i], v))
            return (int)i;
    if (ts->nvariant == ts->capvariant) {
        size_t ncap = ts->capvariant ? 2 * ts->capvariant : 8;
        char (*nv)[LABEL_MAX + 1] = herd_realloc_array(ts->variant, ncap, sizeof *nv);
        if (!nv)
            return plot_oom(err, errlen);
        ts->variant = nv;
        ts->capvariant = ncap;
    }
    snprintf(ts->variant[ts->nvariant], sizeof ts->variant[0], "%s", v);
    return (int)ts->nvariant++;
}

/* Keeps a validated row of timeseries.csv if it is of the selected
 * replication at the selected point (every variant). */
static int keep_tsrow(folder *fo, csv_rd *r, int strategy, char *err, size_t errlen)
{
    tstable *ts = &fo->ts;
    const keyset *ks = &fo->ks;
    int k = ks->k;
    ts->rows++;
    if (repset_add(&ts->reps, r->field[k + 1]) < 0)
        return plot_oom(err, errlen);
    if (strtoull(r->field[k + 1], NULL, 10) != fo->sel.rep)
        return 0;
    for (int i = ks->variant; i < k; i++)
        if (strcmp(r->field[i], fo->sel.pval[i]))
            return 0;
    if (ts->n == ts->cap) {
        size_t ncap = ts->cap ? 2 * ts->cap : 1024;
        tsrow *nr = herd_realloc_array(ts->r, ncap, sizeof *nr);
        if (!nr)
            return plot_oom(err, errlen);
        ts->r = nr;
        ts->cap = ncap;
    }
    tsrow *p = &ts->r[ts->n];
    p->variant = -1;
    if (ks->variant && (p->variant = variant_index(ts, r->field[0], err, errlen)) < 0)
        return -1;
    p->strategy = strategy;
    /* replication, time_s, arrivals, refused, in_flight, successes, errors,
     * retries_scheduled, offered, goodput */
    p->t = plot_dbl_of(r->field[k + 2]);
    p->arrivals = plot_dbl_of(r->field[k + 3]);
    p->refused = plot_dbl_of(r->field[k + 4]);
    p->offered = plot_dbl_of(r->field[k + 9]);
    p->goodput = plot_dbl_of(r->field[k + 10]);
    ts->n++;
    return 0;
}

static int load_csv(const char *dir, int kind, folder *fo, char *err, size_t errlen)
{
    csv_rd r;
    int rc = plot_csv_open(&r, dir, plot_csv_file[kind], err, errlen);
    if (rc <= 0)
        return rc;
    colspec *tail = herd_malloc_array(MAX_COLS, sizeof *tail);
    rc = -1;
    if (!tail || !r.lbuf || !r.fbuf) {
        plot_oom(err, errlen);
        goto done;
    }
    int ntail = plot_csv_columns(kind, tail, MAX_COLS);
    if ((rc = plot_csv_header(&r, kind, &fo->ks, fo->have_ks, tail, ntail)) != 0)
        goto done;
    fo->have_ks = 1;

    ptable *t = kind == K_AGGREGATE ? &fo->agg : kind == K_COMPARE ? &fo->cmp : NULL;
    if (t) {
        t->present = 1;
        t->cbase = t->creps = -1;
        for (int w = 0; w < t->nw; w++)
            t->cmean[w] = t->cci[w] = -1;
        for (int j = 0; j < ntail; j++) {
            int col = fo->ks.k + 1 + j;
            const char *nm = tail[j].name;
            size_t len = strlen(nm);
            if (!strcmp(nm, "baseline")) {
                t->cbase = col;
                continue;
            }
            if (!strcmp(nm, "replications")) {
                t->creps = col;
                continue;
            }
            const char *suffix = kind == K_COMPARE ? "_change_pct_mean" : "_mean";
            const char *csuffix = kind == K_COMPARE ? "_change_pct_ci95" : "_ci95";
            size_t sl = strlen(suffix), cl = strlen(csuffix);
            int is_mean = len > sl && !strcmp(nm + len - sl, suffix);
            int is_ci = len > cl && !strcmp(nm + len - cl, csuffix);
            if (!is_mean && !is_ci)
                continue;
            char base[96];
            snprintf(base, sizeof base, "%.*s", (int)(len - (is_mean ? sl : cl)), nm);
            int w = plot_kept(t, kind == K_COMPARE ? plot_compared_index(base) : plot_metric_index(base));
            if (w >= 0)
                *(is_mean ? &t->cmean[w] : &t->cci[w]) = col;
        }
    }
    if (kind == K_TIMESERIES)
        fo->ts.present = 1;
    for (;;) {
        int strategy = 0;
        if ((rc = plot_csv_line(&r)) <= 0)
            break;
        if ((rc = plot_csv_row(&r, &fo->ks, tail, ntail, &strategy)) != 0)
            break;
        if (t && (rc = keep_prow(t, &fo->ks, &r, strategy, err, errlen)) != 0)
            break;
        if (kind == K_TIMESERIES && (rc = keep_tsrow(fo, &r, strategy, err, errlen)) != 0)
            break;
        if (kind == K_SUMMARY && repset_add(&fo->sumreps, r.field[fo->ks.k + 1]) < 0) {
            rc = plot_oom(err, errlen);
            break;
        }
    }
done:
    plot_csv_close(&r);
    herd_free(tail);
    return rc;
}

/* Reads and validates dir/input.csv ("series,x,y"; series service_cdf or
 * arrival_rate; x and y numbers).  0 (also when it does not exist),
 * PLOT_INVALID, or -1. */
static int load_input(const char *dir, folder *fo, char *err, size_t errlen)
{
    static const char *const series[IN_COUNT] = {"service_cdf", "arrival_rate"};
    csv_rd r;
    int rc = plot_csv_open(&r, dir, "input.csv", err, errlen);
    if (rc <= 0)
        return rc;
    rc = -1;
    if (!r.lbuf || !r.fbuf) {
        plot_oom(err, errlen);
        goto done;
    }
    if ((rc = plot_csv_line(&r)) <= 0 || r.nf != 3 || strcmp(r.field[0], "series") || strcmp(r.field[1], "x") ||
        strcmp(r.field[2], "y")) {
        if (rc >= 0) {
            r.line = 1;
            rc = plot_csv_fail(&r, "expected the header series,x,y of a herd input.csv");
        }
        goto done;
    }
    fo->in.present = 1;
    while ((rc = plot_csv_line(&r)) > 0) {
        int k = 0;
        while (k < IN_COUNT && (r.nf != 3 || strcmp(r.field[0], series[k])))
            k++;
        if (r.nf != 3 || k == IN_COUNT || !plot_valid_dbl(r.field[1]) || !plot_valid_dbl(r.field[2]) ||
            !isfinite(plot_dbl_of(r.field[1])) || !isfinite(plot_dbl_of(r.field[2]))) {
            rc = plot_csv_fail(&r, "expected service_cdf or arrival_rate and two finite numbers");
            break;
        }
        inputs *in = &fo->in;
        if (in->n[k] == in->cap[k]) {
            size_t c = in->cap[k] ? 2 * in->cap[k] : 64;
            double *nx = herd_realloc_array(in->x[k], c, sizeof *nx);
            if (nx)
                in->x[k] = nx;
            double *ny = nx ? herd_realloc_array(in->y[k], c, sizeof *ny) : NULL;
            if (!ny) {
                rc = plot_oom(err, errlen);
                break;
            }
            in->y[k] = ny;
            in->cap[k] = c;
        }
        in->x[k][in->n[k]] = plot_dbl_of(r.field[1]);
        in->y[k][in->n[k]++] = plot_dbl_of(r.field[2]);
    }
done:
    plot_csv_close(&r);
    return rc;
}

/* ------------------------------------------------------------------------
 * The selection (--variant, --point, --replication, --metric)
 * ------------------------------------------------------------------------ */

/* "FLAG 'VALUE': what; expected ..." with VALUE escaped; PLOT_INVALID. */
static int sel_fail(char *err, size_t errlen, const char *flag, const char *value, const char *what,
                    const char *expected)
{
    char v[VALUE_SHOWN * 4 + 8];
    plot_esc(v, sizeof v, value, VALUE_SHOWN);
    snprintf(err, errlen, "%s '%s': %s; expected %s", flag, v, what, expected);
    return PLOT_INVALID;
}

/* The distinct values of key column i in aggregate.csv, in file order,
 * ", "-separated into out. */
static void key_values(const folder *fo, int i, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t r = 0; r < fo->agg.n; r++) {
        const char *v = fo->agg.row[r].key[i];
        int seen = 0;
        for (size_t q = 0; q < r && !seen; q++)
            seen = !strcmp(fo->agg.row[q].key[i], v);
        if (!seen)
            plot_append(out, n, ", ", v, NULL);
        if (strlen(out) + 8 >= n)
            break;
    }
}

static int key_has(const folder *fo, int i, const char *v)
{
    for (size_t r = 0; r < fo->agg.n; r++)
        if (!strcmp(fo->agg.row[r].key[i], v))
            return 1;
    return 0;
}

/* The metrics the figures may use, as a list for a message. */
static void metric_names(char *out, size_t n)
{
    out[0] = '\0';
    for (size_t k = 0; k < metric_count; k++)
        plot_append(out, n, ", ", metric_table[k].name, NULL);
}

/* --metric: before aggregate.csv is read (which metrics to keep). */
static int select_metrics(folder *fo, char *err, size_t errlen)
{
    const plot_opts *o = fo->o;
    for (int i = 0; i < o->nmetric; i++) {
        int k = plot_metric_index(o->metric[i]);
        if (k < 0) {
            char list[1400];
            metric_names(list, sizeof list);
            return sel_fail(err, errlen, "--metric", o->metric[i], "no such metric in aggregate.csv", list);
        }
        int dup = 0;
        for (int j = 0; j < fo->sel.nmetric; j++)
            dup |= fo->sel.metric[j] == k;
        if (!dup)
            fo->sel.metric[fo->sel.nmetric++] = k;
    }
    return 0;
}

/* --variant and --point, after aggregate.csv is read. */
static int select_point(folder *fo, const char *dir, char *err, size_t errlen)
{
    const plot_opts *o = fo->o;
    const keyset *ks = &fo->ks;
    char list[1400], what[300];
    char shown[SHOWN_MAX + 8];
    plot_esc(shown, sizeof shown, dir, SHOWN_MAX);
    if (fo->agg.n == 0) {
        snprintf(err, errlen, "%s/aggregate.csv: no rows; expected a row per strategy", shown);
        return PLOT_INVALID;
    }
    const prow *r0 = &fo->agg.row[0];
    if (ks->variant)
        snprintf(fo->sel.vname, sizeof fo->sel.vname, "%s", r0->key[0]);
    if (o->variant) {
        if (!ks->variant)
            return sel_fail(err, errlen, "--variant", o->variant, "this run has no [variant] sections",
                            "no --variant");
        if (!key_has(fo, 0, o->variant)) {
            key_values(fo, 0, list, sizeof list);
            return sel_fail(err, errlen, "--variant", o->variant, "no such variant", list);
        }
        snprintf(fo->sel.vname, sizeof fo->sel.vname, "%s", o->variant);
        fo->sel.vgiven = 1;
    }
    for (int i = ks->variant; i < ks->k; i++)
        snprintf(fo->sel.pval[i], sizeof fo->sel.pval[i], "%s", r0->key[i]);
    int given[MAX_KEYS] = {0};
    int nsw = ks->k - ks->variant;
    for (int j = 0; j < o->npoint; j++) {
        const char *p = o->point[j], *eq = strchr(p, '=');
        int i = -1;
        const char *v = p;
        if (nsw == 0)
            return sel_fail(err, errlen, "--point", p, "this run has no sweep", "no --point");
        list[0] = '\0';
        for (int q = ks->variant; q < ks->k; q++)
            plot_append(list, sizeof list, ", ", ks->name[q], NULL);
        if (eq) {
            char key[KEYNAME_MAX + 1];
            text_collapse_blanks(p, (size_t)(eq - p), key, sizeof key);
            for (int q = ks->variant; q < ks->k && i < 0; q++)
                if (!strcmp(ks->name[q], key))
                    i = q;
            if (i < 0) {
                char exp[1500];
                snprintf(exp, sizeof exp, "KEY=VALUE with KEY one of %s, or a VALUE", list);
                return sel_fail(err, errlen, "--point", p, "no such swept key", exp);
            }
            v = eq + 1;
        } else {
            for (int q = ks->variant; q < ks->k && i < 0; q++)
                if (!given[q])
                    i = q;
            if (i < 0) {
                snprintf(what, sizeof what, "more values than swept keys (%d)", nsw);
                return sel_fail(err, errlen, "--point", p, what, "KEY=VALUE, or one VALUE per swept key");
            }
        }
        if (given[i]) {
            snprintf(what, sizeof what, "%s is chosen twice", ks->name[i]);
            return sel_fail(err, errlen, "--point", p, what, "one value per swept key");
        }
        if (!key_has(fo, i, v)) {
            char exp[1500];
            key_values(fo, i, list, sizeof list);
            snprintf(what, sizeof what, "no such value of %s", ks->name[i]);
            snprintf(exp, sizeof exp, "one of %s", list);
            return sel_fail(err, errlen, "--point", v, what, exp);
        }
        snprintf(fo->sel.pval[i], sizeof fo->sel.pval[i], "%s", v);
        given[i] = 1;
    }
    if (o->npoint > 0) {
        /* the combination must exist (a grid always has it) */
        int found = 0;
        for (size_t r = 0; r < fo->agg.n && !found; r++) {
            found = 1;
            for (int i = ks->variant; i < ks->k && found; i++)
                found = !strcmp(fo->agg.row[r].key[i], fo->sel.pval[i]);
        }
        if (!found) {
            char pt[600] = "";
            for (int i = ks->variant; i < ks->k; i++)
                plot_append(pt, sizeof pt, ", ", ks->name[i], fo->sel.pval[i]);
            snprintf(err, errlen, "--point: no sweep point with %s in aggregate.csv; expected a point of the run",
                     pt);
            return PLOT_INVALID;
        }
    }
    return 0;
}

/* --replication, against the series the figures over time draw. */
static int select_replication_text(folder *fo, char *err, size_t errlen)
{
    const char *r = fo->o->replication;
    if (!r)
        return 0;
    if (!plot_valid_u64(r) || strtoull(r, NULL, 10) >= REP_MAX)
        return sel_fail(err, errlen, "--replication", r, "not a replication number", "0, 1, 2, ...");
    fo->sel.rep = strtoull(r, NULL, 10);
    return 0;
}

static int check_replication(folder *fo, char *err, size_t errlen)
{
    const char *r = fo->o->replication;
    char list[600];
    if (!r)
        return 0;
    const repset *s = fo->ts.rows > 0 ? &fo->ts.reps : &fo->sumreps;
    if (s->any && (fo->sel.rep >= s->n || !s->seen[fo->sel.rep])) {
        repset_text(s, list, sizeof list);
        return sel_fail(err, errlen, "--replication", r,
                        fo->ts.rows > 0 ? "not in timeseries.csv" : "not in summary.csv", list);
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * The stage, in the order plot_render_opts runs it
 * ------------------------------------------------------------------------ */

int plot_load_manifest(folder *fo, const char *d, char *err, size_t errlen)
{
    int rc;
    if ((rc = select_metrics(fo, err, errlen)) != 0 || (rc = select_replication_text(fo, err, errlen)) != 0)
        return rc;
    /* what the scenario says (optional) */
    plot_read_manifest(d, &fo->man);
    snprintf(fo->name, sizeof fo->name, "%s", fo->man.name);
    if (!fo->name[0])
        plot_dir_name(d, fo->name, sizeof fo->name);
    return 0;
}

int plot_load_csvs(folder *fo, const char *d, const char *dir, char *err, size_t errlen)
{
    int rc;
    /* aggregate.csv first: its key columns are every file's, its rows what
     * --variant and --point choose from */
    if ((rc = load_csv(d, K_AGGREGATE, fo, err, errlen)) != 0 || (rc = select_point(fo, dir, err, errlen)) != 0)
        return rc;
    static const int order[] = {K_SUMMARY, K_TIMESERIES, K_COMPARE, K_TOOLS};
    for (size_t i = 0; i < COUNT(order); i++)
        if ((rc = load_csv(d, order[i], fo, err, errlen)) != 0)
            return rc;
    if ((rc = load_input(d, fo, err, errlen)) != 0 || (rc = check_replication(fo, err, errlen)) != 0)
        return rc;
    if (fo->o->gif && fo->ts.rows == 0) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, dir, SHOWN_MAX);
        snprintf(err, errlen, "--gif: %s/timeseries.csv has no rows; expected a run with a timeseries ([run] "
                 "timeseries = all or first)", shown);
        return PLOT_INVALID;
    }
    return 0;
}
