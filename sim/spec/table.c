/*
 * table.c - the scenario's read-only data store (see table.h).
 */
#include "table.h"

#include <string.h>

#include "../base/alloc.h"

/* Grows *p (of *cap elements of size sz) to hold need; 0 or -1. */
static int reserve(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = herd_realloc_array(*p, c, sz);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

uint32_t spec_table_add(spec_table *t, spec_data_kind kind, uint32_t n, size_t nvals, double **vals,
                        uint32_t ndists, dist **dists)
{
    size_t cape = t->cape, capd = t->capd;
    if (t->ne == 0)
        t->ne = 1; /* entry 0: none */
    if (t->ne == UINT32_MAX || reserve((void **)&t->e, &cape, (size_t)t->ne + 1, sizeof *t->e) != 0)
        return 0;
    t->cape = (uint32_t)cape;
    if (reserve((void **)&t->v, &t->capv, t->nv + nvals, sizeof *t->v) != 0)
        return 0;
    if (reserve((void **)&t->d, &capd, (size_t)t->nd + ndists, sizeof *t->d) != 0)
        return 0;
    t->capd = (uint32_t)capd;
    memset(&t->e[0], 0, sizeof t->e[0]);
    spec_entry *e = &t->e[t->ne];
    *e = (spec_entry){.kind = kind, .n = n, .off = t->nv, .doff = t->nd};
    *vals = t->v + t->nv;
    memset(*vals, 0, nvals * sizeof **vals);
    if (dists)
        *dists = t->d + t->nd;
    t->nv += nvals;
    t->nd += ndists;
    return t->ne++;
}

const spec_entry *spec_table_entry(const spec_table *t, uint32_t i)
{
    if (!t || i == 0 || i >= t->ne)
        return NULL;
    return &t->e[i];
}

void spec_table_free(spec_table *t)
{
    herd_free(t->v);
    herd_free(t->e);
    herd_free(t->d);
    memset(t, 0, sizeof *t);
}
