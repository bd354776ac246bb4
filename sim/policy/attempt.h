/*
 * attempt.h - private to libherdpolicy (not installed): hp_attempt_timeout
 * and hp_on_attempt inline, for hp_call_admit, which runs them on every
 * attempt; backoff.c defines the exported functions through these.
 */
#ifndef HERD_POLICY_ATTEMPT_H
#define HERD_POLICY_ATTEMPT_H

#include <float.h>
#include <math.h>

#include "herdpolicy.h"

/* A duration whose zero means "none": negative and non-finite values too. */
static inline double resolve_none(double v)
{
    return v > 0.0 && v <= DBL_MAX ? v : 0.0;
}

static inline double attempt_timeout_inline(const hp_policy *p, const hp_state *st, double now_s)
{
    double t = resolve_none(p->attempt_timeout_s), left;

    if (t == 0.0)
        t = INFINITY;
    if (p->budget_mode == HP_BUDGET_AT_FAILURE)
        return t; /* tenacity stop_after_delay never cuts an attempt short */
    if (st->deadline_s < INFINITY) { /* a deadline (NaN: none) */
        left = st->deadline_s - now_s;
        if (!(left > 0.0)) /* spent, or NaN now_s */
            return 0.0;
        if (left < t)
            t = left;
    }
    return t;
}

static inline void on_attempt_inline(hp_state *st)
{
    if (st->attempts < UINT32_MAX)
        st->attempts++;
}

#endif
