/*
 * hedge.c - herd policy library: hedged requests, the delay before the next
 * copy (fixed, or a percentile of the observed latencies) and the bounded
 * latency tracker behind it.
 *
 * The tracker is a log-bucketed histogram (see herdpolicy.h): bucket i >= 1
 * holds (L g^(i-1), L g^i] with L = HP_HEDGE_MIN_S and g = 1.1, and reads
 * as its "centre" 2 L g^i / (g + 1), whose relative distance to either end
 * is (g - 1) / (g + 1) = 1/21 ~ 4.76%.  The index comes from a logarithm,
 * so a latency within rounding of a boundary may land in the neighbouring
 * bucket; its error is then 1/21 plus a few ulps, still under 5%.
 *
 * Invariants
 *   - h->count is the sum of h->bins (it can only fall through halving);
 *     h->seen counts every sample accepted, saturating.
 *   - A bin never exceeds UINT32_MAX: before one would, all bins are
 *     halved, rounding up, so a non-empty bin stays non-empty.
 *   - hp_hedge_delay() is finite and >= 0 whatever the state.
 */
#include "herdpolicy.h"
#include "names.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define GROWTH 1.1

/* Table indexed by hp_hedge_mode. */
static const char *const mode_names[HP_HEDGE_MODE_COUNT] = {
    "percentile", "fixed",
};

const char *hp_hedge_mode_name(hp_hedge_mode m)
{
    return name_at(mode_names, HP_HEDGE_MODE_COUNT, (unsigned)m);
}

int hp_hedge_mode_parse(const char *name, hp_hedge_mode *out)
{
    int i = name_index(mode_names, HP_HEDGE_MODE_COUNT, name);
    if (i >= 0)
        *out = (hp_hedge_mode)i;
    return i >= 0 ? 0 : -1;
}

static hp_hedge_opts resolve(const hp_hedge_opts *in)
{
    hp_hedge_opts o;

    memset(&o, 0, sizeof o);
    if (in != NULL)
        o = *in;
    if ((unsigned)o.mode >= HP_HEDGE_MODE_COUNT)
        o.mode = HP_HEDGE_PERCENTILE;
    if (o.delay_s < 0.0 && isfinite(o.delay_s))
        o.delay_s = HP_OFF;
    else if (!(o.delay_s > 0.0) || !isfinite(o.delay_s))
        o.delay_s = HP_DEFAULT_HEDGE_DELAY_S;
    if (!(o.percentile > 0.0) || o.percentile > 1.0)
        o.percentile = HP_DEFAULT_HEDGE_PERCENTILE;
    if (o.max_hedges == 0)
        o.max_hedges = HP_DEFAULT_HEDGE_MAX;
    if (o.min_samples == 0)
        o.min_samples = HP_DEFAULT_HEDGE_MIN_SAMPLES;
    return o;
}

hp_hedge_opts hp_hedge_defaults(void)
{
    return resolve(NULL);
}

const char *hp_hedge_check(const hp_hedge_opts *o)
{
    if (o == NULL)
        return "hedge options are NULL";
    if ((unsigned)o->mode >= HP_HEDGE_MODE_COUNT)
        return "hedge mode is out of range";
    if (isnan(o->delay_s))
        return "hedge delay_s is NaN";
    if (isinf(o->delay_s))
        return "hedge delay_s is infinite";
    if (o->delay_s < 0.0 && o->delay_s != HP_OFF)
        return "hedge delay_s is negative (HP_OFF for 0)";
    if (isnan(o->percentile))
        return "hedge percentile is NaN";
    if (o->percentile < 0.0)
        return "hedge percentile is negative";
    if (o->percentile > 1.0)
        return "hedge percentile is above 1 (it is a fraction: 0.95 for p95)";
    return NULL;
}

void hp_hedge_init(hp_hedge *h, const hp_hedge_opts *opts)
{
    memset(h, 0, sizeof *h);
    h->opts = resolve(opts);
}

static uint32_t bucket_of(double x)
{
    double i;

    if (!(x > HP_HEDGE_MIN_S))
        return 0;
    i = ceil(log(x / HP_HEDGE_MIN_S) / log(GROWTH)); /* +inf for +inf */
    if (i < 1.0)
        return 1;
    if (i > HP_HEDGE_BUCKETS - 1)
        return HP_HEDGE_BUCKETS - 1;
    return (uint32_t)i;
}

/* What bucket i reads as. */
static double bucket_value(uint32_t i)
{
    if (i == 0)
        return HP_HEDGE_MIN_S;
    if (i == HP_HEDGE_BUCKETS - 1) /* the overflow bucket: its lower end */
        return HP_HEDGE_MIN_S * pow(GROWTH, HP_HEDGE_BUCKETS - 2);
    return 2.0 * HP_HEDGE_MIN_S * pow(GROWTH, i) / (GROWTH + 1.0);
}

static void halve(hp_hedge *h)
{
    uint32_t i;

    h->count = 0;
    for (i = 0; i < HP_HEDGE_BUCKETS; i++) {
        h->bins[i] = h->bins[i] / 2 + h->bins[i] % 2;
        h->count += h->bins[i];
    }
}

void hp_hedge_observe(hp_hedge *h, double latency_s)
{
    uint32_t i;

    if (isnan(latency_s) || latency_s < 0.0)
        return;
    i = bucket_of(latency_s);
    if (h->bins[i] == UINT32_MAX)
        halve(h);
    h->bins[i]++;
    h->count++;
    if (h->seen < UINT64_MAX)
        h->seen++;
}

double hp_hedge_quantile(const hp_hedge *h, double q)
{
    uint64_t rank, cum = 0;
    uint32_t i;
    double r;

    if (h->count == 0)
        return NAN;
    if (!(q > 0.0))
        q = 0.0;
    if (q > 1.0)
        q = 1.0;
    r = ceil(q * (double)h->count);
    rank = r < 1.0 ? 1 : (uint64_t)r;
    if (rank > h->count)
        rank = h->count;
    for (i = 0; i < HP_HEDGE_BUCKETS; i++) {
        cum += h->bins[i];
        if (cum >= rank)
            return bucket_value(i);
    }
    return bucket_value(HP_HEDGE_BUCKETS - 1); /* unreachable: cum == count */
}

double hp_hedge_delay(const hp_hedge *h)
{
    double fixed = h->opts.delay_s > 0.0 && isfinite(h->opts.delay_s)
                       ? h->opts.delay_s
                       : 0.0;

    if (h->opts.mode == HP_HEDGE_FIXED || h->seen < h->opts.min_samples ||
        h->count == 0)
        return fixed;
    return hp_hedge_quantile(h, h->opts.percentile);
}

uint32_t hp_hedge_max(const hp_hedge *h)
{
    return h->opts.max_hedges;
}
