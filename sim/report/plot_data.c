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
 * character set without quotes, tabs, '#', '@', '<', '|' or '\'.
 */
#include "plot_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"

#define MAX_WIN 16 /* windows shaded in a figure over time */

/* What the sweep figures draw by default; what the variants figure draws
 * when the scenario has no [run] columns (herd run's default table). */
static const char *const sweep_default[] = {"completion_time_s", "calls", "peak_arrivals_per_s", "p99_latency_s",
                                            "failures"};
static const char *const columns_default[] = {"completion_time_s", "calls", "refused", "peak_arrivals_per_s",
                                              "p99_latency_s", "failures"};

/* ------------------------------------------------------------------------
 * Writing the figures' data
 * ------------------------------------------------------------------------ */

/* An ordered set of labels (at most LABEL_MAX bytes each). */
typedef struct slist {
    char (*v)[LABEL_MAX + 1];
    size_t n, cap;
} slist;

static long slist_find(const slist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return (long)i;
    return -1;
}

/* The index of s, added if new; -1 when out of memory. */
static long slist_add(slist *l, const char *s)
{
    long i = slist_find(l, s);
    if (i >= 0)
        return i;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        char (*nv)[LABEL_MAX + 1] = herd_realloc_array(l->v, ncap, sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    snprintf(l->v[l->n], sizeof l->v[0], "%s", s);
    return (long)l->n++;
}

static void slist_free(slist *l)
{
    herd_free(l->v);
    memset(l, 0, sizeof *l);
}

/* The positions of l's values in numeric order (stable) into ord, when
 * every value is a number; file order otherwise.  1 if numeric. */
static int slist_order(const slist *l, size_t *ord)
{
    int num = 1;
    for (size_t i = 0; i < l->n; i++) {
        ord[i] = i;
        num &= plot_num_text(l->v[i]);
    }
    if (num)
        for (size_t i = 1; i < l->n; i++) {
            size_t v = ord[i], j = i;
            for (; j > 0 && strtod(l->v[ord[j - 1]], NULL) > strtod(l->v[v], NULL); j--)
                ord[j] = ord[j - 1];
            ord[j] = v;
        }
    return num;
}

/* A file of the work directory being written. */
typedef struct wfile {
    FILE *f;
    char path[PATH_MAX];
} wfile;

static int w_open(wfile *w, const char *wd, const char *name, const char *ext, char *err, size_t errlen)
{
    if (plot_path_fmt(w->path, err, errlen, "%s/%s.%s", wd, name, ext))
        return -1;
    w->f = fopen(w->path, "w");
    if (!w->f) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
        return -1;
    }
    return 0;
}

static int w_close(wfile *w, char *err, size_t errlen)
{
    if (!w->f)
        return 0;
    int bad = ferror(w->f);
    int e = errno;
    if (fclose(w->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    w->f = NULL;
    if (bad) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(e ? e : EIO));
        return -1;
    }
    return 0;
}

/* A number as gnuplot reads it: %.17g, NaN for anything not finite. */
static void put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

/* key<TAB>value lines (values never hold a tab or a newline: they are
 * validated labels, strategy names, metric names or numbers). */
static void info_s(FILE *f, const char *k, const char *v)
{
    if (*v)
        fprintf(f, "%s\t%s\n", k, v);
}

static void info_n(FILE *f, const char *k, double v)
{
    fprintf(f, "%s\t", k);
    put_num(f, v);
    fputc('\n', f);
}

static const char *sname(int s)
{
    return hp_strategy_name((hp_strategy)s);
}

/* A failure of the data itself (a valid file with nothing to draw). */
static int data_fail(char *err, size_t errlen, const char *dir, const char *file, const char *what)
{
    char shown[SHOWN_MAX + 8];
    plot_esc(shown, sizeof shown, dir, SHOWN_MAX);
    snprintf(err, errlen, "%s/%s: %s", shown, file, what);
    return -1;
}

/* Colours: the Okabe-Ito palette (safe for the common colour-vision
 * deficiencies), one per strategy, the same in every figure; series that
 * are not strategies (variants) take them in order. */
static const char *const okabe_ito[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                        "#E69F00", "#56B4E9", "#000000", "#F0E442"};

static const char *scolor(int s)
{
    const char *n = sname(s);
    return !strcmp(n, "immediate")     ? "#000000"
           : !strcmp(n, "constant")    ? "#E69F00"
           : !strcmp(n, "exponential") ? "#D55E00"
           : !strcmp(n, "full_jitter") ? "#0072B2"
           : !strcmp(n, "equal_jitter") ? "#009E73"
                                        : "#CC79A7";
}

/* Human words for a metric: "completion time (s)". */
static void human_metric(char *out, size_t n, const char *m)
{
    static const char *const words[][2] = {
        {"completion_time_s", "completion time (s)"},
        {"calls", "calls (attempts at the server)"},
        {"refused", "refused attempts"},
        {"successes", "successful requests"},
        {"failures", "failed requests"},
        {"unfinished", "unfinished requests"},
        {"retries", "retries"},
        {"timeouts", "attempt timeouts"},
        {"late_replies", "late replies"},
        {"rejected", "503 rejections"},
        {"outage_errors", "errors during outages"},
        {"peak_inflight", "peak in flight (attempts)"},
        {"peak_arrivals_per_s", "peak arrivals (attempts/s)"},
        {"mean_latency_s", "mean latency (s)"},
        {"p50_latency_s", "median latency (s)"},
        {"p99_latency_s", "p99 latency (s)"},
        {"max_latency_s", "longest call (s)"},
        {"effects", "side effects executed"},
        {"duplicate_effects", "duplicate side effects"},
        {"lost_operations", "lost operations"},
        {"unknown_outcomes", "unknown outcomes"},
        {"status_429", "429 responses"},
        {"retries_after_honoured", "Retry-After honoured"},
        {"gave_up_budget", "gave up: budget spent"},
        {"gave_up_attempts", "gave up: attempts exhausted"},
        {"non_retryable_failures", "non-retryable failures"},
        {"non_retryable_replies", "non-retryable replies"},
        {"replies_lost", "replies lost"},
        {"wasted_work_s", "wasted server time (s)"},
        {"amplification", "amplification (calls per request)"},
        {"task_success_rate", "task success rate"},
        {"offered_per_s", "offered load (requests/s)"},
        {"goodput_per_s", "goodput (requests/s)"},
        {"recovery_time_s", "recovery time (s)"},
        {"recovered", "recovered (share of runs)"},
        {"retries_denied", "retries denied"},
        {"breaker_rejected", "rejected by the breaker"},
        {"throttled", "throttled locally"},
        {"intercepted", "repeats intercepted"},
        {"utilization", "server utilisation"},
    };
    for (size_t i = 0; i < COUNT(words); i++)
        if (!strcmp(words[i][0], m)) {
            snprintf(out, n, "%s", words[i][1]);
            return;
        }
    /* underscores become spaces; a unit suffix goes in parentheses */
    size_t len = strlen(m);
    const char *unit = "";
    if (len > 6 && !strcmp(m + len - 6, "_per_s"))
        len -= 6, unit = " (/s)";
    else if (len > 2 && !strcmp(m + len - 2, "_s"))
        len -= 2, unit = " (s)";
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < n; i++)
        out[o++] = m[i] == '_' ? ' ' : m[i];
    out[o] = '\0';
    plot_append(out, n, "", unit, NULL);
}

/* The same without its unit: "completion time". */
static void human_metric_bare(char *out, size_t n, const char *m)
{
    human_metric(out, n, m);
    char *u = strstr(out, " (");
    if (u && out[strlen(out) - 1] == ')')
        *u = '\0';
}

/* Human words for a swept key: "outage end (s)" for "outage 1.end_s". */
static void human_key(char *out, size_t n, const char *k)
{
    static const char *const words[][2] = {
        {"clients.count", "clients"},
        {"clients.rate_per_s", "arrival rate (requests/s)"},
        {"clients.spread_s", "start spread (s)"},
        {"clients.requests_per_client", "requests per client"},
        {"clients.spike_rate_per_s", "spike rate (requests/s)"},
        {"server.workers", "server workers"},
        {"server.queue", "queue places"},
        {"server.service_time_s", "service time (s)"},
        {"server.rate_limit_rps", "rate limit (requests/s)"},
        {"server.load_slowdown", "slowdown under load"},
        {"server.reply_loss_rate", "reply loss rate"},
        {"retry.base_s", "backoff base (s)"},
        {"retry.cap_s", "backoff cap (s)"},
        {"retry.max_attempts", "attempts per request"},
        {"retry.attempt_timeout_s", "attempt timeout (s)"},
        {"retry.budget_s", "retry budget (s)"},
        {"retry.strategy", "strategy"},
        {"run.seed", "seed"},
        {"network.delay_s", "network delay (s)"},
    };
    for (size_t i = 0; i < COUNT(words); i++)
        if (!strcmp(words[i][0], k)) {
            snprintf(out, n, "%s", words[i][1]);
            return;
        }
    /* the section's kind (not its name) and the key in words */
    const char *dot = strrchr(k, '.');
    char sect[64] = "";
    if (dot) {
        size_t sl = (size_t)(dot - k);
        const char *sp = memchr(k, ' ', sl);
        snprintf(sect, sizeof sect, "%.*s ", (int)(sp ? (size_t)(sp - k) : sl), k);
        if (!strcmp(sect, "run ") || !strcmp(sect, "limits "))
            sect[0] = '\0';
    }
    char key[128];
    human_metric(key, sizeof key, dot ? dot + 1 : k);
    snprintf(out, n, "%s%s", sect, key);
}

/* A value written on a bar or in a heatmap cell: 3 significant digits at
 * most, k and M for thousands and millions above 99,999. */
static void value_text(char *out, size_t n, double v)
{
    double a = fabs(v);
    if (!isfinite(v))
        snprintf(out, n, "n/a");
    else if (a >= 1e7)
        snprintf(out, n, "%.0fM", v / 1e6);
    else if (a >= 1e6)
        snprintf(out, n, "%.1fM", v / 1e6);
    else if (a >= 1e5)
        snprintf(out, n, "%.0fk", v / 1e3);
    else if (a >= 100 || v == floor(v))
        snprintf(out, n, "%.0f", v);
    else if (a >= 10)
        snprintf(out, n, "%.1f", v);
    else if (a >= 0.01)
        snprintf(out, n, "%.3g", v);
    else
        snprintf(out, n, "%.1e", v);
}

/* The canvas and the panel grid of a figure. */
typedef struct layout {
    int W, H, rows, cols;
} layout;

/* n panels: wide ones (over time) in two columns from 4 panels, square
 * ones (bars, maps) filling a 16:9 screen.  talk: 1600x900; paper: panels
 * of paper_w x paper_h (over time: one column) plus paper_extra for the
 * titles; dumb: 110 characters wide, 17 lines per panel, one column. */
static layout lay(const folder *fo, int n, int wide, int paper_w, int paper_h, int paper_extra)
{
    layout L;
    if (n < 1)
        n = 1;
    if (fo->o->term == PLOT_TERM_DUMB) {
        L.cols = 1;
        L.rows = n;
        L.W = 110;
        L.H = 17 * n + 3;
        return L;
    }
    if (wide)
        L.cols = n <= 3 ? 1 : n <= 8 ? 2 : 3;
    else
        L.cols = n <= 3 ? n : n == 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n == 9 ? 3 : n <= 12 ? 4 : 5;
    L.rows = (n + L.cols - 1) / L.cols;
    if (fo->o->style == PLOT_STYLE_TALK) {
        L.W = 1600;
        L.H = 900;
    } else { /* paper: panels of paper_w x paper_h; over time, stacked */
        if (wide) {
            L.cols = 1;
            L.rows = n;
        }
        L.W = paper_w * L.cols + (wide ? 0 : 120);
        L.H = paper_h * L.rows + paper_extra;
    }
    return L;
}

static void lay_write(FILE *f, layout L)
{
    info_n(f, "W", L.W);
    info_n(f, "H", L.H);
    info_n(f, "rows", L.rows);
    info_n(f, "cols", L.cols);
}

/* style.tsv: the terminal and the sizes of text and lines, read by every
 * script. */
static int write_style(const folder *fo, const char *wd, char *err, size_t errlen)
{
    wfile s = {0};
    int talk = fo->o->style == PLOT_STYLE_TALK;
    if (w_open(&s, wd, "style", "tsv", err, errlen))
        return -1;
    info_s(s.f, "style", talk ? "talk" : "paper");
    info_s(s.f, "term", fo->o->term == PLOT_TERM_DUMB ? "dumb" : "png");
    info_n(s.f, "fs", talk ? 16 : 10);  /* text (pt) */
    info_n(s.f, "tfs", talk ? 22 : 12); /* titles */
    info_n(s.f, "sfs", talk ? 13 : 8);  /* small text: keys, values on bars */
    info_n(s.f, "lw", talk ? 3 : 1.5);  /* series */
    info_n(s.f, "blw", talk ? 1.5 : 1); /* borders, bars, error bars */
    return w_close(&s, err, errlen);
}

/* Whether row p is at the selected point, from key column `from` on (the
 * variant aside). */
static int at_point(const folder *fo, const prow *p, int from)
{
    for (int k = from < fo->ks.variant ? fo->ks.variant : from; k < fo->ks.k; k++)
        if (strcmp(p->key[k], fo->sel.pval[k]))
            return 0;
    return 1;
}

static int of_variant(const folder *fo, const prow *p)
{
    return !fo->ks.variant || !strcmp(p->key[0], fo->sel.vname);
}

/* "server.workers = 20, server.queue = 10": the selected point. */
static void point_text(const folder *fo, char *out, size_t n, int from)
{
    out[0] = '\0';
    for (int i = fo->ks.variant + from; i < fo->ks.k; i++)
        plot_append(out, n, ", ", fo->ks.name[i], fo->sel.pval[i]);
}

/* A window shaded in a figure over time. */
typedef struct window {
    double a, b;
    const char *label;
} window;

static void set_outage(moutage *loc, int *n, const char *key, double v)
{
    const char *dot = strrchr(key, '.');
    if (!dot)
        return;
    char sect[KEYNAME_MAX + 1];
    snprintf(sect, sizeof sect, "%.*s", (int)(dot - key), key);
    int i = 0;
    while (i < *n && strcmp(loc[i].sect, sect))
        i++;
    if (i == *n) {
        if (*n == MAX_OUTAGES)
            return;
        memset(&loc[i], 0, sizeof loc[i]);
        snprintf(loc[i].sect, sizeof loc[i].sect, "%s", sect);
        (*n)++;
    }
    if (!strcmp(dot + 1, "start_s"))
        loc[i].start = v, loc[i].hs = 1;
    else
        loc[i].end = v, loc[i].he = 1;
}

/* The outages (from the scenario in manifest.txt, with the overrides of
 * --set, of the variant and of the sweep point) and the trigger
 * (aggregate.csv's trigger_start_s, trigger_end_s) of a variant at the
 * selected point, in time order, clipped to [0, tmax]; their number. */
static int windows(const folder *fo, const char *variant, double tmax, window *w, int max)
{
    const manifest *m = &fo->man;
    moutage loc[MAX_OUTAGES];
    int n = m->nout, nw = 0;
    memcpy(loc, m->out, sizeof loc[0] * (size_t)n);
    double ss = m->spike_start, se = m->spike_end, sr = m->spike_rate;
    for (int pass = 0; pass < 2; pass++) {
        const char *v = pass ? variant : "";
        if (pass && (!v || !*v))
            break;
        for (int i = 0; i < m->nset; i++) {
            const mset *s = &m->set[i];
            if (strcmp(s->variant, v))
                continue;
            if (!strncmp(s->key, "outage ", 7))
                set_outage(loc, &n, s->key, s->v);
            else if (!strcmp(s->key, "clients.spike_start_s"))
                ss = s->v;
            else if (!strcmp(s->key, "clients.spike_end_s"))
                se = s->v;
            else if (!strcmp(s->key, "clients.spike_rate_per_s"))
                sr = s->v;
        }
    }
    for (int i = fo->ks.variant; i < fo->ks.k; i++) {
        double v;
        if (plot_interesting_key(fo->ks.name[i]) && plot_num_of(fo->sel.pval[i], &v)) {
            if (!strncmp(fo->ks.name[i], "outage ", 7))
                set_outage(loc, &n, fo->ks.name[i], v);
            else if (!strcmp(fo->ks.name[i], "clients.spike_start_s"))
                ss = v;
            else if (!strcmp(fo->ks.name[i], "clients.spike_end_s"))
                se = v;
            else
                sr = v;
        }
    }
    for (int i = 0; i < n && nw < max; i++)
        if (loc[i].hs && loc[i].he && loc[i].end > loc[i].start)
            w[nw++] = (window){loc[i].start, loc[i].end, "outage"};
    /* the trigger, unless it is one of the outages */
    int ws = plot_kept(&fo->agg, plot_metric_index("trigger_start_s"));
    int we = plot_kept(&fo->agg, plot_metric_index("trigger_end_s"));
    for (size_t r = 0; r < fo->agg.n && ws >= 0 && we >= 0; r++) {
        const prow *p = &fo->agg.row[r];
        if (!at_point(fo, p, 0) || (fo->ks.variant && variant && strcmp(p->key[0], variant)))
            continue;
        double a = p->v[2 * ws], b = p->v[2 * we];
        int dup = 0;
        for (int i = 0; i < nw; i++)
            dup |= fabs(w[i].a - a) < 1e-9 && fabs(w[i].b - b) < 1e-9;
        if (isfinite(a) && isfinite(b) && b > a && !dup && nw < max) {
            int spike = sr > 0 && fabs(ss - a) < 1e-9 && fabs(se - b) < 1e-9;
            w[nw++] = (window){a, b, spike ? "load spike" : "trigger"};
        }
        break;
    }
    /* time order, clipped */
    for (int i = 1; i < nw; i++)
        for (int j = i; j > 0 && w[j - 1].a > w[j].a; j--) {
            window t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < nw; i++) {
        if (w[i].b <= 0 || w[i].a >= tmax)
            continue;
        w[k] = w[i];
        if (w[k].a < 0)
            w[k].a = 0;
        if (w[k].b > tmax)
            w[k].b = tmax;
        k++;
    }
    return k;
}

static void write_windows(FILE *f, const window *w, int n, int panel)
{
    for (int i = 0; i < n; i++) {
        fprintf(f, "win\t%d\t", panel);
        put_num(f, w[i].a);
        fputc('\t', f);
        put_num(f, w[i].b);
        fprintf(f, "\t%s\n", w[i].label);
    }
}

/* The scenario's name for titles. */
static const char *title_name(const folder *fo)
{
    return fo->name[0] ? fo->name : "results";
}

/* timeseries.csv/.tsv (and load.csv/.tsv for the animation): per strategy
 * of the selected variant, point and replication, a block
 * "time_s,arrivals,refused", each closed by an empty bucket. */
static int prep_timeseries(const folder *fo, const char *dir, const char *wd, const char *name, int gif,
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
        return data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
    if (bucket <= 0)
        bucket = 1;
    /* pass 2: the blocks */
    if (w_open(&d, wd, name, "csv", err, errlen) || w_open(&in, wd, name, "tsv", err, errlen))
        goto done;
    last = -1;
    int nb = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != vsel)
            continue;
        if (p->strategy != last) {
            if (nb == ns)
                break;
            if (last >= 0)
                fprintf(d.f, "%.17g,0,0\n\n\n", lt + bucket);
            fprintf(d.f, "time_s,arrivals,refused\n");
            last = p->strategy;
            nb++;
        }
        lt = p->t;
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->arrivals, p->refused);
    }
    fprintf(d.f, "%.17g,0,0\n", lt + bucket);
    info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "panel\t%s\t%s\t%d\t%d\n", sname(strat[s]), scolor(strat[s]), hasa[s], hasr[s]);
    info_n(in.f, "bucket", bucket);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "amax", amax);
    info_n(in.f, "fmax", fmax);
    snprintf(text, sizeof text, "%s: load on the server, attempts per second by strategy", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "replication %llu, %g s buckets%s%s%s%s", fo->sel.rep, bucket,
             fo->ks.variant ? "; variant " : "", fo->ks.variant ? fo->sel.vname : "", pt[0] ? "; " : "", pt);
    info_s(in.f, "subtitle", text);
    info_s(in.f, "label", pt);
    window w[MAX_WIN];
    int nw = windows(fo, fo->ks.variant ? fo->sel.vname : NULL, tmax + 2 * bucket, w, MAX_WIN);
    info_n(in.f, "nwin", nw);
    write_windows(in.f, w, nw, 0);
    if (gif) {
        plot_opts o = *fo->o;
        folder f2 = *fo;
        o.term = PLOT_TERM_PNG;
        f2.o = &o;
        lay_write(in.f, lay(&f2, ns, 1, 1000, 150, 90));
    } else {
        lay_write(in.f, lay(fo, ns, 1, 1000, 150, 90));
    }
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

static int count_strategies(const ptable *t);

/* goodput.csv/.tsv: per variant (all, or the selected one) and strategy
 * at the selected point and replication, the blocks
 * "time_s,offered,goodput". */
static int prep_goodput(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
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
    int one = fo->ks.variant && count_strategies(&fo->agg) == 1 && !fo->sel.vgiven;
    size_t cap = ts->n + 1;
    hasoff = herd_calloc(cap, sizeof *hasoff);
    hasgood = herd_calloc(cap, sizeof *hasgood);
    pvar = herd_calloc(cap, sizeof *pvar);
    if (!hasoff || !hasgood || !pvar) {
        plot_oom(err, errlen);
        goto done;
    }
    if (w_open(&d, wd, "goodput", "csv", err, errlen) || w_open(&in, wd, "goodput", "tsv", err, errlen))
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
                snprintf(name, sizeof name, "%s", sname(p->strategy));
            else if (p->variant >= 0)
                snprintf(name, sizeof name, "%s / %s", ts->variant[p->variant], sname(p->strategy));
            else
                snprintf(name, sizeof name, "%s", sname(p->strategy));
            if (slist_find(&panels, name) >= 0) /* rows of a panel are contiguous */
                continue;
            if (slist_add(&panels, name) < 0) {
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
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->offered, p->goodput);
    }
    if (np == 0) {
        data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
        goto done;
    }
    if (bw == 0)
        bw = 1;
    info_n(in.f, "np", np);
    for (int i = 0; i < np; i++)
        fprintf(in.f, "panel\t%s\t%d\t%d\n", panels.v[i], hasoff[i], hasgood[i]);
    info_n(in.f, "bw", bw);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "ymax", ymax);
    snprintf(text, sizeof text, "%s: offered load and goodput (requests/s)", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "logical requests started and succeeded per second; replication %llu, %g s buckets%s%s%s%s",
             fo->sel.rep, bw, one && np ? "; strategy " : "", one && np ? sname(ts->r[0].strategy) : "",
             pt[0] ? "; " : "", pt);
    if (fo->sel.vgiven) {
        size_t o = strlen(text);
        snprintf(text + o, sizeof text - o, "; variant %s", fo->sel.vname);
    }
    info_s(in.f, "subtitle", text);
    int nwin = 0;
    for (int i = 0; i < np; i++) {
        window w[MAX_WIN];
        int nw = windows(fo, pvar[i] >= 0 ? ts->variant[pvar[i]] : NULL, tmax + bw, w, MAX_WIN);
        write_windows(in.f, w, nw, i + 1);
        nwin += nw;
    }
    info_n(in.f, "nwin", nwin);
    lay_write(in.f, lay(fo, np, 1, 1000, 170, 90));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&panels);
    herd_free(hasoff);
    herd_free(hasgood);
    herd_free(pvar);
    return rc;
}

/* The series of a figure drawn from aggregate.csv or compare.csv: the
 * strategies of the selected variant, or, when the run compares variants
 * of one strategy (and no --variant is given), the variants. */
typedef struct series {
    int by_variant;
    slist name;
    int strategy[64];
} series;

static int count_strategies(const ptable *t)
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
        return slist_add(&s->name, p->key[0]);
    if (!of_variant(fo, p))
        return -2;
    long i = slist_add(&s->name, sname(p->strategy));
    if (i >= 0 && i < 64)
        s->strategy[i] = p->strategy;
    return i;
}

static const char *series_color(const series *s, size_t i)
{
    return s->by_variant ? okabe_ito[i % COUNT(okabe_ito)] : scolor(s->strategy[i < 64 ? i : 0]);
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
        rc = data_fail(err, errlen, dir, file, what);
        goto done;
    }
    S.by_variant = ks->variant && !fo->sel.vgiven && count_strategies(t) == 1;
    for (int i = x0 + 2; i < ks->k; i++)
        plot_append(fixed, sizeof fixed, ", ", ks->name[i], fo->sel.pval[i]);
    /* pass 1: series, panels and x values, in file order */
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
            continue;
        long s = series_of(fo, &S, p);
        if (s == -2)
            continue;
        if (s < 0 || slist_add(&gs, nsw >= 2 ? p->key[x0 + 1] : "") < 0 || slist_add(&xs, p->key[x0]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    }
    size_t nx = xs.n, ng = gs.n, ns = S.name.n;
    if (ns == 0 || ns > 64) {
        rc = data_fail(err, errlen, dir, file, ns ? "more than 64 series; expected --variant" : what);
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
        if (!at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
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
        size_t g = (size_t)slist_find(&gs, nsw >= 2 ? p->key[x0 + 1] : ""), x = (size_t)slist_find(&xs, p->key[x0]);
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
    if (ny == 0) {
        rc = data_fail(err, errlen, dir, file, what);
        goto done;
    }
    int xnum = slist_order(&xs, ord), gnum = slist_order(&gs, gord);
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
    if (w_open(&d, wd, name, "csv", err, errlen) || w_open(&in, wd, name, "tsv", err, errlen))
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
                    value_text(v, sizeof v, has[c] ? Y[c] : NAN);
                    double y = has[c] ? Y[c] : NAN, pos;
                    if (compare)
                        pos = vmax > 0 ? fabs(y) / vmax : 0;
                    else if (logcb)
                        pos = y > 0 ? log(y / minpos) / log(ymax / minpos) : 0;
                    else
                        pos = ymax > ymin ? (y - ymin) / (ymax - ymin) : 0;
                    int white = compare ? pos > 0.6 : pos < 0.55;
                    fprintf(d.f, "%zu,%zu,", g, i);
                    put_num(d.f, y);
                    fprintf(d.f, ",%s,%d\n", v, white ? 0xFFFFFF : 0);
                }
        }
    }
    if (compare)
        human_metric_bare(hm, sizeof hm, metric);
    else
        human_metric(hm, sizeof hm, metric);
    human_key(hx, sizeof hx, ks->name[x0]);
    human_key(hg, sizeof hg, nsw >= 2 ? ks->name[x0 + 1] : "");
    const char *base = compare && t->row[0].baseline >= 0 ? sname(t->row[0].baseline) : "";
    info_s(in.f, "format", "sweep");
    info_s(in.f, "mode", heat ? "heat" : "lines");
    /* a series that is zero throughout gets no key entry; the subtitle
     * names it */
    char zeros[400] = "";
    info_n(in.f, "ns", (double)ns);
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
    info_n(in.f, "ng", (double)ng);
    info_n(in.f, "nx", (double)nx);
    info_n(in.f, "xnum", xnum);
    info_n(in.f, "noci", noci);
    info_s(in.f, "xkey", ks->name[x0]);
    info_s(in.f, "gkey", nsw >= 2 ? ks->name[x0 + 1] : "");
    info_s(in.f, "xlabel", hx);
    info_s(in.f, "glabel", nsw >= 2 ? hg : "");
    info_s(in.f, "fixed", fixed);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    info_s(in.f, "reps", reps);
    info_s(in.f, "baseline", base);
    if (compare)
        snprintf(text, sizeof text, "change in %s vs %s (%%)", hm, base);
    else
        snprintf(text, sizeof text, "%s", hm);
    info_s(in.f, "ylabel", text);
    if (heat && compare)
        snprintf(text, sizeof text, "%s: change in %s vs %s (%%)", title_name(fo), hm, base);
    else if (heat)
        snprintf(text, sizeof text, "%s: %s by %s and %s", title_name(fo), hm, hx, hg);
    else
        snprintf(text, sizeof text, "%s: %s%s%s%s by %s", title_name(fo), compare ? "change in " : "", hm,
                 compare ? " vs " : "", compare ? base : "", hx);
    info_s(in.f, "title", text);
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
    info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "swept: %s", keys);
    info_s(in.f, "keys", text);
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    info_n(in.f, "ymin", ymin);
    info_n(in.f, "ymax", ymax);
    info_n(in.f, "allpos", allpos);
    info_n(in.f, "minpos", isnan(minpos) ? 0 : minpos);
    info_n(in.f, "xmin", !xnum ? 1 : strtod(xs.v[ord[0]], NULL));
    info_n(in.f, "xmax", !xnum ? (double)nx : strtod(xs.v[ord[nx - 1]], NULL));
    info_n(in.f, "gaplin", gaplin);
    info_n(in.f, "gaplog", gaplog);
    info_n(in.f, "diverging", compare);
    info_n(in.f, "logcb", !compare && allpos && ymax >= 100 * ymin);
    info_n(in.f, "cells", heat && nx * ng * ns <= 160 && fo->o->term != PLOT_TERM_DUMB);
    for (size_t g = 0; g < ng; g++)
        info_s(in.f, "glab", gs.v[gord[g]]);
    for (size_t i = 0; i < nx; i++)
        info_s(in.f, "xlab", xs.v[ord[i]]);
    lay_write(in.f, heat ? lay(fo, (int)ns, 0, 420, 360, 120)
                         : lay(fo, (int)ng, 0, ng == 1 ? 860 : 380, ng == 1 ? 440 : 300, 130));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&xs);
    slist_free(&gs);
    slist_free(&S.name);
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
    int rc = -1, ns = 0, noci = 0;
    double lo = 0, hi = 0;
    const prow *first = NULL;
    char text[600], hm[128];
    if (w < 0 || t->n == 0)
        return data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
    if (w_open(&d, wd, "compare", "csv", err, errlen) || w_open(&in, wd, "compare", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        double y = p->v[2 * w], e = p->v[2 * w + 1];
        if (p->strategy == p->baseline || !of_variant(fo, p) || !isfinite(y))
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
        fprintf(in.f, "series\t%s\t%s\n", sname(p->strategy), scolor(p->strategy));
        ns++;
        fprintf(d.f, "%spos,mean,ci95,label\n%d,%.17g,%.17g,%+.1f%%\n", ns > 1 ? "\n\n" : "", ns, y, e, y);
    }
    if (!ns) {
        data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
        goto done;
    }
    const char *base = first->baseline >= 0 ? sname(first->baseline) : "";
    human_metric_bare(hm, sizeof hm, metric);
    info_s(in.f, "format", "bars");
    info_n(in.f, "ns", ns);
    info_s(in.f, "baseline", base);
    char reps[32] = "";
    if (first->reps)
        snprintf(reps, sizeof reps, "%llu", first->reps);
    info_s(in.f, "reps", reps);
    info_n(in.f, "noci", noci);
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    snprintf(text, sizeof text, "%s: change in %s vs %s", title_name(fo), hm, base);
    info_s(in.f, "title", text);
    snprintf(text, sizeof text, "%s%s%s%s, paired per replication; below 0: lower than %s%s%s",
             noci ? "no CI (1 replication)" : "mean and 95% CI", !noci && reps[0] ? " over " : "", !noci ? reps : "",
             !noci && reps[0] ? " replications" : "", base, fo->ks.variant ? "; variant " : "",
             fo->ks.variant ? fo->sel.vname : "");
    info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "change in %s (%%)", hm);
    info_s(in.f, "ylabel", text);
    layout L = lay(fo, 1, 0, 0, 520, 0);
    if (fo->o->style == PLOT_STYLE_PAPER && fo->o->term != PLOT_TERM_DUMB)
        L.W = 160 + 120 * (ns > 6 ? ns : 6);
    lay_write(in.f, L);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* The metrics of the variants figure: --metric, else the scenario's [run]
 * columns, else herd run's default columns; metric_table indices. */
static int variant_metric_list(const folder *fo, int *out)
{
    int n = 0;
    if (fo->sel.nmetric) {
        for (int i = 0; i < fo->sel.nmetric; i++)
            out[n++] = fo->sel.metric[i];
    } else if (fo->man.ncolumns) {
        for (int i = 0; i < fo->man.ncolumns; i++)
            out[n++] = fo->man.columns[i];
    } else {
        for (size_t i = 0; i < COUNT(columns_default); i++)
            if (plot_metric_index(columns_default[i]) >= 0)
                out[n++] = plot_metric_index(columns_default[i]);
    }
    return n;
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
    int nm = variant_metric_list(fo, ml);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        si[s] = -1;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_point(fo, p, 0))
            continue;
        if (si[p->strategy] < 0) {
            si[p->strategy] = ns;
            sorder[ns++] = p->strategy;
        }
        if (slist_add(&vs, p->key[0]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    }
    if (ns == 0 || vs.n == 0) {
        rc = data_fail(err, errlen, dir, "aggregate.csv", "no rows at the selected point");
        goto done;
    }
    cell = herd_calloc(vs.n * (size_t)ns + 1, sizeof *cell);
    if (!cell) {
        rc = plot_oom(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (at_point(fo, p, 0))
            cell[(size_t)slist_find(&vs, p->key[0]) * (size_t)ns + (size_t)si[p->strategy]] = p;
    }
    if (w_open(&in, wd, "variants", "tsv", err, errlen))
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
        if (w_open(&d, wd, name, "csv", err, errlen))
            goto done;
        for (int s = 0; s < ns; s++) {
            fprintf(d.f, "%sx,mean,ci95,ytext,label\n", s ? "\n\n" : "");
            for (size_t v = 0; v < vs.n; v++) {
                const prow *p = cell[v * (size_t)ns + (size_t)s];
                double y = p ? p->v[2 * w] : NAN, e = p && isfinite(p->v[2 * w + 1]) ? fabs(p->v[2 * w + 1]) : 0;
                char lab[32];
                value_text(lab, sizeof lab, y);
                fprintf(d.f, "%.6f,", (double)v + 1 + bw * (s - (ns - 1) / 2.0));
                put_num(d.f, y);
                fprintf(d.f, ",%.17g,", e);
                put_num(d.f, isfinite(y) ? (y > 0 ? y : 0) + e + 0.02 * top : 0.02 * top);
                fprintf(d.f, ",%s\n", lab);
            }
        }
        if (w_close(&d, err, errlen))
            goto done;
        human_metric(hm, sizeof hm, mn);
        fprintf(in.f, "metric\t%s\t%s\t", mn, hm);
        put_num(in.f, top * 1.16);
        fputc('\n', in.f);
        written++;
    }
    size_t vlen = 0;
    for (size_t v = 0; v < vs.n; v++) {
        info_s(in.f, "vlab", vs.v[v]);
        if (strlen(vs.v[v]) > vlen)
            vlen = strlen(vs.v[v]);
    }
    info_n(in.f, "nm", written);
    info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "series\t%s\t%s\n", sname(sorder[s]), scolor(sorder[s]));
    info_n(in.f, "nv", (double)vs.n);
    info_n(in.f, "boxw", bw * 0.92);
    snprintf(text, sizeof text, "%s: the variants side by side", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    snprintf(text, sizeof text, "mean and 95%% CI%s%s%s%s%s%s%s", reps[0] ? " over " : "", reps,
             reps[0] ? " replications" : "", ns == 1 ? "; strategy " : "", ns == 1 ? sname(sorder[0]) : "",
             pt[0] ? "; at " : "", pt);
    info_s(in.f, "subtitle", text);
    layout L = lay(fo, written, 0, 420, 300, 70);
    /* the variant names across, or slanted when they do not fit */
    double room = (double)L.W / L.cols / (double)vs.n, per = fo->o->style == PLOT_STYLE_TALK ? 12 : 7;
    info_n(in.f, "rot", fo->o->term != PLOT_TERM_DUMB && (double)vlen * per > room * 0.9);
    lay_write(in.f, L);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&vs);
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
        if (slist_add(&as, t->row[i].key[0]) < 0 || slist_add(&bs, t->row[i].key[1]) < 0) {
            rc = plot_oom(err, errlen);
            goto done;
        }
    if (t->n == 0) {
        rc = data_fail(err, errlen, dir, "compare.csv", "no rows");
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
    slist_order(&as, aord);
    slist_order(&bs, bord);
    for (size_t i = 0; i < na; i++)
        arank[aord[i]] = i;
    for (size_t i = 0; i < nb; i++)
        brank[bord[i]] = i;
    for (size_t i = 0; i < cells * HP_STRATEGY_COUNT; i++)
        red[i] = NAN;
    int w = plot_kept(t, 0);
    for (size_t i = 0; i < t->n && w >= 0; i++) {
        const prow *p = &t->row[i];
        size_t c = (size_t)slist_find(&as, p->key[0]) * nb + (size_t)slist_find(&bs, p->key[1]);
        if (!seen[c]) {
            seen[c] = 1;
            order[norder++] = c;
        }
        red[c * HP_STRATEGY_COUNT + (size_t)p->strategy] = -p->v[2 * w];
    }
    if (w_open(&d, wd, "sensitivity", "csv", err, errlen) || w_open(&in, wd, "sensitivity", "tsv", err, errlen))
        goto done;
    fputs("col,row,ok", d.f);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        fprintf(d.f, ",%s", sname(s));
    fputc('\n', d.f);
    for (size_t i = 0; i < norder; i++) {
        size_t c = order[i];
        double f = red[c * HP_STRATEGY_COUNT + HP_FULL_JITTER], dj = red[c * HP_STRATEGY_COUNT + HP_DECORRELATED_JITTER];
        int ok = f >= 59 && f <= 65 && dj >= 62 && dj <= 68 && dj > f; /* false with a NaN */
        fprintf(d.f, "%zu,%zu,%d", brank[c % nb], arank[c / nb], ok);
        for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
            fputc(',', d.f);
            put_num(d.f, red[c * HP_STRATEGY_COUNT + (size_t)s]);
        }
        fputc('\n', d.f);
    }
    info_s(in.f, "k1", fo->ks.name[0]);
    info_s(in.f, "k2", fo->ks.name[1]);
    human_key(h1, sizeof h1, fo->ks.name[0]);
    human_key(h2, sizeof h2, fo->ks.name[1]);
    info_s(in.f, "l1", h1);
    info_s(in.f, "l2", h2);
    info_n(in.f, "na", (double)na);
    info_n(in.f, "nb", (double)nb);
    for (size_t i = 0; i < na; i++)
        info_s(in.f, "alab", as.v[aord[i]]);
    for (size_t i = 0; i < nb; i++)
        info_s(in.f, "blab", bs.v[bord[i]]);
    snprintf(text, sizeof text, "%s: completion-time reduction vs %s (%%)", title_name(fo),
             t->row[0].baseline >= 0 ? sname(t->row[0].baseline) : "the baseline");
    info_s(in.f, "title", text);
    info_s(in.f, "subtitle", "dots: the 62/65 claim holds (full jitter 62 +/- 3 %, decorrelated 65 +/- 3 % and ahead)");
    snprintf(text, sizeof text, "swept: %s, %s", fo->ks.name[0], fo->ks.name[1]);
    info_s(in.f, "keys", text);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&as);
    slist_free(&bs);
    herd_free(red);
    herd_free(seen);
    herd_free(order);
    herd_free(aord);
    herd_free(bord);
    herd_free(arank);
    herd_free(brank);
    return rc;
}

/* replay: the run laid over its input data.  Left, the service time's CDF
 * from input.csv and each series' latency quantiles (p50, p90, p99,
 * p99.9: means over replications, aggregate.csv) as points; right, the
 * trace's arrival rate and the logical requests started per second in the
 * selected replication (timeseries.csv; the same in every series, since
 * arrivals come from their own stream). */
static int prep_replay(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    static const char *const qname[] = {"p50_latency_s", "p90_latency_s", "p99_latency_s", "p999_latency_s"};
    static const double qp[] = {0.5, 0.9, 0.99, 0.999};
    wfile d = {0}, in = {0};
    int rc = -1, nq = 0, block = 0;
    char text[600], pt[400];
    if (w_open(&d, wd, "replay", "csv", err, errlen) || w_open(&in, wd, "replay", "tsv", err, errlen))
        goto done;
    /* block 0: the input CDF; block 1: the input rate (a dummy point when absent) */
    for (int k = 0; k < IN_COUNT; k++) {
        fprintf(d.f, "%sx,y\n", block++ ? "\n\n" : "");
        for (size_t i = 0; i < fo->in.n[k]; i++) {
            put_num(d.f, fo->in.x[k][i]);
            fputc(',', d.f);
            put_num(d.f, fo->in.y[k][i]);
            fputc('\n', d.f);
        }
        if (!fo->in.n[k])
            fprintf(d.f, "0,nan\n");
    }
    info_n(in.f, "hascdf", fo->in.n[IN_CDF] > 0);
    info_n(in.f, "hasrate", fo->in.n[IN_RATE] > 0);
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
        put_num(d.f, p->t);
        fputc(',', d.f);
        put_num(d.f, p->offered / bw);
        fputc('\n', d.f);
        hassim = 1;
    }
    if (!hassim)
        fprintf(d.f, "0,nan\n");
    info_n(in.f, "hassim", hassim);
    info_n(in.f, "bw", bw);
    /* blocks 3..: the quantiles of each series at the selected point */
    int col[4];
    for (int q = 0; q < 4; q++)
        col[q] = plot_kept(&fo->agg, plot_metric_index(qname[q]));
    for (size_t i = 0; i < fo->agg.n && nq < 16; i++) {
        const prow *p = &fo->agg.row[i];
        if (!at_point(fo, p, fo->ks.variant))
            continue;
        char name[LABEL_MAX + 64];
        if (fo->ks.variant)
            snprintf(name, sizeof name, "%s / %s", p->key[0], sname(p->strategy));
        else
            snprintf(name, sizeof name, "%s", sname(p->strategy));
        fprintf(d.f, "\n\nx,y\n");
        for (int q = 0; q < 4; q++) {
            double v = col[q] >= 0 ? p->v[2 * col[q]] : NAN;
            put_num(d.f, v);
            fprintf(d.f, ",%.17g\n", qp[q]);
        }
        fprintf(in.f, "q\t%s\t%s\n", name, okabe_ito[nq % COUNT(okabe_ito)]);
        nq++;
    }
    info_n(in.f, "nq", nq);
    snprintf(text, sizeof text, "%s: the run laid over its input data", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, fo->ks.variant);
    snprintf(text, sizeof text, "points: simulated latency p50, p90, p99, p99.9 (means over replications); "
                                "steps: requests started per second, replication %llu%s%s", fo->sel.rep,
             pt[0] ? "; " : "", pt);
    info_s(in.f, "subtitle", text);
    lay_write(in.f, lay(fo, 2, 1, 1000, 170, 90));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    (void)dir;
    return rc;
}

/* The metrics of the sweep figures: --metric, else sweep_default. */
int plot_sweep_metric_list(const folder *fo, int *out)
{
    int n = 0;
    if (fo->sel.nmetric)
        for (int i = 0; i < fo->sel.nmetric; i++)
            out[n++] = fo->sel.metric[i];
    else
        for (size_t i = 0; i < COUNT(sweep_default); i++)
            if (plot_metric_index(sweep_default[i]) >= 0)
                out[n++] = plot_metric_index(sweep_default[i]);
    return n;
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
int plot_prepare(const folder *fo, const job *jobs, int njobs, const char *dir, const char *wd, char *err,
                 size_t errlen)
{
    if (write_style(fo, wd, err, errlen))
        return -1;
    for (int i = 0; i < njobs; i++) {
        const job *j = &jobs[i];
        if (!strcmp(j->script, "timeseries.gp") && prep_timeseries(fo, dir, wd, "timeseries", 0, err, errlen))
            return -1;
        if (!strcmp(j->script, "animate.gp") && prep_timeseries(fo, dir, wd, "load", 1, err, errlen))
            return -1;
        if (!strcmp(j->script, "goodput.gp") && prep_goodput(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "sweep.gp") && !j->a2) {
            int ml[MAX_WANT], nm = plot_sweep_metric_list(fo, ml);
            char list[MAX_WANT * 40] = "";
            for (int k = 0; k < nm; k++) {
                char name[96];
                snprintf(name, sizeof name, "sweep_%s", metric_table[ml[k]].name);
                if (prep_sweep(fo, &fo->agg, plot_kept(&fo->agg, ml[k]), 0, metric_table[ml[k]].name, dir, wd, name,
                               err, errlen))
                    return -1;
                plot_append(list, sizeof list, " ", metric_table[ml[k]].name, NULL);
            }
            wfile s = {0};
            if (w_open(&s, wd, "sweep", "tsv", err, errlen))
                return -1;
            info_s(s.f, "metrics", list);
            if (w_close(&s, err, errlen))
                return -1;
        }
        if (j->a2 || !strcmp(j->script, "compare.gp")) {
            int c = compare_metric(fo);
            int w = plot_kept(&fo->cmp, c);
            if (fo->ks.k > fo->ks.variant
                    ? prep_sweep(fo, &fo->cmp, w, 1, plot_compared[c], dir, wd, "compare", err, errlen)
                    : prep_compare_bars(fo, w, plot_compared[c], dir, wd, err, errlen))
                return -1;
        }
        if (!strcmp(j->script, "sensitivity.gp") && prep_sensitivity(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "variants.gp") && prep_variants(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "replay.gp") && prep_replay(fo, dir, wd, err, errlen))
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * What the figures need of the rows
 * ------------------------------------------------------------------------ */

/* Metric m kept of t's rows (from the next row read), when there is room. */
static void want_metric(ptable *t, int m)
{
    if (m >= 0 && plot_kept(t, m) < 0 && t->nw < MAX_WANT)
        t->want[t->nw++] = m;
}

void plot_want_metrics(folder *fo)
{
    int ml[MAX_WANT], nm;
    want_metric(&fo->agg, plot_metric_index("trigger_start_s"));
    want_metric(&fo->agg, plot_metric_index("trigger_end_s"));
    nm = plot_sweep_metric_list(fo, ml);
    for (int i = 0; i < nm; i++)
        want_metric(&fo->agg, ml[i]);
    nm = variant_metric_list(fo, ml);
    for (int i = 0; i < nm; i++)
        want_metric(&fo->agg, ml[i]);
    for (size_t i = 0; i < PLOT_NCOMPARED; i++)
        want_metric(&fo->cmp, (int)i);
    want_metric(&fo->agg, plot_metric_index("p50_latency_s")); /* the replay figure's quantiles */
    want_metric(&fo->agg, plot_metric_index("p90_latency_s"));
    want_metric(&fo->agg, plot_metric_index("p99_latency_s"));
    want_metric(&fo->agg, plot_metric_index("p999_latency_s"));
}
