/*
 * ref.c - the speed reference of issue 26: a conventional event-driven
 * simulation, in one file, of the two shipped workloads that `make bench`
 * times herd on, written from herd's documented semantics (the comments of
 * scenarios/thundering-herd.ini and scenarios/aws-2015-occ.ini, doc/server.md,
 * the policy library's backoff rules), not from its code.
 *
 *   build/perf_ref th  [--clients N] [--reps R] [--strategies a,b] [--timeout S] [--seed S]
 *   build/perf_ref occ [--from N --to N --step N] [--reps R] [--strategies a,b] [--seed S]
 *
 * th: N clients send one request each at t = 0 to a server that refuses
 * connections in [0, 10) s (refused: not a call), then serves with 100
 * workers, exponential(0.1 s) service and 500 FIFO waiting places (503
 * beyond).  Hops are normal(5 ms, 1 ms) truncated at 0 (redrawn).  Retry:
 * base 1 s, cap 60 s, at most 10 attempts, a timeout of 5 s per attempt
 * from its send (a timed-out attempt is retried, its reply arrives late).
 * occ: the AWS 2015 optimistic-concurrency model (read, reply, conditional
 * write, reply; hops |normal(10 ms, 2 ms)|; base 5 ms, cap 2 s, unlimited
 * attempts, the first retry's exponent is 1).
 *
 * Events: arrival at the server, end of service, reply at the client, and
 * a timeout only where one can still fire: when the attempt's outcome time
 * is known (a refusal, a 503, a service started at once: the reply hop is
 * drawn at the service start) and lies before the deadline, no timer is
 * scheduled; a queued attempt gets one.  A timer or reply of an attempt
 * that is over is recognised by the attempt number it carries.
 *
 * Pending set: a ladder queue (Tang, Goh and Thng 2005).  Top holds the far
 * future (every event after top_start), unsorted; below it, rungs of
 * equal-width buckets, each rung spanning one bucket of the rung above;
 * Bottom holds the events of the current finest bucket, sorted (ties FIFO
 * by insertion number).  When the rungs are used up, Top becomes a rung
 * over [its earliest, its latest] time; a bucket that becomes current goes
 * to Bottom if it holds at most LQ_BOT events, else becomes a rung over its
 * own span, a bucket for every LQ_PER events (at most LQ_FAN): widths follow
 * the density of the events they sort.  Each event is moved once per rung
 * it passes through (two at 10^6 pending), by reading and appending
 * unsorted lists of 512-byte chunks of 21 events in order; no allocation
 * per event (chunks come from one pool with a free list).  The pop order,
 * (time, insertion number), is that of any correct pending set: the
 * calendar queue this replaced gave the same outputs byte for byte.
 *
 * Random numbers: GSL's MT19937, one stream per purpose (network, service,
 * backoff), seeded from (seed, replication, purpose) by splitmix64 with
 * constants of its own, so the reference's streams are independent of
 * herd's; normal draws by gsl_ran_gaussian_ziggurat, exponential by
 * -mean * log(u), u in (0, 1).
 *
 * Per-client state (th): one byte (attempt number, 7 bits, and whether an
 * attempt is outstanding), plus 8 bytes of decorrelated jitter's previous
 * sleep when that strategy runs.
 *
 * Prints one CSV line per (strategy, clients, replication) on stdout, and
 * on stderr the totals "ref: events=E attempts=A".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#define NIL UINT32_MAX

/* Measured against the calendar queue it replaced, CPU seconds (user +
 * system, median of 3 runs taken in turn with it on the 2-core build
 * machine, load 2 to 4) and peak RSS:
 *
 *   case                                calendar           ladder (this)
 *   th 10^4, 6 strategies x 5 reps      0.37 s, 3.5 MiB    0.24 s, 4.2 MiB
 *   th 10^6, full jitter                3.58 s, 33.1 MiB   1.43 s, 29.5 MiB
 *   th 10^7, full jitter, 2 s           27.1 s, 335 MiB    9.9 s, 247 MiB
 *   occ, the whole sweep                3.73 s, 2.9 MiB    3.05 s, 2.9 MiB
 *
 * and instructions (callgrind): 2,820 M and 1,951 M at 10^4, 10,863 M and
 * 8,629 M at 10^6: at 10^6 and beyond the calendar's cost was cache misses,
 * a random bucket and its tail chunk per push, chunk lists walked one
 * 128-byte chunk (one miss) at a time.  Variants of the ladder (10^6 CPU s,
 * 10^4 instructions; same outputs in all):
 *   chunks of 5 events (128 B), LQ_BOT 32, LQ_PER 16: 1.8 to 2.4 s,
 *     2,153 M, 10^7 11.2 s; of 10: 1.52 s; of 21: 1.43 to 1.49 s, 2,072 M,
 *     10^7 8.9 s; of 42: 1.42 s, 33 MiB; of 85: 1.47 s, 41 MiB;
 *   LQ_FAN 1,024 / 16,384 / 65,536 with 5-event chunks: 2.08 / 2.52 /
 *     2.65 s against 2.30 to 2.41 s; with 21: 1.46 / 1.40 s, 10^7 8.9 /
 *     9.3 s against 7.7 s;
 *   LQ_BOT / LQ_PER (21-event chunks): 16/8 1,995 M, 24/8 1,961 M, 32/4
 *     1,905 M but 1.58 s, 32/8 1,951 M (kept), 32/16 2,072 M, 48/12
 *     2,142 M, 64/16 2,322 M;
 *   prefetching the destination of each event spread, or the client of
 *     the event 8 ahead in Bottom: no gain beyond the noise; sorting into
 *     Bottom while copying: 1,986 M.
 * Before it, the calendar queue (Brown 1988, 2^k buckets of chunked
 * unsorted lists, resized in place, width from the median gap of sampled
 * times) was itself the best of: Brown's sorted linked lists (403 M at
 * 10^4, one replication, but 11 to 13 s at 10^6) and a calendar with a
 * lazy far future (events beyond one year in one unsorted list, scanned
 * whole at each new year: 7.6 to 22.9 s at 10^6), which a ladder's Top
 * and rungs do properly: an event is moved once per rung, never scanned
 * again where it stays. */
#ifndef LQ_CH
#define LQ_CH 21      /* events a chunk: 512 bytes */
#endif
#ifndef LQ_BOT
#define LQ_BOT 32     /* a bucket of at most this many events goes to Bottom */
#endif
#ifndef LQ_PER
#define LQ_PER 8      /* events a bucket of a new rung, on average */
#endif
#ifndef LQ_FAN
#define LQ_FAN 4096   /* buckets a rung, at most */
#endif
#ifndef LQ_BOTMAX
#define LQ_BOTMAX 256 /* Bottom grown beyond this by pushes becomes a rung */
#endif
#ifndef LQ_MAXR
#define LQ_MAXR 16    /* rungs, at most (then Bottom takes a bucket of any size) */
#endif

/* ---- the ladder queue (the names cq_* are the calendar queue's it replaced) ---- */

typedef struct {
    double t;
    uint32_t seq;  /* insertion order: ties are FIFO */
    uint32_t obj;  /* client */
    float aux;     /* th: the forward hop (arrival) or the reply hop (end of service) */
    uint8_t type;
    uint8_t att;   /* attempt number (th) */
    uint16_t arg;  /* th: reply outcome; occ: version read, or outcome */
} cq_ev;

typedef struct {
    cq_ev e[LQ_CH];
    uint32_t next;
} cq_chunk;

/* An unsorted list of chunks, appended in insertion order: tn events in
 * the tail chunk (the others are full), n in all. */
typedef struct {
    uint32_t head, tail, tn, n;
} cq_bucket;

/* nb buckets; an event of time t in bucket floor((t - start) * inv_w)
 * clamped to [0, nb - 1] (monotonic in t, so ties share a bucket).  The
 * buckets before nxt have been moved down: the one at nxt - 1 is the next
 * rung's, or Bottom's. */
typedef struct {
    double start, inv_w;
    cq_bucket *b;
    uint32_t nb, nxt;
} cq_rung;

typedef struct {
    cq_chunk *ch;           /* the chunk pool */
    uint32_t nch, cap, free;
    cq_bucket top;          /* Top: the events after top_start */
    double top_min, top_max, top_start;
    cq_rung r[LQ_MAXR];     /* r[0] spans what Top held when it became a rung */
    uint32_t nr;
    cq_bucket *rb[LQ_MAXR]; /* each level's bucket array, reused */
    uint32_t rbcap[LQ_MAXR];
    cq_ev *bot;             /* Bottom: sorted, popped from b0 */
    uint32_t b0, blen, bcap;
    uint64_t n;             /* events pending */
    uint32_t seq;
} cq;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "perf_ref: out of memory\n");
        exit(1);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "perf_ref: out of memory\n");
        exit(1);
    }
    return p;
}

static inline int ev_before(const cq_ev *a, const cq_ev *b)
{
    return a->t < b->t || (a->t == b->t && (int32_t)(a->seq - b->seq) < 0);
}

static int ecmp(const void *a, const void *b)
{
    return ev_before(a, b) ? -1 : ev_before(b, a);
}

static const cq_bucket cq_empty = {NIL, NIL, 0, 0};

static uint32_t chunk_new(cq *q)
{
    uint32_t i = q->free;
    if (i != NIL) {
        q->free = q->ch[i].next;
    } else {
        if (q->nch == q->cap) {
            q->cap *= 2;
            q->ch = xrealloc(q->ch, sizeof *q->ch * q->cap);
        }
        i = q->nch++;
    }
    q->ch[i].next = NIL;
    return i;
}

static inline cq_ev *bucket_append(cq *q, cq_bucket *b)
{
    uint32_t t = b->tail;
    if (t == NIL || b->tn == LQ_CH) {
        uint32_t c = chunk_new(q);
        if (t == NIL)
            b->head = c;
        else
            q->ch[t].next = c;
        b->tail = t = c;
        b->tn = 0;
    }
    b->n++;
    return &q->ch[t].e[b->tn++];
}

static inline uint32_t rung_idx(const cq_rung *g, double t)
{
    double x = (t - g->start) * g->inv_w;
    if (!(x > 0))
        return 0;
    return x < (double)g->nb ? (uint32_t)x : g->nb - 1;
}

static void bot_reserve(cq *q, uint64_t n)
{
    if (n > q->bcap) {
        while (q->bcap < n)
            q->bcap = q->bcap ? 2 * q->bcap : 64;
        q->bot = xrealloc(q->bot, sizeof *q->bot * q->bcap);
    }
}

/* Sorts Bottom: insertion sort, it holds a few (qsort for a bucket that
 * could not be split: ties, or the deepest rung's). */
static void bot_sort(cq *q)
{
    cq_ev *a = q->bot + q->b0;
    uint32_t n = q->blen - q->b0;
    if (n > 32) {
        qsort(a, n, sizeof *a, ecmp);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        cq_ev x = a[i];
        uint32_t j = i;
        while (j > 0 && ev_before(&x, &a[j - 1])) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* Whether n events over [lo, hi] can be told apart by buckets. */
static inline int splittable(double lo, double hi, uint64_t n)
{
    return hi > lo && isfinite((double)n / (hi - lo));
}

/* A new rung below the others, for n events over [lo, hi] (splittable). */
static cq_rung *rung_new(cq *q, uint64_t n, double lo, double hi)
{
    uint32_t lv = q->nr++;
    uint64_t nb = (n + LQ_PER - 1) / LQ_PER;
    if (nb < 2)
        nb = 2;
    if (nb > LQ_FAN)
        nb = LQ_FAN;
    if (q->rbcap[lv] < nb) {
        q->rbcap[lv] = (uint32_t)nb;
        q->rb[lv] = xrealloc(q->rb[lv], sizeof *q->rb[lv] * nb);
    }
    cq_rung *g = &q->r[lv];
    g->b = q->rb[lv];
    g->nb = (uint32_t)nb;
    g->nxt = 0;
    g->start = lo;
    g->inv_w = (double)nb / (hi - lo);
    for (uint32_t k = 0; k < nb; k++)
        g->b[k] = cq_empty;
    return g;
}

/* Moves the events of bucket b into rung g, freeing its chunks as they are
 * read (the pool does not grow). */
static void bucket_spread(cq *q, cq_bucket *b, cq_rung *g)
{
    for (uint32_t c = b->head; c != NIL;) {
        cq_ev tmp[LQ_CH];
        uint32_t n = c == b->tail ? b->tn : LQ_CH, nx = q->ch[c].next;
        memcpy(tmp, q->ch[c].e, sizeof tmp[0] * n);
        q->ch[c].next = q->free;
        q->free = c;
        for (uint32_t j = 0; j < n; j++)
            *bucket_append(q, &g->b[rung_idx(g, tmp[j].t)]) = tmp[j];
        c = nx;
    }
    *b = cq_empty;
}

/* Moves the events of bucket b into Bottom (empty), sorted. */
static void bucket_to_bot(cq *q, cq_bucket *b)
{
    q->b0 = q->blen = 0;
    bot_reserve(q, b->n);
    for (uint32_t c = b->head; c != NIL;) {
        uint32_t n = c == b->tail ? b->tn : LQ_CH, nx = q->ch[c].next;
        memcpy(q->bot + q->blen, q->ch[c].e, sizeof *q->bot * n);
        q->blen += n;
        q->ch[c].next = q->free;
        q->free = c;
        c = nx;
    }
    *b = cq_empty;
    bot_sort(q);
}

static void bucket_span(const cq *q, const cq_bucket *b, double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY;
    for (uint32_t c = b->head; c != NIL; c = q->ch[c].next)
        for (uint32_t j = 0, n = c == b->tail ? b->tn : LQ_CH; j < n; j++) {
            double t = q->ch[c].e[j].t;
            if (t < mn)
                mn = t;
            if (t > mx)
                mx = t;
        }
    *lo = mn;
    *hi = mx;
}

/* Fills Bottom (empty; events pending) with the next events. */
static void cq_advance(cq *q)
{
    q->b0 = q->blen = 0;
    for (;;) {
        if (!q->nr) { /* the rungs are used up: Top becomes a rung, or Bottom */
            double lo = q->top_min, hi = q->top_max;
            q->top_start = hi;
            q->top_min = INFINITY;
            q->top_max = -INFINITY;
            if (q->top.n <= LQ_BOT || !splittable(lo, hi, q->top.n)) {
                bucket_to_bot(q, &q->top);
                return;
            }
            bucket_spread(q, &q->top, rung_new(q, q->top.n, lo, hi));
            continue;
        }
        cq_rung *g = &q->r[q->nr - 1];
        while (g->nxt < g->nb && !g->b[g->nxt].n)
            g->nxt++;
        if (g->nxt == g->nb) { /* this rung is used up */
            q->nr--;
            continue;
        }
        cq_bucket *b = &g->b[g->nxt++];
        double lo, hi;
        if (b->n <= LQ_BOT || q->nr == LQ_MAXR) {
            bucket_to_bot(q, b);
            return;
        }
        bucket_span(q, b, &lo, &hi);
        if (!splittable(lo, hi, b->n)) {
            bucket_to_bot(q, b);
            return;
        }
        bucket_spread(q, b, rung_new(q, b->n, lo, hi));
    }
}

/* Bottom, grown too large, becomes a rung below the others over the same
 * times (its clamped buckets cover them all); the next pop reads it. */
static void bot_to_rung(cq *q)
{
    uint32_t n = q->blen - q->b0;
    cq_rung *g = rung_new(q, n, q->bot[q->b0].t, q->bot[q->blen - 1].t);
    for (uint32_t i = q->b0; i < q->blen; i++)
        *bucket_append(q, &g->b[rung_idx(g, q->bot[i].t)]) = q->bot[i];
    q->b0 = q->blen = 0;
}

/* The slot of a new event of time t in Bottom. */
static cq_ev *bot_insert(cq *q, double t)
{
    if (q->b0 > 0 && q->b0 * 2 >= q->blen) { /* move the unpopped part down */
        memmove(q->bot, q->bot + q->b0, sizeof *q->bot * (q->blen - q->b0));
        q->blen -= q->b0;
        q->b0 = 0;
    }
    bot_reserve(q, (uint64_t)q->blen + 1);
    uint32_t i = q->blen;
    while (i > q->b0 && q->bot[i - 1].t > t) /* ties stay FIFO: after equal times */
        i--;
    memmove(q->bot + i + 1, q->bot + i, sizeof *q->bot * (q->blen - i));
    q->blen++;
    return &q->bot[i];
}

static void cq_init(cq *q)
{
    memset(q, 0, sizeof *q);
    q->cap = 64;
    q->ch = xmalloc(sizeof *q->ch * q->cap);
    q->free = NIL;
    q->top = cq_empty;
    q->top_min = INFINITY;
    q->top_max = -INFINITY;
    q->top_start = -INFINITY;
}

static void cq_free(cq *q)
{
    free(q->ch);
    free(q->bot);
    for (uint32_t i = 0; i < LQ_MAXR; i++)
        free(q->rb[i]);
}

/* A new event at time t (>= the last popped time); returns it to fill in
 * (valid until the next push or pop).  It goes to Top if after top_start,
 * else to the first rung whose buckets not yet moved down take it, else to
 * Bottom (its time is in the bucket being popped). */
static inline cq_ev *cq_push(cq *q, double t)
{
    cq_ev *e;
    q->n++;
    if (t > q->top_start) {
        if (t < q->top_min)
            q->top_min = t;
        if (t > q->top_max)
            q->top_max = t;
        e = bucket_append(q, &q->top);
    } else {
        for (uint32_t r = 0; r < q->nr; r++) {
            cq_rung *g = &q->r[r];
            uint32_t k = rung_idx(g, t);
            if (k >= g->nxt) {
                e = bucket_append(q, &g->b[k]);
                goto fill;
            }
        }
        if (q->blen - q->b0 >= LQ_BOTMAX && q->nr < LQ_MAXR &&
            splittable(q->bot[q->b0].t, q->bot[q->blen - 1].t, q->blen - q->b0)) {
            bot_to_rung(q);
            cq_rung *g = &q->r[q->nr - 1];
            e = bucket_append(q, &g->b[rung_idx(g, t)]);
        } else {
            e = bot_insert(q, t);
        }
    }
fill:
    e->t = t;
    e->seq = q->seq++;
    return e;
}

/* Moves the earliest event into *out; 0 when the queue is empty. */
static inline int cq_pop(cq *q, cq_ev *out)
{
    if (!q->n)
        return 0;
    if (q->b0 == q->blen)
        cq_advance(q);
    *out = q->bot[q->b0++];
    q->n--;
    return 1;
}

/* ---- random numbers ---- */

enum { R_NET, R_SERVICE, R_BACKOFF, R_COUNT };

static uint64_t mix64(uint64_t x)
{
    x += 0x2545f4914f6cdd1dULL;
    x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdULL;
    x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* (seed, replication, purpose) -> a non-zero 32-bit MT19937 seed. */
static void rng_seed(gsl_rng *r[R_COUNT], uint64_t seed, uint64_t rep)
{
    for (int p = 0; p < R_COUNT; p++) {
        unsigned long s = (unsigned long)(mix64(mix64(seed ^ 0x5ca1ab1eULL) + rep * 0x9e3779b97f4a7c15ULL +
                                                (uint64_t)(p + 1) * 0xd6e8feb86659fd93ULL) >> 32);
        gsl_rng_set(r[p], s ? s : 0x1234567UL);
    }
}

/* u in (0, 1) */
static inline double u01(gsl_rng *r)
{
    return gsl_rng_uniform_pos(r);
}

/* ---- the retry policy (doc/guide.md, herd-scenario.5) ---- */

enum { S_IMMEDIATE, S_CONSTANT, S_EXPONENTIAL, S_FULL, S_EQUAL, S_DECORRELATED, S_COUNT };
static const char *const strategy_name[S_COUNT] = {"immediate",   "constant",     "exponential",
                                                    "full_jitter", "equal_jitter", "decorrelated_jitter"};

typedef struct {
    double base, cap;
    uint32_t max_attempts; /* 0: unlimited */
    uint32_t offset;       /* added to the retry number in the exponent */
} policy;

static inline double ceiling(const policy *p, uint32_t n)
{
    if (n >= 1000)
        return p->cap;
    /* base * 2^n: exact, as ldexp (without its call) */
    double c = n < 63 ? p->base * (double)(1ULL << n) : ldexp(p->base, (int)n);
    return c < p->cap ? c : p->cap;
}

/* The sleep before retry n (n from 0, offset included). */
static inline double backoff(const policy *p, int s, uint32_t n, double *prev, double u)
{
    double c;
    switch (s) {
    case S_IMMEDIATE:
        return 0;
    case S_CONSTANT:
        return p->base < p->cap ? p->base : p->cap;
    case S_EXPONENTIAL:
        return ceiling(p, n);
    case S_FULL:
        return u * ceiling(p, n);
    case S_EQUAL:
        c = ceiling(p, n);
        return c / 2 + u * c / 2;
    default: { /* decorrelated: min(cap, uniform(base, 3 * prev)), prev from base */
        double pr = *prev < p->base ? p->base : *prev;
        double x = p->base + u * (3 * pr - p->base);
        *prev = x < p->cap ? x : p->cap;
        return *prev;
    }
    }
}

/* ---- thundering herd ---- */

enum { E_ARRIVE, E_DONE, E_REPLY, E_TIMEOUT };
enum { O_OK, O_503, O_REFUSED };

typedef struct {
    uint32_t clients, reps, max_buckets;
    double timeout, horizon;
    uint64_t seed;
} th_cfg;

typedef struct {
    double completion;
    uint64_t calls, refused, failures, timeouts, unfinished;
    double peak;
} th_out;

static uint64_t g_events, g_attempts;

#define TH_WORKERS 100u
#define TH_QUEUE 500u
#define TH_SERVICE 0.1
#define TH_OUTAGE_END 10.0
#define TH_HOP_MEAN 0.005
#define TH_HOP_SD 0.001

static inline double hop(gsl_rng *r)
{
    double x;
    do
        x = TH_HOP_MEAN + gsl_ran_gaussian_ziggurat(r, TH_HOP_SD);
    while (x < 0);
    return x;
}

/* client byte: attempt number in bits 0-6, outstanding in bit 7 */
#define WAITING 0x80u

typedef struct {
    uint32_t c;
    uint8_t att;
} qslot;

static void th_send(cq *q, gsl_rng *net, uint8_t *cl, uint32_t id, double at, double timeout)
{
    uint8_t a = (uint8_t)((cl[id] & 0x7fu) + 1);
    cl[id] = a | WAITING;
    double d = hop(net);
    cq_ev *e = cq_push(q, at + d);
    e->type = E_ARRIVE;
    e->obj = id;
    e->att = a;
    e->aux = (float)d;
    g_attempts++;
    if (d >= timeout) { /* the timer fires before the attempt arrives */
        e = cq_push(q, at + timeout);
        e->type = E_TIMEOUT;
        e->obj = id;
        e->att = a;
    }
}

static void th_run(const th_cfg *cfg, int strat, uint32_t rep, gsl_rng *r[R_COUNT], th_out *o)
{
    const policy pol = {.base = 1, .cap = 60, .max_attempts = 10, .offset = 0};
    const double T = cfg->timeout;
    uint32_t n = cfg->clients;
    uint8_t *cl = xmalloc(n);
    double *prev = strat == S_DECORRELATED ? xmalloc(sizeof *prev * n) : NULL;
    uint32_t *arr = xmalloc(sizeof *arr * cfg->max_buckets);
    qslot *ring = xmalloc(sizeof *ring * TH_QUEUE);
    uint32_t rhead = 0, rlen = 0, busy = 0, nbk = 0, open = n;
    cq q;
    cq_init(&q);
    memset(o, 0, sizeof *o);
    memset(cl, 0, n);
    memset(arr, 0, sizeof *arr * cfg->max_buckets);
    rng_seed(r, cfg->seed, rep);
    for (uint32_t i = 0; i < n; i++) {
        if (prev)
            prev[i] = pol.base;
        th_send(&q, r[R_NET], cl, i, 0, T);
    }
    cq_ev ev;
    while (cq_pop(&q, &ev)) {
        double now = ev.t;
        if (now > cfg->horizon)
            break;
        g_events++;
        uint32_t id = ev.obj;
        int out;
        switch (ev.type) {
        case E_ARRIVE: {
            double deadline = now - ev.aux + T, d2;
            if (now < TH_OUTAGE_END) { /* the host refuses the connection */
                o->refused++;
                out = O_REFUSED;
            } else {
                o->calls++;
                uint32_t b = (uint32_t)now;
                if (b < cfg->max_buckets) {
                    arr[b]++;
                    if (b >= nbk)
                        nbk = b + 1;
                }
                if (busy < TH_WORKERS) {
                    busy++;
                    double s = -TH_SERVICE * log(u01(r[R_SERVICE]));
                    d2 = hop(r[R_NET]);
                    cq_ev *e = cq_push(&q, now + s);
                    e->type = E_DONE;
                    e->obj = id;
                    e->att = ev.att;
                    e->aux = (float)d2;
                    if (now + s + d2 >= deadline && deadline > now) {
                        e = cq_push(&q, deadline);
                        e->type = E_TIMEOUT;
                        e->obj = id;
                        e->att = ev.att;
                    }
                    continue;
                }
                if (rlen < TH_QUEUE) {
                    ring[(rhead + rlen++) % TH_QUEUE] = (qslot){id, ev.att};
                    if (deadline > now) {
                        cq_ev *e = cq_push(&q, deadline);
                        e->type = E_TIMEOUT;
                        e->obj = id;
                        e->att = ev.att;
                    }
                    continue;
                }
                out = O_503;
            }
            d2 = hop(r[R_NET]);
            cq_ev *e = cq_push(&q, now + d2);
            e->type = E_REPLY;
            e->obj = id;
            e->att = ev.att;
            e->arg = (uint16_t)out;
            if (now + d2 >= deadline && deadline > now) {
                e = cq_push(&q, deadline);
                e->type = E_TIMEOUT;
                e->obj = id;
                e->att = ev.att;
            }
            continue;
        }
        case E_DONE: {
            cq_ev *e = cq_push(&q, now + ev.aux);
            e->type = E_REPLY;
            e->obj = id;
            e->att = ev.att;
            e->arg = O_OK;
            if (rlen) { /* the worker takes the oldest waiting attempt; its timer is already set */
                qslot s = ring[rhead];
                rhead = (rhead + 1) % TH_QUEUE;
                rlen--;
                double sv = -TH_SERVICE * log(u01(r[R_SERVICE]));
                e = cq_push(&q, now + sv);
                e->type = E_DONE;
                e->obj = s.c;
                e->att = s.att;
                e->aux = (float)hop(r[R_NET]);
            } else {
                busy--;
            }
            continue;
        }
        case E_REPLY:
            if (cl[id] != (ev.att | WAITING))
                continue; /* late: the attempt timed out */
            out = ev.arg;
            break;
        case E_TIMEOUT:
            if (cl[id] != (ev.att | WAITING))
                continue; /* the attempt already ended */
            o->timeouts++;
            out = -1;
            break;
        default:
            continue;
        }
        /* the attempt's outcome: done, or the policy's next sleep */
        uint8_t a = cl[id] & 0x7fu;
        cl[id] = a;
        if (out == O_OK || a >= pol.max_attempts) {
            o->failures += out != O_OK;
            o->completion = now;
            open--;
            continue;
        }
        double sleep = backoff(&pol, strat, a - 1u + pol.offset, prev ? &prev[id] : NULL, u01(r[R_BACKOFF]));
        th_send(&q, r[R_NET], cl, id, now + sleep, T);
    }
    o->unfinished = open;
    for (uint32_t b = 0; b < nbk; b++)
        if (arr[b] > o->peak)
            o->peak = arr[b];
    cq_free(&q);
    free(cl);
    free(prev);
    free(arr);
    free(ring);
}

/* ---- AWS 2015 optimistic concurrency control ----
 *
 * Four events a try, one per hop: the read reaches the server (which
 * answers with the row's version then), its reply reaches the client
 * (which sends the conditional write), the write reaches the server
 * (applied if the version is unchanged), its reply reaches the client
 * (done, or the policy's backoff and a new read, sent when it ends).  The
 * event carries the client and the version read; one ladder queue serves
 * every run (emptied by it, it keeps its chunks: no allocation per event
 * or per run).  A uniform is drawn only for the strategies that read one
 * (the backoff stream serves nothing else, so the other draws stay).
 *
 * Measured against other pending sets for this case (at most one event a
 * client, 10 to 190 pending; the whole sweep, CPU seconds, three runs in
 * turn with this one): a binary heap whose root is replaced by the
 * client's next event (one sift down) 3.7 to 4.1 s against 3.2 to 3.6 s,
 * a 4-ary one 4.1 to 4.3 s, a branchless tournament tree over the clients
 * 4.8 to 5.2 s, although the heap and the tree run 14% and 2% fewer
 * instructions than the ladder on 20 runs of 100 clients (156 M and 177 M
 * against 181 M, callgrind): in them the next event is known only when the
 * last push has sifted through its levels, while the ladder pops from a
 * sorted Bottom that the pushes rarely touch (they append to buckets
 * further on), so consecutive events overlap. */

static inline double occ_hop(gsl_rng *r)
{
    return fabs(0.010 + gsl_ran_gaussian_ziggurat(r, 0.002));
}

enum { O_READ_ARRIVE, O_READ_REPLY, O_WRITE_ARRIVE, O_REPLY };

typedef struct {
    double prev;      /* decorrelated jitter's previous sleep */
    uint32_t retries;
} occ_client;

/* Empties q for another run, keeping its memory (every event popped, its
 * chunks are all on the free list). */
static void cq_reset(cq *q)
{
    q->top = cq_empty;
    q->top_min = INFINITY;
    q->top_max = -INFINITY;
    q->top_start = -INFINITY;
    q->nr = 0;
    q->b0 = q->blen = 0;
    q->n = 0;
    q->seq = 0;
}

static void occ_run(uint32_t n, int strat, uint64_t seed, uint32_t rep, gsl_rng *r[R_COUNT], th_out *o,
                    occ_client *cl, cq *q)
{
    const policy pol = {.base = 0.005, .cap = 2, .max_attempts = 0, .offset = 1};
    const int draws = strat == S_FULL || strat == S_EQUAL || strat == S_DECORRELATED;
    uint32_t version = 0;
    uint64_t calls = 0, events = 0, attempts = n;
    double completion = 0;
    gsl_rng *net = r[R_NET], *bk = r[R_BACKOFF];
    cq_reset(q);
    rng_seed(r, seed, rep);
    for (uint32_t i = 0; i < n; i++) {
        cl[i] = (occ_client){.prev = pol.base};
        cq_ev *e = cq_push(q, occ_hop(net));
        e->type = O_READ_ARRIVE;
        e->obj = i;
    }
    cq_ev ev;
    while (cq_pop(q, &ev)) {
        double now = ev.t;
        uint32_t id = ev.obj;
        cq_ev *e;
        events++;
        switch (ev.type) {
        case O_READ_ARRIVE: /* the server answers with the version now */
            e = cq_push(q, now + occ_hop(net));
            e->type = O_READ_REPLY;
            e->obj = id;
            e->arg = (uint16_t)version;
            break;
        case O_READ_REPLY: /* the conditional write */
            e = cq_push(q, now + occ_hop(net));
            e->type = O_WRITE_ARRIVE;
            e->obj = id;
            e->arg = ev.arg;
            break;
        case O_WRITE_ARRIVE:
            calls++;
            e = cq_push(q, now + occ_hop(net));
            e->type = O_REPLY;
            e->obj = id;
            e->arg = ev.arg == (uint16_t)version ? O_OK : O_503;
            version += e->arg == O_OK;
            break;
        default: /* O_REPLY: done, or back off and read again */
            if (ev.arg == O_OK) {
                completion = now;
                break;
            }
            {
                occ_client *c = &cl[id];
                double u = draws ? u01(bk) : 0;
                double sleep = backoff(&pol, strat, c->retries + pol.offset, &c->prev, u);
                c->retries++;
                e = cq_push(q, now + sleep + occ_hop(net));
                e->type = O_READ_ARRIVE;
                e->obj = id;
                attempts++;
            }
            break;
        }
    }
    memset(o, 0, sizeof *o);
    o->completion = completion;
    o->calls = calls;
    g_events += events;
    g_attempts += attempts;
}

/* ---- command line ---- */

static int parse_strategies(const char *s, int *out)
{
    int n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        int k;
        for (k = 0; k < S_COUNT; k++)
            if (strlen(strategy_name[k]) == len && !strncmp(s, strategy_name[k], len))
                break;
        if (k == S_COUNT) {
            fprintf(stderr, "perf_ref: unknown strategy '%.*s'\n", (int)len, s);
            exit(2);
        }
        out[n++] = k;
        s += len;
        if (*s == ',')
            s++;
    }
    return n;
}

static double num(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == 0 || *end) {
        fprintf(stderr, "perf_ref: not a number: '%s'\n", s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "th") && strcmp(argv[1], "occ"))) {
        fprintf(stderr, "usage: perf_ref th|occ [--clients N] [--from N --to N --step N] [--reps R]\n"
                        "       [--strategies a,b] [--timeout S] [--seed S]\n");
        return 2;
    }
    int occ = !strcmp(argv[1], "occ");
    th_cfg cfg = {.clients = 10000, .reps = occ ? 100 : 10, .timeout = 5, .horizon = 3600, .seed = 2015};
    uint32_t from = 10, to = 190, step = 10;
    int strat[S_COUNT], ns;
    ns = occ ? parse_strategies("immediate,exponential,full_jitter,equal_jitter,decorrelated_jitter", strat)
             : parse_strategies("immediate,constant,exponential,full_jitter,equal_jitter,decorrelated_jitter", strat);
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc) {
            fprintf(stderr, "perf_ref: %s needs a value\n", argv[i]);
            return 2;
        }
        const char *k = argv[i], *v = argv[++i];
        if (!strcmp(k, "--clients"))
            cfg.clients = from = to = (uint32_t)num(v);
        else if (!strcmp(k, "--reps"))
            cfg.reps = (uint32_t)num(v);
        else if (!strcmp(k, "--timeout"))
            cfg.timeout = num(v);
        else if (!strcmp(k, "--horizon"))
            cfg.horizon = num(v);
        else if (!strcmp(k, "--seed"))
            cfg.seed = (uint64_t)num(v);
        else if (!strcmp(k, "--from"))
            from = (uint32_t)num(v);
        else if (!strcmp(k, "--to"))
            to = (uint32_t)num(v);
        else if (!strcmp(k, "--step"))
            step = (uint32_t)num(v);
        else if (!strcmp(k, "--strategies"))
            ns = parse_strategies(v, strat);
        else {
            fprintf(stderr, "perf_ref: unknown option %s\n", k);
            return 2;
        }
    }
    if (!(cfg.timeout > 0) || !cfg.reps || !step || from < 1 || to < from || (occ && to > 65535) || cfg.clients < 1) {
        fprintf(stderr, "perf_ref: bad option value\n");
        return 2;
    }
    gsl_rng *r[R_COUNT];
    for (int p = 0; p < R_COUNT; p++)
        r[p] = gsl_rng_alloc(gsl_rng_mt19937);
    cfg.max_buckets = (uint32_t)cfg.horizon + 2;
    printf("strategy,clients,replication,completion_time_s,calls,refused,failures,peak_arrivals_per_s,timeouts,unfinished\n");
    th_out o;
    if (occ) {
        occ_client *cl = xmalloc(sizeof *cl * to);
        cq q;
        cq_init(&q);
        uint64_t pt = 0;
        for (uint32_t c = from; c <= to; c += step, pt++)
            for (int s = 0; s < ns; s++)
                for (uint32_t k = 0; k < cfg.reps; k++) {
                    /* replication streams are per (point, replication), common to the strategies */
                    occ_run(c, strat[s], cfg.seed + pt * 0x10001ULL, k, r, &o, cl, &q);
                    printf("%s,%u,%u,%.9g,%llu,0,0,n/a,0,%llu\n", strategy_name[strat[s]], c, k, o.completion,
                           (unsigned long long)o.calls, (unsigned long long)o.unfinished);
                }
        free(cl);
        cq_free(&q);
    } else {
        for (int s = 0; s < ns; s++)
            for (uint32_t k = 0; k < cfg.reps; k++) {
                th_run(&cfg, strat[s], k, r, &o);
                printf("%s,%u,%u,%.9g,%llu,%llu,%llu,%.9g,%llu,%llu\n", strategy_name[strat[s]], cfg.clients, k,
                       o.completion, (unsigned long long)o.calls, (unsigned long long)o.refused,
                       (unsigned long long)o.failures, o.peak, (unsigned long long)o.timeouts,
                       (unsigned long long)o.unfinished);
            }
    }
    for (int p = 0; p < R_COUNT; p++)
        gsl_rng_free(r[p]);
    fprintf(stderr, "ref: events=%llu attempts=%llu\n", (unsigned long long)g_events, (unsigned long long)g_attempts);
    return 0;
}
