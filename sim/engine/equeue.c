/*
 * equeue.c - 4-ary min-heap of events by value (see equeue.h).
 *
 * A 4-ary heap halves the depth of a binary heap; sift-down compares four
 * children that share a cache line or two (events are 32 bytes), which is
 * where the time goes with millions of pending timers.  Invariant: for every
 * i > 0, !eq_before(heap[i], heap[(i - 1) / 4]).
 */
#include "equeue.h"

#include <stdlib.h>

#include "../base/alloc.h"

#define ARITY 4

int eq_init(eq_queue *q, size_t hint)
{
    q->heap = NULL;
    q->len = 0;
    q->cap = 0;
    q->next_seq = 0;
    if (hint == 0)
        return 0;
    q->heap = herd_malloc_array(hint, sizeof *q->heap);
    if (!q->heap)
        return -1;
    q->cap = hint;
    return 0;
}

void eq_free(eq_queue *q)
{
    if (!q)
        return;
    herd_free(q->heap);
    q->heap = NULL;
    q->len = q->cap = 0;
}

static int grow(eq_queue *q)
{
    size_t ncap = q->cap ? q->cap * 2 : 64;
    eq_event *n = herd_realloc_array(q->heap, ncap, sizeof *n);
    if (!n)
        return -1;
    q->heap = n;
    q->cap = ncap;
    return 0;
}

int eq_push(eq_queue *q, const eq_event *ev)
{
    eq_event e = *ev;
    e.seq = q->next_seq;
    if (eq_push_seq(q, &e) != 0)
        return -1;
    q->next_seq++;
    return 0;
}

int eq_push_seq(eq_queue *q, const eq_event *ev)
{
    if (q->len == q->cap && grow(q) != 0)
        return -1;
    eq_event e = *ev;
    size_t i = q->len++;
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (!eq_before(&e, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
    return 0;
}

int eq_pop(eq_queue *q, eq_event *out)
{
    if (q->len == 0)
        return -1;
    *out = q->heap[0];
    eq_event last = q->heap[--q->len];
    size_t n = q->len, i = 0;
    for (;;) {
        size_t first = i * ARITY + 1;
        if (first >= n)
            break;
        size_t end = first + ARITY < n ? first + ARITY : n;
        size_t best = first;
        for (size_t c = first + 1; c < end; c++)
            if (eq_before(&q->heap[c], &q->heap[best]))
                best = c;
        if (!eq_before(&q->heap[best], &last))
            break;
        q->heap[i] = q->heap[best];
        i = best;
    }
    if (n > 0)
        q->heap[i] = last;
    return 0;
}
