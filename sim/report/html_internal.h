/*
 * html_internal.h - what the files of herd report share; private to
 * sim/report/html*.c (the interface is html.h).
 *
 *   html_read.c   the files of a results directory read whole: CSV tables
 *                 split in place, manifest.txt split into lines and its
 *                 "--- TITLE ---" sections
 *   html_figs.c   the figures: herd plot's scripts run into a private
 *                 directory (SVG), read, checked and written inline
 *   html.c        the page: escaping, tables, sections; html.h's entry
 */
#ifndef HERD_HTML_INTERNAL_H
#define HERD_HTML_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "html.h"

#define FILE_MAX (256LL << 20) /* bytes read of one file */
#define HTML_MAX_FIGS 64
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


/* html.c: a path as messages show it (control bytes escaped, at most
 * SHOWN characters). */
void html_shown_path(char *out, size_t n, const char *p);

/* html.c: s[0..n) escaped for HTML text and attribute values (& < > " '
 * as entities; NUL and control bytes but tab and newline left out). */
void html_text(FILE *f, const char *s, size_t n);

/* html_read.c */

/* Reads dir/name whole into *b through the one checked open (fileio.h,
 * links not followed): 1, 0 when it does not exist, HTML_INVALID with err
 * (a directory, a FIFO, a device, a symbolic link, too large, unreadable),
 * -1 with err (an I/O error, out of memory). */
int html_read_file(const char *dir, const char *name, hbuf *b, char *err, size_t errlen);
/* Reads and splits the CSV dir/name: 1, 0 when absent, HTML_INVALID
 * ("NAME:LINE: ...": a row whose length is not the header's, no
 * replications column) or -1, with err. */
int html_ctab_load(ctab *t, const char *dir, const char *name, char *err, size_t errlen);
void html_ctab_free(ctab *t);
/* The field of data row `row`, column col ("" for col < 0). */
const char *html_cell(const ctab *t, size_t row, long col);
/* The index of the column named name, or -1. */
long html_col_of(const ctab *t, const char *name);
/* The metrics of t (columns NAME_mean after the keys) into m[max]; their
 * number. */
size_t html_metrics_of(const ctab *t, hmetric *m, size_t max);
const hmetric *html_metric_named(const hmetric *m, size_t n, const char *name);

/* Whether line l starts or ends with p. */
int html_starts(hline l, const char *p);
int html_ends(hline l, const char *p);
/* Splits the manifest b (kept by the caller) into lines and sections.  0,
 * or -1 (memory). */
int html_man_parse(hman *m, const hbuf *b);
void html_man_free(hman *m);
/* A "key: value" line's key length (a short key of lower-case words), or 0. */
size_t html_kv_key(hline l);
/* Whether l belongs to the list of undefined metrics ("n/a: ..."). */
int html_undefined_line(hline l);
/* KEY's value in the resolved model, else in "override: --set KEY=..."; 1
 * if found. */
int html_man_value(const hman *m, const char *key, char *out, size_t n);
/* [run] KEY of the scenario file copied into the manifest; 1 if found. */
int html_ini_run_value(const hman *m, const char *key, char *out, size_t n);
/* The scenario's name, for the title. */
void html_man_name(const hman *m, char *out, size_t n);

/* html_figs.c */

/* Draws the figures of dir as SVG in a private directory ($TMPDIR or
 * /tmp) and reads them into fig[HTML_MAX_FIGS] (*n, in page order); the
 * directory is removed.  0, HTML_INVALID (a malformed CSV) or -1, with
 * err. */
int html_draw_figures(const char *dir, hfig *fig, int *n, char *err, size_t errlen);
/* Draws dir's time-series figure of one variant (herd plot --figure
 * timeseries --variant V) into *g, named "timeseries-V", through a private
 * directory removed at once.  0, HTML_INVALID (no such variant) or -1,
 * with err. */
int html_draw_series(const char *dir, const char *variant, hfig *g, char *err, size_t errlen);

/* html_md.c: the Markdown text s[0..n) as HTML (a small subset, every
 * byte escaped: see html_md.c). */
void html_markdown(FILE *f, const char *s, size_t n);
void html_figs_free(hfig *fig, int n);
/* Whether an SVG holds something a page must not run or fetch: a script,
 * an event handler (on...=), an embedded document or image, a reference
 * outside itself. */
int html_svg_unsafe(const char *s);
/* Writes figure k's SVG inline: from its <svg element on, without the
 * namespace declarations, every id and #reference prefixed "fK-". */
void html_write_svg(FILE *f, const char *svg, int k);

#endif
