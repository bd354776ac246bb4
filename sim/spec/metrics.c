/*
 * metrics.c - the metric names (see metrics.h), expanded from SPEC_METRICS.
 */
#include "metrics.h"

#include <string.h>

#define M_U(f) {#f, METRIC_U64, AGG_MEAN},
#define M_D(f) {#f, METRIC_DOUBLE, AGG_MEAN},
#define M_P(f) {#f, METRIC_DOUBLE, AGG_PROPORTION},
#define M_DEF(f) {#f, METRIC_DOUBLE, AGG_DEFINED},

const spec_metric spec_metrics[] = {SPEC_METRICS(M_U, M_D, M_P, M_DEF)};

const size_t spec_metric_count = sizeof spec_metrics / sizeof spec_metrics[0];

const spec_metric *spec_metric_find(const char *name, size_t len)
{
    for (size_t i = 0; i < spec_metric_count; i++)
        if (strlen(spec_metrics[i].name) == len && !strncmp(spec_metrics[i].name, name, len))
            return &spec_metrics[i];
    return NULL;
}
