/*
 * limit.c - herd policy library: retry limiters (AWS SDK standard retry
 * quota, gRPC retry throttling, Envoy and Finagle retry budgets) behind one
 * interface.  See herdpolicy.h for each algorithm and its sources.
 *
 * Invariants
 *   - l->opts holds every default written out; negative values of the
 *     fields that take HP_OFF stay negative there and read as zero.
 *   - AWS: aws_tokens <= aws_capacity.  gRPC: grpc_milli_tokens <=
 *     1000 * grpc_max_tokens <= 10^6.  Integer arithmetic only, so hand
 *     timelines come out exact.
 *   - Envoy counters saturate at UINT32_MAX and stop at 0: an end without a
 *     start is ignored rather than wrapping.
 *   - Finagle tokens are reserve + 1000 * deposits - W * withdrawals in
 *     int64, with W capped at 2^40 and the reserve at 2^62.  The window
 *     sums are below 2^36, so 1000 * deposits < 2^46; a withdrawal needs
 *     tokens >= W, so W * withdrawals < reserve + 1000 * deposits < 2^63.
 *   - Every operation first moves l->now_s forward (hp_time_clamp) and acts
 *     at the result.
 */
#include "herdpolicy.h"
#include "names.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Table indexed by hp_limiter_kind. */
static const char *const kind_names[HP_LIMITER_KIND_COUNT] = {
    "none", "aws_quota", "grpc", "envoy", "finagle",
};

#define GRPC_MAX_TOKENS_LIMIT 1000u /* gRFC A6 */
#define FINAGLE_SCALE 1000.0
#define FINAGLE_PERCENT_LIMIT 1000.0
#define FINAGLE_MAX_W 1099511627776.0 /* 2^40 */

const char *hp_limiter_kind_name(hp_limiter_kind k)
{
    return name_at(kind_names, HP_LIMITER_KIND_COUNT, (unsigned)k);
}

int hp_limiter_kind_parse(const char *name, hp_limiter_kind *out)
{
    int i = name_index(kind_names, HP_LIMITER_KIND_COUNT, name);
    if (i >= 0)
        *out = (hp_limiter_kind)i;
    return i >= 0 ? 0 : -1;
}

static uint32_t resolve_u32(uint32_t v, uint32_t dflt)
{
    return v == 0 ? dflt : v;
}

/* Positive finite: kept; 0, NaN, infinite, negative: the default. */
static double resolve_pos(double v, double dflt)
{
    return v > 0.0 && isfinite(v) ? v : dflt;
}

/* A field that takes HP_OFF: negative stays negative (zero), 0 or
 * non-finite becomes the default. */
static double resolve_off(double v, double dflt)
{
    if (v < 0.0 && isfinite(v))
        return HP_OFF;
    return resolve_pos(v, dflt);
}

static double off_value(double v)
{
    return v < 0.0 ? 0.0 : v;
}

static hp_limiter_opts resolve(const hp_limiter_opts *in)
{
    hp_limiter_opts o;

    memset(&o, 0, sizeof o);
    if (in != NULL)
        o = *in;
    if ((unsigned)o.kind >= HP_LIMITER_KIND_COUNT)
        o.kind = HP_LIMITER_NONE;
    o.aws_capacity = resolve_u32(o.aws_capacity, HP_DEFAULT_AWS_CAPACITY);
    o.aws_retry_cost = resolve_u32(o.aws_retry_cost, HP_DEFAULT_AWS_RETRY_COST);
    o.aws_timeout_cost = resolve_u32(o.aws_timeout_cost,
                                     HP_DEFAULT_AWS_TIMEOUT_COST);
    o.aws_success_increment = resolve_u32(o.aws_success_increment,
                                          HP_DEFAULT_AWS_SUCCESS_INCREMENT);
    o.grpc_max_tokens = resolve_u32(o.grpc_max_tokens,
                                    HP_DEFAULT_GRPC_MAX_TOKENS);
    if (o.grpc_max_tokens > GRPC_MAX_TOKENS_LIMIT)
        o.grpc_max_tokens = GRPC_MAX_TOKENS_LIMIT;
    o.grpc_token_ratio = resolve_pos(o.grpc_token_ratio,
                                     HP_DEFAULT_GRPC_TOKEN_RATIO);
    o.envoy_budget_percent = resolve_off(o.envoy_budget_percent,
                                         HP_DEFAULT_ENVOY_BUDGET_PERCENT);
    if (o.envoy_min_retry_concurrency < 0)
        o.envoy_min_retry_concurrency = HP_OFF;
    else if (o.envoy_min_retry_concurrency == 0)
        o.envoy_min_retry_concurrency = HP_DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY;
    o.finagle_ttl_s = resolve_pos(o.finagle_ttl_s, HP_DEFAULT_FINAGLE_TTL_S);
    o.finagle_min_retries_per_s = resolve_off(
        o.finagle_min_retries_per_s, HP_DEFAULT_FINAGLE_MIN_RETRIES_PER_S);
    o.finagle_percent_can_retry = resolve_off(
        o.finagle_percent_can_retry, HP_DEFAULT_FINAGLE_PERCENT_CAN_RETRY);
    return o;
}

hp_limiter_opts hp_limiter_defaults(hp_limiter_kind kind)
{
    hp_limiter_opts o;

    memset(&o, 0, sizeof o);
    o.kind = kind;
    return resolve(&o);
}

/* NULL if v is NaN-free, finite and not negative (HP_OFF allowed when
 * off_ok), else the matching message. */
static const char *check_num(double v, bool off_ok, const char *nan_msg,
                             const char *inf_msg, const char *neg_msg)
{
    if (isnan(v))
        return nan_msg;
    if (isinf(v))
        return inf_msg;
    if (v < 0.0 && !(off_ok && v == HP_OFF))
        return neg_msg;
    return NULL;
}

const char *hp_limiter_check(const hp_limiter_opts *o)
{
    hp_limiter_opts r;
    const char *msg;

    if (o == NULL)
        return "limiter options are NULL";
    if ((unsigned)o->kind >= HP_LIMITER_KIND_COUNT)
        return "limiter kind is out of range";
    r = resolve(o);
    if (r.aws_retry_cost > r.aws_capacity)
        return "aws_retry_cost exceeds aws_capacity (no retry could ever pass)";
    if (r.aws_timeout_cost > r.aws_capacity)
        return "aws_timeout_cost exceeds aws_capacity (no retry after a timeout "
               "could ever pass)";
    if (o->grpc_max_tokens > GRPC_MAX_TOKENS_LIMIT)
        return "grpc_max_tokens is above 1000 (the gRPC limit)";
    if ((msg = check_num(o->grpc_token_ratio, false, "grpc_token_ratio is NaN",
                         "grpc_token_ratio is infinite",
                         "grpc_token_ratio is negative")) != NULL)
        return msg;
    if (o->grpc_token_ratio > 0.0 && o->grpc_token_ratio * 1000.0 < 0.5)
        return "grpc_token_ratio is below 0.0005 (tokens are kept in thousandths)";
    if ((msg = check_num(o->envoy_budget_percent, true,
                         "envoy_budget_percent is NaN",
                         "envoy_budget_percent is infinite",
                         "envoy_budget_percent is negative (HP_OFF for 0)")) != NULL)
        return msg;
    if (o->envoy_budget_percent > 100.0)
        return "envoy_budget_percent is above 100";
    if (o->envoy_min_retry_concurrency < 0 &&
        o->envoy_min_retry_concurrency != HP_OFF)
        return "envoy_min_retry_concurrency is negative (HP_OFF for 0)";
    if ((msg = check_num(o->finagle_ttl_s, false, "finagle_ttl_s is NaN",
                         "finagle_ttl_s is infinite",
                         "finagle_ttl_s is negative")) != NULL)
        return msg;
    if ((msg = check_num(o->finagle_min_retries_per_s, true,
                         "finagle_min_retries_per_s is NaN",
                         "finagle_min_retries_per_s is infinite",
                         "finagle_min_retries_per_s is negative (HP_OFF for 0)")) != NULL)
        return msg;
    if ((msg = check_num(o->finagle_percent_can_retry, true,
                         "finagle_percent_can_retry is NaN",
                         "finagle_percent_can_retry is infinite",
                         "finagle_percent_can_retry is negative (HP_OFF for 0)")) != NULL)
        return msg;
    if (o->finagle_percent_can_retry > FINAGLE_PERCENT_LIMIT)
        return "finagle_percent_can_retry is above 1000 (the Finagle limit)";
    return NULL;
}

/* gRPC in thousandths of a token. */
static uint32_t grpc_max_milli(const hp_limiter *l)
{
    return l->opts.grpc_max_tokens * 1000u;
}

static uint32_t grpc_ratio_milli(const hp_limiter *l)
{
    double r = l->opts.grpc_token_ratio * 1000.0;

    if (!(r < (double)grpc_max_milli(l)))
        return grpc_max_milli(l);
    return r < 1.0 ? 1u : (uint32_t)lround(r);
}

/* Finagle's integer scheme: deposit, withdrawal W and reserve. */
typedef struct finagle_terms {
    int64_t deposit, withdrawal, reserve;
} finagle_terms;

static finagle_terms finagle(const hp_limiter *l)
{
    finagle_terms f;
    double pct = off_value(l->opts.finagle_percent_can_retry);
    double w, reserve;

    if (pct > FINAGLE_PERCENT_LIMIT)
        pct = FINAGLE_PERCENT_LIMIT;
    if (pct == 0.0) {
        f.deposit = 0;
        w = 1.0;
    } else {
        f.deposit = (int64_t)FINAGLE_SCALE;
        w = floor(FINAGLE_SCALE / pct);
        if (w > FINAGLE_MAX_W)
            w = FINAGLE_MAX_W;
    }
    f.withdrawal = (int64_t)w;
    reserve = floor(off_value(l->opts.finagle_min_retries_per_s) *
                    l->opts.finagle_ttl_s * w);
    /* A reserve past 2^62 allows every retry anyway. */
    f.reserve = reserve < 4611686018427387904.0 ? (int64_t)reserve
                                                : INT64_C(4611686018427387904);
    return f;
}

static int64_t finagle_tokens(const hp_limiter *l, double now_s,
                              finagle_terms f)
{
    uint64_t deposits, withdrawals;

    hp_window_sums(&l->window, now_s, &deposits, &withdrawals);
    return f.reserve + f.deposit * (int64_t)deposits -
           f.withdrawal * (int64_t)withdrawals;
}

/* Envoy: the most retries that may be active. */
static double envoy_max(const hp_limiter *l)
{
    double pct = off_value(l->opts.envoy_budget_percent);
    /* Envoy truncates to uint64_t; floor does the same without overflow. */
    double base = floor(pct / 100.0 * (double)l->active_requests);
    double min = l->opts.envoy_min_retry_concurrency < 0
                     ? 0.0
                     : (double)l->opts.envoy_min_retry_concurrency;

    return base > min ? base : min;
}

void hp_limiter_init(hp_limiter *l, const hp_limiter_opts *opts, double now_s)
{
    memset(l, 0, sizeof *l);
    l->opts = resolve(opts);
    l->now_s = isfinite(now_s) ? now_s : 0.0;
    l->aws_tokens = l->opts.aws_capacity;
    l->grpc_milli_tokens = grpc_max_milli(l);
    hp_window_init(&l->window, l->opts.finagle_ttl_s, l->now_s);
}

static double tick(hp_limiter *l, double now_s)
{
    l->now_s = hp_time_clamp(l->now_s, now_s);
    return l->now_s;
}

void hp_limiter_on_request_start(hp_limiter *l, double now_s, bool is_retry)
{
    double t = tick(l, now_s);

    if (l->opts.kind == HP_LIMITER_ENVOY && l->active_requests < UINT32_MAX)
        l->active_requests++;
    else if (l->opts.kind == HP_LIMITER_FINAGLE && !is_retry)
        hp_window_add(&l->window, t, 1, 0);
}

void hp_limiter_on_request_end(hp_limiter *l, double now_s)
{
    tick(l, now_s);
    if (l->opts.kind == HP_LIMITER_ENVOY && l->active_requests > 0)
        l->active_requests--;
}

bool hp_limiter_try_retry(hp_limiter *l, double now_s, bool after_timeout,
                          uint32_t *cost_out)
{
    double t = tick(l, now_s);
    uint32_t cost = 0;
    bool ok = true;

    switch (l->opts.kind) {
    case HP_LIMITER_AWS_QUOTA:
        cost = after_timeout ? l->opts.aws_timeout_cost : l->opts.aws_retry_cost;
        ok = l->aws_tokens >= cost;
        if (ok)
            l->aws_tokens -= cost;
        else
            cost = 0;
        break;
    case HP_LIMITER_GRPC:
        ok = l->grpc_milli_tokens > grpc_max_milli(l) / 2;
        break;
    case HP_LIMITER_ENVOY:
        ok = (double)l->active_retries < envoy_max(l);
        if (ok && l->active_retries < UINT32_MAX)
            l->active_retries++;
        break;
    case HP_LIMITER_FINAGLE: {
        finagle_terms f = finagle(l);

        ok = finagle_tokens(l, t, f) >= f.withdrawal;
        if (ok)
            hp_window_add(&l->window, t, 0, 1);
        break;
    }
    case HP_LIMITER_NONE:
    case HP_LIMITER_KIND_COUNT:
    default:
        break;
    }
    if (cost_out != NULL)
        *cost_out = cost;
    return ok;
}

void hp_limiter_on_retry_end(hp_limiter *l, double now_s)
{
    tick(l, now_s);
    if (l->opts.kind == HP_LIMITER_ENVOY && l->active_retries > 0)
        l->active_retries--;
}

void hp_limiter_on_success(hp_limiter *l, double now_s, uint32_t retry_cost)
{
    uint64_t v;

    tick(l, now_s);
    if (l->opts.kind == HP_LIMITER_AWS_QUOTA) {
        v = (uint64_t)l->aws_tokens +
            (retry_cost > 0 ? retry_cost : l->opts.aws_success_increment);
        l->aws_tokens = v < l->opts.aws_capacity ? (uint32_t)v
                                                 : l->opts.aws_capacity;
    } else if (l->opts.kind == HP_LIMITER_GRPC) {
        v = (uint64_t)l->grpc_milli_tokens + grpc_ratio_milli(l);
        l->grpc_milli_tokens = v < grpc_max_milli(l) ? (uint32_t)v
                                                     : grpc_max_milli(l);
    }
}

void hp_limiter_on_failure(hp_limiter *l, double now_s)
{
    tick(l, now_s);
    if (l->opts.kind == HP_LIMITER_GRPC)
        l->grpc_milli_tokens = l->grpc_milli_tokens > 1000u
                                   ? l->grpc_milli_tokens - 1000u
                                   : 0u;
}

double hp_limiter_balance(const hp_limiter *l, double now_s)
{
    double t = hp_time_clamp(l->now_s, now_s);

    switch (l->opts.kind) {
    case HP_LIMITER_AWS_QUOTA:
        return (double)l->aws_tokens;
    case HP_LIMITER_GRPC:
        return (double)l->grpc_milli_tokens / 1000.0;
    case HP_LIMITER_ENVOY:
        return envoy_max(l) - (double)l->active_retries;
    case HP_LIMITER_FINAGLE: {
        finagle_terms f = finagle(l);
        int64_t tokens = finagle_tokens(l, t, f);

        /* floor division: a negative balance stays negative */
        return floor((double)tokens / (double)f.withdrawal);
    }
    case HP_LIMITER_NONE:
    case HP_LIMITER_KIND_COUNT:
    default:
        return INFINITY;
    }
}
