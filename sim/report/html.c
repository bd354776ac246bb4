/*
 * html.c - herd report: a results directory as one HTML page (html.h).
 *
 * Order of work: the directory is recognised (manifest.txt starting with
 * "herd ", aggregate.csv), the plotting layer validates every CSV and
 * draws the figures as SVG into a private temporary directory, the files
 * the page shows are read whole into memory (a size bound each), the
 * temporary directory is emptied and removed, and the page is written to
 * a temporary beside its destination and renamed into place.
 *
 * Invariants: every byte that comes from a file of the directory reaches
 * the page through html_text (escaped) or as a number this file formats;
 * the figures are gnuplot's SVG, checked to hold no script, no event
 * handler and no reference outside themselves, their ids prefixed per
 * figure so that two figures never share one.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "../scenario/scenario.h"
#include "csv.h"
#include "html_internal.h"

/* ------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

void html_shown_path(char *out, size_t n, const char *p)
{
    size_t o = 0;
    for (; *p && o + 5 < n && o < SHOWN; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
}

/* Writes s[0..n) escaped for HTML text and attribute values: & < > " '
 * as entities, NUL and control characters (tab and newline aside) left
 * out. */
void html_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
                fputc(c, f);
        }
    }
}

static void html_str(FILE *f, const char *s)
{
    html_text(f, s, strlen(s));
}

/* Reads dir/name whole into *b: 1, 0 when it does not exist, -1 with err
 * (not a regular file, too large, unreadable, out of memory). */
static void num_text(char *out, size_t n, const char *cell, int digits, int sign)
{
    char *end;
    double v = strtod(cell, &end);
    if (!*cell || *end || isnan(v)) {
        snprintf(out, n, "n/a");
        return;
    }
    if (isinf(v))
        snprintf(out, n, "%s", v > 0 ? "inf" : "-inf");
    else if (fabs(v) >= 1000 && fabs(v) < 1e9)
        snprintf(out, n, sign ? "%+.0f" : "%.0f", v);
    else
        snprintf(out, n, sign ? "%+.*g" : "%.*g", digits, v);
}

static int is_na(const char *cell)
{
    char *end;
    double v = strtod(cell, &end);
    return !*cell || *end || isnan(v);
}

static void metric_cell(FILE *f, const ctab *t, size_t row, const hmetric *m, int pct)
{
    char a[48], b[48], lo[48], hi[48];
    const char *mean = html_cell(t, row, m->mean);
    if (is_na(mean)) {
        fputs("<td class=\"na\">n/a</td>", f);
        return;
    }
    num_text(a, sizeof a, mean, 4, pct);
    fputs("<td>", f);
    html_str(f, a);
    if (pct)
        fputc('%', f);
    int share = m->lo >= 0 && m->hi >= 0; /* a proportion: its Wilson interval, not a t interval */
    if (!share && m->ci >= 0 && !is_na(html_cell(t, row, m->ci))) {
        num_text(b, sizeof b, html_cell(t, row, m->ci), 2, 0);
        fputs(" <span class=\"ci\">&plusmn; ", f);
        html_str(f, b);
        fputs("</span>", f);
    }
    if (share && !is_na(html_cell(t, row, m->lo)) && !is_na(html_cell(t, row, m->hi))) {
        num_text(lo, sizeof lo, html_cell(t, row, m->lo), 3, 0);
        num_text(hi, sizeof hi, html_cell(t, row, m->hi), 3, 0);
        fputs(" <span class=\"ci\">[", f);
        html_str(f, lo);
        fputs("&ndash;", f);
        html_str(f, hi);
        fputs("]</span>", f);
    }
    if (m->n >= 0) {
        fputs(" <span class=\"ci\">(n = ", f);
        html_str(f, html_cell(t, row, m->n));
        fputs(")</span>", f);
    }
    fputs("</td>", f);
}

/* A header: a metric's name with a break allowed after each '_'. */
static void head_name(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        html_text(f, s + i, 1);
        if (s[i] == '_' && i + 1 < n)
            fputs("<wbr>", f);
    }
}

/* The width of a column in characters as the page lays it out: its
 * header's longest piece between '_' (a break is allowed there), its
 * cells' longest line (a metric's mean, then its interval and count on
 * lines of their own). */
static size_t col_chars(const ctab *t, long key, const hmetric *m, int pct)
{
    const char *h = key >= 0 ? t->cell[key] : m->name;
    size_t w = 0, run = 0;
    for (const char *p = h;; p++) {
        if (!*p || *p == '_') {
            w = run + 1 > w ? run + 1 : w;
            run = 0;
            if (!*p)
                break;
        } else {
            run++;
        }
    }
    for (size_t r = 0; r < t->nrows; r++) {
        char a[48];
        size_t l;
        if (key >= 0) {
            l = strlen(html_cell(t, r, key));
        } else {
            num_text(a, sizeof a, html_cell(t, r, m->mean), 4, pct);
            l = strlen(a) + 1;
            if (m->ci >= 0) {
                num_text(a, sizeof a, html_cell(t, r, m->ci), 2, 0);
                l = strlen(a) + 2 > l ? strlen(a) + 2 : l;
            }
            if (m->lo >= 0 && m->hi >= 0)
                l = l > 15 ? l : 15; /* [0.xyz-0.xyz] */
            if (m->n >= 0)
                l = l > strlen(html_cell(t, r, m->n)) + 6 ? l : strlen(html_cell(t, r, m->n)) + 6;
        }
        w = l > w ? l : w;
    }
    return w;
}

/* Pixels a page of 1280 (the body's 1200 less its padding) gives a table,
 * less a margin; a character and a cell's padding and border. */
#define TABLE_PX 1060
#define CHAR_PX 8.6
#define CELL_PX 22

/* A table of t: its key columns and replications, then the metrics
 * m[0..nm) (change in % for compare files).  The metric columns are split
 * into as many tables as it takes for each to fit a page 1280 pixels wide
 * (the key columns repeated in each): a table never scrolls sideways. */
static void write_table(FILE *f, const ctab *t, const hmetric *const *m, size_t nm, int pct)
{
    double keys = 0;
    for (size_t c = 0; c <= t->nkeys; c++)
        keys += CELL_PX + CHAR_PX * (double)col_chars(t, (long)c, NULL, 0);
    for (size_t first = 0; first < nm || (!nm && first == 0);) {
        size_t last = first;
        double used = keys;
        while (last < nm) {
            double w = CELL_PX + CHAR_PX * (double)col_chars(t, -1, m[last], pct);
            if (last > first && used + w > TABLE_PX)
                break;
            used += w;
            last++;
        }
        fputs("<div class=\"tab\"><table>\n<thead><tr>", f);
        for (size_t c = 0; c <= t->nkeys; c++) {
            fputs("<th>", f);
            head_name(f, t->cell[c], strlen(t->cell[c]));
            fputs("</th>", f);
        }
        for (size_t i = first; i < last; i++) {
            fputs("<th>", f);
            size_t l = strlen(m[i]->name);
            if (pct && l > 11 && !strcmp(m[i]->name + l - 11, "_change_pct"))
                head_name(f, m[i]->name, l - 11);
            else
                head_name(f, m[i]->name, l);
            fputs("</th>", f);
        }
        fputs("</tr></thead>\n<tbody>\n", f);
        for (size_t r = 0; r < t->nrows; r++) {
            fputs("<tr>", f);
            for (size_t c = 0; c <= t->nkeys; c++) {
                fputs(c < t->nkeys ? "<th>" : "<td>", f);
                html_str(f, html_cell(t, r, (long)c));
                fputs(c < t->nkeys ? "</th>" : "</td>", f);
            }
            for (size_t i = first; i < last; i++)
                metric_cell(f, t, r, m[i], pct);
            fputs("</tr>\n", f);
        }
        fputs("</tbody></table></div>\n", f);
        if (last == first)
            break;
        first = last;
    }
}

/* ------------------------------------------------------------------------
 * manifest.txt
 * ------------------------------------------------------------------------ */

static void write_run(FILE *f, const hman *m)
{
    fputs("<table class=\"kv\">\n", f);
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (m->in_sect[i] || html_undefined_line(l) || !l.n)
            continue;
        size_t k = html_kv_key(l);
        if (i == 0 && html_starts(l, "herd ")) {
            fputs("<tr><th>version</th><td>", f);
            html_text(f, l.s, l.n);
        } else if (k) {
            fputs("<tr><th>", f);
            html_text(f, l.s, k);
            fputs("</th><td><code>", f);
            html_text(f, l.s + k + 2, l.n - k - 2);
            fputs("</code>", f);
        } else {
            fputs("<tr><td colspan=\"2\"><code>", f);
            html_text(f, l.s, l.n);
            fputs("</code>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void write_undefined(FILE *f, const hman *m)
{
    int any = 0;
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (m->in_sect[i] || !html_undefined_line(l))
            continue;
        if (!any)
            fputs("<section id=\"undefined\"><h2>Undefined metrics</h2>\n<ul class=\"na\">\n", f);
        any = 1;
        fputs("<li>", f);
        if (html_starts(l, "n/a: ")) {
            const char *p = l.s + 5, *e = l.s + l.n;
            const char *c = memchr(p, ':', (size_t)(e - p));
            fputs("<code>", f);
            html_text(f, p, c ? (size_t)(c - p) : (size_t)(e - p));
            fputs("</code>", f);
            if (c)
                html_text(f, c, (size_t)(e - c));
        } else {
            html_text(f, l.s, l.n);
        }
        fputs("</li>\n", f);
    }
    if (any)
        fputs("</ul></section>\n", f);
}

/* The resolved model: "== point" lines and [section] lines as headings,
 * "  key = value  # origin" as rows, anything else as text. */
static void write_resolved(FILE *f, const hman *m, const hsect *s)
{
    fputs("<div class=\"scroll\"><table class=\"model\">\n", f);
    for (size_t i = s->from + 1; i < s->to; i++) {
        hline l = m->line[i];
        size_t b = 0;
        while (b < l.n && l.s[b] == ' ')
            b++;
        const char *eq = b >= 2 ? memmem(l.s + b, l.n - b, " = ", 3) : NULL;
        if (eq) {
            const char *e = l.s + l.n, *hash = NULL;
            for (const char *h = eq; h + 2 < e; h++)
                if (!memcmp(h, " # ", 3))
                    hash = h;
            const char *ve = hash ? hash : e;
            while (ve > eq + 3 && ve[-1] == ' ')
                ve--;
            int unused = hash && (size_t)(e - hash) >= 10 && !memcmp(hash + 3, "unused:", 7);
            fputs(unused ? "<tr class=\"unused\"><td><code>" : "<tr><td><code>", f);
            html_text(f, l.s + b, (size_t)(eq - l.s - b));
            fputs("</code></td><td><code>", f);
            html_text(f, eq + 3, (size_t)(ve - eq - 3));
            fputs("</code></td><td>", f);
            if (hash)
                html_text(f, hash + 3, (size_t)(e - hash - 3));
            fputs("</td></tr>\n", f);
        } else if (l.n) {
            fputs(html_starts(l, "==") ? "<tr class=\"point\"><th colspan=\"3\">" : "<tr class=\"sect\"><th colspan=\"3\">", f);
            html_text(f, l.s, l.n);
            fputs("</th></tr>\n", f);
        }
    }
    fputs("</table></div>\n", f);
}

static void write_pre(FILE *f, const hman *m, const hsect *s)
{
    fputs("<pre>", f);
    for (size_t i = s->from + 1; i < s->to; i++) {
        html_text(f, m->line[i].s, m->line[i].n);
        fputc('\n', f);
    }
    fputs("</pre>\n", f);
}

/* ------------------------------------------------------------------------
 * The page
 * ------------------------------------------------------------------------ */

static const char page_style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0 auto;"
    "max-width:1200px;padding:1em 2em;color:#1d1d1d;background:#fff;line-height:1.4}"
    "h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.8em}"
    "nav a{margin-right:1em}table{border-collapse:collapse;margin:.5em 0;font-size:.92em}"
    "th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}"
    "thead th{background:#f2f2f2}tbody th{font-weight:600;background:#fafafa}"
    "td{font-variant-numeric:tabular-nums;white-space:nowrap}.ci{color:#666}.na{color:#999;font-style:italic}"
    "table.kv td{white-space:normal}table.model td{white-space:pre-wrap}tr.unused td{color:#999}"
    "tr.point th{background:#e8eef7}tr.sect th{background:#f6f6f6;font-weight:600}"
    ".scroll{overflow-x:auto}figure{margin:1em 0}figure svg{width:100%;height:auto;border:1px solid #eee;box-sizing:border-box}"
    "figcaption{color:#555;font-size:.9em}pre{background:#f7f7f7;padding:.8em;overflow-x:auto;font-size:.85em}"
    "code{font-size:.95em}ul.na li{margin:.2em 0}.note{color:#555}"
    /* every table fits the page: a metric's interval and count under its mean, headers broken after '_',
     * long values and paths broken anywhere, the scenario file wrapped */
    "td .ci{display:block;font-size:.88em}.tab{max-width:100%}table.kv,table.model{table-layout:fixed;width:100%}"
    "table.kv td,table.model td,table.kv th{overflow-wrap:anywhere}table.kv th{width:11em}"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere}p.lead,ul.lead{font-size:1.08em;max-width:52em}";

/* The headline metrics: [run] columns (resolved model, --set, the
 * scenario file, the default), those aggregate.csv has. */
static size_t headline(const hman *man, const hmetric *m, size_t nm, const hmetric **out, size_t max)
{
    char list[1024];
    if (!html_man_value(man, "run.columns", list, sizeof list) && !html_ini_run_value(man, "columns", list, sizeof list)) {
        scn_config *c = herd_malloc_array(1, sizeof *c);
        if (!c)
            return 0;
        scn_defaults(c);
        snprintf(list, sizeof list, "%s", c->columns);
        herd_free(c);
    }
    size_t k = 0;
    for (char *s = list, *next; *s && k < max; s = next) {
        size_t len = strcspn(s, ",");
        next = s + len + (s[len] != '\0');
        s[len] = '\0';
        char name[96];
        text_collapse_blanks(s, len, name, sizeof name);
        const hmetric *h = html_metric_named(m, nm, name);
        int dup = 0;
        for (size_t i = 0; i < k; i++)
            dup |= out[i] == h;
        if (h && !dup)
            out[k++] = h;
    }
    return k;
}

/* The recovery and window metrics aggregate.csv has. */
static size_t recovery_metrics(const hmetric *m, size_t nm, const hmetric **out, size_t max)
{
    static const char *const names[] = {"recovered", "recovery_time_s", "trigger_start_s", "trigger_end_s",
                                        "offered_per_s", "goodput_per_s"};
    size_t k = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && k < max; i++) {
        const hmetric *h = html_metric_named(m, nm, names[i]);
        if (h)
            out[k++] = h;
    }
    for (size_t i = 0; i < nm && k < max; i++) /* the measures added later: recovery_..., window_... */
        if ((!strncmp(m[i].name, "recovery", 8) || strstr(m[i].name, "window")) &&
            strcmp(m[i].name, "recovery_time_s"))
            out[k++] = &m[i];
    return k;
}

static void write_compare(FILE *f, const ctab *t, const char *file, const char *what)
{
    hmetric m[128];
    const hmetric *mp[128];
    size_t nm = html_metrics_of(t, m, 128);
    for (size_t i = 0; i < nm; i++)
        mp[i] = &m[i];
    fputs("<h3>", f);
    html_str(f, what);
    fputs(" <span class=\"note\">(", f);
    html_str(f, file);
    fputs(")</span></h3>\n", f);
    fputs("<p class=\"note\">Paired change in % against the baseline on common random numbers: mean &plusmn; 95% CI "
          "half-width over the replications (n/a where the baseline's value is 0 or undefined).</p>\n",
          f);
    write_table(f, t, mp, nm, 1);
}

static int write_page(FILE *f, const char *dir, const hman *man, const ctab *agg, const ctab *cmp,
                      const ctab *vcmp, const hfig *fig, int nfig, const html_opts *opt)
{
    char name[256], title[512];
    html_man_name(man, name, sizeof name);
    if (opt && opt->title)
        snprintf(title, sizeof title, "%s", opt->title);
    else
        snprintf(title, sizeof title, "herd report: %s", name);
    hmetric m[256];
    size_t nm = html_metrics_of(agg, m, 256);
    const hmetric *head[64], *rec[64], *all[256];
    size_t nh = headline(man, m, nm, head, 64), nr = recovery_metrics(m, nm, rec, 64);
    for (size_t i = 0; i < nm; i++)
        all[i] = &m[i];

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    html_str(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", page_style);
    html_str(f, title);
    fputs("</h1>\n", f);
    if (opt && opt->lead)
        html_markdown(f, opt->lead, opt->leadlen);
    fputs("<p class=\"note\">herd report of the results directory <code>", f);
    html_str(f, dir);
    fputs("</code> (scenario <code>", f);
    html_str(f, name);
    fputs("</code>): one page, no request leaves it.</p>\n<nav>"
          "<a href=\"#headline\">headline</a><a href=\"#recovery\">recovery and window</a>"
          "<a href=\"#figures\">figures</a><a href=\"#comparisons\">comparisons</a><a href=\"#all\">every metric</a>"
          "<a href=\"#run\">run</a><a href=\"#manifest\">model and scenario</a></nav>\n",
          f);

    fputs("<section id=\"headline\"><h2>Headline results</h2>\n<p class=\"note\">Mean &plusmn; 95% CI half-width "
          "over independent replications (Student t); shares with their Wilson 95% interval in brackets; a "
          "metric defined in only some runs with their number (n = k); n/a: undefined, see below.</p>\n",
          f);
    write_table(f, agg, head, nh, 0);
    fputs("</section>\n", f);
    write_undefined(f, man);

    fputs("<section id=\"recovery\"><h2>Recovery and window</h2>\n", f);
    int wl = 0;
    for (size_t i = 0; i < man->n; i++) {
        hline l = man->line[i];
        if (man->in_sect[i] || html_undefined_line(l) || !memmem(l.s, l.n, "window", 6))
            continue;
        fputs(wl++ ? "<li>" : "<ul><li>", f);
        html_text(f, l.s, l.n);
        fputs("</li>\n", f);
    }
    if (wl)
        fputs("</ul>\n", f);
    else
        fputs("<p class=\"note\">No time window: per-request metrics count every request of the run.</p>\n", f);
    if (nr)
        write_table(f, agg, rec, nr, 0);
    else
        fputs("<p class=\"note\">aggregate.csv has no recovery measure.</p>\n", f);
    fputs("</section>\n", f);

    fputs("<section id=\"figures\"><h2>Figures</h2>\n", f);
    if (!nfig)
        fputs("<p class=\"note\">Nothing to draw: no timeseries, sweep or comparison in this directory.</p>\n", f);
    for (int i = 0; i < nfig; i++) {
        fputs("<figure id=\"fig-", f);
        html_str(f, fig[i].name);
        fputs("\">\n", f);
        html_write_svg(f, fig[i].svg.p, i);
        fputs("\n<figcaption>", f);
        if (!strncmp(fig[i].name, "timeseries-", 11)) {
            fputs("timeseries of the variant <code>", f);
            html_str(f, fig[i].name + 11);
            fputs("</code> (herd plot --variant ", f);
            html_str(f, fig[i].name + 11);
            fputs(")", f);
        } else {
            html_str(f, fig[i].name);
            fputs(" (herd plot)", f);
        }
        fputs("</figcaption></figure>\n", f);
    }
    fputs("</section>\n", f);

    fputs("<section id=\"comparisons\"><h2>Comparisons</h2>\n", f);
    if (cmp->b.p)
        write_compare(f, cmp, "compare.csv", "Against the baseline strategy");
    if (vcmp->b.p)
        write_compare(f, vcmp, "compare_variants.csv", "Against the baseline variant");
    if (!cmp->b.p && !vcmp->b.p)
        fputs("<p class=\"note\">No baseline: set [run] baseline (a strategy) or baseline_variant to compare.</p>\n", f);
    fputs("</section>\n", f);

    fputs("<section id=\"all\"><h2>Every metric</h2>\n<details><summary>aggregate.csv, every column</summary>\n", f);
    write_table(f, agg, all, nm, 0);
    fputs("</details></section>\n", f);

    fputs("<section id=\"run\"><h2>The run</h2>\n", f);
    write_run(f, man);
    fputs("</section>\n", f);

    fputs("<section id=\"manifest\"><h2>Model and scenario</h2>\n", f);
    for (size_t s = 0; s < man->nsect; s++) {
        const hsect *sc = &man->sect[s];
        fputs("<h3>", f);
        html_text(f, sc->title.s, sc->title.n);
        fputs("</h3>\n", f);
        if (html_starts(sc->title, "resolved model"))
            write_resolved(f, man, sc);
        else
            write_pre(f, man, sc);
    }
    if (!man->nsect)
        fputs("<p class=\"note\">manifest.txt has no sections.</p>\n", f);
    fputs("</section>\n", f);

    fputs("<p class=\"note\">Written by herd report from manifest.txt, aggregate.csv", f);
    if (cmp->b.p)
        fputs(", compare.csv", f);
    if (vcmp->b.p)
        fputs(", compare_variants.csv", f);
    fputs(" and the figures of herd plot.</p>\n</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}

int html_report(const char *dir, const char *out, char *err, size_t errlen)
{
    return html_report_opts(dir, out, NULL, err, errlen);
}

static int report(const char *dir, const char *out, const html_opts *opt, int figures, char *err, size_t errlen);

int html_report_ex(const char *dir, const char *out, int figures, char *err, size_t errlen)
{
    return report(dir, out, NULL, figures, err, errlen);
}

/* The time-series figure per variant (o's, or every variant of agg, in
 * its order) in place of herd plot's default (the first variant's): fig
 * gets them where "timeseries" was.  0, HTML_INVALID or -1 with err. */
static int series_per_variant(const char *dir, const ctab *agg, const html_opts *o, hfig *fig, int *nfig, char *err,
                              size_t errlen)
{
    long vc = html_col_of(agg, "variant");
    if (vc < 0) {
        if (o && o->nvariant) {
            snprintf(err, errlen, "--variant %s: this run has no variants ([variant] sections)", o->variant[0]);
            return HTML_INVALID;
        }
        return 0;
    }
    const char *want[HTML_MAX_FIGS];
    int nw = 0;
    if (o && o->nvariant)
        for (int i = 0; i < o->nvariant && nw < HTML_MAX_FIGS; i++)
            want[nw++] = o->variant[i];
    else
        for (size_t r = 0; r < agg->nrows && nw < HTML_MAX_FIGS; r++) {
            const char *v = html_cell(agg, r, vc);
            int seen = 0;
            for (int i = 0; i < nw; i++)
                seen |= !strcmp(want[i], v);
            if (!seen)
                want[nw++] = v;
        }
    int at = -1;
    for (int i = 0; i < *nfig; i++)
        if (!strcmp(fig[i].name, "timeseries"))
            at = i;
    if (at < 0)
        return 0; /* no time series drawn (a sweep): nothing to choose */
    if (*nfig - 1 + nw > HTML_MAX_FIGS)
        nw = HTML_MAX_FIGS - *nfig + 1;
    hfig *g = herd_calloc((size_t)(nw ? nw : 1), sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < nw; i++) {
        int rc = html_draw_series(dir, want[i], &g[i], err, errlen);
        if (rc != 0) {
            html_figs_free(g, i);
            herd_free(g);
            return rc;
        }
    }
    herd_free(fig[at].svg.p);
    memmove(&fig[at + nw], &fig[at + 1], (size_t)(*nfig - at - 1) * sizeof *fig);
    memcpy(&fig[at], g, (size_t)nw * sizeof *g);
    *nfig += nw - 1;
    herd_free(g);
    return 0;
}

int html_report_opts(const char *dir, const char *out, const html_opts *opt, char *err, size_t errlen)
{
    return report(dir, out, opt, 1, err, errlen);
}

/* html_report_opts, with figures = 0 without any figure (html_report_ex). */
static int report(const char *dir, const char *out, const html_opts *opt, int figures, char *err, size_t errlen)
{
    char shown[SHOWN + 8], outbuf[PATH_MAX], odir[PATH_MAX], oname[NAME_MAX + 1];
    hbuf mb = {0};
    hman man;
    ctab agg, cmp, vcmp;
    hfig *fig = NULL;
    int nfig = 0, rc = -1;
    csv_out o = {0};
    memset(&man, 0, sizeof man);
    memset(&agg, 0, sizeof agg);
    memset(&cmp, 0, sizeof cmp);
    memset(&vcmp, 0, sizeof vcmp);
    html_shown_path(shown, sizeof shown, dir);

    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory; expected a results directory of herd run (its -o DIR)", shown);
        return HTML_INVALID;
    }
    int r = html_read_file(dir, "manifest.txt", &mb, err, errlen);
    if (r < 0)
        return HTML_INVALID;
    char part[PATH_MAX];
    if (r == 0 && snprintf(part, sizeof part, "%s/partial.herd", dir) < (int)sizeof part && stat(part, &st) == 0) {
        snprintf(err, errlen, "%s: a shard's partial results (partial.herd), not a results directory; merge the "
                              "shards first (herd merge OUT DIR...) and report OUT",
                 shown);
        return HTML_INVALID;
    }
    if (r == 0 || strncmp(mb.p, "herd ", 5)) {
        snprintf(err, errlen, "%s: not a herd results directory (%s); expected the output directory of herd run or "
                              "herd merge",
                 shown, r == 0 ? "no manifest.txt" : "manifest.txt does not start with \"herd \"");
        herd_free(mb.p);
        return HTML_INVALID;
    }
    char aggpath[PATH_MAX];
    if (snprintf(aggpath, sizeof aggpath, "%s/aggregate.csv", dir) >= (int)sizeof aggpath ||
        stat(aggpath, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a herd results directory (no aggregate.csv); expected the output directory of "
                              "herd run or herd merge",
                 shown);
        herd_free(mb.p);
        return HTML_INVALID;
    }

    /* the destination, checked before any work */
    if (!out) {
        if (snprintf(outbuf, sizeof outbuf, "%s/report.html", dir) >= (int)sizeof outbuf) {
            snprintf(err, errlen, "%s: path too long", shown);
            goto done;
        }
        out = outbuf;
    }
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    if (!*base || strlen(base) > NAME_MAX || !strcmp(base, ".") || !strcmp(base, "..")) {
        html_shown_path(shown, sizeof shown, out);
        snprintf(err, errlen, "-o %s: expected a file name, e.g. -o incident.html", shown);
        rc = HTML_INVALID;
        goto done;
    }
    snprintf(oname, sizeof oname, "%s", base);
    if (!slash)
        snprintf(odir, sizeof odir, ".");
    else if (slash == out)
        snprintf(odir, sizeof odir, "/");
    else
        snprintf(odir, sizeof odir, "%.*s", (int)(slash - out), out);

    /* the page never replaces one of the results it is made from */
    {
        static const char *const inputs[] = {"summary.csv", "aggregate.csv", "timeseries.csv", "compare.csv",
                                             "tools.csv", "compare_variants.csv", "mechanisms.csv", "manifest.txt",
                                             "input.csv", "partial.herd"};
        struct stat od, dd;
        int same = stat(odir, &od) == 0 && stat(dir, &dd) == 0 && od.st_dev == dd.st_dev && od.st_ino == dd.st_ino;
        for (size_t i = 0; same && i < sizeof inputs / sizeof *inputs; i++)
            if (!strcmp(oname, inputs[i])) {
                html_shown_path(shown, sizeof shown, out);
                snprintf(err, errlen, "-o %s: one of the results the report is made from; expected another file "
                         "name, e.g. -o report.html", shown);
                rc = HTML_INVALID;
                goto done;
            }
    }
    fig = herd_calloc(HTML_MAX_FIGS, sizeof *fig);
    if (!fig) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* validates every CSV of dir (a malformed one: HTML_INVALID) */
    if (figures && (rc = html_draw_figures(dir, fig, &nfig, err, errlen)) != 0)
        goto done;
    rc = -1;
    if (html_man_parse(&man, &mb) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if ((r = html_ctab_load(&agg, dir, "aggregate.csv", err, errlen)) != 1 ||
        (r = html_ctab_load(&cmp, dir, "compare.csv", err, errlen)) < 0 ||
        (r = html_ctab_load(&vcmp, dir, "compare_variants.csv", err, errlen)) < 0) {
        rc = r == HTML_INVALID ? HTML_INVALID : -1;
        goto done;
    }
    if ((r = series_per_variant(dir, &agg, opt, fig, &nfig, err, errlen)) != 0) {
        rc = r;
        goto done;
    }
    if (csv_open(&o, odir, oname, err, errlen) != 0)
        goto done;
    if (write_page(o.f, dir, &man, &agg, &cmp, &vcmp, fig, nfig, opt) != 0) {
        html_shown_path(shown, sizeof shown, out);
        snprintf(err, errlen, "%s: write error", shown);
        goto done;
    }
    if (csv_finish(&o, err, errlen) != 0 || csv_publish(&o, err, errlen) != 0)
        goto done;
    rc = 0;
done:
    csv_abort(&o);
    html_figs_free(fig, nfig);
    herd_free(fig);
    html_man_free(&man);
    html_ctab_free(&agg);
    html_ctab_free(&cmp);
    html_ctab_free(&vcmp);
    herd_free(mb.p);
    return rc;
}

