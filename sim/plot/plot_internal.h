/*
 * plot_internal.h - what the files of herd plot share; private to
 * sim/plot/plot*.c (the interface is plot.h).
 *
 * herd plot runs in three stages, a file each (gnuplot only runs in the
 * last):
 *
 *   plot_load.c  1. load: every CSV of a results directory read once and
 *                   validated, manifest.txt read, the selection (--variant,
 *                   --point, --replication, --metric) checked against the
 *                   rows; what the figures use is kept in a folder.  The
 *   plot_csv.c      CSVs are read by plot_csv.c's strict reader, which
 *                   also escapes what messages echo; plot_manifest.c
 *                   reads manifest.txt.
 *   plot_data.c  2. prepare: each figure's data computed from the folder
 *                   and written into the private work directory, from the
 *   plot_figure.c   parts the figures share (labels, colours, layout,
 *                   work files, the metrics drawn).
 *   plot.c       3. draw: the gnuplot scripts run on that directory and
 *                   their figures moved into place; plot.h's entry points.
 */
#ifndef HERD_PLOT_INTERNAL_H
#define HERD_PLOT_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "../scenario/scenario.h"
#include "plot.h"

#define LABEL_MAX (SCN_VALUE_MAX - 1) /* variant names, sweep values, tool names */
#define KEYNAME_MAX 127               /* a swept key: section [NAME].key */
#define MAX_KEYS (SCN_MAX_SWEEPS + 1) /* variant, then the swept keys */
#define SHOWN_MAX 300                 /* characters of a path echoed in a message */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_WANT 64     /* metrics of aggregate.csv kept per row */
#define MAX_OUTAGES 32  /* outage sections read from the manifest */
#define MAX_MSETS 256   /* outage and spike overrides read from the manifest */
#define NAME_MAX_LEN 63 /* a scenario name, as [run] name allows it */

/* The key columns shared by every CSV of a directory: `variant` (with
 * [variant] sections), one per swept key, then `strategy`. */
typedef struct keyset {
    int k;       /* columns before strategy */
    int variant; /* the first of them is `variant` */
    char name[MAX_KEYS][KEYNAME_MAX + 1];
} keyset;

/* A row of aggregate.csv or compare.csv. */
typedef struct prow {
    char *keys;                /* the key fields, NUL-separated, then v (one block, owned) */
    const char *key[MAX_KEYS]; /* into keys */
    int strategy, baseline;    /* baseline: compare.csv, else -1 */
    unsigned long long reps;
    double *v;                 /* mean and ci95 of each kept metric: v[2w], v[2w + 1] */
} prow;

typedef struct ptable {
    int present;
    prow *row;
    size_t n, cap;
    int nw;                /* metrics kept */
    int want[MAX_WANT];    /* aggregate.csv: metric_table index; compare.csv: plot_compared[] index */
    int cmean[MAX_WANT], cci[MAX_WANT], cbase, creps; /* column indices, -1: none */
} ptable;

/* The replications seen in a file (below REP_MAX). */
typedef struct repset {
    unsigned char *seen;
    size_t n; /* seen[0 .. n - 1] */
    int any;
} repset;

/* A row of timeseries.csv at the selected point and replication. */
typedef struct tsrow {
    int variant; /* index into tstable.variant, -1 without variants */
    int strategy;
    double t, arrivals, refused, offered, goodput;
} tsrow;

typedef struct tstable {
    int present;
    long rows; /* data rows read */
    tsrow *r;
    size_t n, cap;
    char (*variant)[LABEL_MAX + 1];
    size_t nvariant, capvariant;
    repset reps;
} tstable;

/* What manifest.txt says, as far as the figures use it: the scenario's
 * name, its [run] columns, its outages and load spike, and the overrides
 * of those (--set, [variant] lines).  Only names of a restricted character
 * set, metric indices and numbers are kept. */
typedef struct moutage {
    char sect[KEYNAME_MAX + 1]; /* "outage NAME" */
    double start, end;
    int hs, he;
} moutage;

typedef struct mset {
    char variant[LABEL_MAX + 1]; /* "" for a --set override */
    char key[KEYNAME_MAX + 1];   /* "outage NAME.start_s", "clients.spike_end_s", ... */
    double v;
} mset;

typedef struct manifest {
    int present;
    char name[NAME_MAX_LEN + 1];
    int columns[MAX_WANT], ncolumns;
    moutage out[MAX_OUTAGES];
    int nout;
    mset set[MAX_MSETS];
    int nset;
    double spike_start, spike_end, spike_rate;
} manifest;

/* The selection of plot_opts, checked against the data. */
typedef struct selection {
    char vname[LABEL_MAX + 1];            /* the variant (default: the first) */
    int vgiven;                           /* --variant */
    char pval[MAX_KEYS][LABEL_MAX + 1];   /* per swept key column: its value */
    unsigned long long rep;
    int metric[PLOT_MAX_SELECT], nmetric; /* metric_table indices (--metric) */
} selection;

/* input.csv: the input data of a run (the service time's CDF, the trace's
 * arrival rate), as series of (x, y) points. */
enum { IN_CDF, IN_RATE, IN_COUNT };
typedef struct inputs {
    int present;
    double *x[IN_COUNT], *y[IN_COUNT];
    size_t n[IN_COUNT], cap[IN_COUNT];
} inputs;

/* What the figures use of a results directory: filled and checked by
 * plot_load.c, read by plot_data.c (stage 2) and plot.c. */
typedef struct folder {
    inputs in;
    keyset ks;
    int have_ks;
    ptable agg, cmp;
    tstable ts;
    repset sumreps;
    manifest man;
    selection sel;
    const plot_opts *o;
    char name[NAME_MAX_LEN + 1]; /* the scenario, for titles */
} folder;

/* A gnuplot run and the figures it writes (base names). */
#define MAX_FIGS (PLOT_MAX_SELECT + 8)
typedef struct job {
    const char *script;
    const char *a1, *a2;
    char fig[MAX_FIGS][96];
    int nfig;
    int gif; /* writes fig[0].gif, whatever the terminal */
    char skip[MAX_FIGS]; /* plot_prepare: no defined value to draw, not drawn (a note said why) */
    int nskip;
} job;

/* The metrics of compare.csv, in its order (plot_csv.c). */
#define PLOT_NCOMPARED 9
extern const char *const plot_compared[PLOT_NCOMPARED];

/* plot_csv.c */

#define CSV_MAX_BYTES (1LL << 30) /* 1 GiB per file */
/* Bounded work: the most steps one timeseries panel draws (more buckets
 * are merged into wider ones); an animation draws every frame anew. */
#define PLOT_TS_MAX_POINTS 20000
#define PLOT_GIF_MAX_POINTS 1000 /* per strategy, and */
#define PLOT_GIF_MAX_ALL 2000    /* in all, per frame: the animation's work bounded whatever the strategies */
#define MAX_COLS 1024             /* fields of a line */
#define VALUE_SHOWN 40            /* characters of a bad value echoed */

/* s, at most max bytes of it, escaped for a message into out[outlen]. */
void plot_esc(char *out, size_t outlen, const char *s, size_t max);
/* snprintf into out[PATH_MAX]; -1 with err when the path does not fit. */
int plot_path_fmt(char *out, char *err, size_t errlen, const char *fmt, ...);

/* A CSV being read, a line at a time; the fields of the line. */
typedef struct csv_rd {
    FILE *f;
    char shown[SHOWN_MAX + 8]; /* the path, escaped */
    long line;
    long long bytes;
    char *lbuf;                /* the line, NUL-terminated */
    char *fbuf;                /* its fields, each NUL-terminated */
    const char *field[MAX_COLS];
    int nf;
    char *err;
    size_t errlen;
} csv_rd;

/* Opens dir/name for reading into r (its line buffers allocated).  1 when
 * open (close with plot_csv_close), 0 when the file does not exist,
 * PLOT_INVALID or -1 (nothing left open). */
int plot_csv_open(csv_rd *r, const char *dir, const char *name, char *err, size_t errlen);
/* Reads and splits the next line.  1, 0 at the end of the file,
 * PLOT_INVALID, or -1 on a read error. */
int plot_csv_line(csv_rd *r);
/* "FILE:LINE: message" into r's err; returns PLOT_INVALID. */
int plot_csv_fail(csv_rd *r, const char *fmt, ...);
void plot_csv_close(csv_rd *r);

/* The files of a results directory that plot_csv_header and plot_csv_row
 * check, and the types of their columns. */
enum { K_SUMMARY, K_AGGREGATE, K_TIMESERIES, K_COMPARE, K_TOOLS, NKINDS };
extern const char *const plot_csv_file[NKINDS];

/* T_COUNT: a metric that is a count: an unsigned integer, or n/a (undefined in the run). */
typedef enum ftype { T_VARIANT, T_KEYVAL, T_STRATEGY, T_U64, T_DBL, T_TOOL, T_COUNT } ftype;

typedef struct colspec {
    char name[96];
    ftype t;
} colspec;

/* The columns after `strategy` of a file of this kind into c[max]; their
 * number. */
int plot_csv_columns(int kind, colspec *c, int max);
/* Reads the header of a file of this kind and checks it: the key columns
 * (the same as *ks when have_ks, else they set *ks), then exactly the
 * columns of tail.  0, PLOT_INVALID, or -1. */
int plot_csv_header(csv_rd *r, int kind, keyset *ks, int have_ks, const colspec *tail, int ntail);
/* Checks a data row against the header; *strategy is its strategy. */
int plot_csv_row(csv_rd *r, const keyset *ks, const colspec *tail, int ntail, int *strategy);

/* A field's format: a variant name; a number as herd writes it (at most
 * PLOT_VALUE_MAX in magnitude), or nan or n/a (undefined: plot_dbl_of
 * gives NAN), inf, -inf; an unsigned 64-bit integer. */
int plot_valid_variant(const char *s);
/* The largest magnitude a value may have: gnuplot computes ranges and
 * margins from the values (hi - lo, 1.1 * hi), which overflow to inf near
 * DBL_MAX; nothing herd writes comes close. */
#define PLOT_VALUE_MAX 1e100
int plot_valid_dbl(const char *s);
int plot_valid_u64(const char *s);
/* A decimal number as herd writes it: [-+]digits[.digits][e[-+]digits]. */
int plot_num_text(const char *s);
/* The value of a field that plot_valid_dbl accepts. */
double plot_dbl_of(const char *s);

/* plot_load.c */

/* Appends "a = b" (sep first unless out is empty) to out[n]. */
void plot_append(char *out, size_t n, const char *sep, const char *a, const char *b);
/* A finite number, the whole of s, into *v. */
int plot_num_of(const char *s, double *v);
/* Whether an overridden "section.key" is an outage's or the spike's
 * (plot_manifest.c, as plot_num_of). */
int plot_interesting_key(const char *k);
/* Index of a metric in metric_table; in plot_compared; or -1. */
int plot_metric_index(const char *name);
int plot_compared_index(const char *name);
/* The position of metric m among those t keeps, or -1. */
int plot_kept(const ptable *t, int m);
/* "out of memory reading the results"; -1. */
int plot_oom(char *err, size_t errlen);
void plot_folder_free(folder *fo);

/* plot_manifest.c */

/* Reads dir/manifest.txt into *m when it is a regular file (else leaves
 * *m empty but for the name): what is not understood is ignored. */
void plot_read_manifest(const char *dir, manifest *m);
/* The name of the results directory d into out[n] when it is a valid
 * scenario name, else "". */
void plot_dir_name(const char *d, char *out, size_t n);

/* plot_load.c: stage 1, before the folder knows which metrics to keep: the selection's
 * text (--metric, --replication), manifest.txt and the scenario's name of
 * the results directory d.  0, or PLOT_INVALID with err. */
int plot_load_manifest(folder *fo, const char *d, char *err, size_t errlen);

/* Stage 1, the CSVs of d (dir as the user wrote it, for messages), every
 * one validated, and the selection checked against them.  0,
 * PLOT_INVALID with "FILE:LINE: ..." or the selection's error, or -1. */
int plot_load_csvs(folder *fo, const char *d, const char *dir, char *err, size_t errlen);

/* plot_figure.c */

/* Which metrics the figures draw: the folder keeps them as it loads. */
void plot_want_metrics(folder *fo);
/* The metrics of the sweep figures (metric_table indices); their number. */
int plot_sweep_metric_list(const folder *fo, int *out);
/* The metrics of the variants figure (metric_table indices); their number. */
int plot_variant_metric_list(const folder *fo, int *out);

/* An ordered set of labels (at most LABEL_MAX bytes each). */
typedef struct slist {
    char (*v)[LABEL_MAX + 1];
    size_t n, cap;
} slist;

/* A file of the work directory being written. */
typedef struct wfile {
    FILE *f;
    char path[PATH_MAX];
} wfile;

/* The canvas and the panel grid of a figure. */
typedef struct layout {
    int W, H, rows, cols;
} layout;

/* A window shaded in a figure over time. */
typedef struct window {
    double a, b;
    const char *label;
} window;

/* Labels: the index of s in l (-1: none); s added if new (-1 when out of
 * memory); l emptied; the order of l's values, numeric if every one is a
 * number (then 1), else file order. */
long plot_slist_find(const slist *l, const char *s);
long plot_slist_add(slist *l, const char *s);
void plot_slist_free(slist *l);
int plot_slist_order(const slist *l, size_t *ord);

/* wd/NAME.EXT opened for writing; closed (a write error reported).  0, or
 * -1 with err. */
int plot_w_open(wfile *w, const char *wd, const char *name, const char *ext, char *err, size_t errlen);
int plot_w_close(wfile *w, char *err, size_t errlen);
/* A number as gnuplot reads it; a key<TAB>value line (none for an empty
 * value). */
void plot_put_num(FILE *f, double v);
void plot_info_s(FILE *f, const char *k, const char *v);
void plot_info_n(FILE *f, const char *k, double v);
/* "DIR/FILE: what" into err; -1. */
int plot_data_fail(char *err, size_t errlen, const char *dir, const char *file, const char *what);

/* A strategy's name; its colour; colour i of the palette. */
const char *plot_sname(int s);
const char *plot_scolor(int s);
const char *plot_palette(size_t i);
/* A metric in words, with its unit and without; a swept key in words; a
 * value as written on a bar. */
void plot_human_metric(char *out, size_t n, const char *m);
void plot_human_metric_bare(char *out, size_t n, const char *m);
void plot_human_key(char *out, size_t n, const char *k);
void plot_value_text(char *out, size_t n, double v);
/* The scenario's name for titles. */
const char *plot_title_name(const folder *fo);

/* The canvas and panel grid of a figure of n panels (wide: over time);
 * written as W, H, rows and cols. */
layout plot_lay(const folder *fo, int n, int wide, int paper_w, int paper_h, int paper_extra);
void plot_lay_write(FILE *f, layout L);
/* wd/style.tsv: the terminal and the sizes of text and lines. */
int plot_write_style(const folder *fo, const char *wd, char *err, size_t errlen);

/* Whether row p is at the selected point (key columns from `from` on);
 * of the selected variant; the selected point as text. */
int plot_at_point(const folder *fo, const prow *p, int from);
int plot_of_variant(const folder *fo, const prow *p);
void plot_point_text(const folder *fo, char *out, size_t n, int from);
/* The windows to shade over [0, tmax] for a variant, in time order, into
 * w[max]; their number.  Written as "win" lines of a panel. */
int plot_windows(const folder *fo, const char *variant, double tmax, window *w, int max);
void plot_write_windows(FILE *f, const window *w, int n, int panel);

/* The text size of --term dumb: o's, raised to 80 x 24 and bounded by
 * 1000 x 1000. */
void plot_dumb_size(const plot_opts *o, int *cols, int *lines);

/* plot_data.c */

/* Stage 2: writes the data of every job into wd.  A figure with no
 * defined value to draw (every one n/a, e.g. a change against a baseline
 * of 0) is marked skipped in its job, with a note on stderr when
 * announce; it is not an error.  0, or -1 with err. */
#define PLOT_NODATA 1 /* a prep_* return: nothing defined to draw, err says what */
/* The figures over time (plot_time.c): each writes its NAME.csv/.tsv
 * into wd; 0, or -1 with err. */
int plot_prep_timeseries(const folder *fo, const char *dir, const char *wd, const char *name, int gif, char *err,
                         size_t errlen);
int plot_prep_goodput(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen);
int plot_prep_replay(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen);

/* The number of strategies among t's rows. */
int plot_count_strategies(const ptable *t);

int plot_prepare(const folder *fo, job *jobs, int njobs, const char *dir, const char *wd, int announce, char *err,
                 size_t errlen);

#endif
