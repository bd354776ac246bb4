/*
 * throttle.c - herd policy library: the clock clamp, sliding-window
 * counters (hp_window) and client-side adaptive throttling (Google SRE
 * book, "Handling Overload").
 *
 * The window lives here because throttling is its plainest user; the
 * limiter (Finagle budget) and the breaker use it too.
 *
 * Invariants (hp_window)
 *   - width_s is positive and finite; head_start_s is finite.
 *   - sum_a and sum_b equal the sums of a[] and b[]: every change to a
 *     sub-bucket changes the sum by the same amount (saturating adds add
 *     what actually fitted).
 *   - Sub-bucket head + j (mod N, j = 1..N-1) is the one that started
 *     (N - j) widths before head_start_s; moving the head on by k clears
 *     the k oldest, so each event is cleared once: O(1) amortised.
 *   - Time never moves the head backwards: a time before head_start_s (or
 *     not finite) lands in the head sub-bucket.  The number of sub-buckets
 *     to drop is computed from the difference now - head_start_s, so at
 *     huge magnitudes an unchanged time never drops anything.
 *   - head_start_s stays on the grid init_time + j * width_s, also across
 *     a jump that empties the window, as long as the grid point is
 *     representable (below 2^52 widths); otherwise it restarts at now.
 *
 * Throttling: p = max(0, (requests - K * accepts) / (requests + 1)) with
 * both counts from the window at the (clamped) time; p < 1 always, so u
 * clamped into [0, 1) can always decide.
 */
#include "herdpolicy.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* Largest double below 1. */
#define U_MAX (1.0 - DBL_EPSILON / 2.0)

double hp_time_clamp(double latest_s, double now_s)
{
    if (isfinite(now_s) && now_s > latest_s)
        return now_s;
    return latest_s;
}

void hp_window_init(hp_window *w, double window_s, double now_s)
{
    memset(w, 0, sizeof *w);
    if (!(window_s > 0.0) || !isfinite(window_s))
        window_s = 1.0;
    w->width_s = window_s / HP_WINDOW_BUCKETS;
    if (!(w->width_s > 0.0)) /* a subnormal window */
        w->width_s = DBL_MIN;
    w->head_start_s = isfinite(now_s) ? now_s : 0.0;
}

/* How many sub-buckets the head must move on for now_s (0 if none, or if
 * now_s is not finite); may exceed HP_WINDOW_BUCKETS, even be +inf. */
static double steps(const hp_window *w, double now_s)
{
    double d, k;

    if (!isfinite(now_s))
        return 0.0;
    d = now_s - w->head_start_s; /* +inf only for a jump past DBL_MAX */
    if (!(d >= w->width_s))
        return 0.0;
    k = floor(d / w->width_s);
    return k < 1.0 ? 1.0 : k;
}

static void advance(hp_window *w, double now_s)
{
    double k = steps(w, now_s), h;
    uint32_t i;

    if (k == 0.0)
        return;
    if (k >= HP_WINDOW_BUCKETS) {
        memset(w->a, 0, sizeof w->a);
        memset(w->b, 0, sizeof w->b);
        w->sum_a = 0;
        w->sum_b = 0;
        w->head = 0;
    } else {
        for (i = 0; i < (uint32_t)k; i++) {
            w->head = (w->head + 1) % HP_WINDOW_BUCKETS;
            w->sum_a -= w->a[w->head];
            w->sum_b -= w->b[w->head];
            w->a[w->head] = 0;
            w->b[w->head] = 0;
        }
    }
    /* Stay on the grid; where rounding would put the head past now_s or
     * not move it at all (past 2^52 widths), restart the grid at now_s. */
    h = w->head_start_s + k * w->width_s;
    w->head_start_s = h > w->head_start_s && h <= now_s ? h : now_s;
}

static uint32_t add_sat(uint32_t *c, uint32_t n)
{
    uint32_t room = UINT32_MAX - *c, added = n < room ? n : room;

    *c += added;
    return added;
}

void hp_window_add(hp_window *w, double now_s, uint32_t a, uint32_t b)
{
    advance(w, now_s);
    w->sum_a += add_sat(&w->a[w->head], a);
    w->sum_b += add_sat(&w->b[w->head], b);
}

void hp_window_sums(const hp_window *w, double now_s, uint64_t *a,
                    uint64_t *b)
{
    double k = steps(w, now_s);
    uint64_t sa = 0, sb = 0;
    uint32_t i, j;

    if (k < HP_WINDOW_BUCKETS) {
        sa = w->sum_a;
        sb = w->sum_b;
        for (i = 1; i <= (uint32_t)k; i++) { /* the k oldest sub-buckets */
            j = (w->head + i) % HP_WINDOW_BUCKETS;
            sa -= w->a[j];
            sb -= w->b[j];
        }
    }
    if (a != NULL)
        *a = sa;
    if (b != NULL)
        *b = sb;
}

/* ---- Adaptive throttling --------------------------------------------- */

static double resolve_pos(double v, double dflt)
{
    return v > 0.0 && isfinite(v) ? v : dflt;
}

hp_throttle_opts hp_throttle_defaults(void)
{
    hp_throttle_opts o;

    memset(&o, 0, sizeof o);
    o.window_s = HP_DEFAULT_THROTTLE_WINDOW_S;
    o.k = HP_DEFAULT_THROTTLE_K;
    return o;
}

const char *hp_throttle_check(const hp_throttle_opts *o)
{
    if (o == NULL)
        return "throttle options are NULL";
    if (isnan(o->window_s))
        return "throttle window_s is NaN";
    if (isinf(o->window_s))
        return "throttle window_s is infinite";
    if (o->window_s < 0.0)
        return "throttle window_s is negative";
    if (isnan(o->k))
        return "throttle k is NaN";
    if (isinf(o->k))
        return "throttle k is infinite";
    if (o->k < 0.0)
        return "throttle k is negative";
    return NULL;
}

void hp_throttle_init(hp_throttle *t, const hp_throttle_opts *opts,
                      double now_s)
{
    memset(t, 0, sizeof *t);
    if (opts != NULL) {
        t->opts.window_s = resolve_pos(opts->window_s,
                                       HP_DEFAULT_THROTTLE_WINDOW_S);
        t->opts.k = resolve_pos(opts->k, HP_DEFAULT_THROTTLE_K);
    } else {
        t->opts = hp_throttle_defaults();
    }
    t->now_s = isfinite(now_s) ? now_s : 0.0;
    hp_window_init(&t->window, t->opts.window_s, t->now_s);
}

void hp_throttle_counts(const hp_throttle *t, double now_s, uint64_t *requests,
                        uint64_t *accepts)
{
    hp_window_sums(&t->window, hp_time_clamp(t->now_s, now_s), requests,
                   accepts);
}

double hp_throttle_p_reject(const hp_throttle *t, double now_s)
{
    uint64_t requests, accepts;
    double excess;

    hp_throttle_counts(t, now_s, &requests, &accepts);
    excess = (double)requests - t->opts.k * (double)accepts;
    if (!(excess > 0.0))
        return 0.0;
    return excess / ((double)requests + 1.0);
}

bool hp_throttle_allow(hp_throttle *t, double now_s, double u)
{
    double p;

    t->now_s = hp_time_clamp(t->now_s, now_s);
    p = hp_throttle_p_reject(t, t->now_s);
    if (!(u > 0.0))
        u = 0.0;
    else if (u >= 1.0)
        u = U_MAX;
    hp_window_add(&t->window, t->now_s, 1, 0);
    return !(u < p);
}

void hp_throttle_on_accept(hp_throttle *t, double now_s)
{
    t->now_s = hp_time_clamp(t->now_s, now_s);
    hp_window_add(&t->window, t->now_s, 0, 1);
}
