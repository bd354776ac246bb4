/*
 * discipline_adaptive.c - adaptive LIFO (Facebook, "Fail at Scale", ACM
 * Queue 13(8), 2015): FIFO while the queue is short-lived, LIFO once a
 * standing queue forms, so fresh requests (whose clients still wait) are
 * served first and the old ones age out.  The switch is the age of the
 * oldest waiting attempt: strictly more than after_s waited serves the
 * newest, otherwise the oldest.  O(1): the oldest is the ring's head.
 */
#include "discipline.h"

static qslot adaptive_next(srv_queue *q, double now)
{
    if (now - disc_oldest(q)->enqueued > q->after_s)
        return disc_ring_pop_tail(q);
    return disc_ring_pop_head(q);
}

const disc_ops disc_adaptive_lifo = {"adaptive_lifo", disc_ring_admit, disc_ring_push_tail, adaptive_next,
                                     disc_ring_pop_head};
