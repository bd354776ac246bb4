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
 *
 * With clients_per_instance (instance.c), the series describes the fleet
 * of instances: limiter_allowed and limiter_denied count every instance's
 * decisions; breaker_open_s and breaker_half_open_s are the mean over
 * instances of the time each spent so (an instance's time is accounted
 * when its next call comes, and at the end); limiter_balance and
 * throttle_reject_p are the mean, throttle_requests and throttle_accepts
 * the sum, over instances, of each instance's value after its last call
 * (an instance not called yet counts with its initial state).  The means
 * and sums are kept incrementally from each instance's last value, in
 * integers (exact, whatever the order), so an update is O(1).  With one
 * instance every column is that instance's, as it always was.
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

/* Adds [from, to) spent in state c to the buckets it overlaps (divided
 * by the number of instances: the mean over them). */
static void add_state_time(model *md, hp_circuit c, double from, double to)
{
    double bs = md->ts.bucket_s, n = md->inst.count;
    while (from < to && c != HP_CIRCUIT_CLOSED) {
        mech_bucket *b = bucket_at(md, from);
        if (!b)
            return;
        double end = fmin(to, (floor(from / bs) + 1) * bs);
        if (!(end > from)) /* rounding at a bucket edge: step past it */
            end = nextafter(from, INFINITY);
        float d = (float)((end - from) / n);
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

static uint32_t sat32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void mech_throttle(model *md)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (!b)
        return;
    uint64_t req = 0, acc = 0;
    hp_throttle_counts(&md->guard.throttle, now, &req, &acc);
    double p = hp_throttle_p_reject(&md->guard.throttle, now);
    instances *in = &md->inst;
    if (in->gauge) { /* the fleet: this instance's new values replace its last ones */
        inst_gauge *g = &in->gauge[in->cur];
        int64_t nano = llround(p * 1e9);
        in->reject_nano_sum += nano - g->reject_nano;
        in->requests_sum += sat32(req) - (uint64_t)g->requests;
        in->accepts_sum += sat32(acc) - (uint64_t)g->accepts;
        g->reject_nano = nano;
        g->requests = sat32(req);
        g->accepts = sat32(acc);
        p = (double)in->reject_nano_sum / 1e9 / in->count;
        req = in->requests_sum;
        acc = in->accepts_sum;
    }
    b->throttle_reject_p = (float)p;
    b->throttle_requests = sat32(req);
    b->throttle_accepts = sat32(acc);
}

/* The series' limiter_balance after a limiter call at now: the current
 * instance's balance, or with instances their mean. */
static float balance_now(model *md, double now)
{
    double v = hp_limiter_balance(&md->guard.limiter, now);
    instances *in = &md->inst;
    if (!in->gauge)
        return (float)v;
    inst_gauge *g = &in->gauge[in->cur];
    int64_t milli = llround(v * 1000); /* every kind's balance is a multiple of 1/1000 */
    in->balance_milli_sum += milli - g->balance_milli;
    g->balance_milli = milli;
    return (float)((double)in->balance_milli_sum / 1000 / in->count);
}

void mech_limiter(model *md)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (b)
        b->limiter_balance = balance_now(md, now);
}

void mech_retry(model *md, bool allowed)
{
    double now = sim_now(md->sim);
    mech_bucket *b = bucket_at(md, now);
    if (!b)
        return;
    b->limiter_allowed += allowed;
    b->limiter_denied += !allowed;
    b->limiter_balance = balance_now(md, now);
}

/* The series reaches the run's last event, also where no call changed
 * anything near the end (a closed breaker writes nothing); with
 * instances, every instance's breaker time up to then (O(instances), once). */
void mech_finish(model *md)
{
    if (md->spec->guard.breaker) {
        uint32_t cur = md->inst.cur;
        for (uint32_t i = 0; i < md->inst.count; i++) {
            if (md->inst.count > 1)
                instance_switch(md, i);
            mech_breaker(md);
        }
        if (md->inst.count > 1)
            instance_switch(md, cur);
    }
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
