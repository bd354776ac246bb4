/*
 * breaker.c - herd policy library: a circuit breaker (closed / open /
 * half-open) driven by explicit time.  See herdpolicy.h for the exact
 * transitions.
 *
 * Invariants
 *   - b->circuit is the state as of b->now_s, except that an OPEN whose
 *     open_until_s has passed is stored as OPEN until the next mutating
 *     call (hp_breaker_allow / hp_breaker_on_result) moves it to
 *     HALF_OPEN; hp_breaker_state() reports it as HALF_OPEN already.
 *   - CLOSED: the window holds the results since the breaker last closed
 *     (or was initialised); it is emptied on every transition to CLOSED.
 *   - HALF_OPEN: probes_ok <= probes_sent <= opts.probes; a result counts
 *     only while probes_ok < probes_sent (a probe is outstanding).
 *   - open_until_s = opening time + open_s; it may be +infinity (huge
 *     open_s near DBL_MAX), and then the breaker stays open.
 *   - The failure ratio is failures / results, a correctly rounded
 *     division: a ratio equal to the threshold as a fraction (10/20 with
 *     0.5, 3/10 with 0.3) compares equal, so it opens.
 */
#include "herdpolicy.h"
#include "names.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Table indexed by hp_circuit. */
static const char *const circuit_names[HP_CIRCUIT_COUNT] = {
    "closed", "open", "half_open",
};

const char *hp_circuit_name(hp_circuit c)
{
    return name_at(circuit_names, HP_CIRCUIT_COUNT, (unsigned)c);
}

static double resolve_pos(double v, double dflt)
{
    return v > 0.0 && isfinite(v) ? v : dflt;
}

static hp_breaker_opts resolve(const hp_breaker_opts *in)
{
    hp_breaker_opts o;

    memset(&o, 0, sizeof o);
    if (in != NULL)
        o = *in;
    o.failure_ratio = resolve_pos(o.failure_ratio,
                                  HP_DEFAULT_BREAKER_FAILURE_RATIO);
    if (o.failure_ratio > 1.0)
        o.failure_ratio = 1.0;
    if (o.min_requests == 0)
        o.min_requests = HP_DEFAULT_BREAKER_MIN_REQUESTS;
    o.window_s = resolve_pos(o.window_s, HP_DEFAULT_BREAKER_WINDOW_S);
    o.open_s = resolve_pos(o.open_s, HP_DEFAULT_BREAKER_OPEN_S);
    if (o.probes == 0)
        o.probes = HP_DEFAULT_BREAKER_PROBES;
    return o;
}

hp_breaker_opts hp_breaker_defaults(void)
{
    return resolve(NULL);
}

const char *hp_breaker_check(const hp_breaker_opts *o)
{
    if (o == NULL)
        return "breaker options are NULL";
    if (isnan(o->failure_ratio))
        return "breaker failure_ratio is NaN";
    if (o->failure_ratio < 0.0)
        return "breaker failure_ratio is negative";
    if (o->failure_ratio > 1.0)
        return "breaker failure_ratio is above 1";
    if (isnan(o->window_s))
        return "breaker window_s is NaN";
    if (isinf(o->window_s))
        return "breaker window_s is infinite";
    if (o->window_s < 0.0)
        return "breaker window_s is negative";
    if (isnan(o->open_s))
        return "breaker open_s is NaN";
    if (isinf(o->open_s))
        return "breaker open_s is infinite";
    if (o->open_s < 0.0)
        return "breaker open_s is negative";
    return NULL;
}

void hp_breaker_init(hp_breaker *b, const hp_breaker_opts *opts, double now_s)
{
    memset(b, 0, sizeof *b);
    b->opts = resolve(opts);
    b->now_s = isfinite(now_s) ? now_s : 0.0;
    b->circuit = HP_CIRCUIT_CLOSED;
    hp_window_init(&b->window, b->opts.window_s, b->now_s);
}

static hp_circuit state_at(const hp_breaker *b, double t)
{
    if (b->circuit == HP_CIRCUIT_OPEN && t >= b->open_until_s)
        return HP_CIRCUIT_HALF_OPEN;
    return b->circuit;
}

hp_circuit hp_breaker_state(const hp_breaker *b, double now_s)
{
    return state_at(b, hp_time_clamp(b->now_s, now_s));
}

/* Moves the clock and applies the open -> half-open transition. */
static double tick(hp_breaker *b, double now_s)
{
    b->now_s = hp_time_clamp(b->now_s, now_s);
    if (b->circuit == HP_CIRCUIT_OPEN &&
        state_at(b, b->now_s) == HP_CIRCUIT_HALF_OPEN) {
        b->circuit = HP_CIRCUIT_HALF_OPEN;
        b->probes_sent = 0;
        b->probes_ok = 0;
    }
    return b->now_s;
}

static void trip(hp_breaker *b, double t)
{
    b->circuit = HP_CIRCUIT_OPEN;
    b->open_until_s = t + b->opts.open_s;
    b->probes_sent = 0;
    b->probes_ok = 0;
    if (b->opened < UINT32_MAX)
        b->opened++;
}

bool hp_breaker_allow(hp_breaker *b, double now_s)
{
    tick(b, now_s);
    switch (b->circuit) {
    case HP_CIRCUIT_CLOSED:
        return true;
    case HP_CIRCUIT_HALF_OPEN:
        if (b->probes_sent < b->opts.probes) {
            b->probes_sent++;
            return true;
        }
        return false;
    case HP_CIRCUIT_OPEN:
    case HP_CIRCUIT_COUNT:
    default:
        return false;
    }
}

void hp_breaker_on_result(hp_breaker *b, double now_s, bool success)
{
    double t = tick(b, now_s);
    uint64_t ok, failed;

    switch (b->circuit) {
    case HP_CIRCUIT_CLOSED:
        hp_window_add(&b->window, t, success ? 1 : 0, success ? 0 : 1);
        hp_window_sums(&b->window, t, &ok, &failed);
        if (ok + failed >= b->opts.min_requests &&
            (double)failed / (double)(ok + failed) >= b->opts.failure_ratio)
            trip(b, t);
        break;
    case HP_CIRCUIT_HALF_OPEN:
        if (b->probes_ok >= b->probes_sent)
            break; /* no probe outstanding: a late reply */
        if (!success) {
            trip(b, t);
        } else if (++b->probes_ok >= b->opts.probes) {
            b->circuit = HP_CIRCUIT_CLOSED;
            b->probes_sent = 0;
            b->probes_ok = 0;
            hp_window_init(&b->window, b->opts.window_s, t);
        }
        break;
    case HP_CIRCUIT_OPEN:
    case HP_CIRCUIT_COUNT:
    default:
        break;
    }
}
