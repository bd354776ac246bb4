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
 * Pending set: a calendar queue (Brown 1988): 2^k buckets of width w, an
 * event in bucket floor(t / w) mod 2^k; the bucket of the current time is
 * sorted when it becomes current (ties FIFO by insertion number), the
 * others are unsorted lists of 128-byte chunks of 5 events by value
 * (appending reads only the bucket's entry); resized to keep 4 to 16
 * events a bucket, w from the median gap of a sample of the pending times,
 * and estimated again when operations start to cost more than O(1).  No
 * allocation per event (chunks come from one pool with a free list).
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

/* The width over the median gap (a bucket then holds about CQ_WMUL x n / nb
 * events where they are densest), and the steps per operation that trigger
 * a new estimate.  Measured (callgrind at 10,000 clients, all six
 * strategies, one replication; user time and peak RSS at 1,000,000 clients,
 * full jitter), chunk events / grow above / shrink below (events per
 * bucket) / CQ_WMUL: 5/16/4/2 559 M, 5.2 s, 56 MB (kept); 3/8/2/1 703 M,
 * 6.2 s; 3/8/2/2 549 M, 6.5 s; 4/8/2/1 693 M, 6.4 s; CQ_WMUL 1 and 4 with
 * 5/16/4: 628 M and 608 M.  The first version, Brown's sorted linked lists
 * (one 24-byte node per event), took 403 M at 10,000 clients but 11 to 13 s
 * at 1,000,000 (a cache miss per node walked): rejected.  A lazy queue's
 * far future (events beyond one year in an unsorted chunk list, moved in
 * at each new year) was also tried and rejected as implemented: CQ_WMUL
 * 0.125 to 2 cost 3,939 M to 881 M at 10,000 clients and 7.6 to 22.9 s at
 * 1,000,000. */
#ifndef CQ_WMUL
#define CQ_WMUL 2.0
#endif
#ifndef CQ_STEPS
#define CQ_STEPS 2
#endif

/* ---- the calendar queue ---- */

typedef struct {
    double t;
    uint32_t seq;  /* insertion order: ties are FIFO */
    uint32_t obj;  /* client */
    float aux;     /* th: the forward hop (arrival) or the reply hop (end of service) */
    uint8_t type;
    uint8_t att;   /* attempt number (th) */
    uint16_t arg;  /* th: reply outcome; occ: version read, or outcome */
} cq_ev;

/* A bucket is a list of chunks of CQ_CH events each, unsorted (appended in
 * insertion order); 128 bytes a chunk. */
#define CQ_CH 5
typedef struct {
    cq_ev e[CQ_CH];
    uint32_t next;
} cq_chunk;

/* tn: the events in the tail chunk (the others are full), kept here so
 * that an append reads one cache line, the bucket's, and only writes the
 * chunk's */
typedef struct {
    uint32_t head, tail, tn;
} cq_bucket;

typedef struct {
    cq_chunk *ch;     /* the chunk pool */
    uint32_t nch, cap, free;
    cq_bucket *b;     /* nb buckets of width w */
    uint32_t nb, mask;
    uint64_t n;       /* events pending, the current bucket's included */
    double inv_w, w;
    uint64_t vb;      /* the current virtual bucket: floor(t / w) of the events in cur */
    cq_ev *cur;       /* the current bucket's events, sorted, popped from ch0 */
    uint32_t c0, clen, ccap;
    uint32_t seq;
    double now;
    uint64_t ops, steps; /* in this window: pushes + pops, and the work beyond O(1) */
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

static inline uint64_t cq_vbof(const cq *q, double t)
{
    return (uint64_t)(t * q->inv_w);
}

static inline int ev_before(const cq_ev *a, const cq_ev *b)
{
    return a->t < b->t || (a->t == b->t && (int32_t)(a->seq - b->seq) < 0);
}

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
    if (t == NIL || b->tn == CQ_CH) {
        uint32_t c = chunk_new(q);
        if (t == NIL)
            b->head = c;
        else
            q->ch[t].next = c;
        b->tail = t = c;
        b->tn = 0;
    }
    return &q->ch[t].e[b->tn++];
}

/* The slot of a new event of time t in the sorted current bucket. */
static cq_ev *cur_insert(cq *q, double t)
{
    if (q->c0 > 0 && q->c0 * 2 >= q->clen) { /* move the unpopped part down */
        memmove(q->cur, q->cur + q->c0, sizeof *q->cur * (q->clen - q->c0));
        q->clen -= q->c0;
        q->c0 = 0;
    }
    if (q->clen == q->ccap) {
        q->ccap = q->ccap ? 2 * q->ccap : 64;
        q->cur = xrealloc(q->cur, sizeof *q->cur * q->ccap);
    }
    uint32_t i = q->clen;
    while (i > q->c0 && q->cur[i - 1].t > t) /* ties stay FIFO: after equal times */
        i--;
    q->steps += q->clen - i;
    memmove(q->cur + i + 1, q->cur + i, sizeof *q->cur * (q->clen - i));
    q->clen++;
    return &q->cur[i];
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int ecmp(const void *a, const void *b)
{
    return ev_before(a, b) ? -1 : ev_before(b, a);
}

static void cq_place(cq *q, const cq_ev *e);

/* Rebuilds the buckets: nb of them, the width from the median gap of up to
 * 257 sampled pending times, so that a bucket holds about 8 events where
 * they are densest. */
static void cq_resize(cq *q, uint32_t nb)
{
    enum { S = 257 };
    double s[S], g[S], tmin = INFINITY;
    uint32_t ns = 0;
    uint64_t step = q->n / S ? q->n / S : 1, k = 0;
    /* one pass to sample the times and find the earliest */
#define SAMPLE(T)                                                                                                      \
    do {                                                                                                               \
        double t_ = (T);                                                                                               \
        if (ns < S && k++ % step == 0)                                                                                 \
            s[ns++] = t_;                                                                                              \
        if (t_ < tmin)                                                                                                 \
            tmin = t_;                                                                                                 \
    } while (0)
    for (uint32_t i = q->c0; i < q->clen; i++)
        SAMPLE(q->cur[i].t);
    for (uint32_t b = 0; b < q->nb; b++)
        for (uint32_t c = q->b[b].head; c != NIL; c = q->ch[c].next)
            for (uint32_t j = 0, n = c == q->b[b].tail ? q->b[b].tn : CQ_CH; j < n; j++)
                SAMPLE(q->ch[c].e[j].t);
#undef SAMPLE
    if (ns >= 3) {
        qsort(s, ns, sizeof *s, dcmp);
        for (uint32_t i = 0; i + 1 < ns; i++)
            g[i] = s[i + 1] - s[i];
        qsort(g, ns - 1, sizeof *g, dcmp);
        /* (ns - 1) gaps of the sample span the pending times; a bucket
         * gets CQ_WMUL x n / nb events of the median density */
        double w = CQ_WMUL * g[(ns - 1) / 2] * (double)(ns - 1) / (double)nb;
        if (!(w > 0))
            w = CQ_WMUL * (s[ns - 1] - s[0]) / (double)nb; /* ties */
        if (w > 0 && isfinite(w) && w < 1e300) {
            q->w = w;
            q->inv_w = 1 / w;
        }
    }
    /* then every event moves to its new bucket, in place: a chunk is
     * freed as soon as its events are copied out, so the pool does not grow */
    cq_bucket *old = q->b;
    uint32_t onb = q->nb;
    cq_ev *ocur = q->cur;
    uint32_t oc0 = q->c0, oclen = q->clen;
    q->cur = NULL;
    q->ccap = q->c0 = q->clen = 0;
    q->nb = nb;
    q->mask = nb - 1;
    q->b = xmalloc(sizeof *q->b * nb);
    for (uint32_t b = 0; b < nb; b++)
        q->b[b] = (cq_bucket){NIL, NIL, 0};
    q->vb = q->n ? cq_vbof(q, tmin) : cq_vbof(q, q->now);
    for (uint32_t i = oc0; i < oclen; i++)
        cq_place(q, &ocur[i]);
    free(ocur);
    for (uint32_t b = 0; b < onb; b++)
        for (uint32_t c = old[b].head; c != NIL;) {
            cq_ev tmp[CQ_CH];
            uint32_t n = c == old[b].tail ? old[b].tn : CQ_CH, nx = q->ch[c].next;
            memcpy(tmp, q->ch[c].e, sizeof tmp[0] * n);
            q->ch[c].next = q->free;
            q->free = c;
            for (uint32_t j = 0; j < n; j++)
                cq_place(q, &tmp[j]);
            c = nx;
        }
    free(old);
    if (q->clen > 1)
        qsort(q->cur, q->clen, sizeof *q->cur, ecmp);
    q->ops = q->steps = 0;
}

/* Files e (pending) in its bucket, or in the current one, unsorted. */
static void cq_place(cq *q, const cq_ev *e)
{
    uint64_t v = cq_vbof(q, e->t);
    if (v <= q->vb) {
        if (q->clen == q->ccap) {
            q->ccap = q->ccap ? 2 * q->ccap : 64;
            q->cur = xrealloc(q->cur, sizeof *q->cur * q->ccap);
        }
        q->cur[q->clen++] = *e;
    } else {
        *bucket_append(q, &q->b[v & q->mask]) = *e;
    }
}

static void cq_init(cq *q)
{
    memset(q, 0, sizeof *q);
    q->cap = 64;
    q->ch = xmalloc(sizeof *q->ch * q->cap);
    q->free = NIL;
    q->nb = 16;
    q->mask = 15;
    q->b = xmalloc(sizeof *q->b * q->nb);
    for (uint32_t b = 0; b < q->nb; b++)
        q->b[b] = (cq_bucket){NIL, NIL, 0};
    q->w = 0.001;
    q->inv_w = 1000;
}

static void cq_free(cq *q)
{
    free(q->ch);
    free(q->b);
    free(q->cur);
}

/* Brown's resize keeps the number of buckets in step with the number of
 * events (here 4 to 16 a bucket); the width must also follow the times,
 * which move while the count stays: when the operations of a window of
 * n / 2 + 64 have cost more than CQ_STEPS steps each beyond O(1) (empty
 * buckets passed, later years' events looked at, events moved in the
 * current bucket), the width is estimated again. */
static inline void cq_check(cq *q)
{
    if (++q->ops < q->n / 2 + 64)
        return;
    if (q->steps > CQ_STEPS * q->ops)
        cq_resize(q, q->nb);
    q->ops = q->steps = 0;
}

/* A new event at time t (>= the last popped time); returns it to fill in
 * (valid until the next push or pop). */
static inline cq_ev *cq_push(cq *q, double t)
{
    if (q->n + 1 > 16 * (uint64_t)q->nb && q->nb < (1u << 31))
        cq_resize(q, q->nb * 2);
    else
        cq_check(q);
    q->n++;
    uint64_t v = cq_vbof(q, t);
    cq_ev *e = v <= q->vb ? cur_insert(q, t) : bucket_append(q, &q->b[v & q->mask]);
    e->t = t;
    e->seq = q->seq++;
    return e;
}

/* Makes the next non-empty virtual bucket current: its events (and only
 * those of its year) sorted into cur. */
static void cq_advance(cq *q)
{
    q->c0 = q->clen = 0;
    for (uint32_t k = 0; k < q->nb; k++) {
        q->vb++;
        cq_bucket *b = &q->b[q->vb & q->mask];
        if (b->head == NIL) {
            q->steps++;
            continue;
        }
        /* move this year's events to cur, keep the others (compacted) */
        uint32_t wc = b->head, keep = 0;
        for (uint32_t c = b->head; c != NIL;) {
            cq_chunk *ch = &q->ch[c];
            for (uint32_t j = 0, n = c == b->tail ? b->tn : CQ_CH; j < n; j++) {
                cq_ev *e = &ch->e[j];
                if (cq_vbof(q, e->t) <= q->vb) {
                    if (q->clen == q->ccap) {
                        q->ccap = q->ccap ? 2 * q->ccap : 64;
                        q->cur = xrealloc(q->cur, sizeof *q->cur * q->ccap);
                    }
                    q->cur[q->clen++] = *e;
                } else {
                    q->steps++;
                    q->ch[wc].e[keep++] = *e; /* never ahead of the read position */
                    if (keep == CQ_CH) {
                        wc = q->ch[wc].next;
                        keep = 0;
                    }
                }
            }
            c = ch->next;
        }
        /* chunks after the write position are free */
        uint32_t last = keep ? wc : NIL, c;
        if (!keep) { /* wc is the first chunk not written */
            /* find its predecessor to end the list */
            last = NIL;
            for (c = b->head; c != wc; c = q->ch[c].next)
                last = c;
            c = wc;
        } else {
            c = q->ch[wc].next;
        }
        while (c != NIL) {
            uint32_t nx = q->ch[c].next;
            q->ch[c].next = q->free;
            q->free = c;
            c = nx;
        }
        if (last == NIL) {
            b->head = b->tail = NIL;
            b->tn = 0;
        } else {
            q->ch[last].next = NIL;
            b->tail = last;
            b->tn = keep ? keep : CQ_CH;
        }
        if (q->clen) {
            if (q->clen > 1) { /* insertion sort: a bucket holds a few */
                if (q->clen > 32) {
                    qsort(q->cur, q->clen, sizeof *q->cur, ecmp);
                } else {
                    for (uint32_t i = 1; i < q->clen; i++) {
                        cq_ev x = q->cur[i];
                        uint32_t j = i;
                        while (j > 0 && ev_before(&x, &q->cur[j - 1])) {
                            q->cur[j] = q->cur[j - 1];
                            j--;
                        }
                        q->cur[j] = x;
                    }
                }
            }
            return;
        }
    }
    /* a year without an event: rebuild (the width is wrong), which also
     * finds the earliest event */
    cq_resize(q, q->nb);
}

/* Moves the earliest event into *out; 0 when the queue is empty. */
static inline int cq_pop(cq *q, cq_ev *out)
{
    if (!q->n)
        return 0;
    while (q->c0 == q->clen)
        cq_advance(q);
    *out = q->cur[q->c0++];
    q->now = out->t;
    q->n--;
    if (q->n < 4 * (uint64_t)q->nb && q->nb > 16)
        cq_resize(q, q->nb / 2);
    else
        cq_check(q);
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
    double c = ldexp(p->base, (int)n);
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

enum { E_ARRIVE, E_DONE, E_REPLY, E_TIMEOUT, E_READ_ARRIVE, E_READ_REPLY, E_WRITE_ARRIVE };
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

/* ---- AWS 2015 optimistic concurrency control ---- */

static inline double occ_hop(gsl_rng *r)
{
    return fabs(0.010 + gsl_ran_gaussian_ziggurat(r, 0.002));
}

typedef struct {
    uint32_t retries;
    double prev;
} occ_client;

static void occ_run(uint32_t n, int strat, uint64_t seed, uint32_t rep, gsl_rng *r[R_COUNT], th_out *o,
                    occ_client *cl)
{
    const policy pol = {.base = 0.005, .cap = 2, .max_attempts = 0, .offset = 1};
    uint32_t version = 0, open = n;
    cq q;
    cq_init(&q);
    memset(o, 0, sizeof *o);
    rng_seed(r, seed, rep);
    for (uint32_t i = 0; i < n; i++) {
        cl[i] = (occ_client){0, pol.base};
        cq_ev *e = cq_push(&q, occ_hop(r[R_NET]));
        e->type = E_READ_ARRIVE;
        e->obj = i;
        g_attempts++;
    }
    cq_ev ev;
    while (cq_pop(&q, &ev)) {
        double now = ev.t;
        g_events++;
        uint32_t id = ev.obj;
        cq_ev *e;
        switch (ev.type) {
        case E_READ_ARRIVE: /* the server answers with the version now */
            e = cq_push(&q, now + occ_hop(r[R_NET]));
            e->type = E_READ_REPLY;
            e->obj = id;
            e->arg = (uint16_t)version;
            break;
        case E_READ_REPLY: /* the conditional write */
            e = cq_push(&q, now + occ_hop(r[R_NET]));
            e->type = E_WRITE_ARRIVE;
            e->obj = id;
            e->arg = ev.arg;
            break;
        case E_WRITE_ARRIVE:
            o->calls++;
            e = cq_push(&q, now + occ_hop(r[R_NET]));
            e->type = E_REPLY;
            e->obj = id;
            e->arg = ev.arg == (uint16_t)version ? O_OK : O_503;
            if (e->arg == O_OK)
                version++;
            break;
        case E_REPLY:
            if (ev.arg == O_OK) {
                o->completion = now;
                open--;
                break;
            }
            {
                double sleep = backoff(&pol, strat, cl[id].retries + pol.offset, &cl[id].prev, u01(r[R_BACKOFF]));
                cl[id].retries++;
                e = cq_push(&q, now + sleep + occ_hop(r[R_NET]));
                e->type = E_READ_ARRIVE;
                e->obj = id;
                g_attempts++;
            }
            break;
        default:
            break;
        }
    }
    o->unfinished = open;
    cq_free(&q);
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
        uint64_t pt = 0;
        for (uint32_t c = from; c <= to; c += step, pt++)
            for (int s = 0; s < ns; s++)
                for (uint32_t k = 0; k < cfg.reps; k++) {
                    /* replication streams are per (point, replication), common to the strategies */
                    occ_run(c, strat[s], cfg.seed + pt * 0x10001ULL, k, r, &o, cl);
                    printf("%s,%u,%u,%.9g,%llu,0,0,n/a,0,%llu\n", strategy_name[strat[s]], c, k, o.completion,
                           (unsigned long long)o.calls, (unsigned long long)o.unfinished);
                }
        free(cl);
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
