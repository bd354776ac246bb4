/*
 * plot_figure.c - what the figures of herd plot's second stage share (see
 * plot_internal.h): the files of the work directory and their key<TAB>value
 * lines, the labels (strategy names, metrics and swept keys in words,
 * values on bars), the colours, the layout of panels, style.tsv, the
 * selected point, the windows shaded over time, the series of a figure,
 * and the lists of metrics the figures draw (which the load keeps).  Each
 * figure's own data is plot_data.c's.
 */
#include "plot_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"

/* What the sweep figures draw by default; what the variants figure draws
 * when the scenario has no [run] columns (herd run's default table). */
static const char *const sweep_default[] = {"completion_time_s", "calls", "peak_arrivals_per_s", "p99_latency_s",
                                            "failures"};
static const char *const columns_default[] = {"completion_time_s", "calls", "refused", "peak_arrivals_per_s",
                                              "p99_latency_s", "failures"};

/* ------------------------------------------------------------------------
 * Writing the figures' data
 * ------------------------------------------------------------------------ */

long plot_slist_find(const slist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return (long)i;
    return -1;
}

/* The index of s, added if new; -1 when out of memory. */
long plot_slist_add(slist *l, const char *s)
{
    long i = plot_slist_find(l, s);
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

void plot_slist_free(slist *l)
{
    herd_free(l->v);
    memset(l, 0, sizeof *l);
}

/* The positions of l's values in numeric order (stable) into ord, when
 * every value is a number; file order otherwise.  1 if numeric. */
int plot_slist_order(const slist *l, size_t *ord)
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

int plot_w_open(wfile *w, const char *wd, const char *name, const char *ext, char *err, size_t errlen)
{
    if (plot_path_fmt(w->path, err, errlen, "%s/%s.%s", wd, name, ext))
        return -1;
    /* a new file of its own, in wd: whatever had the name goes first (a
     * symbolic or hard link is removed, never written through), and the
     * new one is created exclusively, never followed */
    if (unlink(w->path) != 0 && errno != ENOENT) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
        return -1;
    }
    int fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    w->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!w->f) {
        if (fd >= 0)
            close(fd);
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
        return -1;
    }
    return 0;
}

int plot_w_close(wfile *w, char *err, size_t errlen)
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
void plot_put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

/* key<TAB>value lines (values never hold a tab or a newline: they are
 * validated labels, strategy names, metric names or numbers). */
void plot_info_s(FILE *f, const char *k, const char *v)
{
    if (*v)
        fprintf(f, "%s\t%s\n", k, v);
}

void plot_info_n(FILE *f, const char *k, double v)
{
    fprintf(f, "%s\t", k);
    plot_put_num(f, v);
    fputc('\n', f);
}

const char *plot_sname(int s)
{
    return hp_strategy_name((hp_strategy)s);
}

/* A failure of the data itself (a valid file with nothing to draw). */
int plot_data_fail(char *err, size_t errlen, const char *dir, const char *file, const char *what)
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

const char *plot_scolor(int s)
{
    const char *n = plot_sname(s);
    return !strcmp(n, "immediate")     ? "#000000"
           : !strcmp(n, "constant")    ? "#E69F00"
           : !strcmp(n, "exponential") ? "#D55E00"
           : !strcmp(n, "full_jitter") ? "#0072B2"
           : !strcmp(n, "equal_jitter") ? "#009E73"
                                        : "#CC79A7";
}

/* Human words for a metric: "completion time (s)". */
void plot_human_metric(char *out, size_t n, const char *m)
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
        {"codel_dropped", "dropped by CoDel"},
        {"expired_skipped", "expired, skipped"},
        {"shed", "shed (sheddable)"},
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
        {"concurrency_rejected", "rejected by the concurrency limit"},
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
        {"collapsed_before_trigger", "collapsed before the trigger (share of runs)"},
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
void plot_human_metric_bare(char *out, size_t n, const char *m)
{
    plot_human_metric(out, n, m);
    char *u = strstr(out, " (");
    if (u && out[strlen(out) - 1] == ')')
        *u = '\0';
}

/* Human words for a swept key: "outage end (s)" for "outage 1.end_s". */
void plot_human_key(char *out, size_t n, const char *k)
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
    plot_human_metric(key, sizeof key, dot ? dot + 1 : k);
    snprintf(out, n, "%s%s", sect, key);
}

/* A value written on a bar or in a heatmap cell: 3 significant digits at
 * most, k and M for thousands and millions above 99,999. */
void plot_value_text(char *out, size_t n, double v)
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

void plot_dumb_size(const plot_opts *o, int *cols, int *lines)
{
    *cols = o->cols < PLOT_DUMB_MIN_COLS ? PLOT_DUMB_MIN_COLS : o->cols > 1000 ? 1000 : o->cols;
    *lines = o->lines < PLOT_DUMB_MIN_LINES ? PLOT_DUMB_MIN_LINES : o->lines > 1000 ? 1000 : o->lines;
}

/* n panels: wide ones (over time) in two columns from 4 panels, square
 * ones (bars, maps) filling a 16:9 screen.  talk: 1600x900; paper: panels
 * of paper_w x paper_h (over time: one column) plus paper_extra for the
 * titles; dumb: the terminal's width, its height less a line (more when
 * the panels need it: at least 10 lines each), panels side by side when
 * they can be 60 (over time) or 40 characters wide. */
layout plot_lay(const folder *fo, int n, int wide, int paper_w, int paper_h, int paper_extra)
{
    layout L;
    if (n < 1)
        n = 1;
    if (fo->o->term == PLOT_TERM_DUMB) {
        int W, H;
        plot_dumb_size(fo->o, &W, &H);
        L.cols = W / (wide ? 60 : 40);
        L.cols = L.cols < 1 ? 1 : L.cols > n ? n : L.cols;
        L.rows = (n + L.cols - 1) / L.cols;
        L.W = W;
        L.H = H - 1 > 5 + 10 * L.rows ? H - 1 : 5 + 10 * L.rows; /* a line left for the prompt */
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

void plot_lay_write(FILE *f, layout L)
{
    plot_info_n(f, "W", L.W);
    plot_info_n(f, "H", L.H);
    plot_info_n(f, "rows", L.rows);
    plot_info_n(f, "cols", L.cols);
}

/* style.tsv: the terminal and the sizes of text and lines, read by every
 * script. */
int plot_write_style(const folder *fo, const char *wd, char *err, size_t errlen)
{
    wfile s = {0};
    int talk = fo->o->style == PLOT_STYLE_TALK;
    if (plot_w_open(&s, wd, "style", "tsv", err, errlen))
        return -1;
    plot_info_s(s.f, "style", talk ? "talk" : "paper");
    int dw, dh;
    plot_dumb_size(fo->o, &dw, &dh);
    plot_info_s(s.f, "term", fo->o->term == PLOT_TERM_DUMB ? "dumb" : fo->o->term == PLOT_TERM_SVG ? "svg" : "png");
    plot_info_n(s.f, "dw", dw); /* dumb: the text's size */
    plot_info_n(s.f, "dh", dh - 1);
    plot_info_n(s.f, "fs", talk ? 16 : 10);  /* text (pt) */
    plot_info_n(s.f, "tfs", talk ? 22 : 12); /* titles */
    plot_info_n(s.f, "sfs", talk ? 16 : 8);  /* small text: keys, values on bars (talk: 16 at least) */
    plot_info_n(s.f, "lw", talk ? 3 : 1.5);  /* series */
    plot_info_n(s.f, "blw", talk ? 1.5 : 1); /* borders, bars, error bars */
    return plot_w_close(&s, err, errlen);
}

/* Whether row p is at the selected point, from key column `from` on (the
 * variant aside). */
int plot_at_point(const folder *fo, const prow *p, int from)
{
    for (int k = from < fo->ks.variant ? fo->ks.variant : from; k < fo->ks.k; k++)
        if (strcmp(p->key[k], fo->sel.pval[k]))
            return 0;
    return 1;
}

int plot_of_variant(const folder *fo, const prow *p)
{
    return !fo->ks.variant || !strcmp(p->key[0], fo->sel.vname);
}

/* "server.workers = 20, server.queue = 10": the selected point. */
void plot_point_text(const folder *fo, char *out, size_t n, int from)
{
    out[0] = '\0';
    for (int i = fo->ks.variant + from; i < fo->ks.k; i++)
        plot_append(out, n, ", ", fo->ks.name[i], fo->sel.pval[i]);
}

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
int plot_windows(const folder *fo, const char *variant, double tmax, window *w, int max)
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
        if (!plot_at_point(fo, p, 0) || (fo->ks.variant && variant && strcmp(p->key[0], variant)))
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

void plot_write_windows(FILE *f, const window *w, int n, int panel)
{
    for (int i = 0; i < n; i++) {
        fprintf(f, "win\t%d\t", panel);
        plot_put_num(f, w[i].a);
        fputc('\t', f);
        plot_put_num(f, w[i].b);
        fprintf(f, "\t%s\n", w[i].label);
    }
}

/* The scenario's name for titles. */
const char *plot_title_name(const folder *fo)
{
    return fo->name[0] ? fo->name : "results";
}

/* Colour i of the palette (in turn, for series that are not strategies). */
const char *plot_palette(size_t i)
{
    return okabe_ito[i % COUNT(okabe_ito)];
}

/* The metrics of the variants figure: --metric, else the scenario's [run]
 * columns, else herd run's default columns; metric_table indices. */
int plot_variant_metric_list(const folder *fo, int *out)
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
    nm = plot_variant_metric_list(fo, ml);
    for (int i = 0; i < nm; i++)
        want_metric(&fo->agg, ml[i]);
    for (size_t i = 0; i < PLOT_NCOMPARED; i++)
        want_metric(&fo->cmp, (int)i);
    want_metric(&fo->agg, plot_metric_index("p50_latency_s")); /* the replay figure's quantiles */
    want_metric(&fo->agg, plot_metric_index("p90_latency_s"));
    want_metric(&fo->agg, plot_metric_index("p99_latency_s"));
    want_metric(&fo->agg, plot_metric_index("p999_latency_s"));
}
