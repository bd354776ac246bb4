/*
 * plot_internal.h - what the files of herd plot share; private to
 * sim/report/plot*.c (the interface is plot.h).
 *
 * herd plot runs in three stages, a file each (gnuplot only runs in the
 * last):
 *
 *   plot_load.c  1. load: every CSV of a results directory read once and
 *                   validated, manifest.txt read, the selection (--variant,
 *                   --point, --replication, --metric) checked against the
 *                   rows; what the figures use is kept in a folder.
 *   plot_data.c  2. prepare: each figure's data computed from the folder
 *                   and written into the private work directory.
 *   plot.c       3. draw: the gnuplot scripts run on that directory and
 *                   their figures moved into place; plot.h's entry points.
 */
#ifndef HERD_PLOT_INTERNAL_H
#define HERD_PLOT_INTERNAL_H

#include <stddef.h>

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
} job;

/* The metrics of compare.csv, in its order (plot_load.c). */
#define PLOT_NCOMPARED 9
extern const char *const plot_compared[PLOT_NCOMPARED];

/* plot_load.c */

/* s, at most max bytes of it, escaped for a message into out[outlen]. */
void plot_esc(char *out, size_t outlen, const char *s, size_t max);
/* snprintf into out[PATH_MAX]; -1 with err when the path does not fit. */
int plot_path_fmt(char *out, char *err, size_t errlen, const char *fmt, ...);
/* Appends "a = b" (sep first unless out is empty) to out[n]. */
void plot_append(char *out, size_t n, const char *sep, const char *a, const char *b);
/* A decimal number as herd writes it; a finite one into *v. */
int plot_num_text(const char *s);
int plot_num_of(const char *s, double *v);
/* Whether an overridden "section.key" is an outage's or the spike's. */
int plot_interesting_key(const char *k);
/* Index of a metric in metric_table; in plot_compared; or -1. */
int plot_metric_index(const char *name);
int plot_compared_index(const char *name);
/* The position of metric m among those t keeps, or -1. */
int plot_kept(const ptable *t, int m);
/* "out of memory reading the results"; -1. */
int plot_oom(char *err, size_t errlen);
void plot_folder_free(folder *fo);

/* Stage 1, before the folder knows which metrics to keep: the selection's
 * text (--metric, --replication), manifest.txt and the scenario's name of
 * the results directory d.  0, or PLOT_INVALID with err. */
int plot_load_manifest(folder *fo, const char *d, char *err, size_t errlen);

/* Stage 1, the CSVs of d (dir as the user wrote it, for messages), every
 * one validated, and the selection checked against them.  0,
 * PLOT_INVALID with "FILE:LINE: ..." or the selection's error, or -1. */
int plot_load_csvs(folder *fo, const char *d, const char *dir, char *err, size_t errlen);

/* plot_data.c */

/* Which metrics the figures draw: the folder keeps them as it loads. */
void plot_want_metrics(folder *fo);
/* The metrics of the sweep figures (metric_table indices); their number. */
int plot_sweep_metric_list(const folder *fo, int *out);
/* Stage 2: writes the data of every job into wd.  0, or -1 with err. */
int plot_prepare(const folder *fo, const job *jobs, int njobs, const char *dir, const char *wd, char *err,
                 size_t errlen);

#endif
