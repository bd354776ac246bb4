/*
 * occ.c - the AWS Architecture Blog 2015 workload ("Exponential Backoff and
 * Jitter"): optimistic concurrency control on one shared row.
 *
 * Each client wants to update the row once.  An attempt is: read request
 * (one hop), the server answers with the row's version at the instant the
 * read arrives (one hop back), the client sends a conditional write carrying
 * that version (one hop), the server applies it at the instant it arrives if
 * the version is unchanged (and bumps it) or answers 409 Conflict (one hop
 * back).  After a conflict the client asks the policy for a backoff and
 * starts over with a new read.  Only writes are calls; completion is the
 * time the last successful write reply reaches its client.
 *
 * The client side (send, reply, policy decision, retry) is client.c's,
 * shared with the queueing model: this file supplies the server's three
 * handlers.  Each hop draws its own network delay.
 */
#include "model.h"

#include "sample.h"

void occ_read_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    model_hop(md, EV_OCC_READ_REPLY, ev->obj, ev->tag,
                md->version, 0);
}

void occ_read_reply(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    model_send(md, EV_OCC_WRITE, ev->obj, ev->tag, ev->arg, INFINITY);
}

void occ_write_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    model_client_m(md, ev->obj)->calls++;
    ts_bucket *b = model_bucket(md);
    if (b)
        b->arrivals++;
    int outcome = 409;
    if (ev->arg == md->version) {
        md->version++;
        outcome = 200;
    }
    model_hop(md, EV_REPLY, ev->obj, ev->tag, outcome, 0);
}
