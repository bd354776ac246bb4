/*
 * discipline.h - the server's waiting room and the order it is served in
 * ([server] queue_discipline): a table of operations per discipline, so
 * the server's arrival and completion paths never branch on it.
 *
 * The room is a ring (deque) of qslots kept in arrival order: attempts
 * join at the tail, and every discipline takes from one end or the other,
 * so the head is always the oldest waiting attempt and the tail the
 * newest.  The ring grows by doubling up to `max` places (the spec's
 * queue) and never shrinks; every operation is O(1) amortised and none
 * allocates except a growth.
 *
 *   fifo           serves the head (the oldest);
 *   lifo           serves the tail (the newest), non-preemptive;
 *   adaptive_lifo  serves the head while the oldest has waited at most
 *                  after_s, the tail once it has waited longer (Facebook,
 *                  "Fail at Scale", ACM Queue 13(8), 2015).
 */
#ifndef HERD_DISCIPLINE_H
#define HERD_DISCIPLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../spec/spec.h"

/* One waiting attempt. */
typedef struct qslot {
    uint32_t client, tag;
    double enqueued;    /* when the attempt joined the queue */
    uint32_t req;       /* request index of the attempt's logical operation */
    uint32_t lim;       /* its slot in the concurrency limiter (limiter.h), if one is configured */
    float carried;      /* the deadline it carried: seconds left on arrival (shed.h; INFINITY: none) */
} qslot;

/* The waiting room: len slots from head (oldest) in a ring of cap. */
typedef struct srv_queue {
    qslot *slot;
    uint32_t head, len, cap;
    uint32_t max;       /* places ([server] queue) */
    double after_s;     /* adaptive_lifo: the oldest's wait that switches to LIFO */
} srv_queue;

/* The operations of a discipline.  q is never NULL. */
typedef struct disc_ops {
    const char *name;
    /* Makes room for one more attempt: 1 (room), 0 (the room is full),
     * -1 (out of memory growing the ring; the queue is unchanged). */
    int (*admit)(srv_queue *q);
    /* Puts s at the tail; admit returned 1 just before. */
    void (*enqueue)(srv_queue *q, qslot s);
    /* Removes and returns the attempt to serve at time now; q->len > 0. */
    qslot (*next)(srv_queue *q, double now);
    /* Removes and returns the oldest waiting attempt; q->len > 0. */
    qslot (*drop)(srv_queue *q);
} disc_ops;

extern const disc_ops disc_fifo, disc_lifo, disc_adaptive_lifo;

/* The operations of discipline d (never NULL), and an empty room of
 * spec's size and parameters in *q (nothing allocated yet). */
const disc_ops *disc_for(spec_qdisc d);
void disc_init(srv_queue *q, const model_spec *spec);

/* Frees the ring; q is left empty (a NULL slot array is fine). */
void disc_free(srv_queue *q);

/* The ring operations the disciplines are made of (discipline.c). */
int disc_ring_admit(srv_queue *q);
void disc_ring_push_tail(srv_queue *q, qslot s);
qslot disc_ring_pop_head(srv_queue *q);
qslot disc_ring_pop_tail(srv_queue *q);

/* CoDel as adapted for RPC queues ([server] codel_target_s,
 * codel_interval_s; Facebook, "Fail at Scale", 2015, as Wangle's Codel
 * measures it): an interval starts at time 0 and, after that, at the
 * first dequeue at or after the previous one's end (its length plus the
 * wait for that dequeue).  At that dequeue the queue becomes overloaded,
 * for the new interval, when the minimum queueing time of the attempts
 * that left it during the previous one exceeded `target`.  Every attempt
 * counts: served from the queue, dropped from it, or served at once on
 * arrival (queueing time 0, so an idle server is never overloaded).  An
 * interval in which none left exceeds any target: the queue stood all
 * along.  While overloaded, a worker looking for work first drops (503)
 * every waiting attempt that has waited more than the target, oldest
 * first.  O(1) per call; drops are O(1) amortised (each attempt once). */
typedef struct codel {
    double target, interval;
    double end;         /* the current interval ends here */
    double min;         /* minimum queueing time taken in it (INFINITY: none) */
    bool overloaded;    /* decided at the start of the current interval */
} codel;

/* A CoDel state with nothing measured yet (not overloaded). */
void codel_init(codel *cd, double target, double interval);

/* A worker looks for work at now: closes intervals that have ended.
 * Returns whether the queue is overloaded now. */
bool codel_begin(codel *cd, double now);

/* An attempt that waited `waited` s left the queue (served or dropped). */
static inline void codel_took(codel *cd, double waited)
{
    if (waited < cd->min)
        cd->min = waited;
}

/* The oldest waiting attempt, without removing it; q->len > 0. */
static inline const qslot *disc_oldest(const srv_queue *q) { return &q->slot[q->head]; }

#endif
