/*
 * discipline_lifo.c - last in, first out, non-preemptive: a free worker
 * takes the newest waiting attempt; an attempt in service is never
 * interrupted.  The mean wait equals FIFO's (the order does not change
 * the work in the system), its variance is larger.
 */
#include "discipline.h"

static qslot lifo_next(srv_queue *q, double now)
{
    (void)now;
    return disc_ring_pop_tail(q);
}

const disc_ops disc_lifo = {"lifo", disc_ring_admit, disc_ring_push_tail, lifo_next, disc_ring_pop_head};
