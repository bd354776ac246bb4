/*
 * radix.c - the radix heap (see radix.h).
 */
#include "radix.h"

#include <string.h>

static inline uint64_t key_of(double t)
{
    double z = t + 0.0; /* -0.0 -> +0.0 */
    uint64_t k;
    memcpy(&k, &z, sizeof k);
    return k;
}

static inline unsigned bucket_of(uint64_t last, uint64_t k)
{
    return k == last ? 0 : 64u - (unsigned)__builtin_clzll(k ^ last);
}

int rq_init(rq_queue *q, ck_pool *pool)
{
    memset(q, 0, sizeof *q);
    q->pool = pool;
    return 0;
}

void rq_free(rq_queue *q)
{
    if (!q)
        return;
    for (int i = 0; i < 65; i++) {
        ck_chunk *c = q->b[i].head;
        while (c) {
            ck_chunk *n = c->next;
            ck_put(q->pool, c);
            c = n;
        }
    }
    ck_pool *p = q->pool;
    memset(q, 0, sizeof *q);
    q->pool = p;
}

static inline int add(rq_queue *q, unsigned i, const eq_event *ev, uint64_t k)
{
    rq_bucket *B = &q->b[i];
    ck_chunk *t = B->tail;
    if (!t || t->n == CK_EVENTS) {
        ck_chunk *c = ck_get(q->pool);
        if (!c)
            return -1;
        if (t)
            t->next = c;
        else {
            B->head = c;
            B->off = 0;
        }
        B->tail = t = c;
    }
    t->u.ev[t->n++] = *ev;
    if (i) {
        if (!B->n || k < B->min)
            B->min = k;
        q->mask |= 1ull << (i - 1);
    }
    B->n++;
    return 0;
}

int rq_push_seq(rq_queue *q, const eq_event *ev)
{
    uint64_t k = key_of(ev->time);
    if (add(q, bucket_of(q->last, k), ev, k) != 0)
        return -1;
    q->len++;
    return 0;
}

int rq_push(rq_queue *q, const eq_event *ev)
{
    eq_event e = *ev;
    e.seq = q->next_seq;
    if (rq_push_seq(q, &e) != 0)
        return -1;
    q->next_seq++;
    return 0;
}

int rq_fill_slow(rq_queue *q)
{
    if (q->b[0].n || !q->mask)
        return 0;
    unsigned i = (unsigned)__builtin_ctzll(q->mask) + 1;
    rq_bucket *B = &q->b[i];
    /* the lower buckets are empty; spreading B needs at most one chunk per
     * target bucket beyond the chunks B frees as it goes */
    if (ck_reserve(q->pool, (size_t)i + 1) != 0)
        return -1;
    uint64_t last = B->min;
    q->last = last;
    ck_chunk *c = B->head;
    B->head = B->tail = NULL;
    B->n = 0;
    q->mask &= ~(1ull << (i - 1));
    while (c) {
        for (uint32_t j = 0; j < c->n; j++) {
            const eq_event *e = &c->u.ev[j];
            uint64_t k = key_of(e->time);
            add(q, bucket_of(last, k), e, k); /* cannot fail: reserved */
        }
        ck_chunk *n = c->next;
        ck_put(q->pool, c);
        c = n;
    }
    return 0;
}

int rq_pop(rq_queue *q, eq_event *out)
{
    const eq_event *e = rq_peek(q);
    if (!e)
        return -1;
    *out = *e;
    rq_bucket *B = &q->b[0];
    B->n--;
    q->len--;
    if (++B->off == B->head->n) {
        ck_chunk *h = B->head;
        B->head = h->next;
        B->off = 0;
        if (!B->head)
            B->tail = NULL;
        ck_put(q->pool, h);
    }
    return 0;
}
