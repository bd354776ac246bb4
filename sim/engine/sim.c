/*
 * sim.c - the run loop, lanes and the choice of pending-event set (see
 * sim.h).
 *
 * Invariant: sim->now never decreases; every event popped has
 * time >= the previous one (asserted), because sim_schedule only accepts
 * non-negative delays and a source's times do not decrease.
 *
 * Every lane caches its next event in lane->head (time +inf when empty),
 * so the loop compares the set's minimum with each head and takes the
 * smallest (time, seq).
 */
#include "sim.h"

#include "../base/alloc.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* How many events ahead the run loop prefetches (sim_set_prefetch). */
#define SIM_PREFETCH_AHEAD 4

static const char *const queue_names[SIM_QUEUE_COUNT] = {"ladder", "heap"};

int sim_queue_parse(const char *name)
{
    for (int k = 0; k < SIM_QUEUE_COUNT; k++)
        if (!strcmp(name, queue_names[k]))
            return k;
    return -1;
}

const char *sim_queue_name(int k)
{
    return k >= 0 && k < SIM_QUEUE_COUNT ? queue_names[k] : NULL;
}

const char *sim_error_text(sim_error e)
{
    switch (e) {
    case SIM_OK:
        return "no error";
    case SIM_ERR_MEMORY:
        return "out of memory";
    case SIM_ERR_STUCK:
        return "too many events at one simulated instant (time does not advance)";
    }
    return "unknown error";
}

int sim_init(sim_t *sim, uint64_t replication_seed, size_t hint)
{
    return sim_init_queue(sim, replication_seed, hint, SIM_QUEUE_LADDER);
}

int sim_init_queue(sim_t *sim, uint64_t replication_seed, size_t hint, int kind)
{
    memset(sim, 0, sizeof *sim);
    assert(kind >= 0 && kind < SIM_QUEUE_COUNT);
    sim->qkind = kind;
    sim->until = INFINITY;
    sim->zero_lane = -1;
    sim->same_time_limit = SIM_SAME_TIME_LIMIT;
    ck_pool_init(&sim->pool);
    int rc = 0;
    switch (kind) {
    case SIM_QUEUE_HEAP:
        rc = eq_init(&sim->heap, hint);
        break;
    default:
        rc = lq_init(&sim->ladder, &sim->pool);
        break;
    }
    if (rc != 0) {
        sim_free(sim);
        return -1;
    }
    if (rng_init(&sim->rng, replication_seed) != 0) {
        sim_free(sim);
        return -1;
    }
    return 0;
}

void sim_free(sim_t *sim)
{
    if (!sim)
        return;
    eq_free(&sim->heap);
    if (sim->ladder.pool)
        lq_free(&sim->ladder);
    sim->nlanes = 0;
    sim->zero_lane = -1;
    ck_pool_free(&sim->pool); /* every lane's chunks with it */
    rng_free(&sim->rng);
}

void sim_on(sim_t *sim, uint32_t type, sim_handler h, void *ctx)
{
    assert(type < SIM_MAX_TYPES);
    sim->handler[type] = h;
    sim->ctx[type] = ctx;
}

static inline int queue_push(sim_t *sim, const eq_event *ev)
{
    switch (sim->qkind) {
    case SIM_QUEUE_HEAP:
        return eq_push_seq(&sim->heap, ev);
    default:
        return lq_push_seq(&sim->ladder, ev);
    }
}

static int new_lane(sim_t *sim, int kind, double delay, int narrow)
{
    if (sim->nlanes == SIM_MAX_LANES)
        return -1;
    sim_lane *l = &sim->lane[sim->nlanes];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->delay = delay;
    l->head.time = INFINITY;
    ck_fifo_init(&l->q, narrow);
    return sim->nlanes++;
}

/* Appends ev (seq set) to lane l: into head if the lane is empty. */
static inline int lane_put(sim_t *sim, sim_lane *l, const eq_event *ev)
{
    if (l->head.time == INFINITY && !l->q.len) {
        l->head = *ev;
        sim->lane_mask |= 1u << (l - sim->lane);
        return 0;
    }
    return ck_fifo_push(&l->q, &sim->pool, ev);
}

void sim_schedule(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                  uint32_t tag, int32_t arg)
{
    sim_schedule_aux(sim, delay, type, obj, tag, arg, 0);
}

void sim_schedule_at(sim_t *sim, double t, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg, float aux)
{
    assert(t >= sim->now && t < INFINITY);
    assert(type < SIM_MAX_TYPES);
    eq_event ev = {.time = t, .key = eq_key(sim->seq, type), .obj = obj, .tag = tag, .arg = arg, .aux = aux};
    int rc;
    if (t == sim->now && (sim->zero_lane >= 0 || (sim->zero_lane = sim_lane_for(sim, 0)) >= 0))
        rc = lane_put(sim, &sim->lane[sim->zero_lane], &ev); /* due now: FIFO among themselves */
    else
        rc = queue_push(sim, &ev);
    if (rc != 0) {
        sim_fail(sim);
        return;
    }
    sim->seq++;
}

void sim_schedule_aux(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                      uint32_t tag, int32_t arg, float aux)
{
    assert(delay >= 0 && delay < INFINITY);
    sim_schedule_at(sim, sim->now + delay, type, obj, tag, arg, aux);
}

int sim_lane_for(sim_t *sim, double delay)
{
    assert(delay >= 0 && isfinite(delay));
    for (int i = 0; i < sim->nlanes; i++)
        if (sim->lane[i].kind == SIM_LANE_FIXED && sim->lane[i].delay == delay)
            return i;
    return new_lane(sim, SIM_LANE_FIXED, delay, 0);
}

int sim_timer_lane(sim_t *sim, double delay, sim_dead_fn dead, void *ctx)
{
    assert(delay > 0 && isfinite(delay) && dead);
    int i = new_lane(sim, SIM_LANE_TIMER, delay, 1);
    if (i >= 0) {
        sim->lane[i].dead = dead;
        sim->lane[i].dead_ctx = ctx;
    }
    return i;
}

/* Drops the cancelled timers of lane l, counting each that the current
 * run would have dispatched.  Order kept; O(entries), in place: the kept
 * entries are copied down over the dropped ones, chunk by chunk, and the
 * chunks left empty at the end go back to the pool (no allocation). */
static int prune(sim_t *sim, sim_lane *l)
{
    ck_fifo *f = &l->q;
    uint64_t dropped = 0, kept = 0;
    if (f->len) {
        ck_chunk *wc = f->head, *wprev = NULL; /* the write cursor: chunk, slot */
        uint32_t wi = f->off;
        for (ck_chunk *rc = f->head; rc;) {
            if (sim->pf_base) /* this chunk's objects, before testing them */
                for (uint32_t i = rc == f->head ? f->off : 0; i < rc->n; i++)
                    __builtin_prefetch(sim->pf_base + rc->u.nv[i].obj * sim->pf_stride);
            for (uint32_t i = rc == f->head ? f->off : 0; i < rc->n; i++) {
                const ck_narrow *s = &rc->u.nv[i];
                eq_event e = {.time = s->time, .seq = s->seq, .type = s->type, .obj = s->obj, .tag = s->tag};
                if (l->dead(&e, l->dead_ctx)) {
                    dropped += e.time <= sim->until;
                    continue;
                }
                if (wi == CK_NARROW) { /* the write cursor is never ahead of the read one */
                    wc->n = CK_NARROW;
                    wprev = wc;
                    wc = wc->next;
                    wi = 0;
                }
                wc->u.nv[wi++] = *s;
                kept++;
            }
            rc = rc->next;
        }
        /* wc holds the last kept entries (or none, if wi is where it began);
         * every chunk after it is empty now */
        ck_chunk *rest = wc->next;
        if (wi == (wc == f->head ? f->off : 0)) { /* wc holds nothing */
            rest = wc;
            wc = wprev;
        }
        while (rest) {
            ck_chunk *n = rest->next;
            ck_put(&sim->pool, rest);
            rest = n;
        }
        if (wc) {
            wc->n = wi;
            wc->next = NULL;
            f->tail = wc;
        } else {
            f->head = f->tail = NULL;
            f->off = 0;
        }
        f->len = kept;
    }
    while (l->head.time != INFINITY && l->dead(&l->head, l->dead_ctx)) {
        dropped += l->head.time <= sim->until;
        if (ck_fifo_pop(&l->q, &sim->pool, &l->head) != 0) {
            l->head.time = INFINITY;
            sim->lane_mask &= ~(1u << (l - sim->lane));
        }
    }
    sim->events += dropped;
    l->ndead = 0;
    return 0;
}

void sim_schedule_lane(sim_t *sim, int lane, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg,
                       float aux)
{
    assert(lane >= 0 && lane < sim->nlanes);
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    sim_lane *l = &sim->lane[lane];
    assert(l->kind != SIM_LANE_SOURCE);
    assert(l->kind != SIM_LANE_TIMER || (arg == 0 && aux == 0));
    if (l->kind == SIM_LANE_TIMER && l->ndead >= 1024 && 2 * l->ndead >= l->q.len && prune(sim, l) != 0) {
        sim_fail(sim);
        return;
    }
    eq_event ev = {.time = sim->now + l->delay, .key = eq_key(sim->seq, type), .obj = obj, .tag = tag,
                   .arg = arg, .aux = aux};
    if (lane_put(sim, l, &ev) != 0) {
        sim_fail(sim);
        return;
    }
    sim->seq++;
}

int sim_source(sim_t *sim, uint64_t count, sim_source_fn gen, void *ctx)
{
    int i = new_lane(sim, SIM_LANE_SOURCE, 0, 0);
    if (i < 0)
        return -1;
    sim_lane *l = &sim->lane[i];
    l->gen = gen;
    l->gen_ctx = ctx;
    l->gn = count;
    l->gseq = sim->seq;
    if (count == 0) { /* an empty source: a lane that never fires */
        l->head.time = INFINITY;
        return i;
    }
    sim->seq += count;
    gen(ctx, 0, &l->head);
    l->head.seq = l->gseq;
    sim->lane_mask |= 1u << i;
    assert(l->head.time >= sim->now);
    return i;
}

/* Advances lane l past its head. */
static inline void lane_next(sim_t *sim, sim_lane *l)
{
    if (l->kind == SIM_LANE_SOURCE) {
        if (++l->gi < l->gn) {
            l->gen(l->gen_ctx, l->gi, &l->head);
            l->head.seq = l->gseq + l->gi;
        } else {
            l->head.time = INFINITY;
            sim->lane_mask &= ~(1u << (l - sim->lane));
        }
    } else if (ck_fifo_pop(&l->q, &sim->pool, &l->head) != 0) {
        l->head.time = INFINITY;
        sim->lane_mask &= ~(1u << (l - sim->lane));
    } else if (sim->pf_base && l->q.head) {
        /* the entry SIM_PREFETCH_AHEAD behind the new head, if in its chunk */
        const ck_fifo *f = &l->q;
        uint32_t i = f->off + SIM_PREFETCH_AHEAD - 1;
        uint32_t n = f->head == f->tail ? f->tail->n : (f->narrow ? CK_NARROW : CK_EVENTS);
        if (i < n) {
            uint32_t obj = f->narrow ? f->head->u.nv[i].obj : f->head->u.ev[i].obj;
            __builtin_prefetch(sim->pf_base + obj * sim->pf_stride);
        }
    }
}

/* The run loop for one kind of pending-event set (kind is a constant in
 * each caller, so each gets its own loop without a switch per event).
 * The earliest of the set's minimum and the lane heads is dispatched. */
static inline __attribute__((always_inline)) int run_loop(sim_t *sim, double until, const int kind)
{
    static const eq_event none = {.time = INFINITY, .seq = 0};
    sim->until = until;
    sim->stopped = sim->failed;
    while (!sim->stopped) {
        const eq_event *top = &none;
        sim_lane *from = NULL;
        for (uint32_t m = sim->lane_mask; m; m &= m - 1) {
            sim_lane *l = &sim->lane[__builtin_ctz(m)];
            if (top == &none || eq_before(&l->head, top)) {
                top = &l->head;
                from = l;
            }
        }
        const eq_event *q = NULL;
        if (kind == SIM_QUEUE_HEAP) {
            q = eq_peek(&sim->heap);
        } else {
            if (lq_fill(&sim->ladder) != 0) {
                sim_fail(sim);
                break;
            }
            if (sim->ladder.bhead < sim->ladder.blen)
                q = &sim->ladder.bot[sim->ladder.bhead];
        }
        eq_event ev;
        if (q && !eq_before(top, q)) {
            if (q->time > until)
                break;
            if (kind == SIM_QUEUE_HEAP) {
                eq_pop(&sim->heap, &ev);
            } else {
                ev = *q; /* Bottom's head */
                lq_queue *l = &sim->ladder;
                l->bhead++;
                l->len--;
                if (sim->pf_base && l->bhead + SIM_PREFETCH_AHEAD < l->blen)
                    __builtin_prefetch(sim->pf_base + l->bot[l->bhead + SIM_PREFETCH_AHEAD].obj * sim->pf_stride);
            }
        } else {
            if (top->time > until || top->time == INFINITY)
                break;
            ev = *top;
            lane_next(sim, from);
        }
        assert(ev.time >= sim->now);
        if (ev.time == sim->now) {
            if (++sim->same_time > sim->same_time_limit) {
                sim->error = SIM_ERR_STUCK;
                sim->failed = sim->stopped = true;
                break;
            }
        } else {
            sim->same_time = 1;
        }
        sim->now = ev.time;
        sim->events++;
        sim->handler[ev.type](sim, &ev, sim->ctx[ev.type]);
    }
    return sim->failed ? -1 : 0;
}

static int run_ladder(sim_t *sim, double until) { return run_loop(sim, until, SIM_QUEUE_LADDER); }
static int run_heap(sim_t *sim, double until) { return run_loop(sim, until, SIM_QUEUE_HEAP); }

int sim_run(sim_t *sim, double until)
{
    switch (sim->qkind) {
    case SIM_QUEUE_HEAP:
        return run_heap(sim, until);
    default:
        return run_ladder(sim, until);
    }
}
