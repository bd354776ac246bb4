/*
 * ladder.c - the ladder queue (see ladder.h).
 *
 * Invariants, with B(r, t) the clamped bucket index of time t in rung r:
 *   1. every event in Top has time > top_start; every event in a rung or in
 *      Bottom has time <= top_start (or there is no rung and Bottom holds
 *      what Top held when it was sorted, top_start its max);
 *   2. an event in bucket k of rung r has k > cur(r); every event in rung
 *      r + 1 or below, or in Bottom, has B(r, t) <= cur(r);
 *   3. Bottom is sorted by (time, seq);
 *   4. every bucket, Top and Bottom's ties are in increasing seq.
 * A push walks down: Top if t > top_start, else the first rung whose
 * bucket for t is after its current one, else Bottom (sorted insert).
 * Because B is monotone in t, an event never lands after a later one.
 *
 * Allocation failures never leave a half-moved state: a fill reserves the
 * chunks and arrays it needs before it moves anything.
 */
#include "ladder.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <string.h>

#include "../base/alloc.h"

#define LQ_THRES 24         /* a bucket this small goes straight to Bottom */
/* A rung made of n events has about n / LQ_FINE buckets when n is below
 * LQ_SMALL (small buckets sort fast), else n / LQ_COARSE (few partly
 * filled chunks and bucket tails that stay in cache). */
#define LQ_FINE 8
#define LQ_COARSE 1024
#define LQ_SMALL 4096
#define LQ_MAX_BUCKETS (1u << 22)
#define LQ_BOTTOM_MIN 64
#define LQ_BOTTOM_SPILL 64  /* Bottom this long becomes a rung */
/* Flat mode: while the queue is small (at most LQ_FLAT events; entered
 * again when Top is sorted down with at most LQ_FLAT / 2), it is just
 * Bottom, a sorted array: a push is a binary search and a short move. */
#define LQ_FLAT 32 /* measured: 128 and 64 cost the OCC sweep 2.5% more instructions */

static inline int before(const eq_event *a, const eq_event *b)
{
    return a->time < b->time || (a->time == b->time && a->key < b->key);
}

static void list_clear(lq_bucket *b, ck_pool *p)
{
    ck_chunk *c = b->head;
    while (c) {
        ck_chunk *n = c->next;
        ck_put(p, c);
        c = n;
    }
    b->head = b->tail = NULL;
    b->n = b->tn = 0;
}

/* Events in chunk c of list b. */
static inline uint32_t chunk_n(const lq_bucket *b, const ck_chunk *c)
{
    return c == b->tail ? b->tn : CK_EVENTS;
}

int lq_init(lq_queue *q, ck_pool *pool)
{
    memset(q, 0, sizeof *q);
    q->pool = pool;
    q->top_min = INFINITY;
    q->top_max = -INFINITY;
    q->top_start = INFINITY; /* flat */
    q->bot = herd_malloc_array(LQ_BOTTOM_MIN, sizeof *q->bot);
    q->tmp = herd_malloc_array(LQ_BOTTOM_MIN, sizeof *q->tmp);
    if (!q->bot || !q->tmp) {
        lq_free(q);
        return -1;
    }
    q->bcap = LQ_BOTTOM_MIN;
    return 0;
}

void lq_free(lq_queue *q)
{
    if (!q)
        return;
    if (q->pool) {
        list_clear(&q->top, q->pool);
        for (uint32_t r = 0; r < LQ_MAX_RUNGS; r++)
            for (uint32_t k = 0; k < q->rung[r].nb && r < q->nrungs; k++)
                list_clear(&q->rung[r].b[k], q->pool);
    }
    for (uint32_t r = 0; r < LQ_MAX_RUNGS; r++)
        herd_free(q->rung[r].b);
    herd_free(q->bot);
    herd_free(q->tmp);
    ck_pool *pool = q->pool;
    memset(q, 0, sizeof *q);
    q->pool = pool;
    q->top_start = INFINITY;
}

/* Appends to a bucket; the chunk must be available (reserved) or -1. */
static inline int list_add(lq_bucket *b, ck_pool *p, const eq_event *ev)
{
    ck_chunk *t = b->tail;
    if (!t || b->tn == CK_EVENTS) {
        ck_chunk *c = ck_get(p);
        if (!c)
            return -1;
        if (t)
            t->next = c;
        else
            b->head = c;
        b->tail = t = c;
        b->tn = 0;
    }
    t->u.ev[b->tn++] = *ev;
    b->n++;
    return 0;
}

static inline uint32_t bucket_of(const lq_rung *R, double t)
{
    double x = (t - R->lo) * R->inv;
    x = x > 0 ? x : 0;                /* NaN too */
    x = x < R->last ? x : R->last;
    return (uint32_t)x;
}

/* Makes room in Bottom for n events (contents kept).  0 or -1. */
static int bottom_reserve(lq_queue *q, size_t n)
{
    if (n <= q->bcap)
        return 0;
    size_t ncap = q->bcap;
    while (ncap < n)
        ncap *= 2;
    if (ncap > UINT32_MAX)
        return -1;
    eq_event *b = herd_malloc_array(ncap, sizeof *b);
    eq_event *t = herd_malloc_array(ncap, sizeof *t);
    if (!b || !t) {
        herd_free(b);
        herd_free(t);
        return -1;
    }
    memcpy(b, q->bot + q->bhead, (size_t)(q->blen - q->bhead) * sizeof *b);
    herd_free(q->bot);
    herd_free(q->tmp);
    q->bot = b;
    q->tmp = t;
    q->blen -= q->bhead;
    q->bhead = 0;
    q->bcap = (uint32_t)ncap;
    return 0;
}

/* Sorted insert into Bottom: after every event of equal time (they all
 * have smaller seq), shifting the shorter side. */
static int bottom_insert(lq_queue *q, const eq_event *ev)
{
    uint32_t lo = q->bhead, hi = q->blen;
    double t = ev->time;
    if (lo == hi || q->bot[hi - 1].time <= t) { /* the common case: last */
        if (hi == q->bcap) {
            if (q->bhead > 0) {
                memmove(q->bot, q->bot + q->bhead, (size_t)(hi - lo) * sizeof *q->bot);
                q->blen -= q->bhead;
                q->bhead = 0;
            } else if (bottom_reserve(q, (size_t)q->bcap + 1) != 0) {
                return -1;
            }
        }
        q->bot[q->blen++] = *ev;
        return 0;
    }
    /* the first index with time > t.  A simulation's new events are
     * often due soon, near the head: if t is in the first eighth, gallop
     * from the head (probes at head + 1, 3, 7, ...: O(log distance)).
     * Then search the range left without branches to mispredict (the
     * answer stays in [lo, lo + n]) */
    uint32_t end = hi;
    if (t < q->bot[lo + (hi - lo) / 8].time) {
        uint32_t step = 1;
        while (lo + step < hi && q->bot[lo + step - 1].time <= t) {
            lo += step;
            step *= 2;
        }
        end = lo + step < hi ? lo + step : hi;
    }
    for (uint32_t n = end - lo; n > 1;) {
        uint32_t half = n / 2;
        lo = q->bot[lo + half - 1].time <= t ? lo + half : lo;
        n -= half;
    }
    uint32_t pos = lo + (q->bot[lo].time <= t);
    if (q->bhead > 0 && pos - q->bhead < q->blen - pos) {
        memmove(q->bot + q->bhead - 1, q->bot + q->bhead, (size_t)(pos - q->bhead) * sizeof *q->bot);
        q->bhead--;
        q->bot[pos - 1] = *ev;
        return 0;
    }
    if (q->blen == q->bcap) {
        uint32_t off = pos - q->bhead; /* bottom_reserve moves the events to 0 */
        if (bottom_reserve(q, (size_t)q->bcap + 1) != 0)
            return -1;
        pos = q->bhead + off;
    }
    memmove(q->bot + pos + 1, q->bot + pos, (size_t)(q->blen - pos) * sizeof *q->bot);
    q->bot[pos] = *ev;
    q->blen++;
    return 0;
}

static int make_rung(lq_queue *q, uint32_t r, lq_bucket *L, double lo, double hi);

/* Bottom has grown past LQ_BOTTOM_SPILL (events keep landing in its time
 * range): turn it into a new lowest rung, so that pushes stay O(1).
 * Returns 0 (also when it cannot be split: all at one time, or no rung
 * left), or -1 (allocation; nothing changed). */
static int spill_bottom(lq_queue *q)
{
    uint32_t n = q->blen - q->bhead;
    double lo = q->bot[q->bhead].time, hi = q->bot[q->blen - 1].time;
    if (q->nrungs == LQ_MAX_RUNGS || lo == hi)
        return 0;
    if (ck_reserve(q->pool, n / CK_EVENTS + 1) != 0)
        return -1;
    lq_bucket L = {0};
    for (uint32_t i = q->bhead; i < q->blen; i++)
        list_add(&L, q->pool, &q->bot[i]); /* reserved: cannot fail */
    if (make_rung(q, q->nrungs, &L, lo, hi) != 0) {
        list_clear(&L, q->pool);
        return -1;
    }
    q->nrungs++;
    q->bhead = q->blen = 0;
    if (q->top_start == INFINITY) /* leaving flat mode: later times go to Top */
        q->top_start = hi;
    return 0;
}

int lq_push_seq(lq_queue *q, const eq_event *ev)
{
    double t = ev->time;
    if (t > q->top_start) {
        if (list_add(&q->top, q->pool, ev) != 0)
            return -1;
        if (t < q->top_min)
            q->top_min = t;
        if (t > q->top_max)
            q->top_max = t;
        q->len++;
        return 0;
    }
    for (uint32_t r = 0; r < q->nrungs; r++) {
        lq_rung *R = &q->rung[r];
        uint32_t k = bucket_of(R, t);
        if ((int64_t)k > R->cur) {
            if (list_add(&R->b[k], q->pool, ev) != 0)
                return -1;
            R->n++;
            q->len++;
            return 0;
        }
    }
    if (q->blen - q->bhead >= (q->top_start == INFINITY ? LQ_FLAT : LQ_BOTTOM_SPILL) && q->nrungs < LQ_MAX_RUNGS) {
        if (spill_bottom(q) != 0)
            return -1;
        if (q->bhead == q->blen) /* spilled: the new rung takes it */
            return lq_push_seq(q, ev);
    }
    if (bottom_insert(q, ev) != 0)
        return -1;
    q->len++;
    return 0;
}

int lq_push(lq_queue *q, const eq_event *ev)
{
    eq_event e = *ev;
    e.seq = q->next_seq;
    if (lq_push_seq(q, &e) != 0)
        return -1;
    q->next_seq++;
    return 0;
}

/* Stable sort of bot[0..n) by (time, seq): insertion sort when short or
 * nearly sorted, else a bottom-up merge sort through tmp. */
static void bottom_sort(lq_queue *q, uint32_t n)
{
    eq_event *a = q->bot;
    uint32_t inversions = 0;
    if (n > 16) { /* a big bucket is often all ties: already sorted */
        for (uint32_t i = 1; i < n; i++)
            inversions += before(&a[i], &a[i - 1]);
        if (inversions == 0)
            return;
    }
    if (n <= 24 || inversions <= 4) {
        for (uint32_t i = 1; i < n; i++) {
            eq_event x = a[i];
            uint32_t j = i;
            while (j > 0 && before(&x, &a[j - 1])) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
        return;
    }
    eq_event *src = a, *dst = q->tmp;
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t i = 0; i < n; i += 2 * w) {
            uint32_t m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n;
            uint32_t x = i, y = m, k = i;
            while (x < m && y < e)
                dst[k++] = before(&src[y], &src[x]) ? src[y++] : src[x++];
            while (x < m)
                dst[k++] = src[x++];
            while (y < e)
                dst[k++] = src[y++];
        }
        eq_event *s = src;
        src = dst;
        dst = s;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
}

/* Moves list L (n events) into the empty Bottom, sorted: a short list is
 * insertion-sorted as it is copied, a long one copied then sorted. */
static void to_bottom(lq_queue *q, lq_bucket *L)
{
    uint32_t n = 0;
    bool short_list = L->n <= LQ_THRES;
    eq_event *a = q->bot;
    for (ck_chunk *c = L->head, *nx; c; c = nx) {
        uint32_t k = chunk_n(L, c);
        if (short_list) {
            for (uint32_t i = 0; i < k; i++) {
                const eq_event *e = &c->u.ev[i];
                /* a list's ties are in increasing seq (invariant 4):
                 * e goes after every event of its time */
                uint32_t j = n++;
                while (j > 0 && e->time < a[j - 1].time) {
                    a[j] = a[j - 1];
                    j--;
                }
                a[j] = *e;
            }
        } else {
            memcpy(a + n, c->u.ev, (size_t)k * sizeof *a);
            n += k;
        }
        nx = c->next;
        ck_put(q->pool, c);
    }
    L->head = L->tail = NULL;
    L->n = L->tn = 0;
    q->bhead = 0;
    q->blen = n;
    if (!short_list)
        bottom_sort(q, n);
}

/* Spreads list L over rung R (its buckets empty), freeing L's chunks. */
static void spread(lq_queue *q, lq_rung *R, lq_bucket *L)
{
    ck_chunk *c = L->head;
    /* a small rung is dispatched next: start loading what its events need */
    const char *pf = L->n < LQ_SMALL ? q->pf_base : NULL;
    while (c) {
        uint32_t m = chunk_n(L, c);
        if (pf)
            for (uint32_t i = 0; i < m; i++)
                __builtin_prefetch(pf + c->u.ev[i].obj * q->pf_stride);
        for (uint32_t i = 0; i < m; i++) {
            const eq_event *e = &c->u.ev[i];
            list_add(&R->b[bucket_of(R, e->time)], q->pool, e); /* reserved: cannot fail */
        }
        ck_chunk *nx = c->next;
        ck_put(q->pool, c);
        c = nx;
    }
    R->n = L->n;
    L->head = L->tail = NULL;
    L->n = L->tn = 0;
}

/* Sets up rung r over [lo, hi] for the events of L and moves them into
 * it.  0, or -1 (allocation; nothing changed). */
static int make_rung(lq_queue *q, uint32_t r, lq_bucket *L, double lo, double hi)
{
    lq_rung *R = &q->rung[r];
    uint32_t target = L->n < LQ_SMALL ? LQ_FINE : LQ_COARSE;
    uint64_t nb64 = (L->n + target - 1) / target;
    uint32_t nb = nb64 < 2 ? 2 : nb64 > LQ_MAX_BUCKETS ? LQ_MAX_BUCKETS : (uint32_t)nb64;
    if (nb > R->cap) {
        lq_bucket *b = herd_malloc_array(nb, sizeof *b);
        if (!b)
            return -1;
        herd_free(R->b);
        R->b = b;
        R->cap = nb;
    }
    /* spreading frees L's chunks as it goes: at any moment the buckets
     * hold at most one partly filled chunk each beyond what L freed */
    if (ck_reserve(q->pool, (size_t)nb + 2) != 0)
        return -1;
    memset(R->b, 0, (size_t)nb * sizeof *R->b);
    R->nb = nb;
    R->last = (double)(nb - 1);
    R->lo = lo;
    double inv = (double)nb / (hi - lo);
    R->inv = isfinite(inv) ? inv : DBL_MAX;
    R->cur = -1;
    spread(q, R, L);
    return 0;
}

int lq_fill_slow(lq_queue *q)
{
    while (q->bhead == q->blen) {
        q->bhead = q->blen = 0;
        if (q->nrungs == 0) {
            if (q->top.n == 0) {
                q->top_start = INFINITY; /* empty: flat */
                return 0;
            }
            double lo = q->top_min, hi = q->top_max;
            if (q->top.n <= LQ_FLAT / 2 || lo == hi) {
                if (bottom_reserve(q, q->top.n) != 0)
                    return -1;
                if (q->top.n <= LQ_FLAT / 2)
                    hi = INFINITY; /* small: flat again */
                to_bottom(q, &q->top);
            } else if (make_rung(q, 0, &q->top, lo, hi) != 0) {
                return -1;
            } else {
                q->nrungs = 1;
            }
            q->top_start = hi;
            q->top_min = INFINITY;
            q->top_max = -INFINITY;
            continue;
        }
        lq_rung *R = &q->rung[q->nrungs - 1];
        if (R->n == 0) {
            q->nrungs--;
            continue;
        }
        uint32_t k = (uint32_t)(R->cur + 1);
        while (R->b[k].n == 0)
            k++;
        lq_bucket *L = &R->b[k];
        if (L->n <= LQ_THRES || q->nrungs == LQ_MAX_RUNGS) {
            if (bottom_reserve(q, L->n) != 0)
                return -1;
            R->cur = k;
            R->n -= L->n;
            to_bottom(q, L);
            continue;
        }
        double lo = INFINITY, hi = -INFINITY;
        for (ck_chunk *c = L->head; c; c = c->next)
            for (uint32_t i = 0, m = chunk_n(L, c); i < m; i++) {
                double t = c->u.ev[i].time;
                lo = t < lo ? t : lo;
                hi = t > hi ? t : hi;
            }
        if (lo == hi) { /* all at one time: already in seq order */
            if (bottom_reserve(q, L->n) != 0)
                return -1;
            R->cur = k;
            R->n -= L->n;
            to_bottom(q, L);
            continue;
        }
        uint64_t n = L->n;
        if (make_rung(q, q->nrungs, L, lo, hi) != 0)
            return -1;
        R->cur = k;
        R->n -= n;
        q->nrungs++;
    }
    return 0;
}
