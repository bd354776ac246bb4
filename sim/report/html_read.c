/*
 * html_read.c - herd report's reading of a results directory
 * (html_internal.h): files read whole with a size bound, CSV tables split
 * in place, manifest.txt split into lines and sections.  Nothing here
 * writes; what is read is escaped by html.c when it is shown.
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
#include "../base/fileio.h"
#include "../base/text.h"
#include "html_internal.h"

int html_read_file(const char *dir, const char *name, hbuf *b, char *err, size_t errlen)
{
    char path[PATH_MAX], shown[SHOWN + 8];
    memset(b, 0, sizeof *b);
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", name);
        return -1;
    }
    html_shown_path(shown, sizeof shown, path);
    /* the one checked open: a regular file in the folder (a FIFO never
     * hangs herd, a symbolic link is not followed out of it), bounded */
    int e = 0;
    herd_file_status s = herd_file_read(path, FILE_MAX, HERD_FILE_NOFOLLOW, &b->p, &b->n, &e);
    if (s == HERD_FILE_MISSING && e == ENOENT)
        return 0;
    if (s != HERD_FILE_OK) {
        char why[160];
        snprintf(err, errlen, "%s: %s; expected a file herd run wrote (a regular file of at most %lld bytes)", shown,
                 herd_file_why(s, FILE_MAX, e, why, sizeof why), FILE_MAX);
        memset(b, 0, sizeof *b);
        return s == HERD_FILE_ERROR && e != EACCES && e != EPERM ? -1 : HTML_INVALID;
    }
    b->p[b->n] = '\0';
    return 1;
}

/* A number as the tables show it: n/a for nan or an empty or n/a cell;
 * %.0f from 1000 to 1e9, else `digits` significant digits. */
/* ------------------------------------------------------------------------
 * CSV files
 * ------------------------------------------------------------------------ */

void html_ctab_free(ctab *t)
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
int html_ctab_load(ctab *t, const char *dir, const char *name, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int rc = html_read_file(dir, name, &t->b, err, errlen);
    if (rc <= 0)
        return rc;
    if ((rc = ctab_parse(t, name, err, errlen)) != 0) {
        html_ctab_free(t);
        return rc;
    }
    return 1;
}

const char *html_cell(const ctab *t, size_t row, long col)
{
    return col < 0 ? "" : t->cell[(row + 1) * t->ncols + (size_t)col];
}

long html_col_of(const ctab *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->cell[c], name))
            return (long)c;
    return -1;
}

/* The metrics of t (columns NAME_mean after the keys), in file order, into
 * m[max]; their number. */
size_t html_metrics_of(const ctab *t, hmetric *m, size_t max)
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
        m[k].ci = html_col_of(t, want);
        snprintf(want, sizeof want, "%s_lo", m[k].name);
        m[k].lo = html_col_of(t, want);
        snprintf(want, sizeof want, "%s_hi", m[k].name);
        m[k].hi = html_col_of(t, want);
        snprintf(want, sizeof want, "%s_n", m[k].name);
        m[k].n = html_col_of(t, want);
        m[k].mean = (long)c;
        k++;
    }
    return k;
}

const hmetric *html_metric_named(const hmetric *m, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].name, name))
            return &m[i];
    return NULL;
}

/* One cell: "mean ± ci", a proportion's Wilson interval "[lo–hi]", a
 * partly defined metric's runs "(n = k)"; n/a alone when undefined. */
int html_starts(hline l, const char *p)
{
    size_t n = strlen(p);
    return l.n >= n && !memcmp(l.s, p, n);
}

int html_ends(hline l, const char *p)
{
    size_t n = strlen(p);
    return l.n >= n && !memcmp(l.s + l.n - n, p, n);
}

void html_man_free(hman *m)
{
    herd_free(m->line);
    herd_free(m->in_sect);
    memset(m, 0, sizeof *m);
}

/* Splits the manifest into lines and finds its "--- TITLE ---" ...
 * "--- end of ... ---" sections.  0, or -1 (memory). */
int html_man_parse(hman *m, const hbuf *b)
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
        if (!html_starts(l, "--- ") || !html_ends(l, " ---") || l.n < 8 || html_starts(l, "--- end of") || m->nsect == MAX_SECTS)
            continue;
        size_t j = i + 1;
        while (j < m->n && !(html_starts(m->line[j], "--- end of") && html_ends(m->line[j], " ---")))
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
size_t html_kv_key(hline l)
{
    size_t k = 0;
    while (k < l.n && k < 40 && (islower((unsigned char)l.s[k]) || isdigit((unsigned char)l.s[k]) || l.s[k] == ' ' ||
                                 l.s[k] == '_' || l.s[k] == '-'))
        k++;
    return k > 0 && k + 1 < l.n && l.s[k] == ':' && l.s[k + 1] == ' ' && islower((unsigned char)l.s[0]) ? k : 0;
}

int html_undefined_line(hline l)
{
    return html_starts(l, "n/a: ") || html_starts(l, "undefined metrics");
}

/* The value of "  KEY = VALUE  # origin" in the resolved model, or of
 * "override: --set KEY=VALUE", the last one given, into out; 1 if found. */
int html_man_value(const hman *m, const char *key, char *out, size_t n)
{
    int found = 0;
    size_t kl = strlen(key);
    for (size_t s = 0; s < m->nsect && !found; s++) {
        if (!html_starts(m->sect[s].title, "resolved model"))
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
        if (!m->in_sect[i] && html_starts(m->line[i], pre)) {
            snprintf(out, n, "%.*s", (int)(m->line[i].n - strlen(pre)), m->line[i].s + strlen(pre));
            found = 2;
        }
    return found != 0;
}

/* The value of [run] KEY in the scenario file copied into the manifest
 * (its inline comment dropped), into out; 1 if found. */
int html_ini_run_value(const hman *m, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (size_t s = 0; s < m->nsect; s++) {
        if (!html_starts(m->sect[s].title, "scenario file"))
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
void html_man_name(const hman *m, char *out, size_t n)
{
    if ((html_man_value(m, "run.name", out, n) || html_ini_run_value(m, "name", out, n)) && *out)
        return;
    snprintf(out, n, "results");
    for (size_t i = 0; i < m->n; i++) {
        hline l = m->line[i];
        if (m->in_sect[i] || !html_starts(l, "scenario: "))
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
