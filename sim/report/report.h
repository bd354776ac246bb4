/*
 * report.h - results into files and tables: summary.csv, aggregate.csv,
 * timeseries.csv, compare.csv, compare_variants.csv, tools.csv,
 * manifest.txt and the comparison table `herd run` prints.
 *
 * The report reads plain data only: a table of groups (the replications
 * of one variant, sweep point and strategy) with their labels and the
 * model's results (model/results.h).  It knows nothing of scenarios, plans
 * or threads, so the files never depend on which thread ran which job.
 *
 * Every file is written to a temporary, all are finished (flushed, synced,
 * closed) before any is renamed into place, and the output directory is
 * created only then: a failed run publishes nothing.
 */
#ifndef HERD_REPORT_H
#define HERD_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/results.h"
#include "../policy/herdpolicy.h"

#define REP_MAX_KEYS 4

typedef struct rep_group {
    const char *variant;                /* NULL without variants */
    const char *values[REP_MAX_KEYS];   /* the sweep labels of its point */
    hp_strategy strategy;
    uint32_t nreps;
    const model_results *runs;          /* nreps results, replication order */
    const uint64_t *seeds;              /* nreps seeds */
    double bucket_s;                    /* its timeseries bucket width */
    long baseline;                      /* the group it is compared with, -1: none */
    long vbaseline;                     /* the baseline variant's group at the same point and
                                         * strategy (compare_variants.csv), -1: none */
    uint32_t ntools;
    const char *tools[SPEC_MAX_TOOLS];  /* tool names ([tool] sections) */
} rep_group;

typedef struct rep_table {
    const char *scenario;               /* name, for the printed header */
    bool variants;                      /* a `variant` column */
    uint32_t nkeys;
    const char *keys[REP_MAX_KEYS];     /* swept keys, one column each */
    const rep_group *groups;
    size_t ngroups;
    /* the printed table's header and columns */
    uint32_t clients, requests_per_client, replications, nvariants;
    uint64_t seed;
    size_t points_per_variant;
    const char *columns;                /* comma-separated metric names */
    const char *input;                  /* input.csv (the input data to lay the results over), or NULL */
    int width;                          /* the printed table's width in columns (0: no limit) */
} rep_table;

/* Writes every file of t, and `manifest` (text, may be NULL) as
 * manifest.txt, into outdir (created with its parents).  Returns 0, or -1
 * with err; on error nothing new is published. */
int rep_write(const rep_table *t, const char *outdir, const char *manifest, char *err, size_t errlen);

/* Prints the comparison table (mean +/- 95% CI of t->columns per group)
 * and the files written: each column as wide as its widest cell; with
 * t->width, the metric columns in blocks (each after the label columns)
 * and the header and file list broken at blanks, so that no line is
 * wider (unless a single cell or word is).  The header counts the
 * clients of the groups' runs (a range when variants or points differ).  Returns 0, or -1 if f reported a write error. */
int rep_print_table(FILE *f, const rep_table *t, const char *outdir);

/* The meaning of summary.csv's column `name` (NULL if undocumented), and
 * the Markdown table of every column (herd columns).  rep_print_columns
 * returns 0, or -1 on a write error. */
const char *rep_metric_doc(const char *name);
int rep_print_columns(FILE *f);

/* `herd presets`: the client-library presets (their formulas written out
 * from the policies) and their sources, as Markdown.  0, or -1 if f could
 * not be written. */
int rep_print_presets(FILE *f);

/* 0 if outdir exists as a directory or could be created (its first
 * existing ancestor is a writable directory); else -1 with err. Creates
 * nothing. */
int rep_check_outdir(const char *outdir, char *err, size_t errlen);

#endif
