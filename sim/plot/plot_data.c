/*
 * plot_data.c - herd plot's second stage: each figure's data, computed
 * from the validated rows (see plot.h, plot_internal.h).
 *
 * Each figure's data is computed from the rows the load kept (the work awk
 * pipelines in the scripts used to do) and written into the private work
 * directory as NAME.csv (numbers, a header per block) and NAME.tsv
 * (labels and settings, "key<TAB>value"; layout, titles, windows to
 * shade), with style.tsv (terminal, text sizes, line widths).  Labels come
 * only from validated fields: strategy names, variant names, sweep keys
 * and values, metric names, the scenario's name, all of a restricted
 * character set without quotes, tabs, '#', '@', '<', '|' or '\'.  What
 * the figures share (the work files, labels, colours, layout, the metrics
 * drawn) is plot_figure.c's.
 */
#include "plot_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"

/* The series of a figure drawn from aggregate.csv or compare.csv: the
 * strategies of the selected variant, or, when the run compares variants
 * of one strategy (and no --variant is given), the variants. */
typedef struct series {
    int by_variant;
    slist name;
    int strategy[64];
} series;

int plot_count_strategies(const ptable *t)
{
    int seen[HP_STRATEGY_COUNT] = {0}, n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!seen[t->row[i].strategy]++)
            n++;
    return n;
}

/* Row p's series (its index in s, added if new; -1 out of memory), or -2
 * when the row is not drawn (another variant). */
static long series_of(const folder *fo, series *s, const prow *p)
{
    if (s->by_variant)
        return plot_slist_add(&s->name, p->key[0]);
    if (!plot_of_variant(fo, p))
        return -2;
    long i = plot_slist_add(&s->name, plot_sname(p->strategy));
    if (i >= 0 && i < 64)
        s->strategy[i] = p->strategy;
    return i;
}

static const char *series_color(const series *s, size_t i)
{
    return s->by_variant ? plot_palette(i) : plot_scolor(s->strategy[i < 64 ? i : 0]);
}

/* NAME.csv/.tsv for sweep.gp: metric w of t (aggregate.csv; compare.csv
 * when compare) against the first swept key.
 *
 * lines (one swept key, or a second with at most 4 values: one panel per
 * value): per (panel, series), panels outermost, a block "x,mean,ci95" in
 * x order (x: the value, or its position when the values are not
 * numbers).
 * heat (a second swept key with more than 4 values): per series, a block
 * "col,row,value,label": col the position of the second key's value, row
 * the first key's, both in numeric order.
 * Further swept keys are held at the selected point; compare leaves out the
 * baseline strategy. */
static int prep_sweep(const folder *fo, const ptable *t, int w, int compare, const char *metric, const char *dir,
                      const char *wd, const char *name, char *err, size_t errlen)
{
    const keyset *ks = &fo->ks;
    int x0 = ks->variant, nsw = ks->k - x0;
    const char *file = compare ? "compare.csv" : "aggregate.csv";
    char what[160], fixed[MAX_KEYS * (KEYNAME_MAX + LABEL_MAX + 8)] = "", text[800], hm[128], hx[128], hg[128];
    slist xs = {0}, gs = {0};
    series S;
    memset(&S, 0, sizeof S);
    double *Y = NULL, *E = NULL;
    char *has = NULL;
    size_t *ord = NULL, *gord = NULL;
    wfile d = {0}, in = {0};
    int rc = -1;
    snprintf(what, sizeof what, "no values of %s%s", metric, compare ? "_change_pct_mean" : "_mean");
    if (t->n == 0 || w < 0) {
        rc = plot_data_fail(err, errlen, dir, file, what);
        goto done;
    }
    S.by_variant = ks->variant && !fo->sel.vgiven && plot_count_strategies(t) == 1;
    for (int i = x0 + 2; i < ks->k; i++)
        plot_append(fixed, sizeof fixed, ", ", ks->name[i], fo->sel.pval[i]);
    /* pass 1: series, panels and x values, in file order */
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!plot_at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
            continue;
        long s = series_of(fo, &S, p);
        if (s == -2)
            continue;
        if (s < 0 || plot_slist_add(&gs, nsw >= 2 ? p->key[x0 + 1] : "") < 0 || plot_slist_add(&xs, p->key[x0]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    }
    size_t nx = xs.n, ng = gs.n, ns = S.name.n;
    if (ns == 0 && compare) { /* only the baseline: nothing to compare, a note */
        rc = plot_data_fail(err, errlen, dir, file, "no strategy besides the baseline") ? PLOT_NODATA : 0;
        goto done;
    }
    if (ns == 0 || ns > 64) {
        rc = plot_data_fail(err, errlen, dir, file, ns ? "more than 64 series; expected --variant" : what);
        goto done;
    }
    int heat = nsw >= 2 && ng > 4;
    size_t cells = ng * ns * (nx ? nx : 1);
    Y = herd_malloc_array(cells, sizeof *Y);
    E = herd_malloc_array(cells, sizeof *E);
    has = herd_calloc(cells, 1);
    ord = herd_malloc_array(nx ? nx : 1, sizeof *ord);
    gord = herd_malloc_array(ng ? ng : 1, sizeof *gord);
    if (!Y || !E || !has || !ord || !gord) {
        rc = plot_oom(err, errlen);
        goto done;
    }
    /* pass 2: the values and the ranges */
    int ny = 0, allpos = 0, noci = 0;
    double lo = 0, hi = 0, ymin = 0, ymax = 0, minpos = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!plot_at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
            continue;
        long s = series_of(fo, &S, p);
        if (s < 0)
            continue;
        double y = p->v[2 * w], e = p->v[2 * w + 1];
        if (!isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        size_t g = (size_t)plot_slist_find(&gs, nsw >= 2 ? p->key[x0 + 1] : "");
        size_t x = (size_t)plot_slist_find(&xs, p->key[x0]);
        size_t c = (g * ns + (size_t)s) * nx + x;
        Y[c] = y;
        E[c] = e;
        has[c] = 1;
        if (heat)
            e = 0;
        if (!ny++) {
            lo = y - e;
            hi = y + e;
            ymin = ymax = y;
            allpos = 1;
        }
        if (y - e < lo)
            lo = y - e;
        if (y + e > hi)
            hi = y + e;
        if (y < ymin)
            ymin = y;
        if (y > ymax)
            ymax = y;
        if (y <= 0)
            allpos = 0;
        double b = y - e > 0 ? y - e : y;
        if (y > 0 && (isnan(minpos) || b < minpos))
            minpos = b;
    }
    if (ny == 0) { /* every value undefined (n/a): no figure, a note */
        plot_data_fail(err, errlen, dir, file, what);
        snprintf(err + strlen(err), errlen - strlen(err), " (n/a at every point)");
        rc = PLOT_NODATA;
        goto done;
    }
    int xnum = plot_slist_order(&xs, ord), gnum = plot_slist_order(&gs, gord);
    (void)gnum;
    /* how evenly a linear or a log axis spreads the x values: the smallest
     * gap between neighbours, as a share of the axis */
    double gaplin = 1, gaplog = 1;
    if (xnum && nx > 1) {
        double a = strtod(xs.v[ord[0]], NULL), z = strtod(xs.v[ord[nx - 1]], NULL);
        for (size_t i = 1; i < nx; i++) {
            double u = strtod(xs.v[ord[i - 1]], NULL), v = strtod(xs.v[ord[i]], NULL);
            if (z > a && (v - u) / (z - a) < gaplin)
                gaplin = (v - u) / (z - a);
            if (a > 0 && z > a && log(v / u) / log(z / a) < gaplog)
                gaplog = log(v / u) / log(z / a);
        }
        if (a <= 0)
            gaplog = 0;
    }
    if (plot_w_open(&d, wd, name, "csv", err, errlen) || plot_w_open(&in, wd, name, "tsv", err, errlen))
        goto done;
    if (!heat) {
        for (size_t g = 0; g < ng; g++)
            for (size_t s = 0; s < ns; s++) {
                int any = 0;
                fprintf(d.f, "%sx,mean,ci95\n", g || s ? "\n\n" : "");
                for (size_t i = 0; i < nx; i++) {
                    size_t c = (gord[g] * ns + s) * nx + ord[i];
                    if (!has[c])
                        continue;
                    if (!xnum)
                        fprintf(d.f, "%zu", i + 1);
                    else
                        fputs(xs.v[ord[i]], d.f);
                    fprintf(d.f, ",%.17g,%.17g\n", Y[c], E[c]);
                    any = 1;
                }
                if (!any)
                    fputs("NaN,NaN,0\n", d.f);
            }
    } else {
        /* each cell's text in black or white, whichever stands out on its
         * colour (dark low end of the sequential palette, dark ends of the
         * diverging one) */
        int logcb = !compare && allpos && ymax >= 100 * ymin;
        double vmax = fmax(fabs(ymin), fabs(ymax));
        for (size_t s = 0; s < ns; s++) {
            fprintf(d.f, "%scol,row,value,label,tc\n", s ? "\n\n" : "");
            for (size_t i = 0; i < nx; i++)
                for (size_t g = 0; g < ng; g++) {
                    size_t c = (gord[g] * ns + s) * nx + ord[i];
                    char v[32];
                    plot_value_text(v, sizeof v, has[c] ? Y[c] : NAN);
                    double y = has[c] ? Y[c] : NAN, pos;
                    if (compare)
                        pos = vmax > 0 ? fabs(y) / vmax : 0;
                    else if (logcb)
                        pos = y > 0 ? log(y / minpos) / log(ymax / minpos) : 0;
                    else
                        pos = ymax > ymin ? (y - ymin) / (ymax - ymin) : 0;
                    int white = compare ? pos > 0.6 : pos < 0.55;
                    fprintf(d.f, "%zu,%zu,", g, i);
                    plot_put_num(d.f, y);
                    fprintf(d.f, ",%s,%d\n", v, white ? 0xFFFFFF : 0);
                }
        }
    }
    if (compare)
        plot_human_metric_bare(hm, sizeof hm, metric);
    else
        plot_human_metric(hm, sizeof hm, metric);
    plot_human_key(hx, sizeof hx, ks->name[x0]);
    plot_human_key(hg, sizeof hg, nsw >= 2 ? ks->name[x0 + 1] : "");
    const char *base = compare && t->row[0].baseline >= 0 ? plot_sname(t->row[0].baseline) : "";
    plot_info_s(in.f, "format", "sweep");
    plot_info_s(in.f, "mode", heat ? "heat" : "lines");
    /* a series that is zero throughout gets no key entry; the subtitle
     * names it */
    char zeros[400] = "";
    plot_info_n(in.f, "ns", (double)ns);
    for (size_t s = 0; s < ns; s++) {
        int zero = 1;
        for (size_t g = 0; g < ng && zero; g++)
            for (size_t i = 0; i < nx && zero; i++) {
                size_t c = (g * ns + s) * nx + i;
                zero = !has[c] || Y[c] == 0;
            }
        if (zero && !heat)
            plot_append(zeros, sizeof zeros, ", ", S.name.v[s], NULL);
        fprintf(in.f, "series\t%s\t%s\t%d\n", S.name.v[s], series_color(&S, s), zero && !heat);
    }
    plot_info_n(in.f, "ng", (double)ng);
    plot_info_n(in.f, "nx", (double)nx);
    plot_info_n(in.f, "xnum", xnum);
    plot_info_n(in.f, "noci", noci);
    plot_info_s(in.f, "xkey", ks->name[x0]);
    plot_info_s(in.f, "gkey", nsw >= 2 ? ks->name[x0 + 1] : "");
    plot_info_s(in.f, "xlabel", hx);
    plot_info_s(in.f, "glabel", nsw >= 2 ? hg : "");
    plot_info_s(in.f, "fixed", fixed);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    plot_info_s(in.f, "reps", reps);
    plot_info_s(in.f, "baseline", base);
    if (compare)
        snprintf(text, sizeof text, "change in %s vs %s (%%)", hm, base);
    else
        snprintf(text, sizeof text, "%s", hm);
    plot_info_s(in.f, "ylabel", text);
    if (heat && compare)
        snprintf(text, sizeof text, "%s: change in %s vs %s (%%)", plot_title_name(fo), hm, base);
    else if (heat)
        snprintf(text, sizeof text, "%s: %s by %s and %s", plot_title_name(fo), hm, hx, hg);
    else
        snprintf(text, sizeof text, "%s: %s%s%s%s by %s", plot_title_name(fo), compare ? "change in " : "", hm,
                 compare ? " vs " : "", compare ? base : "", hx);
    plot_info_s(in.f, "title", text);
    char keys[400] = "";
    for (int i = x0; i < ks->k && i < x0 + 2; i++)
        plot_append(keys, sizeof keys, ", ", ks->name[i], NULL);
    snprintf(text, sizeof text, "%s%s%s%s%s%s%s%s%s", noci ? "no CI (1 replication)" : "mean and 95% CI",
             !noci && reps[0] ? " over " : "", !noci ? reps : "", !noci && reps[0] ? " replications" : "",
             compare ? ", paired per replication (below 0: lower)" : "", fixed[0] ? "; at " : "", fixed,
             S.by_variant || !ks->variant ? "" : "; variant ", S.by_variant || !ks->variant ? "" : fo->sel.vname);
    if (zeros[0]) {
        size_t o = strlen(text);
        snprintf(text + o, sizeof text - o, "; 0 throughout: %s", zeros);
    }
    if (heat)
        snprintf(text, sizeof text, "mean over %s replications%s%s%s%s", reps[0] ? reps : "the",
                 compare ? ", paired; below 0: lower than the baseline" : "", fixed[0] ? "; at " : "", fixed,
                 S.by_variant || !ks->variant ? "" : "; one variant");
    plot_info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "swept: %s", keys);
    plot_info_s(in.f, "keys", text);
    plot_info_n(in.f, "lo", lo);
    plot_info_n(in.f, "hi", hi);
    plot_info_n(in.f, "ymin", ymin);
    plot_info_n(in.f, "ymax", ymax);
    plot_info_n(in.f, "allpos", allpos);
    plot_info_n(in.f, "minpos", isnan(minpos) ? 0 : minpos);
    plot_info_n(in.f, "xmin", !xnum ? 1 : strtod(xs.v[ord[0]], NULL));
    plot_info_n(in.f, "xmax", !xnum ? (double)nx : strtod(xs.v[ord[nx - 1]], NULL));
    plot_info_n(in.f, "gaplin", gaplin);
    plot_info_n(in.f, "gaplog", gaplog);
    plot_info_n(in.f, "diverging", compare);
    plot_info_n(in.f, "logcb", !compare && allpos && ymax >= 100 * ymin);
    plot_info_n(in.f, "cells", heat && nx * ng * ns <= 160 && fo->o->term != PLOT_TERM_DUMB);
    for (size_t g = 0; g < ng; g++)
        plot_info_s(in.f, "glab", gs.v[gord[g]]);
    for (size_t i = 0; i < nx; i++)
        plot_info_s(in.f, "xlab", xs.v[ord[i]]);
    plot_lay_write(in.f, heat ? plot_lay(fo, (int)ns, 0, 420, 360, 120)
                              : plot_lay(fo, (int)ng, 0, ng == 1 ? 860 : 380, ng == 1 ? 440 : 300, 130));
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    plot_slist_free(&xs);
    plot_slist_free(&gs);
    plot_slist_free(&S.name);
    herd_free(Y);
    herd_free(E);
    herd_free(has);
    herd_free(ord);
    herd_free(gord);
    return rc;
}

/* compare.csv/.tsv for compare.gp (no sweep): per strategy of the selected
 * variant but the baseline, a block "pos,mean,ci95,label" of the change of
 * metric w. */
static int prep_compare_bars(const folder *fo, int w, const char *metric, const char *dir, const char *wd,
                             char *err, size_t errlen)
{
    const ptable *t = &fo->cmp;
    wfile d = {0}, in = {0};
    int rc = -1, ns = 0, noci = 0, others = 0;
    double lo = 0, hi = 0;
    const prow *first = NULL;
    char text[600], hm[128];
    if (w < 0 || t->n == 0)
        return plot_data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
    if (plot_w_open(&d, wd, "compare", "csv", err, errlen) || plot_w_open(&in, wd, "compare", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        double y = p->v[2 * w], e = p->v[2 * w + 1];
        if (p->strategy == p->baseline || !plot_of_variant(fo, p))
            continue;
        others++;
        if (!isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        if (!ns) {
            lo = y - e;
            hi = y + e;
            first = p;
        }
        if (y - e < lo)
            lo = y - e;
        if (y + e > hi)
            hi = y + e;
        fprintf(in.f, "series\t%s\t%s\n", plot_sname(p->strategy), plot_scolor(p->strategy));
        ns++;
        fprintf(d.f, "%spos,mean,ci95,label\n%d,%.17g,%.17g,%+.1f%%\n", ns > 1 ? "\n\n" : "", ns, y, e, y);
    }
    if (!ns) { /* nothing defined to draw: no figure, a note */
        char what[200];
        if (others)
            snprintf(what, sizeof what, "%s_change_pct_mean is n/a for every strategy besides the baseline "
                     "(undefined, e.g. where the baseline's value is 0)", metric);
        else
            snprintf(what, sizeof what, "no strategy besides the baseline");
        plot_data_fail(err, errlen, dir, "compare.csv", what);
        rc = PLOT_NODATA;
        goto done;
    }
    const char *base = first->baseline >= 0 ? plot_sname(first->baseline) : "";
    plot_human_metric_bare(hm, sizeof hm, metric);
    plot_info_s(in.f, "format", "bars");
    plot_info_n(in.f, "ns", ns);
    plot_info_s(in.f, "baseline", base);
    char reps[32] = "";
    if (first->reps)
        snprintf(reps, sizeof reps, "%llu", first->reps);
    plot_info_s(in.f, "reps", reps);
    plot_info_n(in.f, "noci", noci);
    plot_info_n(in.f, "lo", lo);
    plot_info_n(in.f, "hi", hi);
    snprintf(text, sizeof text, "%s: change in %s vs %s", plot_title_name(fo), hm, base);
    plot_info_s(in.f, "title", text);
    snprintf(text, sizeof text, "%s%s%s%s, paired per replication; below 0: lower than %s%s%s",
             noci ? "no CI (1 replication)" : "mean and 95% CI", !noci && reps[0] ? " over " : "", !noci ? reps : "",
             !noci && reps[0] ? " replications" : "", base, fo->ks.variant ? "; variant " : "",
             fo->ks.variant ? fo->sel.vname : "");
    plot_info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "change in %s (%%)", hm);
    plot_info_s(in.f, "ylabel", text);
    layout L = plot_lay(fo, 1, 0, 0, 520, 0);
    if (fo->o->style == PLOT_STYLE_PAPER && fo->o->term != PLOT_TERM_DUMB)
        L.W = 160 + 120 * (ns > 6 ? ns : 6);
    plot_lay_write(in.f, L);
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* variants-M.csv per metric M of the figure: per strategy, a block
 * "x,mean,ci95,ytext,label" (one row per variant, x its bar's centre, the
 * value written above the bar); variants.tsv. */
static int prep_variants(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->agg;
    slist vs = {0};
    int si[HP_STRATEGY_COUNT], sorder[HP_STRATEGY_COUNT], ns = 0, rc = -1, ml[MAX_WANT];
    char pt[400], text[800];
    const prow **cell = NULL;
    wfile d = {0}, in = {0};
    int nm = plot_variant_metric_list(fo, ml);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        si[s] = -1;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!plot_at_point(fo, p, 0))
            continue;
        if (si[p->strategy] < 0) {
            si[p->strategy] = ns;
            sorder[ns++] = p->strategy;
        }
        if (plot_slist_add(&vs, p->key[0]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    }
    if (ns == 0 || vs.n == 0) {
        rc = plot_data_fail(err, errlen, dir, "aggregate.csv", "no rows at the selected point");
        goto done;
    }
    cell = herd_calloc(vs.n * (size_t)ns + 1, sizeof *cell);
    if (!cell) {
        rc = plot_oom(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (plot_at_point(fo, p, 0))
            cell[(size_t)plot_slist_find(&vs, p->key[0]) * (size_t)ns + (size_t)si[p->strategy]] = p;
    }
    if (plot_w_open(&in, wd, "variants", "tsv", err, errlen))
        goto done;
    double bw = 0.8 / ns;
    int written = 0;
    for (int k = 0; k < nm; k++) {
        int w = plot_kept(t, ml[k]);
        const char *mn = metric_table[ml[k]].name;
        char name[96], hm[128];
        if (w < 0)
            continue;
        double top = 0;
        for (size_t c = 0; c < vs.n * (size_t)ns; c++)
            if (cell[c] && isfinite(cell[c]->v[2 * w])) {
                double e = isfinite(cell[c]->v[2 * w + 1]) ? fabs(cell[c]->v[2 * w + 1]) : 0;
                if (cell[c]->v[2 * w] + e > top)
                    top = cell[c]->v[2 * w] + e;
            }
        if (top <= 0)
            top = 1;
        snprintf(name, sizeof name, "variants-%s", mn);
        if (plot_w_open(&d, wd, name, "csv", err, errlen))
            goto done;
        for (int s = 0; s < ns; s++) {
            fprintf(d.f, "%sx,mean,ci95,ytext,label\n", s ? "\n\n" : "");
            for (size_t v = 0; v < vs.n; v++) {
                const prow *p = cell[v * (size_t)ns + (size_t)s];
                double y = p ? p->v[2 * w] : NAN, e = p && isfinite(p->v[2 * w + 1]) ? fabs(p->v[2 * w + 1]) : 0;
                char lab[32];
                plot_value_text(lab, sizeof lab, y);
                fprintf(d.f, "%.6f,", (double)v + 1 + bw * (s - (ns - 1) / 2.0));
                plot_put_num(d.f, y);
                fprintf(d.f, ",%.17g,", e);
                plot_put_num(d.f, isfinite(y) ? (y > 0 ? y : 0) + e + 0.02 * top : 0.02 * top);
                fprintf(d.f, ",%s\n", lab);
            }
        }
        if (plot_w_close(&d, err, errlen))
            goto done;
        plot_human_metric(hm, sizeof hm, mn);
        fprintf(in.f, "metric\t%s\t%s\t", mn, hm);
        plot_put_num(in.f, top * 1.16);
        fputc('\n', in.f);
        written++;
    }
    for (size_t v = 0; v < vs.n; v++)
        plot_info_s(in.f, "vlab", vs.v[v]);
    plot_info_n(in.f, "nm", written);
    plot_info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "series\t%s\t%s\n", plot_sname(sorder[s]), plot_scolor(sorder[s]));
    plot_info_n(in.f, "nv", (double)vs.n);
    plot_info_n(in.f, "boxw", bw * 0.92);
    snprintf(text, sizeof text, "%s: the variants side by side", plot_title_name(fo));
    plot_info_s(in.f, "title", text);
    plot_point_text(fo, pt, sizeof pt, 0);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    snprintf(text, sizeof text, "mean and 95%% CI%s%s%s%s%s%s%s", reps[0] ? " over " : "", reps,
             reps[0] ? " replications" : "", ns == 1 ? "; strategy " : "", ns == 1 ? plot_sname(sorder[0]) : "",
             pt[0] ? "; at " : "", pt);
    plot_info_s(in.f, "subtitle", text);
    /* variants.gp slants or wraps the variant names from their lengths */
    plot_lay_write(in.f, plot_lay(fo, written, 0, 420, 300, 70));
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    plot_slist_free(&vs);
    herd_free(cell);
    return rc;
}

/* sensitivity.csv/.tsv: compare.csv with two sweep columns as a grid; per
 * point (col = index of the second key's value, row = of the first) the
 * completion-time reduction of every strategy, and whether the 62/65 claim
 * holds (full jitter 62 +/- 3 %, decorrelated jitter 65 +/- 3 % and ahead). */
static int prep_sensitivity(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->cmp;
    slist as = {0}, bs = {0};
    double *red = NULL;
    char *seen = NULL;
    size_t *order = NULL, norder = 0, *aord = NULL, *bord = NULL, *arank = NULL, *brank = NULL;
    wfile d = {0}, in = {0};
    int rc = -1;
    char text[600], h1[128], h2[128];
    for (size_t i = 0; i < t->n; i++)
        if (plot_slist_add(&as, t->row[i].key[0]) < 0 || plot_slist_add(&bs, t->row[i].key[1]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    if (t->n == 0) {
        rc = plot_data_fail(err, errlen, dir, "compare.csv", "no rows");
        goto done;
    }
    size_t na = as.n, nb = bs.n, cells = na * nb;
    red = herd_malloc_array(cells * HP_STRATEGY_COUNT, sizeof *red);
    seen = herd_calloc(cells, 1);
    order = herd_malloc_array(cells, sizeof *order);
    aord = herd_malloc_array(na, sizeof *aord);
    bord = herd_malloc_array(nb, sizeof *bord);
    arank = herd_malloc_array(na, sizeof *arank);
    brank = herd_malloc_array(nb, sizeof *brank);
    if (!red || !seen || !order || !aord || !bord || !arank || !brank) {
        rc = plot_oom(err, errlen);
        goto done;
    }
    plot_slist_order(&as, aord);
    plot_slist_order(&bs, bord);
    for (size_t i = 0; i < na; i++)
        arank[aord[i]] = i;
    for (size_t i = 0; i < nb; i++)
        brank[bord[i]] = i;
    for (size_t i = 0; i < cells * HP_STRATEGY_COUNT; i++)
        red[i] = NAN;
    int w = plot_kept(t, 0);
    for (size_t i = 0; i < t->n && w >= 0; i++) {
        const prow *p = &t->row[i];
        size_t c = (size_t)plot_slist_find(&as, p->key[0]) * nb + (size_t)plot_slist_find(&bs, p->key[1]);
        if (!seen[c]) {
            seen[c] = 1;
            order[norder++] = c;
        }
        red[c * HP_STRATEGY_COUNT + (size_t)p->strategy] = -p->v[2 * w];
    }
    if (plot_w_open(&d, wd, "sensitivity", "csv", err, errlen) ||
        plot_w_open(&in, wd, "sensitivity", "tsv", err, errlen))
        goto done;
    fputs("col,row,ok", d.f);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        fprintf(d.f, ",%s", plot_sname(s));
    fputc('\n', d.f);
    for (size_t i = 0; i < norder; i++) {
        size_t c = order[i];
        double f = red[c * HP_STRATEGY_COUNT + HP_FULL_JITTER], dj = red[c * HP_STRATEGY_COUNT + HP_DECORRELATED_JITTER];
        int ok = f >= 59 && f <= 65 && dj >= 62 && dj <= 68 && dj > f; /* false with a NaN */
        fprintf(d.f, "%zu,%zu,%d", brank[c % nb], arank[c / nb], ok);
        for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
            fputc(',', d.f);
            plot_put_num(d.f, red[c * HP_STRATEGY_COUNT + (size_t)s]);
        }
        fputc('\n', d.f);
    }
    plot_info_s(in.f, "k1", fo->ks.name[0]);
    plot_info_s(in.f, "k2", fo->ks.name[1]);
    plot_human_key(h1, sizeof h1, fo->ks.name[0]);
    plot_human_key(h2, sizeof h2, fo->ks.name[1]);
    plot_info_s(in.f, "l1", h1);
    plot_info_s(in.f, "l2", h2);
    plot_info_n(in.f, "na", (double)na);
    plot_info_n(in.f, "nb", (double)nb);
    for (size_t i = 0; i < na; i++)
        plot_info_s(in.f, "alab", as.v[aord[i]]);
    for (size_t i = 0; i < nb; i++)
        plot_info_s(in.f, "blab", bs.v[bord[i]]);
    snprintf(text, sizeof text, "%s: completion-time reduction vs %s (%%)", plot_title_name(fo),
             t->row[0].baseline >= 0 ? plot_sname(t->row[0].baseline) : "the baseline");
    plot_info_s(in.f, "title", text);
    plot_info_s(in.f, "subtitle",
                "dots: the 62/65 claim holds (full jitter 62 +/- 3 %, decorrelated 65 +/- 3 % and ahead)");
    snprintf(text, sizeof text, "swept: %s, %s", fo->ks.name[0], fo->ks.name[1]);
    plot_info_s(in.f, "keys", text);
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    plot_slist_free(&as);
    plot_slist_free(&bs);
    herd_free(red);
    herd_free(seen);
    herd_free(order);
    herd_free(aord);
    herd_free(bord);
    herd_free(arank);
    herd_free(brank);
    return rc;
}

/* The compared metric of the compare figure: the first --metric that
 * compare.csv has, else completion_time_s (plot_compared[] index). */
static int compare_metric(const folder *fo)
{
    for (int i = 0; i < fo->sel.nmetric; i++) {
        int c = plot_compared_index(metric_table[fo->sel.metric[i]].name);
        if (c >= 0)
            return c;
    }
    return 0;
}

/* Writes the data of every job into wd. */
/* Marks figure f of job j skipped (the note in err, on stderr when
 * announce). */
static void skip_fig(job *j, int f, int announce, const char *err)
{
    if (!j->skip[f]) {
        j->skip[f] = 1;
        j->nskip++;
    }
    if (announce)
        fprintf(stderr, "herd: plot: %s: %s not drawn\n", err, j->fig[f]);
}

int plot_prepare(const folder *fo, job *jobs, int njobs, const char *dir, const char *wd, int announce, char *err,
                 size_t errlen)
{
    if (plot_write_style(fo, wd, err, errlen))
        return -1;
    for (int i = 0; i < njobs; i++) {
        job *j = &jobs[i];
        int r;
        if (!strcmp(j->script, "timeseries.gp") && plot_prep_timeseries(fo, dir, wd, "timeseries", 0, err, errlen))
            return -1;
        if (!strcmp(j->script, "animate.gp") && plot_prep_timeseries(fo, dir, wd, "load", 1, err, errlen))
            return -1;
        if (!strcmp(j->script, "goodput.gp") && plot_prep_goodput(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "sweep.gp") && !j->a2) {
            int ml[MAX_WANT], nm = plot_sweep_metric_list(fo, ml);
            char list[MAX_WANT * 40] = "";
            for (int k = 0; k < nm; k++) {
                char name[96];
                snprintf(name, sizeof name, "sweep_%s", metric_table[ml[k]].name);
                r = prep_sweep(fo, &fo->agg, plot_kept(&fo->agg, ml[k]), 0, metric_table[ml[k]].name, dir, wd, name,
                               err, errlen);
                if (r < 0)
                    return -1;
                if (r == PLOT_NODATA) {
                    for (int f = 0; f < j->nfig; f++)
                        if (!strcmp(j->fig[f], name))
                            skip_fig(j, f, announce, err);
                    continue;
                }
                plot_append(list, sizeof list, " ", metric_table[ml[k]].name, NULL);
            }
            wfile s = {0};
            if (plot_w_open(&s, wd, "sweep", "tsv", err, errlen))
                return -1;
            plot_info_s(s.f, "metrics", list);
            if (plot_w_close(&s, err, errlen))
                return -1;
        }
        if (j->a2 || !strcmp(j->script, "compare.gp")) {
            int c = compare_metric(fo);
            int w = plot_kept(&fo->cmp, c);
            r = fo->ks.k > fo->ks.variant ? prep_sweep(fo, &fo->cmp, w, 1, plot_compared[c], dir, wd, "compare", err, errlen)
                                          : prep_compare_bars(fo, w, plot_compared[c], dir, wd, err, errlen);
            if (r < 0)
                return -1;
            if (r == PLOT_NODATA)
                skip_fig(j, 0, announce, err);
        }
        if (!strcmp(j->script, "sensitivity.gp") && prep_sensitivity(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "variants.gp") && prep_variants(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "replay.gp") && plot_prep_replay(fo, dir, wd, err, errlen))
            return -1;
    }
    return 0;
}

