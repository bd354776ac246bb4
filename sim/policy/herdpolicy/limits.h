/*
 * herdpolicy/limits.h - the state machines shared by the calls of one client: the AWS adaptive send-rate limiter, sliding windows, retry limiters (AWS quota, gRPC, Envoy, Finagle), the circuit breaker, adaptive throttling and hedging.
 * Part of herdpolicy.h: include <herdpolicy.h>, not this file.
 */
#ifndef HERDPOLICY_LIMITS_H
#define HERDPOLICY_LIMITS_H

#ifndef HERDPOLICY_H
#error "include <herdpolicy.h>, which includes this file"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- AWS SDK adaptive retry: the client-side rate limiter ---------------
 *
 * botocore/retries/adaptive.py (ClientRateLimiter, RateClocker),
 * bucket.py (TokenBucket) and throttling.py (CubicCalculator), as pure state
 * on explicit time.  Before every attempt the caller asks hp_adaptive_acquire
 * for the wait before it may send (0 until the first throttling response
 * enables the limiter); after every response it reports whether it was a
 * throttling error.  botocore blocks the sending thread on a condition
 * variable until a token is there; here the token is reserved at once (the
 * balance may go negative) and the wait returned, so concurrent callers get
 * the tokens one after another, in order.
 *   Measured send rate (RateClocker): responses are counted in 0.5 s
 *     buckets; when a response falls in a later bucket, rate = 0.8 *
 *     count / (bucket - last bucket) + 0.2 * rate.
 *   CUBIC (CubicCalculator, C = 0.4, beta = 0.7): on a throttle, w_max =
 *     the rate in use (measured, or min(measured, fill rate) once enabled),
 *     k = cbrt(w_max * (1 - beta) / C), new rate = beta * that rate; on a
 *     success, new rate = C * (t - last throttle - k)^3 + w_max.
 *   Token bucket: fill rate = max(new rate capped at 2 x measured, 0.5)/s,
 *     capacity = max(that rate, 1) (refilled at the old rate up to now
 *     first).
 */
typedef struct hp_adaptive {
    bool enabled;           /* a throttling response has been seen */
    double fill_rate;       /* tokens per second, >= 0.5 */
    double max_capacity;    /* >= 1 */
    double capacity;        /* tokens (negative: reserved ahead) */
    double last_refill_s;   /* NaN until the first refill */
    double w_max, k, last_fail_s; /* CUBIC */
    double measured_rate;   /* smoothed responses per second */
    double last_bucket_s;   /* RateClocker's last bucket */
    uint32_t count;         /* responses in the current bucket */
} hp_adaptive;

#define HP_ADAPTIVE_MIN_RATE 0.5
#define HP_ADAPTIVE_BETA 0.7
#define HP_ADAPTIVE_SCALE 0.4
#define HP_ADAPTIVE_SMOOTHING 0.8
#define HP_ADAPTIVE_BUCKET_S 0.5

/* A fresh limiter at now_s: disabled, fill rate 1/s (botocore's max_rate=1),
 * CUBIC with w_max 0 and its last failure at now_s. */
void hp_adaptive_init(hp_adaptive *a, double now_s);

/* An attempt wants to go at now_s: returns the wait before it may be sent
 * (0 while disabled, or when a token is there) and reserves its token. */
double hp_adaptive_acquire(hp_adaptive *a, double now_s);

/* A response arrived at now_s; throttled: it was a throttling error (429, or
 * a throttling error code).  Returns the new fill rate. */
double hp_adaptive_on_response(hp_adaptive *a, double now_s, bool throttled);

/* ===================================================================== *
 * Retry limiters, circuit breaker, adaptive throttling, hedged requests
 * (AWS SDK retry quota, gRPC retry throttling, Envoy and Finagle retry
 * budgets, Google SRE client-side throttling).
 *
 * Pure state machines driven by explicit time.  Each has an options struct
 * (zero-initialised = the documented defaults; the defaults ARE the presets,
 * written out by the *_defaults() functions), a state struct that the caller
 * allocates and initialises with its *_init() function, and small
 * operations.  Nothing allocates; every state is a fixed size.
 *
 * Time
 *   - now_s is seconds on whatever clock the caller uses (simulated time,
 *     CLOCK_MONOTONIC), the same clock for every call on one state.
 *   - Clamped, never rejected: every state keeps the latest time it has
 *     seen, and a now_s below it (time going backwards), NaN or infinite
 *     acts as that latest time (see hp_time_clamp).  *_init() with a
 *     non-finite now_s starts the clock at 0.
 *   - Sliding windows are HP_WINDOW_BUCKETS fixed sub-buckets (hp_window):
 *     an event counts from its time t until the end of the window measured
 *     from the start of its sub-bucket, i.e. for at least
 *     window * (1 - 1/HP_WINDOW_BUCKETS) and at most window after t.
 *   - Huge finite times are fine: a jump of a whole window or more empties
 *     the window in O(HP_WINDOW_BUCKETS).  Past about 2^52 sub-bucket
 *     widths a double cannot tell sub-buckets apart: events at exactly the
 *     same time still add up, any later time starts an empty window.  In
 *     the same way a duration below the spacing of doubles near now_s
 *     vanishes (at now_s = 1e300 a breaker's open period ends at once).
 *
 * Zero as a setting
 *   Some fields have a default other than zero although zero is a sensible
 *   setting (no reserve, no minimum, hedge at once).  Those take HP_OFF
 *   (herdpolicy.h) to mean zero; the *_check() functions accept exactly
 *   HP_OFF and reject other negative values, and the state machines read
 *   any negative value as zero.  HP_OFF survives *_defaults() and *_init(),
 *   so a state's resolved options can be passed to *_init() again
 *   unchanged.  The other fields have no zero setting: 0 is their default.
 */

/* Returns the time an operation acts at: now_s if it is finite and not
 * below latest_s, else latest_s. */
double hp_time_clamp(double latest_s, double now_s);

/* ---- Sliding-window counters ----------------------------------------- */

#define HP_WINDOW_BUCKETS 10

/* Two event counters (a, b) over a sliding window of HP_WINDOW_BUCKETS
 * sub-buckets of width_s each; the head sub-bucket covers
 * [head_start_s, head_start_s + width_s).  Running sums keep every
 * operation O(HP_WINDOW_BUCKETS) at worst (O(1) amortised for adds);
 * sub-bucket counters saturate at UINT32_MAX. */
typedef struct hp_window {
    double width_s;      /* window / HP_WINDOW_BUCKETS */
    double head_start_s; /* start of the newest sub-bucket */
    uint32_t head;       /* its index */
    uint32_t a[HP_WINDOW_BUCKETS];
    uint32_t b[HP_WINDOW_BUCKETS];
    uint64_t sum_a, sum_b; /* over all sub-buckets */
} hp_window;

/* Empty window of length window_s (positive and finite; anything else is
 * taken as 1 s) whose first sub-bucket starts at now_s (0 if not finite). */
void hp_window_init(hp_window *w, double window_s, double now_s);

/* Adds (a, b) events at now_s, first dropping the sub-buckets that have
 * left the window.  A now_s before the head sub-bucket, or not finite,
 * counts in the head sub-bucket.  O(1) amortised, O(HP_WINDOW_BUCKETS)
 * at worst. */
void hp_window_add(hp_window *w, double now_s, uint32_t a, uint32_t b);

/* The sums of a and b over the window as it stands at now_s (same
 * clamping as hp_window_add); does not modify the window, so it costs one
 * step per expired sub-bucket.  Either output pointer may be NULL. */
void hp_window_sums(const hp_window *w, double now_s, uint64_t *a,
                    uint64_t *b);

/* ---- Retry limiters ---------------------------------------------------
 *
 * One interface over four published ways to bound retries per client:
 *
 *   HP_LIMITER_NONE       every retry allowed (the default).
 *   HP_LIMITER_AWS_QUOTA  AWS SDK "standard" retry quota: a bucket of
 *       aws_capacity tokens, full at start.  A retry costs aws_retry_cost,
 *       aws_timeout_cost after a timeout, and is refused when fewer tokens
 *       are left than it costs.  A success gives back the cost of the retry
 *       that produced it, or aws_success_increment if it needed no retry;
 *       the balance never exceeds aws_capacity.
 *   HP_LIMITER_GRPC       gRPC retry throttling (gRFC A6): tokens start at
 *       grpc_max_tokens; each failed attempt takes 1 (floor 0), each
 *       successful one adds grpc_token_ratio (cap grpc_max_tokens); retries
 *       are allowed only while tokens > grpc_max_tokens / 2.  Tokens are
 *       kept in thousandths, as gRPC core does: exact arithmetic, the ratio
 *       rounded to the nearest 0.001 (the service config allows no more
 *       than 3 decimals).  Retries themselves cost nothing.
 *   HP_LIMITER_ENVOY      Envoy retry budget: a retry is allowed while
 *       active_retries < max(envoy_min_retry_concurrency,
 *       (uint64_t)(envoy_budget_percent / 100.0 * active_requests)),
 *       Envoy's own expression.  Envoy's base is active plus pending
 *       requests: the caller counts queued requests as active too.
 *   HP_LIMITER_FINAGLE    Finagle RetryBudget: over a sliding window of
 *       finagle_ttl_s (hp_window), a retry is allowed while
 *       requests * percent + min_retries_per_s * ttl - retries >= 1.
 *       Computed with Finagle's integer tokens: a request deposits 1000, a
 *       retry withdraws W = floor(1000 / percent) (1 if percent is 0), the
 *       reserve is floor(min_retries_per_s * ttl * W); a retry is allowed
 *       while reserve + deposits - withdrawals >= W.  Exact when 1000 /
 *       percent is an integer (0.1, 0.2, 0.25, 0.5, 1, 2, ...); otherwise
 *       the effective percent is 1000 / W, slightly above.  Withdrawals
 *       leave the window like deposits.  Finagle also uses 10 sub-buckets.
 *
 * What the caller reports (each operation is a no-op for kinds it does not
 * concern, apart from advancing the clock):
 *   on_request_start(is_retry)  every attempt sent: Envoy counts it active;
 *                               Finagle deposits for first attempts only.
 *   on_request_end              that attempt finished (Envoy).
 *   try_retry                   before each retry: true = go ahead (the
 *                               quota, Envoy slot or Finagle withdrawal is
 *                               taken), false = give up.
 *   on_retry_end                the retry taken by try_retry is over
 *                               (Envoy: it releases the slot when the
 *                               backed-off retry is sent; a model may hold
 *                               it until the retry's reply instead).
 *   on_success(retry_cost)      an attempt succeeded; retry_cost is what
 *                               try_retry charged for it (0 for a first
 *                               attempt) (AWS, gRPC).
 *   on_failure                  an attempt failed in a retryable way (gRPC).
 */

typedef enum hp_limiter_kind {
    HP_LIMITER_NONE = 0,
    HP_LIMITER_AWS_QUOTA,
    HP_LIMITER_GRPC,
    HP_LIMITER_ENVOY,
    HP_LIMITER_FINAGLE,
    HP_LIMITER_KIND_COUNT
} hp_limiter_kind;

/* "none", "aws_quota", "grpc", "envoy", "finagle"; NULL if out of range. */
const char *hp_limiter_kind_name(hp_limiter_kind k);
/* 0 and *out, or -1 for an unknown name (*out untouched). */
int hp_limiter_kind_parse(const char *name, hp_limiter_kind *out);

typedef struct hp_limiter_opts {
    hp_limiter_kind kind;           /* default HP_LIMITER_NONE */
    /* HP_LIMITER_AWS_QUOTA */
    uint32_t aws_capacity;          /* tokens, also the initial balance; 0 = 500 */
    uint32_t aws_retry_cost;        /* <= capacity; 0 = 5 */
    uint32_t aws_timeout_cost;      /* a retry after a timeout; <= capacity; 0 = 10 */
    uint32_t aws_success_increment; /* a success that needed no retry; 0 = 1 */
    /* HP_LIMITER_GRPC */
    uint32_t grpc_max_tokens;       /* 1..1000; 0 = 10 */
    double grpc_token_ratio;        /* >= 0.0005 (rounds to >= 1/1000); 0 = 0.1;
                                     * above grpc_max_tokens acts as it */
    /* HP_LIMITER_ENVOY */
    double envoy_budget_percent;    /* percent, 0..100; 0 = 20; HP_OFF = 0 */
    int32_t envoy_min_retry_concurrency; /* 0 = 3; HP_OFF = 0 */
    /* HP_LIMITER_FINAGLE */
    double finagle_ttl_s;           /* > 0; 0 = 10 */
    double finagle_min_retries_per_s; /* 0 = 10; HP_OFF = 0 */
    double finagle_percent_can_retry; /* a fraction (0.2 = 20%), 0..1000; 0 = 0.2;
                                       * HP_OFF = 0 */
} hp_limiter_opts;

#define HP_DEFAULT_AWS_CAPACITY 500u
#define HP_DEFAULT_AWS_RETRY_COST 5u
#define HP_DEFAULT_AWS_TIMEOUT_COST 10u
#define HP_DEFAULT_AWS_SUCCESS_INCREMENT 1u
#define HP_DEFAULT_GRPC_MAX_TOKENS 10u
#define HP_DEFAULT_GRPC_TOKEN_RATIO 0.1
#define HP_DEFAULT_ENVOY_BUDGET_PERCENT 20.0
#define HP_DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY 3
#define HP_DEFAULT_FINAGLE_TTL_S 10.0
#define HP_DEFAULT_FINAGLE_MIN_RETRIES_PER_S 10.0
#define HP_DEFAULT_FINAGLE_PERCENT_CAN_RETRY 0.2

/* Initialise with hp_limiter_init(); the fields are readable (tests,
 * metrics) but change them only through the functions. */
typedef struct hp_limiter {
    hp_limiter_opts opts;      /* every default written out (HP_OFF kept) */
    double now_s;              /* latest time seen */
    uint32_t aws_tokens;
    uint32_t grpc_milli_tokens;
    uint32_t active_requests;  /* Envoy: attempts in flight (saturating, floor 0) */
    uint32_t active_retries;   /* Envoy: retries taken and not ended */
    hp_window window;          /* Finagle: a = first attempts, b = retries */
} hp_limiter;

/* The options for kind with every default written out (kind out of range:
 * HP_LIMITER_NONE). */
hp_limiter_opts hp_limiter_defaults(hp_limiter_kind kind);

/* NULL if the options are usable (after zero-means-default), else a static
 * string saying what is wrong.  Checks every field, whatever the kind. */
const char *hp_limiter_check(const hp_limiter_opts *o);

/* A full limiter at now_s.  opts NULL means all defaults (kind NONE).
 * Options hp_limiter_check() rejects still give a usable limiter: NaN and
 * infinite values take their defaults, and so do negative ones except in
 * HP_OFF fields, where they read as zero; grpc_max_tokens and
 * finagle_percent_can_retry act as at most 1000; a kind out of range acts
 * as NONE; AWS costs above the capacity are kept (such retries never
 * pass). */
void hp_limiter_init(hp_limiter *l, const hp_limiter_opts *opts, double now_s);

/* An attempt is sent: Envoy counts it active; Finagle deposits when
 * is_retry is false. */
void hp_limiter_on_request_start(hp_limiter *l, double now_s, bool is_retry);

/* An attempt finished, whatever its outcome (Envoy). */
void hp_limiter_on_request_end(hp_limiter *l, double now_s);

/* May a retry be sent now?  If so, takes what it costs (AWS tokens, an
 * Envoy slot, a Finagle withdrawal) and returns true; *cost_out (may be
 * NULL) is then the AWS cost charged (aws_timeout_cost if after_timeout,
 * else aws_retry_cost) and 0 for other kinds.  If not, changes nothing,
 * sets *cost_out to 0 and returns false.  HP_LIMITER_NONE always allows. */
bool hp_limiter_try_retry(hp_limiter *l, double now_s, bool after_timeout,
                          uint32_t *cost_out);

/* The retry allowed by hp_limiter_try_retry is over (Envoy). */
void hp_limiter_on_retry_end(hp_limiter *l, double now_s);

/* An attempt succeeded.  retry_cost is the *cost_out of the try_retry that
 * allowed it, 0 for a first attempt.  AWS: gives back retry_cost, or
 * aws_success_increment when retry_cost is 0 (cap aws_capacity); gRPC: adds
 * the token ratio (cap max tokens). */
void hp_limiter_on_success(hp_limiter *l, double now_s, uint32_t retry_cost);

/* An attempt failed in a way that counts against the server (gRPC: a
 * retryable status): takes one gRPC token (floor 0). */
void hp_limiter_on_failure(hp_limiter *l, double now_s);

/* What is left, in the kind's own unit, at now_s (no state change): AWS
 * tokens; gRPC tokens (thousandths / 1000); Envoy retry slots free (may be
 * negative after the active count fell); Finagle whole retries
 * (floor(tokens / W), Finagle's balance); NONE +infinity. */
double hp_limiter_balance(const hp_limiter *l, double now_s);

/* ---- Circuit breaker ----------------------------------------------------
 *
 * CLOSED: every request allowed; results (success / failure, as the caller
 *   classes them) are counted over a sliding window of window_s (hp_window).
 *   After a result, if the window holds at least min_requests results and
 *   failures / results >= failure_ratio, the breaker opens.
 * OPEN: every request refused (fail fast), results ignored.  From
 *   open_s after it opened, it reads as HALF_OPEN (a transition by time:
 *   hp_breaker_state() reports it without any call in between).
 * HALF_OPEN: the first `probes` requests are let through as probes, the
 *   rest refused.  A failed probe reopens it (open_s again, from then);
 *   when all `probes` have succeeded it closes with an empty window.
 *   A result while no probe is outstanding (a late reply to a request let
 *   through before the breaker opened) is ignored.
 */

typedef enum hp_circuit {
    HP_CIRCUIT_CLOSED = 0,
    HP_CIRCUIT_OPEN,
    HP_CIRCUIT_HALF_OPEN,
    HP_CIRCUIT_COUNT
} hp_circuit;

/* "closed", "open", "half_open"; NULL if out of range. */
const char *hp_circuit_name(hp_circuit c);

typedef struct hp_breaker_opts {
    double failure_ratio;  /* in (0, 1]; 0 = 0.5 */
    uint32_t min_requests; /* results in the window before it may open; 0 = 20 */
    double window_s;       /* > 0; 0 = 10 */
    double open_s;         /* > 0; 0 = 5 */
    uint32_t probes;       /* trial requests in half-open; 0 = 3 */
} hp_breaker_opts;

#define HP_DEFAULT_BREAKER_FAILURE_RATIO 0.5
#define HP_DEFAULT_BREAKER_MIN_REQUESTS 20u
#define HP_DEFAULT_BREAKER_WINDOW_S 10.0
#define HP_DEFAULT_BREAKER_OPEN_S 5.0
#define HP_DEFAULT_BREAKER_PROBES 3u

typedef struct hp_breaker {
    hp_breaker_opts opts;  /* every default written out */
    double now_s;          /* latest time seen */
    double open_until_s;   /* OPEN: when it becomes HALF_OPEN */
    hp_circuit circuit;    /* as of now_s (OPEN may have expired since) */
    uint32_t probes_sent;  /* HALF_OPEN */
    uint32_t probes_ok;    /* HALF_OPEN */
    uint32_t opened;       /* times it has opened (saturating) */
    hp_window window;      /* CLOSED: a = successes, b = failures */
} hp_breaker;

/* The default options written out. */
hp_breaker_opts hp_breaker_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_breaker_check(const hp_breaker_opts *o);

/* A closed breaker with an empty window at now_s; opts NULL means defaults;
 * values hp_breaker_check() rejects take their defaults, except a
 * failure_ratio above 1, taken as 1. */
void hp_breaker_init(hp_breaker *b, const hp_breaker_opts *opts, double now_s);

/* The state at now_s (no state change). */
hp_circuit hp_breaker_state(const hp_breaker *b, double now_s);

/* May a request be sent now?  CLOSED: true; OPEN: false; HALF_OPEN: true
 * for the first `probes` calls (each counted as a probe), then false. */
bool hp_breaker_allow(hp_breaker *b, double now_s);

/* The result of a request that hp_breaker_allow() let through. */
void hp_breaker_on_result(hp_breaker *b, double now_s, bool success);

/* ---- Client-side adaptive throttling ------------------------------------
 *
 * Google SRE book, "Handling Overload": over a sliding window (hp_window)
 * the client counts requests (attempts it wanted to send, including those
 * it rejected itself) and accepts (replies that were not "overloaded"), and
 * rejects a new request locally with probability
 *   max(0, (requests - K * accepts) / (requests + 1)).
 */

typedef struct hp_throttle_opts {
    double window_s; /* > 0; 0 = 120 */
    double k;        /* > 0; 0 = 2 (lower is more aggressive) */
} hp_throttle_opts;

#define HP_DEFAULT_THROTTLE_WINDOW_S 120.0
#define HP_DEFAULT_THROTTLE_K 2.0

typedef struct hp_throttle {
    hp_throttle_opts opts; /* every default written out */
    double now_s;          /* latest time seen */
    hp_window window;      /* a = requests, b = accepts */
} hp_throttle;

/* The default options written out. */
hp_throttle_opts hp_throttle_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_throttle_check(const hp_throttle_opts *o);

/* Empty window at now_s; opts NULL means defaults; rejected values are
 * resolved to their defaults. */
void hp_throttle_init(hp_throttle *t, const hp_throttle_opts *opts,
                      double now_s);

/* The rejection probability at now_s, in [0, 1) (no state change). */
double hp_throttle_p_reject(const hp_throttle *t, double now_s);

/* The window's counts at now_s (no state change): requests (every call of
 * hp_throttle_allow, the locally rejected ones too, as the SRE formula
 * counts them) and accepts.  Either pointer may be NULL. */
void hp_throttle_counts(const hp_throttle *t, double now_s, uint64_t *requests,
                        uint64_t *accepts);

/* Decides one request at now_s with a uniform u in [0, 1) (clamped; NaN
 * is 0): rejected when u < hp_throttle_p_reject() as it stood before this
 * request.  Counts the request either way.  True = send it. */
bool hp_throttle_allow(hp_throttle *t, double now_s, double u);

/* The backend accepted a request (did not answer "overloaded"). */
void hp_throttle_on_accept(hp_throttle *t, double now_s);

/* ---- Hedged requests -----------------------------------------------------
 *
 * Send the request; if no answer after hp_hedge_delay(), send a copy, and
 * so on up to hp_hedge_max() copies (copy k goes out k delays after the
 * first, as gRPC hedging does).  The caller takes the first answer,
 * cancels the rest and counts the wasted copies.
 *
 * The delay is delay_s (HP_HEDGE_FIXED) or the tracked percentile of the
 * latencies given to hp_hedge_observe() (HP_HEDGE_PERCENTILE; delay_s until
 * min_samples have been seen).  The tracker is a log-bucketed histogram:
 * bucket 0 holds latencies <= HP_HEDGE_MIN_S, bucket i (1..HP_HEDGE_BUCKETS-2)
 * holds (HP_HEDGE_MIN_S * g^(i-1), HP_HEDGE_MIN_S * g^i] with g = 1.1, the
 * last one everything above (about 3.3e4 s); a bucket reads as
 * 2 * HP_HEDGE_MIN_S * g^i / (g + 1).  For latencies between HP_HEDGE_MIN_S
 * and the last bucket, a quantile is therefore within (g-1)/(g+1) = 4.77%
 * (plus rounding; under 5%) of the nearest-rank quantile of the samples.
 * Below HP_HEDGE_MIN_S it reads HP_HEDGE_MIN_S, above the range about
 * 3.3e4 s.  The histogram is cumulative since hp_hedge_init(); when a bucket
 * would overflow, every count is halved (rounding up), which keeps the
 * proportions.  About 1 KiB of state.
 */

typedef enum hp_hedge_mode {
    HP_HEDGE_PERCENTILE = 0, /* default */
    HP_HEDGE_FIXED,
    HP_HEDGE_MODE_COUNT
} hp_hedge_mode;

/* "percentile", "fixed"; NULL if out of range. */
const char *hp_hedge_mode_name(hp_hedge_mode m);
/* 0 and *out, or -1 for an unknown name (*out untouched). */
int hp_hedge_mode_parse(const char *name, hp_hedge_mode *out);

typedef struct hp_hedge_opts {
    hp_hedge_mode mode;   /* default HP_HEDGE_PERCENTILE */
    double delay_s;       /* fixed delay, and the percentile mode's delay before
                           * min_samples; 0 = 1 s (conservative: hedging blind
                           * mostly adds load); HP_OFF = 0 (copies at once) */
    double percentile;    /* in (0, 1]; 0 = 0.95 */
    uint32_t max_hedges;  /* extra copies per request; 0 = 1 */
    uint32_t min_samples; /* 0 = 20 */
} hp_hedge_opts;

#define HP_DEFAULT_HEDGE_DELAY_S 1.0
#define HP_DEFAULT_HEDGE_PERCENTILE 0.95
#define HP_DEFAULT_HEDGE_MAX 1u
#define HP_DEFAULT_HEDGE_MIN_SAMPLES 20u
#define HP_HEDGE_BUCKETS 256
#define HP_HEDGE_MIN_S 1e-6

typedef struct hp_hedge {
    hp_hedge_opts opts; /* every default written out (HP_OFF kept) */
    uint64_t count;     /* samples in the histogram */
    uint64_t seen;      /* samples observed (not reduced by halving) */
    uint32_t bins[HP_HEDGE_BUCKETS];
} hp_hedge;

/* The default options written out. */
hp_hedge_opts hp_hedge_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_hedge_check(const hp_hedge_opts *o);

/* Empty tracker; opts NULL means defaults; values hp_hedge_check() rejects
 * take their defaults, except a negative delay_s, read as zero. */
void hp_hedge_init(hp_hedge *h, const hp_hedge_opts *opts);

/* Records one latency (seconds).  NaN and negative values are ignored;
 * +infinity lands in the last bucket.  O(1), except O(HP_HEDGE_BUCKETS)
 * when the counts are halved. */
void hp_hedge_observe(hp_hedge *h, double latency_s);

/* The nearest-rank q-quantile estimate (q clamped into (0, 1]; NaN or
 * q <= 0 gives the smallest sample's bucket); NaN with no samples.
 * O(HP_HEDGE_BUCKETS). */
double hp_hedge_quantile(const hp_hedge *h, double q);

/* The delay after which to send the next copy: delay_s (fixed mode, or
 * fewer than min_samples seen), else hp_hedge_quantile(percentile).
 * Always finite and >= 0. */
double hp_hedge_delay(const hp_hedge *h);

/* The most extra copies per request (max_hedges). */
uint32_t hp_hedge_max(const hp_hedge *h);


#ifdef __cplusplus
}
#endif
#endif /* HERDPOLICY_LIMITS_H */
