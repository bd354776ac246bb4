/*
 * radix.h - a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster
 * Algorithms for the Shortest Path Problem", J. ACM 37(2), 1990) of events
 * stored by value in chunks, for monotone event times, ordered by
 * (time, seq) exactly.
 *
 * The key of an event is the bit pattern of its time (for finite times
 * >= 0 the patterns order as the times do; -0.0 is read as +0.0).  Bucket
 * b > 0 holds the events whose key first differs from `last` (the key of
 * the last minimum) at bit b - 1; bucket 0 holds the events at exactly
 * `last`, in FIFO order.  A pop takes bucket 0's oldest event; when bucket
 * 0 is empty the lowest non-empty bucket's minimum becomes `last` and that
 * bucket is spread over the buckets below it.  Every event moves down at
 * most 64 times, in practice a few times per doubling of the pending
 * time span.  Each list is filled in increasing seq, so ties pop FIFO.
 *
 * Contract: times finite, >= 0, and not before the last popped time.
 */
#ifndef HERD_RADIX_H
#define HERD_RADIX_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "equeue.h"

typedef struct rq_bucket {
    ck_chunk *head, *tail;
    uint32_t off;        /* bucket 0: next slot to pop in head */
    uint64_t n;
    uint64_t min;        /* smallest key (buckets > 0) */
} rq_bucket;

typedef struct rq_queue {
    ck_pool *pool;
    uint64_t last;
    uint64_t mask;       /* bit b - 1 set: bucket b > 0 is not empty */
    rq_bucket b[65];
    uint64_t len;
    uint64_t next_seq;
} rq_queue;

/* An empty queue in pool (which must outlive it).  Always 0. */
int rq_init(rq_queue *q, ck_pool *pool);

/* Returns every chunk to the pool.  Safe on NULL. */
void rq_free(rq_queue *q);

/* Inserts *ev keeping its seq (larger than any before).  0, or -1 on
 * allocation failure (unchanged). */
int rq_push_seq(rq_queue *q, const eq_event *ev);

/* Inserts *ev with the queue's next seq.  0 or -1. */
int rq_push(rq_queue *q, const eq_event *ev);

/* Makes bucket 0 hold the minimum.  0, or -1 on allocation failure
 * (unchanged). */
int rq_fill_slow(rq_queue *q);

/* The minimum, or NULL if empty or the fill failed. */
static inline const eq_event *rq_peek(rq_queue *q)
{
    if (!q->b[0].n && (rq_fill_slow(q) != 0 || !q->b[0].n))
        return NULL;
    return &q->b[0].head->u.ev[q->b[0].off];
}

/* The smallest pending time without moving anything (+inf if empty).
 * Peeking moves `last` up to the minimum, after which nothing earlier may
 * be pushed: a caller that merges other sources must peek only when this
 * time is not after theirs. */
static inline double rq_min_time(const rq_queue *q)
{
    uint64_t k;
    double t;
    if (q->b[0].n)
        return q->b[0].head->u.ev[q->b[0].off].time;
    if (!q->mask)
        return 1.0 / 0.0;
    k = q->b[__builtin_ctzll(q->mask) + 1].min;
    __builtin_memcpy(&t, &k, sizeof t);
    return t;
}

/* Removes the minimum into *out: 0, or -1 if empty or the fill failed. */
int rq_pop(rq_queue *q, eq_event *out);

static inline size_t rq_len(const rq_queue *q) { return (size_t)q->len; }

#endif
