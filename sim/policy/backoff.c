/*
 * backoff.c - herd policy library: strategies, policy defaults, presets and
 * checks, deadlines, backoff sleeps and the retry decision.
 *
 * Everything here is a pure function of the policy, the per-request state
 * and the caller's uniform u; nothing allocates and there is no global state.
 *
 * Invariants
 *   - Zero means default: base_s 0 -> HP_DEFAULT_BASE_S, cap_s 0 ->
 *     HP_DEFAULT_CAP_S, resolved on every call by policy_times().  Values
 *     that hp_policy_check() rejects as negative or non-finite are resolved
 *     to their default too, so that every function here stays total; a
 *     caller that wants to be told about them calls hp_policy_check().
 *   - hp_ceiling() never forms 2^n: it compares base against cap * 2^-n
 *     (ldexp, exact or underflowing towards 0) and only scales base up when
 *     the product is known to stay below cap.  Result: finite, in [0, cap],
 *     non-decreasing in n, for every uint32_t n.
 *   - Decorrelated jitter reads its memory clamped into [base, cap], so an
 *     uninitialised, NaN or foreign prev_sleep_s still gives a sane sleep.
 *   - u is clamped into [0, 1) (NaN -> 0); every sleep is finite and in
 *     [0, cap].  Jittered sleeps that round up onto their open upper bound
 *     are stepped down one ulp so the documented half-open ranges hold.
 *   - An out-of-range strategy sleeps cap (the most conservative value).
 *   - Counters in hp_state saturate at UINT32_MAX instead of wrapping, so a
 *     request that retries forever never falls back to a short ceiling.
 *   - attempt_timeout_s and budget_s resolve to "none" (0) when negative or
 *     non-finite; retry_after_max_s to HP_DEFAULT_RETRY_AFTER_MAX_S when 0
 *     or non-finite and to 0 when negative (HP_OFF: hp_policy_check()
 *     accepts exactly HP_OFF); an out-of-range on_timeout acts as the
 *     default HP_TIMEOUT_IF_IDEMPOTENT.
 *   - st->deadline_s is +infinity without a budget, never NaN when set by
 *     hp_state_start() (a NaN now_s gives no deadline).  A hand-built state
 *     must set it too: a zero deadline_s is a deadline at time 0.
 *   - hp_decide_result() changes st only when it returns HP_RETRY: a give-up
 *     for the budget restores the decorrelated memory that the backoff draw
 *     updated and leaves st->retries alone.  When a Retry-After replaces the
 *     backoff, the decorrelated memory keeps the policy's own draw.
 */
#include "herdpolicy.h"
#include "names.h"
#include "attempt.h"
#include "classes.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* Table indexed by hp_strategy. */
static const char *const strategy_names[HP_STRATEGY_COUNT] = {
    "immediate",   "constant",     "exponential",
    "full_jitter", "equal_jitter", "decorrelated_jitter",
    "random",
};

static const char *const reason_names[HP_REASON_COUNT] = {
    "none",
    "attempts_exhausted",
    "non_retryable",
    "unknown_outcome",
    "budget_exhausted",
    "retry_limited",
    "retry_after_too_long",
};

/* Table indexed by hp_jitter. */
static const char *const jitter_names[HP_JITTER_COUNT] = {
    "none", "full", "proportional", "symmetric", "additive", "floor",
};

/* Table indexed by hp_side_effect. */
static const char *const effect_names[HP_EFFECT_COUNT] = {
    "read",
    "reversible",
    "irreversible",
    "destructive",
};

/* base * 2^n >= 2^-1074 * 2^2100 > DBL_MAX for every n at or above this, so
 * the ceiling is cap whatever the (positive) base. */
#define HP_EXPONENT_SATURATED 2100u

/* Largest double below 1. */
#define HP_U_MAX (1.0 - DBL_EPSILON / 2.0)

static double resolve_time(double v, double dflt)
{
    return v > 0.0 && v <= DBL_MAX ? v : dflt; /* 0, negative, NaN, inf: the default */
}


/* retry_after_max_s as the policy reads it: 0 (and NaN, infinite) the
 * default, HP_OFF (any negative) zero: no wait the server asks for is
 * honoured beyond 0 s. */
static double ra_max_of(const hp_policy *p)
{
    double v = p->retry_after_max_s;
    if (v < 0.0 && isfinite(v))
        return 0.0;
    return resolve_time(v, HP_DEFAULT_RETRY_AFTER_MAX_S);
}

static void policy_times(const hp_policy *p, double *base, double *cap)
{
    *base = resolve_time(p->base_s, HP_DEFAULT_BASE_S);
    *cap = resolve_time(p->cap_s, HP_DEFAULT_CAP_S);
}

static double clamp_unit(double u)
{
    if (!(u > 0.0)) /* NaN, negative, -0 */
        return 0.0;
    if (u >= 1.0)
        return HP_U_MAX;
    return u;
}

/* Keeps a jittered sleep s inside [0, hi) when hi > 0. */
static double below(double s, double hi)
{
    if (hi > 0.0 && s >= hi)
        return nextafter(hi, 0.0);
    return s;
}

/* 2^n for 0 <= n <= 1023, built from its bits (exact). */
static inline double pow2(uint32_t n)
{
    union {
        uint64_t u;
        double d;
    } x = {.u = (uint64_t)(1023u + n) << 52};
    return x.d;
}

static inline double ceiling_of(double base, double cap, uint32_t n)
{
    if (base >= cap || n >= HP_EXPONENT_SATURATED)
        return cap;
    /* The common case without libm: base and cap normal, n small enough
     * that cap * 2^-n is normal too.  Then base * 2^n is exact while
     * finite (scaling a normal number by a power of two), and base * 2^n
     * >= cap exactly when base >= cap * 2^-n (the test below): the same
     * answers as the ldexp path, bit for bit. */
    if (n <= 64 && base >= DBL_MIN && cap >= 0x1p-958 && cap <= DBL_MAX) {
        double x = base * pow2(n);
        return x >= cap ? cap : x;
    }
    /* base < cap * 2^-n, as computed, implies base * 2^n < cap exactly:
     * the scaling is exact unless cap * 2^-n is subnormal, and then base,
     * below it, is a multiple of 2^-1074 like the rounded value, so it is at
     * least 2^-1074 below the rounded value and 2^-1075 below the exact one. */
    if (base >= ldexp(cap, -(int)n))
        return cap;
    return ldexp(base, (int)n);
}

/* The policy's growth factor: 2 unless a usable multiplier (>= 1, finite)
 * is set. */
static double policy_multiplier(const hp_policy *p)
{
    return p->multiplier >= 1.0 && isfinite(p->multiplier) ? p->multiplier : HP_DEFAULT_MULTIPLIER;
}

/* min(cap, base * m^n) for m >= 1, saturating like ceiling_of: m = 2 is
 * ceiling_of exactly; otherwise the comparison is made in logarithms, so
 * no power overflows, and the result is non-decreasing in n. */
static inline double ceiling_mult(double base, double cap, double m, uint32_t n)
{
    double lg;

    if (m == 2.0)
        return ceiling_of(base, cap, n);
    if (base >= cap || m == 1.0 || n == 0)
        return base < cap ? base : cap;
    lg = log(base) + (double)n * log(m);
    if (lg >= log(cap))
        return cap;
    lg = base * pow(m, (double)n);
    return lg < cap ? lg : cap;
}

/* A client library's jittered sleep around the ceiling (see hp_jitter):
 * c is capped first unless jitter_before_cap, then the jittered value is
 * capped.  f is clamped to what the shape allows (fractions to [0, 1]). */
static double jittered(const hp_policy *p, double base, double cap, uint32_t n, double u)
{
    double m = policy_multiplier(p), f = p->jitter_f >= 0.0 && isfinite(p->jitter_f) ? p->jitter_f : 0.0;
    double c = ceiling_mult(base, p->jitter_before_cap ? HUGE_VAL : cap, m, n), s;

    if (!isfinite(c))
        c = DBL_MAX;
    switch (p->jitter) {
    case HP_JITTER_FULL:
        s = below(u * c, c);
        break;
    case HP_JITTER_PROPORTIONAL:
        s = c * (1.0 - (f < 1.0 ? f : 1.0) * u);
        break;
    case HP_JITTER_SYMMETRIC:
        f = f < 1.0 ? f : 1.0;
        s = below(c * (1.0 + f * (2.0 * u - 1.0)), c * (1.0 + f));
        break;
    case HP_JITTER_ADDITIVE:
        s = below(c + f * u, c + f);
        break;
    case HP_JITTER_FLOOR:
        s = c <= f ? f : below(f + u * (c - f), c);
        break;
    case HP_JITTER_NONE:
    case HP_JITTER_COUNT:
    default:
        s = c;
        break;
    }
    if (!isfinite(s))
        s = DBL_MAX;
    if (p->jitter_before_cap && s > cap)
        s = cap;
    return s;
}

static double decorrelated(double base, double cap, double prev, double u)
{
    double hi, s;

    if (!(prev >= base)) /* uninitialised (0) or NaN memory */
        prev = base;
    if (prev > cap)
        prev = cap;
    hi = 3.0 * prev; /* +inf only if prev > DBL_MAX / 3 */
    if (isfinite(hi)) {
        /* u <= 1 - 2^-53 makes u * (hi - base) round below hi - base, so
         * s <= hi under round-to-nearest. */
        s = base + u * (hi - base);
    } else {
        /* Same value, rearranged so that no 0 * inf or inf - inf occurs;
         * s may overflow to +inf, which the cap then replaces.  The clamp
         * keeps rounding of base * (1 - u) from dipping below base. */
        s = base * (1.0 - u) + 3.0 * (u * prev);
        if (s < base)
            s = base;
    }
    return s < cap ? s : cap;
}

const char *hp_jitter_name(hp_jitter j)
{
    return name_at(jitter_names, HP_JITTER_COUNT, (unsigned)j);
}

int hp_jitter_parse(const char *name, hp_jitter *out)
{
    int i = name_index(jitter_names, HP_JITTER_COUNT, name);

    if (i >= 0)
        *out = (hp_jitter)i;
    return i >= 0 ? 0 : -1;
}

const char *hp_strategy_name(hp_strategy s)
{
    return name_at(strategy_names, HP_STRATEGY_COUNT, (unsigned)s);
}

int hp_strategy_parse(const char *name, hp_strategy *out)
{
    int i = name_index(strategy_names, HP_STRATEGY_COUNT, name);

    if (i >= 0)
        *out = (hp_strategy)i;
    return i >= 0 ? 0 : -1;
}

hp_policy hp_policy_defaults(void)
{
    hp_policy p;

    memset(&p, 0, sizeof p);
    p.strategy = HP_IMMEDIATE;
    p.base_s = HP_DEFAULT_BASE_S;
    p.cap_s = HP_DEFAULT_CAP_S;
    p.max_attempts = 0;
    p.unknown = HP_UNKNOWN_RETRY;
    p.non_idempotent = false;
    p.exponent_offset = 0;
    p.attempt_timeout_s = 0.0;
    p.budget_s = 0.0;
    p.on_timeout = HP_TIMEOUT_IF_IDEMPOTENT;
    p.idempotency_key = false;
    p.ignore_retry_after = false;
    p.retry_after_max_s = HP_DEFAULT_RETRY_AFTER_MAX_S;
    p.not_found_ok_on_retry = false;
    p.multiplier = HP_DEFAULT_MULTIPLIER;
    return p;
}

const char *hp_effect_name(hp_side_effect e)
{
    return name_at(effect_names, HP_EFFECT_COUNT, (unsigned)e);
}

int hp_effect_parse(const char *name, hp_side_effect *out)
{
    int i = name_index(effect_names, HP_EFFECT_COUNT, name);

    if (i >= 0)
        *out = (hp_side_effect)i;
    return i >= 0 ? 0 : -1;
}

/* Side-effect presets.  An out-of-range level gets the irreversible preset,
 * the one that never retries on its own. */
hp_policy hp_policy_preset(hp_side_effect e)
{
    hp_policy p = hp_policy_defaults();

    p.strategy = HP_FULL_JITTER;
    switch (e) {
    case HP_EFFECT_READ:
        p.max_attempts = 5;
        p.base_s = 0.5;
        p.cap_s = 8.0;
        break;
    case HP_EFFECT_REVERSIBLE:
        p.max_attempts = 3;
        p.base_s = 1.0;
        p.cap_s = 10.0;
        p.non_idempotent = true;
        break;
    case HP_EFFECT_DESTRUCTIVE:
        p.max_attempts = 2;
        p.base_s = 1.0;
        p.cap_s = 5.0;
        p.not_found_ok_on_retry = true;
        break;
    case HP_EFFECT_IRREVERSIBLE:
    case HP_EFFECT_COUNT:
    default:
        p.max_attempts = 1;
        p.non_idempotent = true;
        break;
    }
    return p;
}

/* NULL if v is a usable optional duration (>= 0, finite), else the message
 * for what is wrong with it. */
static const char *check_duration(double v, const char *nan_msg,
                                  const char *inf_msg, const char *neg_msg)
{
    if (isnan(v))
        return nan_msg;
    if (isinf(v))
        return inf_msg;
    if (v < 0.0)
        return neg_msg;
    return NULL;
}

/* The client-library fields of hp_policy_check. */
static const char *check_library_fields(const hp_policy *p)
{
    if (p->multiplier != 0.0 && !(p->multiplier >= 1.0 && p->multiplier <= 1e6))
        return "multiplier must be 0 (default 2) or in [1, 1e6]";
    if ((unsigned)p->jitter >= HP_JITTER_COUNT)
        return "jitter is out of range";
    if (!(p->jitter_f >= 0.0 && p->jitter_f <= 1e9))
        return "jitter_f must be in [0, 1e9]";
    if ((p->jitter == HP_JITTER_PROPORTIONAL || p->jitter == HP_JITTER_SYMMETRIC) && p->jitter_f > 1.0)
        return "a proportional or symmetric jitter_f is a fraction in [0, 1]";
    if ((unsigned)p->ra_mode >= HP_RA_MODE_COUNT)
        return "ra_mode is out of range";
    if ((unsigned)p->ra_above >= HP_RA_ABOVE_COUNT)
        return "ra_above is out of range";
    if ((unsigned)p->budget_mode > HP_BUDGET_AT_FAILURE)
        return "budget_mode is out of range";
    if (!(p->reset_jitter_f >= 0.0 && p->reset_jitter_f <= 1.0))
        return "reset_jitter_f must be in [0, 1]";
    return NULL;
}

const char *hp_policy_check(const hp_policy *p)
{
    const char *msg;
    double base, cap;

    if (p == NULL)
        return "policy is NULL";
    if (isnan(p->base_s))
        return "base_s is NaN";
    if (isinf(p->base_s))
        return "base_s is infinite";
    if (p->base_s < 0.0)
        return "base_s is negative";
    if (isnan(p->cap_s))
        return "cap_s is NaN";
    if (isinf(p->cap_s))
        return "cap_s is infinite";
    if (p->cap_s < 0.0)
        return "cap_s is negative";
    policy_times(p, &base, &cap);
    if (cap < base)
        return "cap_s is below base_s";
    if ((unsigned)p->strategy >= HP_STRATEGY_COUNT)
        return "strategy is out of range";
    if ((unsigned)p->unknown > HP_UNKNOWN_FAIL)
        return "unknown policy is out of range";
    if ((unsigned)p->delay_kind > HP_DELAY_CONSTANT)
        return "delay_kind is out of range";
    if (!isfinite(p->delay_a) || !isfinite(p->delay_b) || p->delay_a < 0.0 || p->delay_b < 0.0)
        return "delay_a and delay_b must be finite and >= 0";
    if (p->delay_kind == HP_DELAY_UNIFORM && p->delay_b < p->delay_a)
        return "a uniform delay needs delay_b >= delay_a";
    if ((msg = check_duration(p->attempt_timeout_s, "attempt_timeout_s is NaN",
                              "attempt_timeout_s is infinite",
                              "attempt_timeout_s is negative")) != NULL)
        return msg;
    if ((msg = check_duration(p->budget_s, "budget_s is NaN",
                              "budget_s is infinite",
                              "budget_s is negative")) != NULL)
        return msg;
    if ((unsigned)p->on_timeout > HP_TIMEOUT_NEVER)
        return "on_timeout is out of range";
    if (p->retry_after_max_s != HP_OFF &&
        (msg = check_duration(p->retry_after_max_s, "retry_after_max_s is NaN",
                              "retry_after_max_s is infinite",
                              "retry_after_max_s is negative (HP_OFF for 0)")) != NULL)
        return msg;
    return check_library_fields(p);
}

void hp_state_init(hp_state *st, const hp_policy *p)
{
    double base, cap;

    policy_times(p, &base, &cap);
    st->prev_sleep_s = base;
    st->deadline_s = INFINITY;
    st->attempts = 0;
    st->retries = 0;
}

void hp_state_start(hp_state *st, const hp_policy *p, double now_s)
{
    double budget = resolve_none(p->budget_s);

    hp_state_init(st, p);
    if (budget > 0.0 && !isnan(now_s + budget))
        st->deadline_s = now_s + budget;
}

double hp_attempt_timeout(const hp_policy *p, const hp_state *st, double now_s)
{
    return attempt_timeout_inline(p, st, now_s);
}

double hp_ceiling(const hp_policy *p, uint32_t n)
{
    double base, cap;

    policy_times(p, &base, &cap);
    return ceiling_mult(base, cap, policy_multiplier(p), n);
}

/* One draw of HP_RANDOM's distribution by inversion of u in [0, 1):
 * finite and >= 0 for every policy (bad parameters resolve as documented
 * in hp_policy_check). */
static double random_delay(const hp_policy *p, double base, double u)
{
    double a = isfinite(p->delay_a) && p->delay_a > 0.0 ? p->delay_a : 0.0;
    double b = isfinite(p->delay_b) && p->delay_b > a ? p->delay_b : a;
    switch (p->delay_kind) {
    case HP_DELAY_UNIFORM:
        return below(a + u * (b - a), b);
    case HP_DELAY_CONSTANT:
        return a;
    case HP_DELAY_EXPONENTIAL:
    default:
        return -(a > 0.0 ? a : base) * log1p(-u); /* u < 1: finite */
    }
}

double hp_backoff(const hp_policy *p, hp_state *st, uint32_t n, double u)
{
    double base, cap, c, half, s;

    policy_times(p, &base, &cap);
    u = clamp_unit(u);
    if (p->strategy != HP_IMMEDIATE && p->first_retry_zero && n == 0)
        return 0.0;
    if (p->strategy != HP_IMMEDIATE && p->jitter != HP_JITTER_NONE)
        return jittered(p, base, cap, n, u);
    switch (p->strategy) {
    case HP_IMMEDIATE:
        return 0.0;
    case HP_CONSTANT:
        return base < cap ? base : cap;
    case HP_EXPONENTIAL:
        return ceiling_mult(base, cap, policy_multiplier(p), n);
    case HP_FULL_JITTER:
        c = ceiling_mult(base, cap, policy_multiplier(p), n);
        return below(u * c, c);
    case HP_EQUAL_JITTER:
        c = ceiling_mult(base, cap, policy_multiplier(p), n);
        half = c / 2.0;
        return below(half + u * half, c);
    case HP_DECORRELATED_JITTER:
        s = decorrelated(base, cap, st != NULL ? st->prev_sleep_s : base, u);
        if (st != NULL)
            st->prev_sleep_s = s;
        return s;
    case HP_RANDOM:
        s = random_delay(p, base, u);
        return s < cap ? s : cap;
    case HP_STRATEGY_COUNT:
    default:
        return cap;
    }
}

const char *hp_reason_name(hp_reason r)
{
    return name_at(reason_names, HP_REASON_COUNT, (unsigned)r);
}

void hp_on_attempt(hp_state *st)
{
    on_attempt_inline(st);
}

/* Whether a timed-out attempt may be retried (a timeout's outcome is unknown). */
static bool timeout_retryable(const hp_policy *p)
{
    switch (p->on_timeout) {
    case HP_TIMEOUT_ALWAYS:
        return true;
    case HP_TIMEOUT_NEVER:
        return false;
    case HP_TIMEOUT_IF_IDEMPOTENT:
    default:
        return !p->non_idempotent || p->idempotency_key;
    }
}

/* The sleep before the next attempt: the backoff for retry st->retries,
 * or what the server asked for, as the policy's ra_mode reads it; sets
 * d->retry_after_used.  Returns a negative value when the policy gives up
 * because of the Retry-After (HP_RA_ABOVE_STOP). */
static double next_sleep(const hp_policy *p, hp_state *st, hp_result r,
                         double u, hp_decision *d)
{
    uint32_t n = st->retries > UINT32_MAX - p->exponent_offset
                     ? UINT32_MAX
                     : st->retries + p->exponent_offset;
    double s = hp_backoff(p, st, n, u), ra_max, ra = r.retry_after_s;
    hp_ra_mode mode = p->ignore_retry_after ? HP_RA_IGNORE : p->ra_mode;

    if (mode == HP_RA_INSTEAD && ra > 0.0) { /* NaN: none */
        ra_max = ra_max_of(p);
        if (ra <= ra_max || p->ra_above == HP_RA_ABOVE_CLAMP) {
            d->retry_after_used = true;
            return ra <= ra_max ? ra : ra_max;
        }
        if (p->ra_above == HP_RA_ABOVE_STOP)
            return -1.0;
        return s; /* HP_RA_ABOVE_BACKOFF */
    }
    if (mode == HP_RA_AT_LEAST && ra >= 0.0) {
        ra_max = ra_max_of(p);
        if (ra > ra_max)
            ra = ra_max;
        if (ra > s) {
            s = ra;
            d->retry_after_used = true;
        }
        return s;
    }
    if (mode != HP_RA_IGNORE && p->ra_reset && r.reset_s > 0.0 && !(ra > 0.0)) {
        /* cohere: min(reset, max) with a positive proportional jitter */
        d->retry_after_used = true;
        ra_max = ra_max_of(p);
        return (r.reset_s < ra_max ? r.reset_s : ra_max) *
               (1.0 + (p->reset_jitter_f <= 1.0 && p->reset_jitter_f > 0.0 ? p->reset_jitter_f : 0.0) *
                          clamp_unit(u));
    }
    return s;
}

/* Whether the policy refuses this exact status (no_retry_status). */
static bool status_refused(const hp_policy *p, int outcome)
{
    uint64_t any; /* the common policy lists none: one test for the four entries */
    _Static_assert(sizeof p->no_retry_status == sizeof any, "no_retry_status is 4 x 16 bits");
    memcpy(&any, p->no_retry_status, sizeof any);
    if (any == 0)
        return false;
    for (int i = 0; i < HP_MAX_NO_RETRY_STATUS; i++)
        if (p->no_retry_status[i] != 0 && p->no_retry_status[i] == outcome)
            return true;
    return false;
}

/* A class retried only with a Retry-After (retry_with_ra, whatever
 * retry_only says) and the reply carries one. */
static bool retried_for_ra(const hp_policy *p, hp_class c, hp_result r)
{
    return (unsigned)c < HP_CLASS_COUNT && (p->retry_with_ra & (1u << c)) != 0 && r.retry_after_s >= 0.0;
}

hp_decision hp_decide(const hp_policy *p, hp_state *st, int outcome,
                      double now_s, double u)
{
    hp_result r = {.outcome = outcome, .retry_after_s = -1.0, .reset_s = 0.0, .overloaded = false};

    return hp_decide_result(p, st, r, now_s, u);
}

hp_decision hp_decide_result(const hp_policy *p, hp_state *st, hp_result r,
                             double now_s, double u)
{
    hp_decision d;
    double prev, s;

    d.cls = classify_inline(r.outcome);
    d.action = HP_GIVE_UP;
    d.reason = HP_REASON_NONE;
    d.delay_s = 0.0;
    d.retry_after_used = false;

    if (d.cls == HP_CLASS_OK) {
        d.action = HP_DONE_OK;
    } else if (r.overloaded && p->obey_overload) {
        d.reason = HP_REASON_NON_RETRYABLE; /* the server asked for no retry */
    } else if (d.cls == HP_CLASS_NOT_FOUND && p->not_found_ok_on_retry &&
               st->attempts > 1) {
        d.action = HP_DONE_OK; /* an earlier attempt did it */
    } else if (d.cls == HP_CLASS_TIMEOUT && !timeout_retryable(p)) {
        d.reason = HP_REASON_UNKNOWN_OUTCOME;
    } else if ((!retryable_inline(p, d.cls) && !retried_for_ra(p, d.cls, r)) ||
               status_refused(p, r.outcome)) {
        d.reason = HP_REASON_NON_RETRYABLE;
    } else if (p->max_attempts != 0 && st->attempts >= p->max_attempts) {
        d.reason = HP_REASON_ATTEMPTS;
    } else if (p->budget_mode == HP_BUDGET_AT_FAILURE && now_s >= st->deadline_s) {
        d.reason = HP_REASON_BUDGET;
    } else {
        prev = st->prev_sleep_s;
        s = next_sleep(p, st, r, u, &d);
        if (s < 0.0) {
            st->prev_sleep_s = prev;
            d.reason = HP_REASON_RETRY_AFTER;
        } else if (p->budget_mode != HP_BUDGET_AT_FAILURE && now_s + s >= st->deadline_s) {
            st->prev_sleep_s = prev;
            d.reason = HP_REASON_BUDGET;
            d.retry_after_used = false;
        } else {
            d.action = HP_RETRY;
            d.delay_s = s;
            if (st->retries < UINT32_MAX)
                st->retries++;
        }
    }
    return d;
}

hp_decision hp_decide_chosen(const hp_policy *p, hp_state *st, hp_result r,
                             double now_s, double delay_s)
{
    hp_decision d = {.action = HP_GIVE_UP, .reason = HP_REASON_NONE, .cls = classify_inline(r.outcome)};

    if (!(delay_s >= 0.0))
        delay_s = 0.0; /* NaN or negative: at once */
    if (d.cls == HP_CLASS_OK) {
        d.action = HP_DONE_OK;
    } else if ((r.overloaded && p->obey_overload) || !retryable_inline(p, d.cls)) {
        d.reason = HP_REASON_NON_RETRYABLE;
    } else if (p->max_attempts != 0 && st->attempts >= p->max_attempts) {
        d.reason = HP_REASON_ATTEMPTS;
    } else if (now_s + delay_s >= st->deadline_s) {
        d.reason = HP_REASON_BUDGET;
    } else {
        d.action = HP_RETRY;
        d.delay_s = delay_s;
        if (st->retries < UINT32_MAX)
            st->retries++;
    }
    return d;
}
