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
#include "html.h"

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
#include "plot.h"

#define FILE_MAX (256LL << 20) /* bytes read of one file */
#define MAX_FIGS 64
#define SHOWN 300 /* characters of a path in a message */

/* A file's bytes, NUL-terminated (embedded NULs are kept out of the page
 * by html_text). */
typedef struct hbuf {
    char *p;
    size_t n;
} hbuf;

/* A CSV file: the header's fields and the rows', in place in its buffer. */
typedef struct ctab {
    hbuf b;
    char **cell; /* (nrows + 1) x ncols: the header first */
    size_t nrows, ncols;
    size_t nkeys; /* columns before `replications` */
} ctab;

/* A metric's columns in a ctab: NAME_mean, NAME_ci95, NAME_lo, NAME_hi,
 * NAME_n (-1: absent). */
typedef struct hmetric {
    char name[96];
    long mean, ci, lo, hi, n;
} hmetric;

typedef struct hfig {
    char name[64];
    hbuf svg;
} hfig;

/* ------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

static void shown_path(char *out, size_t n, const char *p)
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
static void html_text(FILE *f, const char *s, size_t n)
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
            if (c >= 0x20 || c == '\n' || c == '\t')
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
static int read_file(const char *dir, const char *name, hbuf *b, char *err, size_t errlen)
{
    char path[PATH_MAX], shown[SHOWN + 8];
    memset(b, 0, sizeof *b);
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", name);
        return -1;
    }
    shown_path(shown, sizeof shown, path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", shown, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
        snprintf(err, errlen, "%s: not a regular file of at most %lld bytes", shown, FILE_MAX);
        fclose(f);
        return -1;
    }
    b->p = herd_malloc_array((size_t)st.st_size + 1, 1);
    if (!b->p) {
        snprintf(err, errlen, "%s: out of memory", shown);
        fclose(f);
        return -1;
    }
    b->n = fread(b->p, 1, (size_t)st.st_size, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: read error", shown);
        herd_free(b->p);
        memset(b, 0, sizeof *b);
        return -1;
    }
    b->p[b->n] = '\0';
    return 1;
}

/* A number as the tables show it: n/a for nan or an empty or n/a cell;
 * %.0f from 1000 to 1e9, else `digits` significant digits. */
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

/* ------------------------------------------------------------------------
 * CSV files
 * ------------------------------------------------------------------------ */

static void ctab_free(ctab *t)
{
    herd_free(t->b.p);
    herd_free(t->cell);
    memset(t, 0, sizeof *t);
}

/* Splits t->b into fields in place (RFC 4180 quotes, as csv_str writes
 * them).  0, or HTML_INVALID with "NAME:LINE: ..." (a row whose length is
 * not the header's, no `replications` column), or -1 (memory). */
static int ctab_parse(ctab *t, const char *name, char *err, size_t errlen)
{
    size_t cap = 0, n = 0, line = 1, rowstart = 0;
    char *r = t->b.p, *w = t->b.p, *end = t->b.p + t->b.n;
    t->ncols = 0;
    while (r < end) {
        /* one field */
        char *field = w;
        if (*r == '"') {
            r++;
            while (r < end && !(*r == '"' && (r + 1 >= end || r[1] != '"'))) {
                if (*r == '"')
                    r++;
                line += *r == '\n';
                *w++ = *r++;
            }
            if (r < end)
                r++;
        } else {
            while (r < end && *r != ',' && *r != '\n' && *r != '\r')
                *w++ = *r++;
        }
        int eol = r >= end || *r == '\n' || *r == '\r';
        if (r < end && *r == '\r')
            r++;
        if (r < end && (*r == ',' || *r == '\n'))
            r++;
        *w++ = '\0';
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 256;
            char **c = herd_realloc_array(t->cell, nc, sizeof *c);
            if (!c) {
                snprintf(err, errlen, "%s: out of memory", name);
                return -1;
            }
            t->cell = c;
            cap = nc;
        }
        t->cell[n++] = field;
        if (eol) {
            size_t nf = n - rowstart;
            if (!t->ncols) {
                t->ncols = nf;
            } else if (nf != t->ncols) {
                snprintf(err, errlen, "%s:%zu: %zu fields; expected %zu, as in the header", name, line, nf, t->ncols);
                return HTML_INVALID;
            }
            rowstart = n;
            line++;
        }
    }
    if (!t->ncols) {
        snprintf(err, errlen, "%s: empty; expected a header line", name);
        return HTML_INVALID;
    }
    t->nrows = n / t->ncols - 1;
    for (t->nkeys = 0; t->nkeys < t->ncols && strcmp(t->cell[t->nkeys], "replications"); t->nkeys++)
        ;
    if (t->nkeys == t->ncols) {
        snprintf(err, errlen, "%s:1: no replications column; expected a file of herd run", name);
        return HTML_INVALID;
    }
    return 0;
}

/* Reads and splits dir/name: 1, 0 when absent, HTML_INVALID or -1. */
static int ctab_load(ctab *t, const char *dir, const char *name, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int rc = read_file(dir, name, &t->b, err, errlen);
    if (rc <= 0)
        return rc;
    if ((rc = ctab_parse(t, name, err, errlen)) != 0) {
        ctab_free(t);
        return rc;
    }
    return 1;
}

static const char *cell(const ctab *t, size_t row, long col)
{
    return col < 0 ? "" : t->cell[(row + 1) * t->ncols + (size_t)col];
}

static long col_of(const ctab *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->cell[c], name))
            return (long)c;
    return -1;
}

/* The metrics of t (columns NAME_mean after the keys), in file order, into
 * m[max]; their number. */
static size_t metrics_of(const ctab *t, hmetric *m, size_t max)
{
    size_t k = 0;
    for (size_t c = t->nkeys + 1; c < t->ncols && k < max; c++) {
        const char *h = t->cell[c];
        size_t l = strlen(h);
        if (l <= 5 || strcmp(h + l - 5, "_mean") || l - 5 >= sizeof m[k].name)
            continue;
        snprintf(m[k].name, sizeof m[k].name, "%.*s", (int)(l - 5), h);
        char want[128];
        snprintf(want, sizeof want, "%s_ci95", m[k].name);
        m[k].ci = col_of(t, want);
        snprintf(want, sizeof want, "%s_lo", m[k].name);
        m[k].lo = col_of(t, want);
        snprintf(want, sizeof want, "%s_hi", m[k].name);
        m[k].hi = col_of(t, want);
        snprintf(want, sizeof want, "%s_n", m[k].name);
        m[k].n = col_of(t, want);
        m[k].mean = (long)c;
        k++;
    }
    return k;
}

static const hmetric *metric_named(const hmetric *m, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].name, name))
            return &m[i];
    return NULL;
}

/* One cell: "mean ± ci", a proportion's Wilson interval "[lo–hi]", a
 * partly defined metric's runs "(n = k)"; n/a alone when undefined. */
static void metric_cell(FILE *f, const ctab *t, size_t row, const hmetric *m, int pct)
{
    char a[48], b[48], lo[48], hi[48];
    const char *mean = cell(t, row, m->mean);
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
    if (!share && m->ci >= 0 && !is_na(cell(t, row, m->ci))) {
        num_text(b, sizeof b, cell(t, row, m->ci), 2, 0);
        fputs(" <span class=\"ci\">&plusmn; ", f);
        html_str(f, b);
        fputs("</span>", f);
    }
    if (share && !is_na(cell(t, row, m->lo)) && !is_na(cell(t, row, m->hi))) {
        num_text(lo, sizeof lo, cell(t, row, m->lo), 3, 0);
        num_text(hi, sizeof hi, cell(t, row, m->hi), 3, 0);
        fputs(" <span class=\"ci\">[", f);
        html_str(f, lo);
        fputs("&ndash;", f);
        html_str(f, hi);
        fputs("]</span>", f);
    }
    if (m->n >= 0) {
        fputs(" <span class=\"ci\">(n = ", f);
        html_str(f, cell(t, row, m->n));
        fputs(")</span>", f);
    }
    fputs("</td>", f);
}

/* A table of t: its key columns and replications, then the metrics
 * m[0..nm) (change in % for compare files). */
static void write_table(FILE *f, const ctab *t, const hmetric *const *m, size_t nm, int pct)
{
    fputs("<div class=\"scroll\"><table>\n<thead><tr>", f);
    for (size_t c = 0; c <= t->nkeys; c++) {
        fputs("<th>", f);
        html_str(f, t->cell[c]);
        fputs("</th>", f);
    }
    for (size_t i = 0; i < nm; i++) {
        fputs("<th>", f);
        size_t l = strlen(m[i]->name);
        if (pct && l > 11 && !strcmp(m[i]->name + l - 11, "_change_pct"))
            html_text(f, m[i]->name, l - 11);
        else
            html_str(f, m[i]->name);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs("<tr>", f);
        for (size_t c = 0; c <= t->nkeys; c++) {
            fputs(c < t->nkeys ? "<th>" : "<td>", f);
            html_str(f, cell(t, r, (long)c));
            fputs(c < t->nkeys ? "</th>" : "</td>", f);
        }
        for (size_t i = 0; i < nm; i++)
            metric_cell(f, t, r, m[i], pct);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

/* ------------------------------------------------------------------------
 * manifest.txt
 * ------------------------------------------------------------------------ */

/* A line of the manifest: [s, s + n). */
typedef struct hline {
    const char *s;
    size_t n;
} hline;

typedef struct hsect {
    hline title;
    size_t from, to; /* lines (from, to) between its markers */
} hsect;

#define MAX_SECTS 64

typedef struct hman {
    hline *line;
    size_t n;
    hsect sect[MAX_SECTS];
    size_t nsect;
    unsigned char *in_sect; /* per line: inside a section (or its marker) */
} hman;

static int starts(hline l, const char *p)
{
    size_t n = strlen(p);
    return l.n >= n && !memcmp(l.s, p, n);
}

static int ends(hline l, const char *p)
{
    size_t n = strlen(p);
    return l.n >= n && !memcmp(l.s + l.n - n, p, n);
}

static void man_free(hman *m)
{
    herd_free(m->line);
    herd_free(m->in_sect);
    memset(m, 0, sizeof *m);
}

/* Splits the manifest into lines and finds its "--- TITLE ---" ...
 * "--- end of ... ---" sections.  0, or -1 (memory). */
static int man_parse(hman *m, const hbuf *b)
{
    memset(m, 0, sizeof *m);
    size_t cap = 0;
    for (const char *p = b->p, *end = b->p + b->n; p < end;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
        if (m->n == cap) {
            size_t nc = cap ? 2 * cap : 256;
            hline *l = herd_realloc_array(m->line, nc, sizeof *l);
            if (!l)
                return -1;
            m->line = l;
            cap = nc;
        }
        m->line[m->n].s = p;
        m->line[m->n].n = len && p[len - 1] == '\r' ? len - 1 : len;
        m->n++;
        p += len + 1;
    }
    m->in_sect = herd_calloc(m->n + 1, 1);
    if (!m->in_sect)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (!starts(l, "--- ") || !ends(l, " ---") || l.n < 8 || starts(l, "--- end of") || m->nsect == MAX_SECTS)
            continue;
        size_t j = i + 1;
        while (j < m->n && !(starts(m->line[j], "--- end of") && ends(m->line[j], " ---")))
            j++;
        hsect *s = &m->sect[m->nsect++];
        s->title.s = l.s + 4;
        s->title.n = l.n - 8;
        s->from = i;
        s->to = j;
        for (size_t k = i; k <= j && k < m->n; k++)
            m->in_sect[k] = 1;
        i = j;
    }
    return 0;
}

/* "key: value" with a short key of lower-case words: the key's length, or
 * 0. */
static size_t kv_key(hline l)
{
    size_t k = 0;
    while (k < l.n && k < 40 && (islower((unsigned char)l.s[k]) || isdigit((unsigned char)l.s[k]) || l.s[k] == ' ' ||
                                 l.s[k] == '_' || l.s[k] == '-'))
        k++;
    return k > 0 && k + 1 < l.n && l.s[k] == ':' && l.s[k + 1] == ' ' && islower((unsigned char)l.s[0]) ? k : 0;
}

static int undefined_line(hline l)
{
    return starts(l, "n/a: ") || starts(l, "undefined metrics");
}

/* The value of "  KEY = VALUE  # origin" in the resolved model, or of
 * "override: --set KEY=VALUE", the last one given, into out; 1 if found. */
static int man_value(const hman *m, const char *key, char *out, size_t n)
{
    int found = 0;
    size_t kl = strlen(key);
    for (size_t s = 0; s < m->nsect && !found; s++) {
        if (!starts(m->sect[s].title, "resolved model"))
            continue;
        for (size_t i = m->sect[s].from + 1; i < m->sect[s].to && !found; i++) {
            hline l = m->line[i];
            size_t b = 0;
            while (b < l.n && l.s[b] == ' ')
                b++;
            if (l.n < b + kl + 3 || memcmp(l.s + b, key, kl) || memcmp(l.s + b + kl, " = ", 3))
                continue;
            const char *v = l.s + b + kl + 3, *e = l.s + l.n;
            for (const char *h = v; h + 2 < e; h++)
                if (!memcmp(h, " # ", 3))
                    e = h;
            while (e > v && e[-1] == ' ')
                e--;
            snprintf(out, n, "%.*s", (int)(e - v), v);
            found = 1;
        }
    }
    char pre[128];
    snprintf(pre, sizeof pre, "override: --set %s=", key);
    for (size_t i = 0; i < m->n && !found; i++)
        if (!m->in_sect[i] && starts(m->line[i], pre)) {
            snprintf(out, n, "%.*s", (int)(m->line[i].n - strlen(pre)), m->line[i].s + strlen(pre));
            found = 2;
        }
    return found != 0;
}

/* The value of [run] KEY in the scenario file copied into the manifest
 * (its inline comment dropped), into out; 1 if found. */
static int ini_run_value(const hman *m, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (size_t s = 0; s < m->nsect; s++) {
        if (!starts(m->sect[s].title, "scenario file"))
            continue;
        int in_run = 0;
        for (size_t i = m->sect[s].from + 1; i < m->sect[s].to; i++) {
            char l[1024];
            text_collapse_blanks(m->line[i].s, m->line[i].n, l, sizeof l);
            if (l[0] == '[') {
                in_run = !strncmp(l, "[run]", 5) || !strncmp(l, "[ run ]", 7);
                continue;
            }
            if (!in_run || strncmp(l, key, kl))
                continue;
            const char *p = l + kl + (l[kl] == ' ');
            if (*p != '=')
                continue;
            p += 1 + (p[1] == ' ');
            size_t len = strcspn(p, ";#");
            while (len > 0 && p[len - 1] == ' ')
                len--;
            snprintf(out, n, "%.*s", (int)len, p);
            return 1;
        }
    }
    return 0;
}

/* The scenario's name: run.name of the resolved model or the scenario
 * file, else the base name of "scenario: PATH" without .ini, else
 * "results". */
static void man_name(const hman *m, char *out, size_t n)
{
    if ((man_value(m, "run.name", out, n) || ini_run_value(m, "name", out, n)) && *out)
        return;
    snprintf(out, n, "results");
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (m->in_sect[i] || !starts(l, "scenario: "))
            continue;
        const char *b = l.s + 10, *e = l.s + l.n;
        for (const char *p = b; p < e; p++)
            if (*p == '/')
                b = p + 1;
        if (e - b > 4 && !memcmp(e - 4, ".ini", 4))
            e -= 4;
        if (e > b)
            snprintf(out, n, "%.*s", (int)(e - b), b);
        return;
    }
}

/* The manifest's lines outside its sections: "key: value" as a table,
 * anything else as text (the undefined metrics aside). */
static void write_run(FILE *f, const hman *m)
{
    fputs("<table class=\"kv\">\n", f);
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (m->in_sect[i] || undefined_line(l) || !l.n)
            continue;
        size_t k = kv_key(l);
        if (i == 0 && starts(l, "herd ")) {
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
        if (m->in_sect[i] || !undefined_line(l))
            continue;
        if (!any)
            fputs("<section id=\"undefined\"><h2>Undefined metrics</h2>\n<ul class=\"na\">\n", f);
        any = 1;
        fputs("<li>", f);
        if (starts(l, "n/a: ")) {
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
            fputs(starts(l, "==") ? "<tr class=\"point\"><th colspan=\"3\">" : "<tr class=\"sect\"><th colspan=\"3\">", f);
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
 * Figures
 * ------------------------------------------------------------------------ */

/* The order figures appear in: over time first, then the comparisons. */
static int fig_rank(const char *name)
{
    static const char *const order[] = {"timeseries", "goodput", "compare", "variants", "sensitivity", "replay"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (!strcmp(name, order[i]))
            return (int)i;
    return 100;
}

static int fig_cmp(const void *a, const void *b)
{
    const hfig *x = a, *y = b;
    int d = fig_rank(x->name) - fig_rank(y->name);
    return d ? d : strcmp(x->name, y->name);
}

/* Whether an SVG of gnuplot's holds something a page must not run or
 * fetch: a script, an event handler, an embedded document or image, a
 * reference to anything but itself. */
static int svg_unsafe(const char *s)
{
    static const char *const bad[] = {"<script", "<foreignObject", "<iframe", "<image", "javascript:", "@import",
                                      "href=\"h", "href='h", "href=\"/", "href='/", "url(h", "url(/", "url('", "url(\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (strcasestr(s, bad[i]))
            return 1;
    for (const char *p = s; (p = strpbrk(p, " \t\n")) != NULL; p++) /* on...= attributes */
        if ((p[1] == 'o' || p[1] == 'O') && (p[2] == 'n' || p[2] == 'N')) {
            const char *q = p + 3;
            while (isalpha((unsigned char)*q))
                q++;
            while (*q == ' ')
                q++;
            if (q > p + 3 && *q == '=')
                return 1;
        }
    return 0;
}

/* Writes the SVG of figure k inline: from its <svg element on, without
 * the namespace declarations, every id and reference to one prefixed with
 * "fK-". */
static void write_svg(FILE *f, const char *svg, int k)
{
    static const char *const drop[] = {" xmlns=\"http://www.w3.org/2000/svg\"",
                                       " xmlns:xlink=\"http://www.w3.org/1999/xlink\""};
    static const char *const ref[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    const char *p = strstr(svg, "<svg");
    if (!p)
        return;
    while (*p) {
        size_t skip = 0;
        for (size_t i = 0; i < 2 && !skip; i++)
            if (!strncmp(p, drop[i], strlen(drop[i])))
                skip = strlen(drop[i]);
        if (skip) {
            p += skip;
            continue;
        }
        size_t pre = 0;
        for (size_t i = 0; i < sizeof ref / sizeof ref[0] && !pre; i++)
            if (!strncmp(p, ref[i], strlen(ref[i])) && (p == svg || !isalnum((unsigned char)p[-1]) || p[-1] == ':'))
                pre = strlen(ref[i]);
        if (pre) {
            fwrite(p, 1, pre, f);
            fprintf(f, "f%d-", k);
            p += pre;
            continue;
        }
        fputc(*p++, f);
    }
}

static void figs_free(hfig *fig, int n)
{
    for (int i = 0; i < n; i++)
        herd_free(fig[i].svg.p);
}

/* Removes the private directory wd and the files in it. */
static void remove_dir(const char *wd)
{
    DIR *dp = opendir(wd);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL)
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(dirfd(dp), de->d_name, 0);
        closedir(dp);
    }
    rmdir(wd);
}

/* Draws the figures of dir as SVG into a private directory and reads them
 * into fig[MAX_FIGS] (*n of them); the directory is removed.  0,
 * HTML_INVALID (a malformed CSV) or -1, with err. */
static int draw_figures(const char *dir, hfig *fig, int *n, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    char wd[PATH_MAX];
    *n = 0;
    if (snprintf(wd, sizeof wd, "%s/herd-report.XXXXXX", tmp && *tmp ? tmp : "/tmp") >= (int)sizeof wd) {
        snprintf(err, errlen, "TMPDIR: path too long");
        return -1;
    }
    if (!mkdtemp(wd)) {
        char shown[SHOWN + 8];
        shown_path(shown, sizeof shown, wd);
        snprintf(err, errlen, "%s: cannot create a temporary directory for the figures: %s", shown, strerror(errno));
        return -1;
    }
    plot_opts o;
    plot_opts_init(&o);
    o.term = PLOT_TERM_SVG;
    o.quiet = 1;
    o.figdir = wd;
    char perr[PLOT_ERR_MAX];
    int rc = plot_render_opts(dir, &o, perr, sizeof perr);
    if (rc != 0) {
        snprintf(err, errlen, "%s", perr);
        rc = rc == PLOT_INVALID ? HTML_INVALID : -1;
        goto done;
    }
    DIR *dp = opendir(wd);
    if (!dp) {
        snprintf(err, errlen, "the figures' temporary directory: %s", strerror(errno));
        rc = -1;
        goto done;
    }
    struct dirent *de;
    while ((de = readdir(dp)) != NULL && rc == 0) {
        size_t l = strlen(de->d_name);
        if (l <= 4 || strcmp(de->d_name + l - 4, ".svg") || l - 4 >= sizeof fig[0].name || de->d_name[0] == '.')
            continue;
        if (*n == MAX_FIGS)
            break;
        hfig *g = &fig[*n];
        snprintf(g->name, sizeof g->name, "%.*s", (int)(l - 4), de->d_name);
        if (read_file(wd, de->d_name, &g->svg, err, errlen) != 1) {
            rc = -1;
            break;
        }
        (*n)++;
        if (svg_unsafe(g->svg.p)) {
            snprintf(err, errlen, "figure %s: its SVG holds a script or an outside reference; nothing written",
                     g->name);
            rc = -1;
        }
    }
    closedir(dp);
    qsort(fig, (size_t)*n, sizeof *fig, fig_cmp);
done:
    remove_dir(wd);
    if (rc != 0) {
        figs_free(fig, *n);
        *n = 0;
    }
    return rc;
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
    ".scroll{overflow-x:auto}figure{margin:1em 0}figure svg{width:100%;height:auto;border:1px solid #eee}"
    "figcaption{color:#555;font-size:.9em}pre{background:#f7f7f7;padding:.8em;overflow-x:auto;font-size:.85em}"
    "code{font-size:.95em}ul.na li{margin:.2em 0}.note{color:#555}";

/* The headline metrics: [run] columns (resolved model, --set, the
 * scenario file, the default), those aggregate.csv has. */
static size_t headline(const hman *man, const hmetric *m, size_t nm, const hmetric **out, size_t max)
{
    char list[1024];
    if (!man_value(man, "run.columns", list, sizeof list) && !ini_run_value(man, "columns", list, sizeof list)) {
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
        const hmetric *h = metric_named(m, nm, name);
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
        const hmetric *h = metric_named(m, nm, names[i]);
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
    size_t nm = metrics_of(t, m, 128);
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
                      const ctab *vcmp, const hfig *fig, int nfig)
{
    char name[256];
    man_name(man, name, sizeof name);
    hmetric m[256];
    size_t nm = metrics_of(agg, m, 256);
    const hmetric *head[64], *rec[64], *all[256];
    size_t nh = headline(man, m, nm, head, 64), nr = recovery_metrics(m, nm, rec, 64);
    for (size_t i = 0; i < nm; i++)
        all[i] = &m[i];

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>herd report: ",
          f);
    html_str(f, name);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>herd report: ", page_style);
    html_str(f, name);
    fputs("</h1>\n<p class=\"note\">The results directory <code>", f);
    html_str(f, dir);
    fputs("</code>, as <code>herd report</code> read it: one page, no request leaves it.</p>\n<nav>"
          "<a href=\"#run\">run</a><a href=\"#headline\">headline</a><a href=\"#recovery\">recovery and window</a>"
          "<a href=\"#figures\">figures</a><a href=\"#comparisons\">comparisons</a><a href=\"#manifest\">model and "
          "scenario</a><a href=\"#all\">every metric</a></nav>\n",
          f);

    fputs("<section id=\"run\"><h2>The run</h2>\n", f);
    write_run(f, man);
    fputs("</section>\n", f);

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
        if (man->in_sect[i] || undefined_line(l) || !memmem(l.s, l.n, "window", 6))
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
        write_svg(f, fig[i].svg.p, i);
        fputs("\n<figcaption>", f);
        html_str(f, fig[i].name);
        fputs(" (herd plot)</figcaption></figure>\n", f);
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

    fputs("<section id=\"manifest\"><h2>Model and scenario</h2>\n", f);
    for (size_t s = 0; s < man->nsect; s++) {
        const hsect *sc = &man->sect[s];
        fputs("<h3>", f);
        html_text(f, sc->title.s, sc->title.n);
        fputs("</h3>\n", f);
        if (starts(sc->title, "resolved model"))
            write_resolved(f, man, sc);
        else
            write_pre(f, man, sc);
    }
    if (!man->nsect)
        fputs("<p class=\"note\">manifest.txt has no sections.</p>\n", f);
    fputs("</section>\n", f);

    fputs("<section id=\"all\"><h2>Every metric</h2>\n<details><summary>aggregate.csv, every column</summary>\n", f);
    write_table(f, agg, all, nm, 0);
    fputs("</details></section>\n<p class=\"note\">Written by herd report from manifest.txt, aggregate.csv",
          f);
    if (cmp->b.p)
        fputs(", compare.csv", f);
    if (vcmp->b.p)
        fputs(", compare_variants.csv", f);
    fputs(" and the figures of herd plot.</p>\n</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}

int html_report(const char *dir, const char *out, char *err, size_t errlen)
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
    shown_path(shown, sizeof shown, dir);

    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory; expected a results directory of herd run (its -o DIR)", shown);
        return HTML_INVALID;
    }
    int r = read_file(dir, "manifest.txt", &mb, err, errlen);
    if (r < 0)
        return HTML_INVALID;
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
        shown_path(shown, sizeof shown, out);
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

    fig = herd_calloc(MAX_FIGS, sizeof *fig);
    if (!fig) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* validates every CSV of dir (a malformed one: HTML_INVALID) */
    if ((rc = draw_figures(dir, fig, &nfig, err, errlen)) != 0)
        goto done;
    rc = -1;
    if (man_parse(&man, &mb) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if ((r = ctab_load(&agg, dir, "aggregate.csv", err, errlen)) != 1 ||
        (r = ctab_load(&cmp, dir, "compare.csv", err, errlen)) < 0 ||
        (r = ctab_load(&vcmp, dir, "compare_variants.csv", err, errlen)) < 0) {
        rc = r == HTML_INVALID ? HTML_INVALID : -1;
        goto done;
    }
    if (csv_open(&o, odir, oname, err, errlen) != 0)
        goto done;
    if (write_page(o.f, dir, &man, &agg, &cmp, &vcmp, fig, nfig) != 0) {
        shown_path(shown, sizeof shown, out);
        snprintf(err, errlen, "%s: write error", shown);
        goto done;
    }
    if (csv_finish(&o, err, errlen) != 0 || csv_publish(&o, err, errlen) != 0)
        goto done;
    rc = 0;
done:
    csv_abort(&o);
    figs_free(fig, nfig);
    herd_free(fig);
    man_free(&man);
    ctab_free(&agg);
    ctab_free(&cmp);
    ctab_free(&vcmp);
    herd_free(mb.p);
    return rc;
}
