/*
 * serve.c - herd serve: a real HTTP server (libmicrohttpd) that behaves
 * like the scenario's server model (model/server.c), on 127.0.0.1 only.
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
 *   4. served by a free worker (of `workers`), or queued (FIFO, `queue`
 *      places), or answered 503 at once when both are full.  A served
 *      request is answered 200 after its service time (drawn from the
 *      scenario's distribution, times the load slowdown), unless its reply
 *      is lost (reply_loss_rate): then the work is done and the request is
 *      held, unanswered, like a black hole.
 *
 * Threads: libmicrohttpd's internal polling thread (epoll, not select:
 * a thousand connections exceed FD_SETSIZE) runs the handler; suspended
 * connections wait for their service.  A timer thread sleeps on a
 * condition variable until the earliest service completion (a min-heap of
 * at most `workers` entries), answers it and starts the next queued
 * request: no busy loop, no sleep per request.  An accept thread owns the
 * listening socket (libmicrohttpd runs without one and gets each accepted
 * connection through MHD_add_connection), closes it during
 * connection_refused outages and listens again after them.  One mutex
 * guards the model state; libmicrohttpd is never called back into from our
 * side while a thread waits for it in the other direction (resumes happen
 * outside the mutex, except the suspend in the handler, which must precede
 * any resume of the same request).
 *
 * Random numbers: the service and error streams of the simulator
 * (engine/rng.h), seeded from the replication seed of the last reset.
 */
#define _GNU_SOURCE
#include "real.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "../base/alloc.h"
#include "../engine/rng.h"
#include "../model/model.h"
#include "../model/sample.h"
#include "../scenario/scenario.h"

#define RESUME_BATCH 64
#define MAX_BUCKETS (1u << 20)

/* One request of the model. */
typedef struct job {
    struct job *next;       /* the FIFO queue, the held list or a resume batch */
    struct MHD_Connection *conn;
    double arrived;         /* server clock */
    double due;             /* in service: when it completes (server clock) */
    double service;         /* its service time */
    int answer;             /* the status to send when resumed; 0: close unanswered */
    bool served;            /* the answer is a served reply */
} job;

typedef struct server {
    const model_spec *spec;
    const serve_options *opt;
    struct MHD_Daemon *daemon;
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* the timer thread's */
    double t0;              /* monotonic time of the last reset: the server clock's zero */
    rng_set rng;
    bool stop;
    /* the model */
    uint32_t busy, qlen, nheap;
    job *qhead, *qtail;     /* waiting, FIFO */
    job **heap;             /* in service, by due time; workers places */
    job *held;              /* black-holed and lost replies */
    double tokens, tokens_at;
    /* counters since the reset */
    uint64_t requests_total; /* since the start, for --max-requests */
    uint64_t calls, rejected, outage_errors, background_errors, status_429, replies_lost, served, waited, late;
    uint32_t peak_inflight;
    double wait_sum, busy_area, busy_since, wasted;
    uint32_t *arrivals, *inflight; /* per bucket */
    size_t nb, hi;          /* buckets; one past the highest touched */
    double bucket_s;        /* their width */
    /* the listening socket */
    int lfd;
    uint16_t port;
    int wake[2];            /* wakes the accept thread (reset, stop) */
} server;

static char control_marker; /* *req_cls of a control request */

static double clock_s(const server *s) { return real_now() - s->t0; }

/* ---- the model's state (under s->mu) ----------------------------------- */

static void heap_swap(job **h, uint32_t a, uint32_t b)
{
    job *t = h[a];
    h[a] = h[b];
    h[b] = t;
}

static void heap_push(server *s, job *j)
{
    uint32_t i = s->nheap++;
    s->heap[i] = j;
    while (i > 0 && s->heap[(i - 1) / 2]->due > s->heap[i]->due) {
        heap_swap(s->heap, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static job *heap_pop(server *s)
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
static size_t bucket_of(server *s, double t)
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

static void note_inflight(server *s, double now)
{
    uint32_t n = s->busy + s->qlen;
    if (n > s->peak_inflight)
        s->peak_inflight = n;
    size_t b = bucket_of(s, now);
    if (b != SIZE_MAX && n > s->inflight[b])
        s->inflight[b] = n;
}

static void busy_tick(server *s, double now)
{
    if (now > s->busy_since)
        s->busy_area += s->busy * (now - s->busy_since);
    s->busy_since = now;
}

static void start_service(server *s, job *j, double now)
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

static const spec_outage *outage_at(const model_spec *spec, double t)
{
    for (uint32_t i = 0; i < spec->noutages; i++)
        if (spec->outages[i].start_s <= t && t < spec->outages[i].end_s)
            return &spec->outages[i];
    return NULL;
}

static bool refusing_at(const model_spec *spec, double t)
{
    const spec_outage *o = outage_at(spec, t);
    return o && o->mode == SPEC_OUTAGE_FAIL_FAST && o->outcome == HP_OUTCOME_CONN_REFUSED;
}

/* The token bucket (model/server.c): true if a token was taken, else
 * false with the delay to announce (seconds, in the [server]
 * retry_after_format's resolution; -1: none); rate_headers writes it. */
static bool take_token(server *s, double now, double *retry_after)
{
    return server_take_token(s->spec, &s->tokens, &s->tokens_at, now, retry_after);
}

/* Every request the server holds (in service, queued, held), unlinked into
 * one list, each to be closed unanswered. */
static job *take_all(server *s)
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

/* Outside the mutex: lets libmicrohttpd answer (or close) each job. */
static void resume_list(job *list)
{
    for (job *j = list, *n; j; j = n) {
        n = j->next;
        MHD_resume_connection(j->conn);
    }
}

/* ---- answers ----------------------------------------------------------- */

/* The delay a 429 (or, with retry_after_on_503, a 503) announces, as the
 * model's [server] keys say: Retry-After in whole seconds (rounded up, as
 * HTTP sends it), retry-after-ms, or both (retry_after_format); with
 * ratelimit_reset, X-RateLimit-Reset, the Unix time in whole seconds when
 * the limit resets (a 429 without a Retry-After sends it alone). */
static void rate_headers(struct MHD_Response *r, const model_spec *spec, unsigned status, double delay)
{
    char v[48];
    bool reset_only = status == 429 && spec->retry_after == SPEC_RA_NONE;
    if (!reset_only && spec->retry_after_format != SPEC_RA_MS) {
        snprintf(v, sizeof v, "%.0f", ceil(delay));
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    if (!reset_only && spec->retry_after_format != SPEC_RA_SECONDS) {
        snprintf(v, sizeof v, "%.0f", ceil(delay * 1000));
        MHD_add_response_header(r, "retry-after-ms", v);
    }
    if (status == 429 && spec->ratelimit_reset) {
        snprintf(v, sizeof v, "%.0f", (double)time(NULL) + ceil(delay));
        MHD_add_response_header(r, "X-RateLimit-Reset", v);
    }
}

static enum MHD_Result answer(struct MHD_Connection *conn, const model_spec *spec, unsigned status, const char *body,
                              double retry_after, bool overloaded)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    if (retry_after >= 0)
        rate_headers(r, spec, status, retry_after);
    if (overloaded)
        MHD_add_response_header(r, "X-Herd-Overloaded", "1");
    enum MHD_Result rc = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result answer_copy(struct MHD_Connection *conn, unsigned status, const char *text)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
    enum MHD_Result rc = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* A request of the model arrives (see the top of the file). */
static enum MHD_Result arrive(server *s, struct MHD_Connection *conn, void **req_cls)
{
    const model_spec *spec = s->spec;
    pthread_mutex_lock(&s->mu);
    double now = clock_s(s);
    s->requests_total++;
    const spec_outage *o = outage_at(spec, now);
    if (o && o->mode == SPEC_OUTAGE_FAIL_FAST && o->outcome == HP_OUTCOME_CONN_REFUSED) {
        pthread_mutex_unlock(&s->mu);
        return MHD_NO; /* the process is "down": this connection dies, new ones are refused */
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
    bool overloaded = false;
    job *j = NULL;
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
    } else if (s->busy >= spec->workers && s->qlen >= spec->queue) {
        s->rejected++;
        status = 503;
        overloaded = spec->overload_signal;
    }
    if (status == 503 && spec->retry_after_on_503)
        ra = spec->retry_after_s;
    if (status) {
        pthread_mutex_unlock(&s->mu);
        return answer(conn, spec, status, status == 503 || status >= 500 ? "unavailable\n" : "error\n", ra,
                      overloaded);
    }
    j = herd_calloc(1, sizeof *j);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        return MHD_NO;
    }
    j->conn = conn;
    j->arrived = now;
    *req_cls = j;
    if (o) { /* a black hole: accepted, never answered */
        j->next = s->held;
        s->held = j;
    } else if (s->busy < spec->workers) {
        busy_tick(s, now);
        s->busy++;
        start_service(s, j, now);
        pthread_cond_signal(&s->cv);
    } else {
        if (s->qtail)
            s->qtail->next = j;
        else
            s->qhead = j;
        s->qtail = j;
        s->qlen++;
    }
    note_inflight(s, now);
    MHD_suspend_connection(conn); /* under the mutex: before any resume of it */
    pthread_mutex_unlock(&s->mu);
    return MHD_YES;
}

/* True if the client already closed the connection (gave up on it). */
static bool peer_gone(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return false;
    char c;
    ssize_t n = recv(ci->connect_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* The timer thread: completes services when they are due. */
static void *timer_main(void *arg)
{
    server *s = arg;
    const model_spec *spec = s->spec;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        if (!s->nheap) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        double now = clock_s(s), due = s->heap[0]->due;
        if (now < due) {
            double wake = s->t0 + due;
            struct timespec ts = {.tv_sec = (time_t)wake, .tv_nsec = (long)((wake - floor(wake)) * 1e9)};
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
            continue;
        }
        job *batch = NULL;
        for (int n = 0; n < RESUME_BATCH && s->nheap && s->heap[0]->due <= now; n++) {
            job *j = heap_pop(s);
            if (spec->reply_loss_rate > 0 && gsl_rng_uniform(s->rng.r[RNG_ERRORS]) < spec->reply_loss_rate) {
                s->replies_lost++;
                s->wasted += j->service;
                j->next = s->held; /* the work is done; the reply never comes */
                s->held = j;
            } else {
                if (peer_gone(j->conn)) { /* its attempt timed out: a late reply */
                    s->late++;
                    s->wasted += j->service;
                }
                j->answer = 200;
                j->served = true;
                j->next = batch;
                batch = j;
            }
            if (s->qlen) {
                job *q = s->qhead;
                s->qhead = q->next;
                if (!s->qhead)
                    s->qtail = NULL;
                s->qlen--;
                start_service(s, q, j->due);
            } else {
                busy_tick(s, j->due);
                s->busy--;
            }
            note_inflight(s, j->due);
        }
        pthread_mutex_unlock(&s->mu);
        resume_list(batch);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- the listening socket ---------------------------------------------- */

static int listen_on(uint16_t port, uint16_t *bound)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 4096) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        close(fd);
        return -1;
    }
    *bound = ntohs(a.sin_port);
    return fd;
}

/* The accept thread: hands connections to libmicrohttpd; closes the socket
 * during connection_refused outages and listens again after them. */
static void *accept_main(void *arg)
{
    server *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        bool stop = s->stop;
        double now = clock_s(s);
        bool refuse = refusing_at(s->spec, now);
        double next = INFINITY; /* the next outage boundary */
        for (uint32_t i = 0; i < s->spec->noutages; i++) {
            if (s->spec->outages[i].start_s > now)
                next = fmin(next, s->spec->outages[i].start_s);
            if (s->spec->outages[i].end_s > now)
                next = fmin(next, s->spec->outages[i].end_s);
        }
        pthread_mutex_unlock(&s->mu);
        if (stop)
            break;
        if (refuse && s->lfd >= 0) {
            close(s->lfd);
            s->lfd = -1;
        } else if (!refuse && s->lfd < 0) {
            uint16_t p;
            s->lfd = listen_on(s->port, &p); /* SO_REUSEADDR: the port is ours again at once */
        }
        int ms = isinf(next) ? 1000 : (int)fmin(1000, ceil((next - now) * 1000));
        if (!refuse && s->lfd < 0)
            ms = 10; /* could not listen again yet: try shortly */
        struct pollfd p[2] = {{.fd = s->wake[0], .events = POLLIN}, {.fd = s->lfd, .events = POLLIN}};
        if (poll(p, s->lfd >= 0 ? 2 : 1, ms < 1 ? 1 : ms) <= 0)
            continue;
        if (p[0].revents) {
            char buf[64];
            while (read(s->wake[0], buf, sizeof buf) > 0) {
            }
        }
        if (s->lfd >= 0 && (p[1].revents & POLLIN)) {
            for (;;) {
                struct sockaddr_in a;
                socklen_t len = sizeof a;
                int fd = accept4(s->lfd, (struct sockaddr *)&a, &len, SOCK_CLOEXEC);
                if (fd < 0)
                    break;
                if (MHD_add_connection(s->daemon, fd, (struct sockaddr *)&a, len) != MHD_YES)
                    close(fd); /* over the connection limit */
            }
        }
    }
    if (s->lfd >= 0)
        close(s->lfd);
    s->lfd = -1;
    return NULL;
}

static void wake_acceptor(server *s)
{
    char c = 1;
    if (write(s->wake[1], &c, 1) < 0) {
        /* the pipe is full: the thread is awake anyway */
    }
}

/* ---- control ----------------------------------------------------------- */

/* A series of buckets of width bucket_s over horizon_s (at most
 * MAX_BUCKETS): 0, or -1 (out of memory; the old series stays). */
static int series_alloc(server *s, double bucket_s, double horizon_s)
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

static int reset(server *s, uint64_t seed, double bucket_s, double horizon_s)
{
    pthread_mutex_lock(&s->mu);
    if (series_alloc(s, bucket_s, horizon_s) != 0) {
        pthread_mutex_unlock(&s->mu);
        return -1;
    }
    job *drop = take_all(s);
    rng_free(&s->rng);
    if (rng_init(&s->rng, seed) != 0) /* allocation failed: keep running on the start's streams */
        rng_init(&s->rng, 1);
    s->calls = s->rejected = s->outage_errors = s->background_errors = s->status_429 = 0;
    s->replies_lost = s->served = s->waited = s->late = 0;
    s->peak_inflight = 0;
    s->wait_sum = s->busy_area = s->busy_since = s->wasted = 0;
    s->hi = 0;
    s->tokens = s->spec->burst > 0 ? s->spec->burst : fmax(1, s->spec->rate_limit_rps);
    s->tokens_at = 0;
    s->t0 = real_now();
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    resume_list(drop);
    wake_acceptor(s);
    return 0;
}

/* The stats text (see real.h); NULL when out of memory. */
static char *stats_text(server *s)
{
    pthread_mutex_lock(&s->mu);
    double now = clock_s(s);
    busy_tick(s, now);
    size_t hi = s->hi, cap = 1024 + hi * 24;
    char *t = herd_malloc_array(cap, 1);
    if (t) {
        size_t o = (size_t)snprintf(
            t, cap,
            "calls %llu\nrejected %llu\noutage_errors %llu\nbackground_errors %llu\nstatus_429 %llu\n"
            "replies_lost %llu\nserved %llu\nwaited %llu\nlate_replies %llu\npeak_inflight %u\n"
            "wait_sum %.9g\nbusy_area %.9g\nwasted_work_s %.9g\nworkers %u\nbuckets %zu\n",
            (unsigned long long)s->calls, (unsigned long long)s->rejected, (unsigned long long)s->outage_errors,
            (unsigned long long)s->background_errors, (unsigned long long)s->status_429,
            (unsigned long long)s->replies_lost, (unsigned long long)s->served, (unsigned long long)s->waited,
            (unsigned long long)s->late, s->peak_inflight, s->wait_sum, s->busy_area, s->wasted, s->spec->workers,
            hi);
        for (size_t i = 0; i < hi; i++)
            o += (size_t)snprintf(t + o, cap - o, "b %u %u\n", s->arrivals[i], s->inflight[i]);
    }
    pthread_mutex_unlock(&s->mu);
    return t;
}

/* The query argument name as an unsigned decimal (required). */
static int query_u64(struct MHD_Connection *conn, const char *name, uint64_t *out)
{
    const char *v = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
    if (!v || *v < '0' || *v > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

/* The query argument name as seconds in (0, 1e6] (optional: *out kept). */
static int query_seconds(struct MHD_Connection *conn, const char *name, double *out)
{
    const char *v = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
    if (!v)
        return 0;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0 && x <= 1e6))
        return -1;
    *out = x;
    return 0;
}

static enum MHD_Result control(server *s, struct MHD_Connection *conn, const char *url)
{
    if (!strcmp(url, "/_herd/info"))
        return answer_copy(conn, 200, "herd serve\n");
    if (!strcmp(url, "/_herd/reset")) {
        uint64_t seed;
        double bucket = s->spec->bucket_s, horizon = s->spec->horizon_s;
        if (query_u64(conn, "seed", &seed) != 0 || query_seconds(conn, "bucket_s", &bucket) != 0 ||
            query_seconds(conn, "horizon_s", &horizon) != 0)
            return answer_copy(conn, 400, "expected /_herd/reset?seed=N[&bucket_s=S&horizon_s=S]\n");
        if (reset(s, seed, bucket, horizon) != 0)
            return answer_copy(conn, 503, "out of memory\n");
        return answer_copy(conn, 200, "reset\n");
    }
    if (!strcmp(url, "/_herd/stats")) {
        char *t = stats_text(s);
        if (!t)
            return MHD_NO;
        enum MHD_Result rc = answer_copy(conn, 200, t);
        herd_free(t);
        return rc;
    }
    return answer_copy(conn, 404, "no such control endpoint (/_herd/info, /_herd/reset?seed=N, /_herd/stats)\n");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
    (void)method;
    (void)version;
    (void)upload;
    server *s = cls;
    if (*req_cls == &control_marker) { /* a control request's body (ignored) */
        *upload_size = 0;
        return MHD_YES;
    }
    if (*req_cls) { /* resumed after its service, or to be closed */
        job *j = *req_cls;
        return j->answer ? answer(conn, s->spec, (unsigned)j->answer, "ok\n", -1, false) : MHD_NO;
    }
    if (!strncmp(url, "/_herd/", 7)) {
        *req_cls = &control_marker;
        if (*upload_size) { /* a body comes: answer once it is read */
            *upload_size = 0;
            return MHD_YES;
        }
        return control(s, conn, url);
    }
    return arrive(s, conn, req_cls);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    if (*req_cls && *req_cls != &control_marker)
        herd_free(*req_cls);
    *req_cls = NULL;
}

/* ---- the server's life ------------------------------------------------- */

static int setup(server *s, const model_spec *spec, const serve_options *o, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca; /* the timer waits on the monotonic clock, as real_now() */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    s->spec = spec;
    s->opt = o;
    s->lfd = -1;
    s->wake[0] = s->wake[1] = -1;
    s->heap = herd_calloc(spec->workers, sizeof *s->heap);
    if (!s->heap || series_alloc(s, spec->bucket_s, spec->horizon_s) != 0 || rng_init(&s->rng, 1) != 0) {
        snprintf(err, errlen, "serve: out of memory");
        return -1;
    }
    if (pipe2(s->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        snprintf(err, errlen, "serve: cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    s->lfd = listen_on(o->port, &s->port);
    if (s->lfd < 0) {
        snprintf(err, errlen, "serve: cannot listen on 127.0.0.1:%u: %s", o->port, strerror(errno));
        return -1;
    }
    s->tokens = spec->burst > 0 ? spec->burst : fmax(1, spec->rate_limit_rps);
    s->t0 = real_now();
    return 0;
}

static void teardown(server *s)
{
    if (s->lfd >= 0)
        close(s->lfd);
    for (int i = 0; i < 2; i++)
        if (s->wake[i] >= 0)
            close(s->wake[i]);
    rng_free(&s->rng);
    herd_free(s->heap);
    herd_free(s->arrivals);
    herd_free(s->inflight);
}

/* Waits for SIGINT/SIGTERM (blocked in every thread, taken here) or a
 * bound; returns what ended it. */
static const char *wait_for_end(server *s, const sigset_t *sigs)
{
    double start = real_now();
    for (;;) {
        struct timespec slice = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
        int sig = sigtimedwait(sigs, NULL, &slice);
        if (sig == SIGINT || sig == SIGTERM)
            return sig == SIGINT ? "SIGINT" : "SIGTERM";
        if (real_now() - start >= s->opt->max_seconds)
            return "--max-seconds";
        pthread_mutex_lock(&s->mu);
        bool full = s->requests_total >= s->opt->max_requests;
        pthread_mutex_unlock(&s->mu);
        if (full)
            return "--max-requests";
    }
}

int real_serve(const model_spec *spec, const serve_options *o, char *err, size_t errlen)
{
    const char *why = real_unsupported(spec, 1);
    if (why) {
        snprintf(err, errlen, "serve: %s", why);
        return -2;
    }
    for (uint32_t i = 0; i < spec->nerrors; i++)
        if (spec->errors[i].outcome < 0) {
            snprintf(err, errlen, "serve: an error rate of a connection error: a real server cannot refuse or reset "
                                  "a connection it has accepted as the model does (libcurl reconnects); expected "
                                  "error rates of HTTP statuses only");
            return -2;
        }
    long nofile = real_raise_nofile();
    signal(SIGPIPE, SIG_IGN);
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL); /* every thread started below inherits it */
    server *s = herd_calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "serve: out of memory");
        return -1;
    }
    int rc = -1;
    pthread_t timer, acceptor;
    bool timer_up = false, acceptor_up = false;
    if (setup(s, spec, o, err, errlen) != 0)
        goto done;
    unsigned limit = nofile > 64 ? (unsigned)(nofile - 32) : 32;
    s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                                     MHD_USE_NO_LISTEN_SOCKET,
                                 0, NULL, NULL, on_request, s, MHD_OPTION_CONNECTION_LIMIT, limit,
                                 MHD_OPTION_CONNECTION_TIMEOUT, 0u, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                                 MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(err, errlen, "serve: libmicrohttpd could not start");
        goto done;
    }
    if (pthread_create(&timer, NULL, timer_main, s) != 0 || !(timer_up = true) ||
        pthread_create(&acceptor, NULL, accept_main, s) != 0 || !(acceptor_up = true)) {
        snprintf(err, errlen, "serve: cannot start a thread");
        goto done;
    }
    if (!o->quiet)
        printf("herd serve: listening on http://127.0.0.1:%u/ (%u workers, %u queue places; control: /_herd/info)\n",
               s->port, spec->workers, spec->queue);
    else
        printf("http://127.0.0.1:%u/\n", s->port);
    fflush(stdout);
    const char *end = wait_for_end(s, &sigs);
    if (!o->quiet) {
        printf("herd serve: stopped (%s) after %llu requests\n", end, (unsigned long long)s->requests_total);
        fflush(stdout);
    }
    rc = 0;
done:
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    job *drop = take_all(s);
    pthread_mutex_unlock(&s->mu);
    wake_acceptor(s);
    if (timer_up)
        pthread_join(timer, NULL);
    if (acceptor_up)
        pthread_join(acceptor, NULL);
    if (s->daemon) {
        resume_list(drop); /* libmicrohttpd stops only with every connection resumed */
        MHD_stop_daemon(s->daemon);
    }
    teardown(s);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    herd_free(s);
    /* SIGINT and SIGTERM stay blocked: the process ends next, and a second
     * signal sent while it stops must not turn a clean stop into a kill */
    return rc;
}
