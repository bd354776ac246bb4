/*
 * backend.c - the simulated server behind herd serve's HTTP layer
 * (serve.c): it behaves like the scenario's server model (model/server.c).
 *
 * A request of the model (any path outside /_herd/) is, in the model's
 * order:
 *   1. inside a fail_fast outage: answered at once with the outage status;
 *      inside a black_hole outage: accepted and never answered (held until
 *      the client gives up, the next reset or the end); inside a
 *      connection_refused outage the listening socket is closed, so the
 *      kernel really refuses new connections, and a request arriving on a
 *      connection opened before the outage has that connection closed
 *      unanswered (libcurl then reconnects, and is refused);
 *   2. without a token in the rate limiter's bucket: 429 at once, with
 *      Retry-After (whole seconds), retry-after-ms or both, and
 *      X-RateLimit-Reset, as the [server] keys ask (the limiter stands in
 *      front of the failing backend, as in the model);
 *   3. with probability error_rate_NNN: answered at once with NNN;
 *   4. with shed_sheddable_above, an X-Herd-Priority: sheddable request
 *      while the share of busy workers is above it: 503 at once (shed);
 *   5. with drop_expired, a request whose X-Herd-Deadline left nothing:
 *      closed unanswered (expired_skipped);
 *   6. with a concurrency limiter (model/limiter.h, the model's code):
 *      when the requests it admitted and not yet answered are at its
 *      limit, answered 503 at once (concurrency_rejected); an admitted
 *      request is a sample of the limiter when its service completes (RTT
 *      from its arrival to then), or a drop when drop_expired skips it;
 *   7. served by a free worker (of `workers`), or queued (in
 *      queue_discipline's order, `queue` places), or answered 503 at once
 *      when both are full.  With drop_expired, a queued request whose
 *      deadline (its receipt + X-Herd-Deadline) has been reached when a
 *      worker takes it is closed unanswered instead (expired_skipped) and
 *      the worker takes the next.  A served
 *      request is answered 200 after its service time (drawn from the
 *      scenario's distribution, times the load slowdown), unless its reply
 *      is lost (reply_loss_rate): then the work is done and the request is
 *      held, unanswered, like a black hole.
 *
 * A timer thread sleeps on a condition variable until the earliest service
 * completion (a min-heap of at most `workers` entries), answers it and
 * starts the next queued request: no busy loop, no sleep per request.
 *
 * Random numbers: the service and error streams of the simulator
 * (engine/rng.h), seeded from the replication seed of the last reset.
 */
#include "backend.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "../base/alloc.h"
#include "../model/model.h"
#include "../model/sample.h"
#include "../scenario/scenario.h"

#define RESUME_BATCH 64
#define MAX_BUCKETS (1u << 20)

double backend_clock(const backend *s) { return real_now() - s->t0; }

/* ---- the model's state (under s->mu) ----------------------------------- */

static void heap_swap(job **h, uint32_t a, uint32_t b)
{
    job *t = h[a];
    h[a] = h[b];
    h[b] = t;
}

static void heap_push(backend *s, job *j)
{
    uint32_t i = s->nheap++;
    s->heap[i] = j;
    while (i > 0 && s->heap[(i - 1) / 2]->due > s->heap[i]->due) {
        heap_swap(s->heap, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static job *heap_pop(backend *s)
{
    job *top = s->heap[0];
    s->heap[0] = s->heap[--s->nheap];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && s->heap[l]->due < s->heap[m]->due)
            m = l;
        if (r < s->nheap && s->heap[r]->due < s->heap[m]->due)
            m = r;
        if (m == i)
            break;
        heap_swap(s->heap, i, m);
        i = m;
    }
    return top;
}

/* The bucket of server time t (NULL past the last), with the in-flight
 * level carried into buckets no change has touched yet. */
static size_t bucket_of(backend *s, double t)
{
    double i = floor(t / s->bucket_s);
    if (!(i >= 0) || i >= (double)s->nb)
        return SIZE_MAX;
    size_t b = (size_t)i;
    uint32_t level = s->busy + s->qlen;
    while (s->hi <= b)
        s->inflight[s->hi++] = level;
    return b;
}

static void note_inflight(backend *s, double now)
{
    uint32_t n = s->busy + s->qlen;
    if (n > s->peak_inflight)
        s->peak_inflight = n;
    size_t b = bucket_of(s, now);
    if (b != SIZE_MAX && n > s->inflight[b])
        s->inflight[b] = n;
}

static void busy_tick(backend *s, double now)
{
    if (now > s->busy_since)
        s->busy_area += s->busy * (now - s->busy_since);
    s->busy_since = now;
}

static void start_service(backend *s, job *j, double now)
{
    s->served++;
    s->wait_sum += now - j->arrived;
    if (now > j->arrived)
        s->waited++;
    double t = dist_sample(&s->spec->service, scn_data(), s->rng.r[RNG_SERVICE]);
    if (s->spec->load_slowdown > 0)
        t *= 1 + s->spec->load_slowdown * (double)(s->busy + s->qlen) / s->spec->workers;
    j->service = t;
    j->due = now + t;
    heap_push(s, j);
}

bool backend_refusing_at(const model_spec *spec, double t)
{
    return spec_outage_refuses(spec_outage_at(spec, 0, t));
}

double backend_next_edge(const model_spec *spec, double t)
{
    double next = INFINITY;
    for (uint32_t i = 0; i < spec->noutages; i++) {
        if (spec->outages[i].start_s > t)
            next = fmin(next, spec->outages[i].start_s);
        if (spec->outages[i].end_s > t)
            next = fmin(next, spec->outages[i].end_s);
    }
    return next;
}

/* The token bucket (model/server.c): true if a token was taken, else
 * false with the delay to announce (seconds, in the [server]
 * retry_after_format's resolution; -1: none); serve.c's rate_headers writes
 * it. */
static bool take_token(backend *s, double now, double *retry_after)
{
    return server_take_token(s->spec, &s->tokens, &s->tokens_at, now, retry_after);
}

/* Every request the server holds (in service, queued, held), unlinked into
 * one list, each to be closed unanswered. */
static job *take_all(backend *s)
{
    job *all = NULL;
    while (s->nheap) {
        job *j = heap_pop(s);
        j->next = all;
        all = j;
    }
    for (job *j = s->qhead, *n; j; j = n) {
        n = j->next;
        j->next = all;
        all = j;
    }
    for (job *j = s->held, *n; j; j = n) {
        n = j->next;
        j->next = all;
        all = j;
    }
    s->qhead = s->qtail = s->held = NULL;
    s->qlen = s->busy = 0;
    for (job *j = all; j; j = j->next) {
        j->answer = 0;
        j->served = false;
    }
    return all;
}

/* ---- requests ---------------------------------------------------------- */

/* A request of the model arrives (see the top of the file). */
int backend_arrive(backend *s, struct MHD_Connection *conn, serve_tags tags, job **held, double *retry_after,
                   bool *overloaded)
{
    const model_spec *spec = s->spec;
    pthread_mutex_lock(&s->mu);
    double now = backend_clock(s);
    s->requests_total++;
    const spec_outage *o = spec_outage_at(spec, 0, now);
    if (o && o->mode == SPEC_OUTAGE_FAIL_FAST && o->outcome == HP_OUTCOME_CONN_REFUSED) {
        pthread_mutex_unlock(&s->mu);
        return -1; /* the process is "down": this connection dies, new ones are refused */
    }
    int error = 0;
    if (!o && spec->nerrors) {
        double u = gsl_rng_uniform(s->rng.r[RNG_ERRORS]), acc = 0;
        for (uint32_t i = 0; i < spec->nerrors && !error; i++) {
            acc += spec->errors[i].p;
            if (u < acc)
                error = spec->errors[i].outcome;
        }
    }
    s->calls++;
    size_t b = bucket_of(s, now);
    if (b != SIZE_MAX)
        s->arrivals[b]++;
    unsigned status = 0;
    double ra = -1;
    *overloaded = false;
    job *j = NULL;
    uint32_t slot = 0;
    /* the model's order: the rate limiter stands in front of the failing
     * backend, so it answers before any background error */
    if (o) {
        s->outage_errors++;
        status = o->mode == SPEC_OUTAGE_FAIL_FAST ? (unsigned)o->outcome : 0;
    } else if (spec->rate_limit_rps > 0 && !take_token(s, now, &ra)) {
        s->status_429++;
        status = 429;
    } else if (error) {
        s->background_errors++;
        status = (unsigned)error;
    } else if (spec->shed_sheddable_above > 0 && tags.sheddable &&
               shed_rejects(spec->shed_sheddable_above, s->busy, spec->workers)) {
        s->shed++;
        status = 503;
        *overloaded = spec->overload_signal;
    } else if (spec->drop_expired && !(tags.deadline_left_s > 0)) {
        s->expired_skipped++; /* its deadline passed before it arrived: nobody waits */
        pthread_mutex_unlock(&s->mu);
        return -1;
    } else {
        /* the concurrency limiter stands in front of the workers and the queue */
        int64_t lim = lim_acquire(&s->lim, now);
        if (lim == -2) {
            pthread_mutex_unlock(&s->mu);
            return -1; /* out of memory */
        }
        if (lim < 0) {
            s->concurrency_rejected++;
            status = 503;
            *overloaded = spec->overload_signal;
        } else if (s->busy >= spec->workers && s->qlen >= spec->queue) {
            lim_ignore(&s->lim, (uint32_t)lim);
            s->rejected++;
            status = 503;
            *overloaded = spec->overload_signal;
        } else {
            slot = (uint32_t)lim;
        }
    }
    if (status == 503 && spec->retry_after_on_503)
        ra = spec->retry_after_s;
    *retry_after = ra;
    if (status) {
        pthread_mutex_unlock(&s->mu);
        return (int)status;
    }
    j = herd_calloc(1, sizeof *j);
    if (!j) {
        if (!o)
            lim_ignore(&s->lim, slot);
        pthread_mutex_unlock(&s->mu);
        return -1;
    }
    j->lim = slot;
    j->conn = conn;
    j->arrived = now;
    j->deadline = now + tags.deadline_left_s;
    *held = j;
    if (o) { /* a black hole: accepted, never answered */
        j->next = s->held;
        s->held = j;
    } else if (s->busy < spec->workers) {
        busy_tick(s, now);
        s->busy++;
        start_service(s, j, now);
        pthread_cond_signal(&s->cv);
    } else {
        j->prev = s->qtail;
        if (s->qtail)
            s->qtail->next = j;
        else
            s->qhead = j;
        s->qtail = j;
        s->qlen++;
    }
    note_inflight(s, now);
    serve_suspend(conn); /* under the mutex: before any resume of it */
    pthread_mutex_unlock(&s->mu);
    return 0;
}

/* ---- the timer thread -------------------------------------------------- */

/* Removes and returns the waiting job a freed worker takes at now, in the
 * model's order (sim/model/discipline.h): the oldest (fifo), the newest
 * (lifo), or the newest once the oldest has waited more than
 * adaptive_lifo_after_s (adaptive_lifo).  s->qlen > 0; O(1). */
static job *queue_next(backend *s, double now)
{
    const model_spec *spec = s->spec;
    bool newest = spec->queue_discipline == SPEC_QD_LIFO ||
                  (spec->queue_discipline == SPEC_QD_ADAPTIVE_LIFO &&
                   now - s->qhead->arrived > spec->adaptive_lifo_after_s);
    job *q = newest ? s->qtail : s->qhead;
    if (q->prev)
        q->prev->next = q->next;
    else
        s->qhead = q->next;
    if (q->next)
        q->next->prev = q->prev;
    else
        s->qtail = q->prev;
    q->next = q->prev = NULL;
    s->qlen--;
    return q;
}

void *backend_timer_main(void *arg)
{
    backend *s = arg;
    const model_spec *spec = s->spec;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        if (!s->nheap) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        double now = backend_clock(s), due = s->heap[0]->due;
        if (now < due) {
            double wake = s->t0 + due;
            struct timespec ts = {.tv_sec = (time_t)wake, .tv_nsec = (long)((wake - floor(wake)) * 1e9)};
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
            continue;
        }
        job *batch = NULL;
        for (int n = 0; n < RESUME_BATCH && s->nheap && s->heap[0]->due <= now; n++) {
            job *j = heap_pop(s);
            lim_release(&s->lim, j->lim, j->due, false); /* answered (or its reply lost): onSuccess */
            if (spec->reply_loss_rate > 0 && gsl_rng_uniform(s->rng.r[RNG_ERRORS]) < spec->reply_loss_rate) {
                s->replies_lost++;
                s->wasted += j->service;
                j->next = s->held; /* the work is done; the reply never comes */
                s->held = j;
            } else {
                if (serve_peer_gone(j->conn)) { /* its attempt timed out: a late reply */
                    s->late++;
                    s->wasted += j->service;
                }
                j->answer = 200;
                j->served = true;
                j->next = batch;
                batch = j;
            }
            job *q = NULL;
            while (s->qlen && (q = queue_next(s, j->due)) && spec->drop_expired && j->due >= q->deadline) {
                s->expired_skipped++; /* skipped unserved, closed unanswered */
                lim_release(&s->lim, q->lim, j->due, true); /* deadline exceeded: onDropped */
                q->answer = 0;
                q->served = false;
                q->next = batch;
                batch = q;
                q = NULL;
            }
            if (q) {
                start_service(s, q, j->due);
            } else {
                busy_tick(s, j->due);
                s->busy--;
            }
            note_inflight(s, j->due);
        }
        pthread_mutex_unlock(&s->mu);
        serve_resume_list(batch);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- replications and counters ----------------------------------------- */

/* A series of buckets of width bucket_s over horizon_s (at most
 * MAX_BUCKETS): 0, or -1 (out of memory; the old series stays). */
static int series_alloc(backend *s, double bucket_s, double horizon_s)
{
    double nb = ceil(horizon_s / bucket_s) + 2;
    size_t n = nb > MAX_BUCKETS ? MAX_BUCKETS : (size_t)nb;
    uint32_t *a = herd_calloc(n, sizeof *a), *f = herd_calloc(n, sizeof *f);
    if (!a || !f) {
        herd_free(a);
        herd_free(f);
        return -1;
    }
    herd_free(s->arrivals);
    herd_free(s->inflight);
    s->arrivals = a;
    s->inflight = f;
    s->nb = n;
    s->bucket_s = bucket_s;
    return 0;
}

int backend_reset(backend *s, uint64_t seed, double bucket_s, double horizon_s, job **drop)
{
    pthread_mutex_lock(&s->mu);
    if (series_alloc(s, bucket_s, horizon_s) != 0) {
        pthread_mutex_unlock(&s->mu);
        return -1;
    }
    *drop = take_all(s);
    rng_free(&s->rng);
    if (rng_init(&s->rng, seed) != 0) /* allocation failed: keep running on the start's streams */
        rng_init(&s->rng, 1);
    s->calls = s->rejected = s->outage_errors = s->background_errors = s->status_429 = 0;
    s->concurrency_rejected = 0;
    lim_free(&s->lim); /* a new replication: the limiter starts over, as a new model */
    lim_init(&s->lim, s->spec);
    s->replies_lost = s->served = s->waited = s->late = 0;
    s->expired_skipped = s->shed = 0;
    s->peak_inflight = 0;
    s->wait_sum = s->busy_area = s->busy_since = s->wasted = 0;
    s->hi = 0;
    s->tokens = s->spec->burst > 0 ? s->spec->burst : fmax(1, s->spec->rate_limit_rps);
    s->tokens_at = 0;
    s->t0 = real_now();
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return 0;
}

job *backend_stop(backend *s)
{
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    job *drop = take_all(s);
    pthread_mutex_unlock(&s->mu);
    return drop;
}

char *backend_stats_text(backend *s)
{
    pthread_mutex_lock(&s->mu);
    double now = backend_clock(s);
    busy_tick(s, now);
    size_t hi = s->hi, cap = 1024 + hi * 24;
    char *t = herd_malloc_array(cap, 1);
    if (t) {
        size_t o = (size_t)snprintf(
            t, cap,
            "calls %llu\nrejected %llu\noutage_errors %llu\nbackground_errors %llu\nstatus_429 %llu\n"
            "replies_lost %llu\nserved %llu\nwaited %llu\nlate_replies %llu\npeak_inflight %u\n"
            "wait_sum %.9g\nbusy_area %.9g\nwasted_work_s %.9g\nworkers %u\nexpired_skipped %llu\nshed %llu\n"
            "concurrency_rejected %llu\nbuckets %zu\n",
            (unsigned long long)s->calls, (unsigned long long)s->rejected, (unsigned long long)s->outage_errors,
            (unsigned long long)s->background_errors, (unsigned long long)s->status_429,
            (unsigned long long)s->replies_lost, (unsigned long long)s->served, (unsigned long long)s->waited,
            (unsigned long long)s->late, s->peak_inflight, s->wait_sum, s->busy_area, s->wasted, s->spec->workers,
            (unsigned long long)s->expired_skipped, (unsigned long long)s->shed,
            (unsigned long long)s->concurrency_rejected, hi);
        for (size_t i = 0; i < hi; i++)
            o += (size_t)snprintf(t + o, cap - o, "b %u %u\n", s->arrivals[i], s->inflight[i]);
    }
    pthread_mutex_unlock(&s->mu);
    return t;
}

/* ---- the backend's life ------------------------------------------------ */

int backend_init(backend *s, const model_spec *spec)
{
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca; /* the timer waits on the monotonic clock, as real_now() */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    s->spec = spec;
    s->heap = herd_calloc(spec->workers, sizeof *s->heap);
    if (!s->heap || series_alloc(s, spec->bucket_s, spec->horizon_s) != 0 || rng_init(&s->rng, 1) != 0)
        return -1;
    s->tokens = spec->burst > 0 ? spec->burst : fmax(1, spec->rate_limit_rps);
    lim_init(&s->lim, spec);
    return 0;
}

void backend_free(backend *s)
{
    rng_free(&s->rng);
    lim_free(&s->lim);
    herd_free(s->heap);
    herd_free(s->arrivals);
    herd_free(s->inflight);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}
