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
 *
 * Computed ahead (md->ahead, client.c): only the read's and the write's
 * arrivals read or write what others share (the row's version), so they
 * are the try's two events.  The read's reply and the write it makes the
 * client send touch nothing shared: at the read's arrival, the reply's hop
 * and the write's are drawn and the write's arrival scheduled; at the
 * write's arrival the client's answer, its backoff and its next read are
 * computed (client_answer), and the read's arrival scheduled.  Four hops,
 * two events a try instead of five (the read's arrival, its reply, the
 * write's arrival, its reply, the send after the backoff).
 */
#include "model.h"

#include "sample.h"

void occ_read_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    if (!md->ahead) {
        model_hop(md, EV_OCC_READ_REPLY, ev->obj, ev->tag, md->version, 0);
        return;
    }
    /* the reply reaches the client one hop from now, which sends the
     * write at once (no send cost when computing ahead); beyond the run's
     * end, the reply stays an event */
    double back = sim_now(sim) + dist_sample(&md->spec->delay, md->data, sim_rng(sim, RNG_NETWORK));
    if (back > sim->until)
        sim_schedule_at(sim, back, EV_OCC_READ_REPLY, ev->obj, ev->tag, md->version, 0);
    else
        sim_schedule_at(sim, back + dist_sample(&md->spec->delay, md->data, sim_rng(sim, RNG_NETWORK)), EV_OCC_WRITE,
                        ev->obj, ev->tag, md->version, 0);
    client_held(md, ev->obj, ev->tag); /* its answer comes at the write */
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
    if (md->ahead)
        client_answer(md, ev->obj, ev->tag, outcome, 0);
    else
        model_hop(md, EV_REPLY, ev->obj, ev->tag, outcome, 0);
}
