/*
 * table.h - the read-only data store of a scenario: everything of variable
 * size that a model_spec refers to (empirical samples and histograms,
 * mixture components, arrival traces, capacity timelines).  The scenario
 * layer reads the data files once and appends entries here; a spec names
 * an entry by its index (0: none), so the spec stays plain, fixed-size data
 * and every point and thread shares one copy of the data.
 *
 * The values are plain arrays of doubles; each entry is (kind, offset,
 * rows) into them.  Layouts, with n rows:
 *   SAMPLES    v[off .. off+n): the observed values, in file order
 *   HISTOGRAM  range[n+1] then cum[n+1]: bin i is [range[i], range[i+1]),
 *              cum[i] the share of the count below range[i] (cum[0] = 0,
 *              cum[n] = 1), the layout of a gsl_histogram_pdf; gaps between
 *              the file's buckets are bins of count 0
 *   MIXTURE    cum[n] cumulative weights (cum[n-1] = 1); components are
 *              dists d[doff .. doff+n)
 *   TRACE      t[n], rate[n], the integral of a step rate up to t[i],
 *              the integral of a linear rate up to t[i]
 *   CAPACITY   t[n], workers factor[n], speed factor[n], error rate[n]
 * Built once before any run; read only afterwards (no locking needed).
 */
#ifndef HERD_TABLE_H
#define HERD_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "dist.h"

typedef enum spec_data_kind {
    SPEC_DATA_NONE = 0,
    SPEC_DATA_SAMPLES,
    SPEC_DATA_HISTOGRAM,
    SPEC_DATA_MIXTURE,
    SPEC_DATA_TRACE,
    SPEC_DATA_CAPACITY
} spec_data_kind;

typedef struct spec_entry {
    spec_data_kind kind;
    uint32_t n;                 /* rows (samples, bins, components, trace or capacity rows) */
    size_t off;                 /* into v */
    uint32_t doff;              /* mixture: into d */
    double mean;                /* distributions: the mean of a draw */
} spec_entry;

typedef struct spec_table {
    double *v;
    size_t nv, capv;
    spec_entry *e;              /* e[0] is the "none" entry */
    uint32_t ne, cape;
    dist *d;
    uint32_t nd, capd;
} spec_table;

/* Appends an entry of `kind` with `nvals` values (returned in *vals, to be
 * filled) and `ndists` dists (in *dists, may be NULL when 0).  Returns its
 * index (>= 1), or 0 when out of memory.  Pointers stay valid until the
 * next append. */
uint32_t spec_table_add(spec_table *t, spec_data_kind kind, uint32_t n, size_t nvals, double **vals,
                        uint32_t ndists, dist **dists);

/* The entry i, or NULL if there is none (i == 0, out of range, or t NULL). */
const spec_entry *spec_table_entry(const spec_table *t, uint32_t i);

/* Trace entry accessors (see the layout above). */
static inline const double *spec_trace_t(const spec_table *t, const spec_entry *e) { return t->v + e->off; }
static inline const double *spec_trace_rate(const spec_table *t, const spec_entry *e) { return t->v + e->off + e->n; }
static inline const double *spec_trace_cum(const spec_table *t, const spec_entry *e, int linear)
{
    return t->v + e->off + (size_t)e->n * (linear ? 3 : 2);
}

void spec_table_free(spec_table *t);

#endif
