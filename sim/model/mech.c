/*
 * mech.c - the mechanism series: what the [limits] mechanisms (circuit
 * breaker, adaptive throttling, retry limiter) were doing, bucket by
 * bucket, for mechanisms.csv and its figures.
 *
 * The model reads the policy library's state through its read-only
 * accessors (hp_breaker_state, hp_throttle_p_reject, hp_throttle_counts,
 * hp_limiter_balance) after its own calls: the library knows nothing of
 * buckets, the engine nothing of either.  Costs O(1) per call, plus one
 * step per bucket the breaker's time crosses.
 */
#include "model.h"

#include <math.h>

/* Bucket of time t (>= 0), or NULL (the simulation is marked failed). */
static mech_bucket *bucket_at(model *md, double t)
{
    size_t i = (size_t)floor(t / md->ts.bucket_s);
    mech_bucket *b = mech_at(&md->ms, i, md->ts.max, md->ts.max_len);
    if (!b) {
        md->ts.over = md->ts.max && i >= md->ts.max; /* the run's bucket budget, as ts_at */
        sim_fail(md->sim);
    }
    return b;
}

/* Adds [from, to) spent in state c to the buckets it overlaps. */
static void add_state_time(model *md, hp_circuit c, double from, double to)
{
    double bs = md->ts.bucket_s;
    while (from < to && c != HP_CIRCUIT_CLOSED) {
        mech_bucket *b = bucket_at(md, from);
        if (!b)
            return;
        double end = fmin(to, (floor(from / bs) + 1) * bs);
        if (!(end > from)) /* rounding at a bucket edge: step past it */
            end = nextafter(from, INFINITY);
        float d = (float)(end - from);
        if (c == HP_CIRCUIT_OPEN)
            b->breaker_open_s += d;
        else
            b->breaker_half_open_s += d;
        from = end;
    }
}

/* The breaker's state is what its last call left, except that an open
 * breaker reads as half-open from open_until_s on, without a call. */
void mech_breaker(model *md)
{
    double now = sim_now(md->sim), from = md->brk_t;
    const hp_breaker *br = &md->guard.breaker;
    if (!(now > from))
        return;
    hp_circuit c = hp_breaker_state(br, from);
    if (c == HP_CIRCUIT_OPEN && br->open_until_s < now) {
        add_state_time(md, HP_CIRCUIT_OPEN, from, br->open_until_s);
        add_state_time(md, HP_CIRCUIT_HALF_OPEN, br->open_until_s, now);
    } else {
        add_state_time(md, c, from, now);
    }
    md->brk_t = now;
}

void mech_throttle(model *md)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (!b)
        return;
    uint64_t req = 0, acc = 0;
    hp_throttle_counts(&md->guard.throttle, now, &req, &acc);
    b->throttle_reject_p = (float)hp_throttle_p_reject(&md->guard.throttle, now);
    b->throttle_requests = req > UINT32_MAX ? UINT32_MAX : (uint32_t)req;
    b->throttle_accepts = acc > UINT32_MAX ? UINT32_MAX : (uint32_t)acc;
}

void mech_limiter(model *md)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (b)
        b->limiter_balance = (float)hp_limiter_balance(&md->guard.limiter, now);
}

void mech_retry(model *md, bool allowed)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (!b)
        return;
    b->limiter_allowed += allowed;
    b->limiter_denied += !allowed;
    b->limiter_balance = (float)hp_limiter_balance(&md->guard.limiter, now);
}

/* The series reaches the run's last event, also where no call changed
 * anything near the end (a closed breaker writes nothing). */
void mech_finish(model *md)
{
    if (md->spec->guard.breaker)
        mech_breaker(md);
    bucket_at(md, sim_now(md->sim));
}

/* After hp_call_admit: the throttle counted the request; the limiter saw
 * an allowed attempt start. */
void mech_after_admit(model *md, const hp_admit *a)
{
    const model_spec *spec = md->spec;
    if (spec->guard.throttling && a->deny != HP_DENY_DEADLINE && a->deny != HP_DENY_WAIT)
        mech_throttle(md);
    if (spec->guard.limiter.kind != HP_LIMITER_NONE && a->allowed)
        mech_limiter(md);
}

/* After hp_call_outcome: the throttle's accept (not for 503, 429 or a
 * timeout), the limiter's accounting, and its retry decision when the
 * policy wanted a retry (allowed: HP_RETRY; refused: retry_limited). */
void mech_after_outcome(model *md, int outcome, const hp_decision *d)
{
    const model_spec *spec = md->spec;
    if (spec->guard.throttling && outcome != 503 && outcome != 429 && outcome != HP_OUTCOME_TIMEOUT)
        mech_throttle(md);
    if (spec->guard.limiter.kind == HP_LIMITER_NONE)
        return;
    mech_limiter(md);
    if (d->action == HP_RETRY || d->reason == HP_REASON_RETRY_LIMITED)
        mech_retry(md, d->action == HP_RETRY);
}
