/*
 * plot_time.c - herd plot's figures over time (second stage, as
 * plot_data.c): the timeseries and its animation, goodput against offered
 * load, and the incident replay, from the rows the load kept.
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

#define MAX_WIN 16 /* windows shaded in a figure over time */

/* timeseries.csv/.tsv (and load.csv/.tsv for the animation): per strategy
 * of the selected variant, point and replication, a block
 * "time_s,arrivals,refused", each closed by an empty bucket. */
int plot_prep_timeseries(const folder *fo, const char *dir, const char *wd, const char *name, int gif,
                           char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, ns = 0, last = -1, vsel = -1;
    int strat[HP_STRATEGY_COUNT * 8], hasa[HP_STRATEGY_COUNT * 8] = {0}, hasr[HP_STRATEGY_COUNT * 8] = {0};
    double bucket = 0, tmax = 0, amax = 0, fmax = 0, lt = 0;
    char text[600], pt[400];
    if (fo->ks.variant)
        for (size_t i = 0; i < ts->nvariant; i++)
            if (!strcmp(ts->variant[i], fo->sel.vname))
                vsel = (int)i;
    /* pass 1: the strategies, the bucket width (the smallest step of time
     * within a strategy), the ranges, the series that are not all zero */
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != vsel)
            continue;
        if (p->strategy != last) {
            if (ns == (int)COUNT(strat))
                break;
            strat[ns++] = p->strategy;
            last = p->strategy;
        } else if (p->t > lt && (bucket == 0 || p->t - lt < bucket)) {
            bucket = p->t - lt;
        }
        lt = p->t;
        if (p->arrivals + p->refused > 0 && p->t > tmax)
            tmax = p->t;
        if (p->arrivals > amax)
            amax = p->arrivals;
        if (p->refused > fmax)
            fmax = p->refused;
        hasa[ns - 1] |= p->arrivals > 0;
        hasr[ns - 1] |= p->refused > 0;
    }
    if (ns == 0)
        return plot_data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
    if (bucket <= 0)
        bucket = 1;
    /* Bounded work: a panel gets at most PLOT_TS_MAX_POINTS (an animation
     * PLOT_GIF_MAX_POINTS, drawn once per frame) steps; more buckets are
     * merged k at a time into buckets k times as wide (sums of counts, so
     * the rates stay exact averages over the wider bucket). */
    double span = lt > 0 ? lt : 0;
    for (size_t i = 0; i < ts->n; i++)
        if (ts->r[i].variant == vsel && ts->r[i].t > span)
            span = ts->r[i].t;
    double nbuckets = floor(span / bucket + 0.5) + 1, maxpts = gif ? PLOT_GIF_MAX_POINTS : PLOT_TS_MAX_POINTS;
    if (gif && maxpts * ns > PLOT_GIF_MAX_ALL) /* every frame draws every strategy: bounded in all */
        maxpts = floor((double)PLOT_GIF_MAX_ALL / ns);
    double k = nbuckets > maxpts ? ceil(nbuckets / maxpts) : 1;
    double wide = k * bucket;
    /* pass 2: the blocks */
    if (plot_w_open(&d, wd, name, "csv", err, errlen) || plot_w_open(&in, wd, name, "tsv", err, errlen))
        goto done;
    last = -1;
    int nb = 0;
    double g_t = 0, g_a = 0, g_r = 0, g_id = -1;
    if (k > 1)
        amax = fmax = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != vsel)
            continue;
        double id = k > 1 ? floor(p->t / wide + 1e-9) : (double)i;
        if ((p->strategy != last || id != g_id) && g_id >= 0) { /* the group so far */
            plot_put_num(d.f, g_t);
            fprintf(d.f, ",%.17g,%.17g\n", g_a, g_r);
            amax = k > 1 && g_a > amax ? g_a : amax;
            fmax = k > 1 && g_r > fmax ? g_r : fmax;
            g_id = -1;
        }
        if (p->strategy != last) {
            if (nb == ns)
                break;
            if (last >= 0)
                fprintf(d.f, "%.17g,0,0\n\n\n", lt + wide);
            fprintf(d.f, "time_s,arrivals,refused\n");
            last = p->strategy;
            nb++;
        }
        if (g_id < 0) {
            g_id = id;
            g_t = k > 1 ? id * wide : p->t;
            g_a = g_r = 0;
        }
        g_a += p->arrivals;
        g_r += p->refused;
        lt = k > 1 ? g_t : p->t;
    }
    if (g_id >= 0) {
        plot_put_num(d.f, g_t);
        fprintf(d.f, ",%.17g,%.17g\n", g_a, g_r);
        amax = k > 1 && g_a > amax ? g_a : amax;
        fmax = k > 1 && g_r > fmax ? g_r : fmax;
    }
    fprintf(d.f, "%.17g,0,0\n", lt + wide);
    bucket = wide;
    plot_info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "panel\t%s\t%s\t%d\t%d\n", plot_sname(strat[s]), plot_scolor(strat[s]), hasa[s], hasr[s]);
    plot_info_n(in.f, "bucket", bucket);
    plot_info_n(in.f, "tmax", tmax);
    plot_info_n(in.f, "amax", amax);
    plot_info_n(in.f, "fmax", fmax);
    snprintf(text, sizeof text, "%s: load on the server, attempts per second by strategy", plot_title_name(fo));
    plot_info_s(in.f, "title", text);
    plot_point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "replication %llu, %g s buckets%s%s%s%s", fo->sel.rep, bucket,
             fo->ks.variant ? "; variant " : "", fo->ks.variant ? fo->sel.vname : "", pt[0] ? "; " : "", pt);
    plot_info_s(in.f, "subtitle", text);
    plot_info_s(in.f, "label", pt);
    window w[MAX_WIN];
    int nw = plot_windows(fo, fo->ks.variant ? fo->sel.vname : NULL, tmax + 2 * bucket, w, MAX_WIN);
    plot_info_n(in.f, "nwin", nw);
    plot_write_windows(in.f, w, nw, 0);
    if (gif) {
        plot_opts o = *fo->o;
        folder f2 = *fo;
        o.term = PLOT_TERM_PNG;
        f2.o = &o;
        plot_lay_write(in.f, plot_lay(&f2, ns, 1, 1000, 150, 90));
    } else {
        plot_lay_write(in.f, plot_lay(fo, ns, 1, 1000, 150, 90));
    }
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* goodput.csv/.tsv: per variant (all, or the selected one) and strategy
 * at the selected point and replication, the blocks
 * "time_s,offered,goodput". */
int plot_prep_goodput(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, np = 0, lastv = -2, lasts = -1, vsel = -1;
    double bw = 0, t0 = 0, tmax = 0, ymax = 0;
    char text[600], pt[400];
    slist panels = {0};
    int *hasoff = NULL, *hasgood = NULL, *pvar = NULL;
    if (fo->sel.vgiven)
        for (size_t i = 0; i < ts->nvariant; i++)
            if (!strcmp(ts->variant[i], fo->sel.vname))
                vsel = (int)i;
    /* one strategy: panels are named after their variant, the strategy
     * goes under the title */
    int one = fo->ks.variant && plot_count_strategies(&fo->agg) == 1 && !fo->sel.vgiven;
    size_t cap = ts->n + 1;
    hasoff = herd_calloc(cap, sizeof *hasoff);
    hasgood = herd_calloc(cap, sizeof *hasgood);
    pvar = herd_calloc(cap, sizeof *pvar);
    if (!hasoff || !hasgood || !pvar) {
        plot_oom(err, errlen);
        goto done;
    }
    if (plot_w_open(&d, wd, "goodput", "csv", err, errlen) || plot_w_open(&in, wd, "goodput", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (fo->sel.vgiven && p->variant != vsel)
            continue;
        if (p->variant != lastv || p->strategy != lasts) {
            char name[LABEL_MAX + 64];
            if (p->variant >= 0 && one)
                snprintf(name, sizeof name, "%s", ts->variant[p->variant]);
            else if (p->variant >= 0 && fo->sel.vgiven)
                snprintf(name, sizeof name, "%s", plot_sname(p->strategy));
            else if (p->variant >= 0)
                snprintf(name, sizeof name, "%s / %s", ts->variant[p->variant], plot_sname(p->strategy));
            else
                snprintf(name, sizeof name, "%s", plot_sname(p->strategy));
            if (plot_slist_find(&panels, name) >= 0) /* rows of a panel are contiguous */
                continue;
            if (plot_slist_add(&panels, name) < 0) {
                plot_oom(err, errlen);
                goto done;
            }
            fprintf(d.f, "%stime_s,offered,goodput\n", np ? "\n\n" : "");
            lastv = p->variant;
            lasts = p->strategy;
            pvar[np] = p->variant;
            t0 = p->t;
            np++;
        }
        if (bw == 0 && p->t > t0)
            bw = p->t - t0;
        if (p->offered + p->goodput > 0 && p->t > tmax)
            tmax = p->t;
        if (p->offered > ymax)
            ymax = p->offered;
        if (p->goodput > ymax)
            ymax = p->goodput;
        hasoff[np - 1] |= p->offered > 0;
        hasgood[np - 1] |= p->goodput > 0;
        plot_put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->offered, p->goodput);
    }
    if (np == 0) {
        plot_data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
        goto done;
    }
    if (bw == 0)
        bw = 1;
    plot_info_n(in.f, "np", np);
    for (int i = 0; i < np; i++)
        fprintf(in.f, "panel\t%s\t%d\t%d\n", panels.v[i], hasoff[i], hasgood[i]);
    plot_info_n(in.f, "bw", bw);
    plot_info_n(in.f, "tmax", tmax);
    plot_info_n(in.f, "ymax", ymax);
    snprintf(text, sizeof text, "%s: offered load and goodput (requests/s)", plot_title_name(fo));
    plot_info_s(in.f, "title", text);
    plot_point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "logical requests started and succeeded per second; replication %llu, %g s buckets%s%s%s%s",
             fo->sel.rep, bw, one && np ? "; strategy " : "", one && np ? plot_sname(ts->r[0].strategy) : "",
             pt[0] ? "; " : "", pt);
    if (fo->sel.vgiven) {
        size_t o = strlen(text);
        snprintf(text + o, sizeof text - o, "; variant %s", fo->sel.vname);
    }
    plot_info_s(in.f, "subtitle", text);
    int nwin = 0;
    for (int i = 0; i < np; i++) {
        window w[MAX_WIN];
        int nw = plot_windows(fo, pvar[i] >= 0 ? ts->variant[pvar[i]] : NULL, tmax + bw, w, MAX_WIN);
        plot_write_windows(in.f, w, nw, i + 1);
        nwin += nw;
    }
    plot_info_n(in.f, "nwin", nwin);
    plot_lay_write(in.f, plot_lay(fo, np, 1, 1000, 170, 90));
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    plot_slist_free(&panels);
    herd_free(hasoff);
    herd_free(hasgood);
    herd_free(pvar);
    return rc;
}

/* replay: the run laid over its input data.  Left, the service time's CDF
 * from input.csv and each series' latency quantiles (p50, p90, p99,
 * p99.9: means over replications, aggregate.csv) as points; right, the
 * trace's arrival rate and the logical requests started per second in the
 * selected replication (timeseries.csv; the same in every series, since
 * arrivals come from their own stream). */
int plot_prep_replay(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    static const char *const qname[] = {"p50_latency_s", "p90_latency_s", "p99_latency_s", "p999_latency_s"};
    static const double qp[] = {0.5, 0.9, 0.99, 0.999};
    wfile d = {0}, in = {0};
    int rc = -1, nq = 0, block = 0, haslat = 0;
    char text[600], pt[400];
    if (plot_w_open(&d, wd, "replay", "csv", err, errlen) || plot_w_open(&in, wd, "replay", "tsv", err, errlen))
        goto done;
    /* block 0: the input CDF; block 1: the input rate (a dummy point when absent) */
    for (int k = 0; k < IN_COUNT; k++) {
        fprintf(d.f, "%sx,y\n", block++ ? "\n\n" : "");
        for (size_t i = 0; i < fo->in.n[k]; i++) {
            plot_put_num(d.f, fo->in.x[k][i]);
            fputc(',', d.f);
            plot_put_num(d.f, fo->in.y[k][i]);
            fputc('\n', d.f);
        }
        if (!fo->in.n[k])
            fprintf(d.f, "0,nan\n");
    }
    plot_info_n(in.f, "hascdf", fo->in.n[IN_CDF] > 0);
    plot_info_n(in.f, "hasrate", fo->in.n[IN_RATE] > 0);
    /* block 2: simulated arrivals per second (first series of the selected replication) */
    const tstable *ts = &fo->ts;
    double bw = 0;
    fprintf(d.f, "\n\nx,y\n");
    size_t first = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != ts->r[0].variant || p->strategy != ts->r[0].strategy)
            break;
        if (i > first && bw == 0)
            bw = p->t - ts->r[first].t;
    }
    if (bw <= 0)
        bw = 1;
    int hassim = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != ts->r[0].variant || p->strategy != ts->r[0].strategy)
            break;
        plot_put_num(d.f, p->t);
        fputc(',', d.f);
        plot_put_num(d.f, p->offered / bw);
        fputc('\n', d.f);
        hassim = 1;
    }
    if (!hassim)
        fprintf(d.f, "0,nan\n");
    plot_info_n(in.f, "hassim", hassim);
    plot_info_n(in.f, "bw", bw);
    /* blocks 3..: the quantiles of each series at the selected point */
    int col[4];
    for (int q = 0; q < 4; q++)
        col[q] = plot_kept(&fo->agg, plot_metric_index(qname[q]));
    for (size_t i = 0; i < fo->agg.n && nq < 16; i++) {
        const prow *p = &fo->agg.row[i];
        if (!plot_at_point(fo, p, fo->ks.variant))
            continue;
        char name[LABEL_MAX + 64];
        if (fo->ks.variant)
            snprintf(name, sizeof name, "%s / %s", p->key[0], plot_sname(p->strategy));
        else
            snprintf(name, sizeof name, "%s", plot_sname(p->strategy));
        fprintf(d.f, "\n\nx,y\n");
        for (int q = 0; q < 4; q++) {
            double v = col[q] >= 0 ? p->v[2 * col[q]] : NAN;
            plot_put_num(d.f, v);
            fprintf(d.f, ",%.17g\n", qp[q]);
            haslat |= isfinite(v) && v > 0; /* drawable on the log scale */
        }
        fprintf(in.f, "q\t%s\t%s\n", name, plot_palette(nq));
        nq++;
    }
    plot_info_n(in.f, "nq", nq);
    plot_info_n(in.f, "haslat", haslat);
    snprintf(text, sizeof text, "%s: the run laid over its input data", plot_title_name(fo));
    plot_info_s(in.f, "title", text);
    plot_point_text(fo, pt, sizeof pt, fo->ks.variant);
    snprintf(text, sizeof text, "points: simulated latency p50, p90, p99, p99.9 (means over replications); "
                                "steps: requests started per second, replication %llu%s%s", fo->sel.rep,
             pt[0] ? "; " : "", pt);
    plot_info_s(in.f, "subtitle", text);
    plot_lay_write(in.f, plot_lay(fo, 2, 1, 1000, 170, 90));
    rc = 0;
done:
    if (plot_w_close(&d, err, errlen) || plot_w_close(&in, err, errlen))
        rc = -1;
    (void)dir;
    return rc;
}
