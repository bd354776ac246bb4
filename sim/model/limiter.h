/*
 * limiter.h - the server's concurrency limiter ([server]
 * concurrency_limiter = none | fixed | aimd | gradient2): the limit, its
 * update rules and the bookkeeping of the attempts it admitted, as
 * Netflix/concurrency-limits has them (github.com/Netflix/concurrency-limits,
 * commit 78a74b9878d38c4c048b0304ce12a162ab7b7222, in
 * concurrency-limits-core/src/main/java/com/netflix/concurrency/limits/):
 *
 *   limiter/SimpleLimiter.java, limiter/AbstractLimiter.java: an attempt
 *     is admitted when fewer than `limit` admitted attempts are still
 *     open (the semaphore holds limit - inflight permits), else rejected
 *     at once; an admitted one is a sample when it ends: its RTT (from
 *     admission to the end), the in-flight count at its admission
 *     (including itself) and whether it was dropped;
 *   limit/FixedLimit.java: the limit never changes;
 *   limit/AIMDLimit.java: on a drop, or an RTT above the timeout, limit =
 *     (int)(limit x backoffRatio); else, when inflight x 2 >= limit,
 *     limit + 1; then clamped to [minLimit, maxLimit];
 *   limit/Gradient2Limit.java: per sample, with the long-term RTT an
 *     ExpAvgMeasurement(longWindow, 10) (measurement/ExpAvgMeasurement.java:
 *     the mean of the first 10 samples, then factor 2 / (window + 1)):
 *       queue = queueSize((int) estimate); long = longRtt.add(rtt);
 *       if long / rtt > 2: longRtt x= 0.95 (the decayed value is used
 *         from the next sample on);
 *       if inflight < estimate / 2: no change (app-limited);
 *       gradient = clamp(tolerance x long / rtt, 0.5, 1);
 *       new = estimate x gradient + queue;
 *       estimate = clamp(estimate x (1 - smoothing) + new x smoothing,
 *                        minLimit, maxLimit); limit = (int) estimate;
 *     queueSize: constant, or limit/functions/SquareRootFunction.java
 *     (max(baseline, max(1, (int) sqrt(limit)))) or
 *     limit/functions/Log10RootIntFunction.java (max(1, (int) log10(limit))
 *     + baseline).
 *
 *   limit/WindowedLimit.java with limit/window/ImmutableAverageSampleWindow
 *     (with [server] limiter_window_s > 0, the wrapper the library's README
 *     puts around Gradient2Limit on a server): a sample of an RTT under
 *     100 us is ignored; the others are gathered (minimum and sum of the
 *     RTTs, largest in-flight count, count, any drop); a sample ending
 *     after nextUpdateTime closes the window (itself included): the next
 *     update is due at its end + min(max(2 x the window's minimum RTT,
 *     window), window) (minWindowTime = maxWindowTime = limiter_window_s),
 *     and the window, if it holds at least windowSize samples, is passed to
 *     the limit as one sample (mean RTT, largest in-flight count, dropped
 *     if any was); a smaller one is discarded.
 *
 * Two departures, both where Java's arithmetic has no answer: an RTT of 0
 * (a zero service time) gives gradient 1 (no queueing) and no long-RTT
 * decay, where Java divides by zero; RTTs are doubles in seconds, not
 * integer nanoseconds.  With limiter_window_s = 0 the limit gets every
 * sample, as a bare Limit in a SimpleLimiter does.
 *
 * Invariants: inflight <= max(limit seen) and every admitted attempt holds
 * one slot of the pool until it is released; limit >= 1.  Every operation
 * is O(1); the slot pool grows by doubling (amortised O(1)), never beyond
 * the largest limit the configuration allows, and nothing else allocates.
 */
#ifndef HERD_LIMITER_H
#define HERD_LIMITER_H

#include <stdbool.h>
#include <stdint.h>

#include "../spec/spec.h"

/* What the limiter keeps of an admitted attempt until it ends. */
typedef struct lim_slot {
    double admitted;    /* when it was admitted */
    double service;     /* its service time, once it entered service */
    uint32_t inflight;  /* the in-flight count at its admission, itself included */
    uint32_t next_free; /* the free list's link while the slot is free */
} lim_slot;

typedef struct srv_limiter {
    spec_climiter kind;     /* SPEC_CL_NONE: every call admits, nothing is kept */
    uint32_t limit;         /* the limit now (Limit.getLimit) */
    uint32_t inflight;      /* admitted and not yet released */
    uint32_t min, max;      /* aimd, gradient2 */
    double backoff, timeout; /* aimd */
    double estimate;        /* gradient2: estimatedLimit */
    double smoothing, tolerance;
    uint32_t queue_size;
    spec_g2queue queue_fn;
    uint32_t long_window, long_count; /* ExpAvgMeasurement: window, samples in its warm-up */
    double long_value, long_sum;
    /* WindowedLimit (window > 0) */
    double window, next_update;
    uint32_t window_size;
    double win_min, win_sum;
    uint32_t win_inflight, win_count;
    bool win_drop;
    /* the pool of slots of the admitted attempts */
    lim_slot *slot;
    uint32_t cap, bound;    /* slots allocated; the most ever needed */
    uint32_t free_head;     /* first free slot (UINT32_MAX: none) */
    uint32_t used;          /* slots handed out and never freed, from the top */
} srv_limiter;

/* A limiter for spec's [server] concurrency_limiter keys, with nothing
 * admitted (nothing allocated yet). */
void lim_init(srv_limiter *l, const model_spec *spec);

/* Frees the pool; l is left as lim_init leaves a limiter of kind none. */
void lim_free(srv_limiter *l);

/* An attempt arrives at now.  Returns its slot (>= 0) if admitted, -1 if
 * the limit rejects it, -2 when out of memory (nothing changed).  Kind
 * none admits every attempt and returns 0 without keeping anything. */
int64_t lim_acquire(srv_limiter *l, double now);

/* The admitted attempt of slot entered service for `service` s. */
static inline void lim_set_service(srv_limiter *l, uint32_t slot, double service) { l->slot[slot].service = service; }
static inline double lim_service(const srv_limiter *l, uint32_t slot) { return l->slot[slot].service; }

/* The admitted attempt of slot ends at now: answered (dropped false:
 * Listener.onSuccess) or dropped unserved (true: onDropped).  The limit is
 * updated from the sample and the slot is freed. */
void lim_release(srv_limiter *l, uint32_t slot, double now, bool dropped);

/* The admitted attempt of slot ends without reaching the workers or the
 * queue (the queue was full): Listener.onIgnore, no sample; the slot is
 * freed. */
void lim_ignore(srv_limiter *l, uint32_t slot);

/* The limit's update rule alone (Limit.onSample): one sample of RTT rtt
 * with `inflight` in flight at its admission.  Kind none or fixed: no
 * change.  (lim_release calls it; tests call it directly.) */
void lim_sample(srv_limiter *l, double rtt, uint32_t inflight, bool dropped);

/* One sample through WindowedLimit (limiter_window_s > 0) or straight to
 * lim_sample; now is the sample's end.  (lim_release calls it.) */
void lim_window_sample(srv_limiter *l, double now, double rtt, uint32_t inflight, bool dropped);

/* Gradient2's queue allowance for a limit (the queue size function). */
uint32_t lim_queue_size(spec_g2queue fn, uint32_t baseline, uint32_t limit);

#endif
