/*
 * equeue.h - the pending-event set: a 4-ary min-heap of events stored by
 * value, ordered by (time, seq).
 *
 * seq is a strictly increasing insertion counter owned by the queue, so two
 * events at the same time pop in insertion (FIFO) order and the order of
 * events is a total order: same inputs, same run, byte for byte.
 *
 * Costs: push and pop are O(log4 n) and never allocate except when the array
 * grows (doubling: amortised O(1), bounded by the peak number of pending
 * events).  There is no remove: a cancelled timer stays in the heap and the
 * model skips it in O(1) when it pops (its tag no longer matches the owner's
 * current generation).
 */
#ifndef HERD_EQUEUE_H
#define HERD_EQUEUE_H

#include <stddef.h>
#include <stdint.h>

/* One event, 32 bytes.  The engine interprets only time and seq; type picks
 * the handler, and obj / tag / arg / aux are the model's payload (typically:
 * the object an event is for, a generation tag that lets stale events be
 * skipped, a small argument such as a status code, and a number such as a
 * duration). */
typedef struct eq_event {
    double time;        /* simulated seconds */
    union {
        struct {
            uint64_t type : 8;  /* handler index */
            uint64_t seq : 56;  /* insertion sequence: tie-breaker, unique per queue */
        };
        uint64_t key;   /* seq << 8 | type (bit-fields fill from the low bits on every
                         * target herd builds for; tested): ordered as seq */
    };
    uint32_t obj;
    uint32_t tag;
    int32_t arg;
    float aux;
} eq_event;

typedef struct eq_queue {
    eq_event *heap; /* heap[0] is the minimum */
    size_t len;
    size_t cap;
    uint64_t next_seq;
} eq_queue;

/* Initialises an empty queue with room for `hint` events (0 is fine).
 * Returns 0, or -1 on allocation failure (q is then empty and valid). */
int eq_init(eq_queue *q, size_t hint);

/* Frees the array; q becomes an empty queue.  eq_free(NULL) is a no-op. */
void eq_free(eq_queue *q);

/* Inserts a copy of *ev, overwriting ev->seq with the next sequence number.
 * Returns 0, or -1 on allocation failure (queue unchanged). */
int eq_push(eq_queue *q, const eq_event *ev);

/* Inserts a copy of *ev keeping ev->seq, which the caller numbers (a
 * simulation shares one sequence between the queue and its lanes); the
 * queue's own counter is not used.  Returns 0, or -1 on allocation failure
 * (queue unchanged). */
int eq_push_seq(eq_queue *q, const eq_event *ev);

/* Removes the minimum into *out.  Returns 0, or -1 if the queue is empty. */
int eq_pop(eq_queue *q, eq_event *out);

/* The minimum without removing it, or NULL if empty. */
static inline const eq_event *eq_peek(const eq_queue *q)
{
    return q->len ? &q->heap[0] : NULL;
}

static inline size_t eq_len(const eq_queue *q) { return q->len; }

/* a before b in the total order (time, seq). */
static inline int eq_before(const eq_event *a, const eq_event *b)
{
    return a->time < b->time || (a->time == b->time && a->key < b->key);
}

/* The key of seq and type (see eq_event). */
static inline uint64_t eq_key(uint64_t seq, uint32_t type)
{
    return seq << 8 | (type & 0xffu);
}

#endif
