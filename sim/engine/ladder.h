/*
 * ladder.h - a ladder queue (Tang, Goh and Thng, "Ladder Queue: An O(1)
 * Priority Queue Structure for Large-Scale Discrete Event Simulation",
 * ACM TOMACS 15(3), 2005) of events stored by value in chunks, ordered by
 * (time, seq) exactly.
 *
 * Three tiers:
 *   - Top: an unsorted list of the events later than top_start (the end of
 *     the range the rungs cover), with their min and max time;
 *   - rungs 0..nrungs-1: each an array of buckets of equal width; bucket k
 *     of a rung holds unsorted events with (t - lo) * inv in [k, k + 1)
 *     (clamped to the rung's first and last bucket).  Rung 0 is made from
 *     Top when everything below is used up; rung r + 1 from the next
 *     bucket of rung r when that bucket holds more than a few events.  A
 *     rung made of n events has about n / 1024 buckets if n is large (few
 *     partly filled chunks, bucket tails that stay in cache), n / 4 if it
 *     is small (buckets short enough to sort at once);
 *   - Bottom: a sorted array the minimum is popped from.
 * An event moves Top -> rung 0 -> (rung 1 ...) -> Bottom, about three
 * times, each a sequential copy, so push and pop are O(1) amortised for
 * the time distributions a simulation produces.  While the queue is small
 * (up to 32 events) it is Bottom alone ("flat": a binary search and a
 * short move per push); when Bottom grows past that, or past 64 events
 * with rungs in place, it becomes a rung of its own.
 *
 * Exact order.  The bucket of a time is a monotone function of the time
 * (a rounded subtraction and a multiplication by a positive constant, then
 * a clamp), so an event in a later bucket is never earlier, and Bottom is
 * sorted by (time, seq).  Every list is appended to in increasing seq (a
 * list is filled from an older list in its order, or by pushes), so events
 * of equal time keep insertion order wherever they are.
 *
 * Contract: times are finite; seq values increase with every push
 * (lq_push assigns them, lq_push_seq takes the caller's).  Times may be
 * anything (the order stays exact: tested with times before the last
 * pop), but the costs above assume what a simulation does: pushes not
 * before the last popped time.  Memory: the events (15 per 512-byte chunk of the pool the
 * queue was given), at most one partly used chunk per non-empty bucket,
 * 24 bytes per bucket, and Bottom; nothing grows by doubling except
 * Bottom, which holds a few dozen events unless thousands share one time.
 */
#ifndef HERD_LADDER_H
#define HERD_LADDER_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "equeue.h"

#define LQ_MAX_RUNGS 8

/* A list of chunks; every chunk but the tail is full, the tail holds tn
 * events (kept here so that a push touches only the slot it writes). */
typedef struct lq_bucket {
    ck_chunk *head, *tail;
    uint32_t n, tn;
} lq_bucket;

typedef struct lq_rung {
    double lo, inv;      /* bucket of t: (t - lo) * inv, clamped */
    double last;         /* nb - 1, as a double */
    lq_bucket *b;
    uint32_t nb, cap;    /* buckets in use, allocated */
    int64_t cur;         /* buckets <= cur are used up (moved below) */
    uint64_t n;          /* events in buckets > cur */
} lq_rung;

typedef struct lq_queue {
    ck_pool *pool;       /* borrowed */
    lq_bucket top;
    double top_min, top_max;
    double top_start;    /* Top holds the events with time > top_start */
    lq_rung rung[LQ_MAX_RUNGS];
    uint32_t nrungs;
    eq_event *bot;       /* Bottom: bot[bhead..blen) sorted */
    eq_event *tmp;       /* merge-sort buffer, bcap events */
    uint32_t bhead, blen, bcap;
    uint64_t len;
    uint64_t next_seq;   /* for lq_push */
    const char *pf_base; /* prefetch base + obj * pf_stride of events soon due (NULL: none) */
    size_t pf_stride;
} lq_queue;

/* An empty queue whose events live in chunks of `pool` (which must outlive
 * it).  Returns 0, or -1 on allocation failure (q is then empty and safe
 * to lq_free). */
int lq_init(lq_queue *q, ck_pool *pool);

/* Frees the queue's arrays and returns its chunks to the pool.  Safe on
 * NULL and on a freed queue. */
void lq_free(lq_queue *q);

/* Inserts a copy of *ev keeping ev->seq, which must be larger than every
 * seq pushed before.  Returns 0, or -1 on allocation failure (the queue
 * is unchanged). */
int lq_push_seq(lq_queue *q, const eq_event *ev);

/* Inserts a copy of *ev with seq = the queue's next sequence number (as
 * eq_push).  Returns 0 or -1 (allocation; queue unchanged, no seq used). */
int lq_push(lq_queue *q, const eq_event *ev);

/* Moves events down until Bottom holds the minimum.  Returns 0 (then the
 * minimum is q->bot[q->bhead] unless the queue is empty), or -1 on
 * allocation failure (the queue is unchanged and still valid). */
int lq_fill_slow(lq_queue *q);

static inline int lq_fill(lq_queue *q)
{
    return q->bhead < q->blen ? 0 : lq_fill_slow(q);
}

/* The minimum without removing it; NULL if the queue is empty or Bottom
 * could not be filled (allocation: see lq_fill). */
static inline const eq_event *lq_peek(lq_queue *q)
{
    if (q->bhead == q->blen && (lq_fill_slow(q) != 0 || q->bhead == q->blen))
        return NULL;
    return &q->bot[q->bhead];
}

/* Removes the minimum into *out.  Returns 0, or -1 if the queue is empty
 * or Bottom could not be filled (allocation). */
static inline int lq_pop(lq_queue *q, eq_event *out)
{
    const eq_event *e = lq_peek(q);
    if (!e)
        return -1;
    *out = *e;
    q->bhead++;
    q->len--;
    return 0;
}

static inline size_t lq_len(const lq_queue *q) { return (size_t)q->len; }

#endif
