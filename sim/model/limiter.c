/*
 * limiter.c - the server's concurrency limiter (see limiter.h for the
 * rules, their sources in Netflix/concurrency-limits at commit
 * 78a74b9878d38c4c048b0304ce12a162ab7b7222, and the invariants).
 */
#include "limiter.h"

#include <math.h>

#include "../base/alloc.h"

#define NO_SLOT UINT32_MAX
#define LONG_WARMUP 10 /* Gradient2Limit: new ExpAvgMeasurement(longWindow, 10) */

void lim_init(srv_limiter *l, const model_spec *spec)
{
    *l = (srv_limiter){.kind = spec->concurrency_limiter, .limit = spec->concurrency_limit, .free_head = NO_SLOT};
    if (l->kind == SPEC_CL_NONE)
        return;
    l->min = spec->limiter_min;
    l->max = spec->limiter_max;
    l->backoff = spec->aimd_backoff_ratio;
    l->timeout = spec->aimd_timeout_s;
    l->estimate = spec->concurrency_limit;
    l->smoothing = spec->gradient2_smoothing;
    l->tolerance = spec->gradient2_rtt_tolerance;
    l->queue_size = spec->gradient2_queue_size;
    l->queue_fn = spec->gradient2_queue_function;
    l->long_window = spec->gradient2_long_window;
    l->window = spec->limiter_window_s;
    l->window_size = spec->limiter_window_size;
    l->win_min = INFINITY;
    l->bound = l->limit;
    if (l->kind != SPEC_CL_FIXED && l->max > l->bound)
        l->bound = l->max;
}

void lim_free(srv_limiter *l)
{
    herd_free(l->slot);
    *l = (srv_limiter){.free_head = NO_SLOT};
}

uint32_t lim_queue_size(spec_g2queue fn, uint32_t baseline, uint32_t limit)
{
    switch (fn) {
    case SPEC_G2Q_SQRT: { /* SquareRootFunction.create(baseline) */
        uint32_t r = limit ? (uint32_t)sqrt((double)limit) : 0;
        if (r < 1)
            r = 1;
        return r > baseline ? r : baseline;
    }
    case SPEC_G2Q_LOG10: { /* Log10RootIntFunction.create(baseline) */
        uint32_t r = limit ? (uint32_t)log10((double)limit) : 0;
        return (r < 1 ? 1 : r) + baseline;
    }
    default:
        return baseline;
    }
}

/* ExpAvgMeasurement.add: the new long-term average. */
static double long_add(srv_limiter *l, double rtt)
{
    if (l->long_count < LONG_WARMUP) {
        l->long_count++;
        l->long_sum += rtt;
        l->long_value = l->long_sum / l->long_count;
    } else {
        double f = 2.0 / (l->long_window + 1.0);
        l->long_value = l->long_value * (1 - f) + rtt * f;
    }
    return l->long_value;
}

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

void lim_sample(srv_limiter *l, double rtt, uint32_t inflight, bool dropped)
{
    switch (l->kind) {
    case SPEC_CL_AIMD: { /* AIMDLimit._update */
        int64_t cur = l->limit;
        if (dropped || rtt > l->timeout)
            cur = (int64_t)((double)cur * l->backoff);
        else if ((uint64_t)inflight * 2 >= (uint64_t)cur)
            cur = cur + 1;
        l->limit = (uint32_t)(cur < l->min ? l->min : cur > l->max ? l->max : cur);
        break;
    }
    case SPEC_CL_GRADIENT2: { /* Gradient2Limit._update (didDrop is not read) */
        double est = l->estimate;
        double queue = lim_queue_size(l->queue_fn, l->queue_size, (uint32_t)est);
        double lrtt = long_add(l, rtt);
        if (rtt > 0 && lrtt / rtt > 2)
            l->long_value *= 0.95; /* longRtt.update(current * 0.95) */
        if (inflight < est / 2)
            break; /* app-limited: returns (int) estimatedLimit */
        double gradient = rtt > 0 ? clamp(l->tolerance * lrtt / rtt, 0.5, 1.0) : 1.0;
        double next = est * gradient + queue;
        next = est * (1 - l->smoothing) + next * l->smoothing;
        l->estimate = clamp(next, l->min, l->max);
        l->limit = (uint32_t)l->estimate;
        break;
    }
    default: /* none, FixedLimit */
        break;
    }
}

/* Makes room for one more slot (doubling from 64, up to bound).
 * Returns 0, or -1 (out of memory, unchanged). */
static int grow(srv_limiter *l)
{
    uint32_t ncap = l->cap ? (l->cap > l->bound / 2 ? l->bound : l->cap * 2) : (l->bound < 64 ? l->bound : 64);
    lim_slot *s = herd_realloc_array(l->slot, ncap, sizeof *s);
    if (!s)
        return -1;
    l->slot = s;
    l->cap = ncap;
    return 0;
}

int64_t lim_acquire(srv_limiter *l, double now)
{
    if (l->kind == SPEC_CL_NONE)
        return 0;
    if (l->inflight >= l->limit)
        return -1; /* SimpleLimiter: no permit; createRejectedListener */
    uint32_t i = l->free_head;
    if (i != NO_SLOT) {
        l->free_head = l->slot[i].next_free;
    } else {
        if (l->used == l->cap && grow(l) != 0)
            return -2;
        i = l->used++;
    }
    l->inflight++;
    l->slot[i] = (lim_slot){.admitted = now, .inflight = l->inflight, .next_free = NO_SLOT};
    return i;
}

#define MIN_RTT_THRESHOLD 100e-6 /* WindowedLimit: DEFAULT_MIN_RTT_THRESHOLD, 100 us */

void lim_window_sample(srv_limiter *l, double now, double rtt, uint32_t inflight, bool dropped)
{
    if (!(l->window > 0)) {
        lim_sample(l, rtt, inflight, dropped);
        return;
    }
    if (rtt < MIN_RTT_THRESHOLD)
        return;
    if (rtt < l->win_min)
        l->win_min = rtt;
    l->win_sum += rtt;
    if (inflight > l->win_inflight)
        l->win_inflight = inflight;
    l->win_count++;
    l->win_drop |= dropped;
    if (now > l->next_update) {
        double next = 2 * l->win_min;
        l->next_update = now + (next < l->window ? l->window : next > l->window ? l->window : next);
        if (l->win_count >= l->window_size) /* isWindowReady */
            lim_sample(l, l->win_sum / l->win_count, l->win_inflight, l->win_drop);
        l->win_min = INFINITY;
        l->win_sum = 0;
        l->win_inflight = l->win_count = 0;
        l->win_drop = false;
    }
}

void lim_release(srv_limiter *l, uint32_t slot, double now, bool dropped)
{
    if (l->kind == SPEC_CL_NONE)
        return;
    lim_slot *s = &l->slot[slot];
    l->inflight--; /* AbstractLimiter: inFlight.decrementAndGet(), then onSample */
    lim_window_sample(l, now, now - s->admitted, s->inflight, dropped);
    s->next_free = l->free_head;
    l->free_head = slot;
}

void lim_ignore(srv_limiter *l, uint32_t slot)
{
    if (l->kind == SPEC_CL_NONE)
        return;
    l->inflight--;
    l->slot[slot].next_free = l->free_head;
    l->free_head = slot;
}
