/*
 * discipline_fifo.c - first in, first out: the oldest waiting attempt is
 * served next (herd's default, and the only order before queue_discipline).
 */
#include "discipline.h"

static qslot fifo_next(srv_queue *q, double now)
{
    (void)now;
    return disc_ring_pop_head(q);
}

const disc_ops disc_fifo = {"fifo", disc_ring_admit, disc_ring_push_tail, fifo_next, disc_ring_pop_head};
