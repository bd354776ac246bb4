/*
 * discipline.c - the ring the disciplines share (see discipline.h): a
 * deque in arrival order, grown by doubling, unwrapped on growth.
 */
#include "discipline.h"

#include <math.h>

#include "../base/alloc.h"

const disc_ops *disc_for(spec_qdisc d)
{
    switch (d) {
    case SPEC_QD_LIFO:
        return &disc_lifo;
    case SPEC_QD_ADAPTIVE_LIFO:
        return &disc_adaptive_lifo;
    default:
        return &disc_fifo;
    }
}

void disc_init(srv_queue *q, const model_spec *spec)
{
    *q = (srv_queue){.max = spec->queue, .after_s = spec->adaptive_lifo_after_s};
}

void disc_free(srv_queue *q)
{
    herd_free(q->slot);
    q->slot = NULL;
    q->head = q->len = q->cap = 0;
}

/* Doubles the ring (from 64, up to max places), unwrapping it.
 * Returns 0, or -1 (out of memory, unchanged). */
static int grow(srv_queue *q)
{
    uint32_t ncap = q->cap ? q->cap : 64;
    while (ncap <= q->len && ncap < q->max)
        ncap = ncap > UINT32_MAX / 2 ? UINT32_MAX : ncap * 2;
    if (ncap > q->max)
        ncap = q->max;
    qslot *n = herd_malloc_array(ncap, sizeof *n);
    if (!n)
        return -1;
    for (uint32_t i = 0; i < q->len; i++)
        n[i] = q->slot[(q->head + i) % q->cap];
    herd_free(q->slot);
    q->slot = n;
    q->head = 0;
    q->cap = ncap;
    return 0;
}

int disc_ring_admit(srv_queue *q)
{
    if (q->len >= q->max)
        return 0;
    if (q->len < q->cap)
        return 1;
    return grow(q) == 0 ? 1 : -1;
}

void disc_ring_push_tail(srv_queue *q, qslot s)
{
    uint32_t i = q->head + q->len;
    if (i >= q->cap)
        i -= q->cap;
    q->slot[i] = s;
    q->len++;
}

qslot disc_ring_pop_head(srv_queue *q)
{
    qslot s = q->slot[q->head];
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->len--;
    return s;
}

qslot disc_ring_pop_tail(srv_queue *q)
{
    uint32_t i = q->head + q->len - 1;
    if (i >= q->cap)
        i -= q->cap;
    q->len--;
    return q->slot[i];
}

void codel_init(codel *cd, double target, double interval)
{
    *cd = (codel){.target = target, .interval = interval, .end = interval, .min = INFINITY};
}

bool codel_begin(codel *cd, double now)
{
    if (now >= cd->end) {
        cd->overloaded = cd->min > cd->target; /* INFINITY: nothing left the queue all along */
        cd->min = INFINITY;
        cd->end = now + cd->interval;
    }
    return cd->overloaded;
}
