/*
 * drive.c - herd drive: the scenario's clients in real time against an
 * HTTP server on loopback, with libcurl's multi interface in one thread.
 *
 * Every decision goes through the client API of libherdpolicy: per
 * logical request an hp_call (hp_call_start, hp_call_admit before each
 * attempt, hp_call_outcome after it, hp_call_finish), all clients sharing
 * one hp_client (the scenario's limiter, breaker and throttling).  The
 * attempt's timeout is CURLOPT_TIMEOUT_MS (milliseconds, rounded up); the
 * outcome is the HTTP status, or HP_OUTCOME_TIMEOUT, HP_OUTCOME_CONN_REFUSED
 * (could not connect) or HP_OUTCOME_CONN_RESET (the connection died without
 * a reply); Retry-After is parsed with hp_parse_retry_after.  Backoff
 * sleeps, think times and start times are timers of the same loop (a
 * binary heap, one entry per client), waited for in epoll_wait together
 * with libcurl's sockets (its multi_socket interface).
 * Uniform draws come from the simulator's streams (engine/rng.h) seeded
 * from (seed, replication, purpose): start times, think times and jitter
 * are those of `herd run` for the same replication.
 *
 * Connections: one libcurl multi handle, whose connection cache keeps
 * connections open and reuses them across attempts and clients (HTTP/1.1
 * keep-alive, as an SDK's pool does): an attempt pays connection set-up
 * only when no idle connection is left, e.g. after a connection_refused
 * outage closed them all.  It is one host of [clients] hosts: with
 * connections_per_host = C, CURLMOPT_MAX_HOST_CONNECTIONS = C (libcurl
 * keeps further transfers pending, in order, and their CURLOPT_TIMEOUT_MS
 * includes that wait, as the model's pool does); without it, unlimited
 * (libcurl's default).
 *
 * Against `herd serve` (GET /_herd/info answers "herd serve"), every
 * replication starts with POST /_herd/reset?seed=S (a common t = 0) and ends
 * with GET /_herd/stats: the server-side metrics (calls, rejected, the
 * arrivals and in-flight per bucket, queueing, utilization, lost and late
 * replies) are the server's own counts.  Against any other server they are
 * the client's view (see drive_stats_client()).
 *
 * Bounds: a replication stops at --max-seconds or after --max-requests
 * attempts; its open requests are then counted as unfinished and its
 * completion_time_s is the time it stopped, as `herd run` counts requests
 * still open at the horizon.
 */
#define _GNU_SOURCE
#include "real.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../engine/rng.h"
#include "../model/model.h"
#include "../model/sample.h"
#include "drive.h"

/* The longest Retry-After a reply is read as: above any retry_after_max_s
 * a scenario can set (the key table allows at most 1e9 s). */
#define DRIVE_RETRY_AFTER_PARSE_MAX_S 1e12

enum { P_START = 0, P_BACKOFF, P_WAIT, P_DONE };

typedef struct dclient {
    hp_call call;
    double req_start;   /* when its current logical request began */
    double sent;        /* when its attempt in flight was sent */
    double due;         /* its timer (start, think or backoff) */
    uint32_t done;      /* logical requests finished */
    uint32_t at;        /* its place in the timer heap, UINT32_MAX: none */
    int phase;
    bool overloaded;    /* the reply said "overloaded, don't retry" */
    char retry_after[48]; /* the reply's Retry-After value, "" if none */
    char retry_after_ms[48]; /* its retry-after-ms (the Stainless SDKs read it first), "" if none */
    char ratelimit_reset[48]; /* its X-RateLimit-Reset (cohere), "" if none */
    char deadline_hdr[48]; /* "X-Herd-Deadline: SECONDS" of its attempt in flight */
    struct curl_slist hdr[2]; /* its request headers (sim/model/shed.h), nodes owned here */
    CURL *easy;
} dclient;

typedef struct driver {
    const model_spec *spec;
    const drive_options *opt;
    hp_policy policy;
    hp_client client;
    rng_set rng;
    CURLM *multi;
    drive_conn *conn;
    dclient *c;
    uint32_t n;
    uint32_t *heap;     /* client ids by due time */
    uint32_t nheap;
    double t0;
    uint64_t open, attempts;
    uint32_t outstanding; /* attempts in flight */
    double last_start, lat_good;
    metrics m;
    timeseries ts;
    double *lat;
    uint64_t nlat;
    bool oom;
} driver;

/* ---- the timer heap ---------------------------------------------------- */

static void heap_set(driver *d, uint32_t i, uint32_t id)
{
    d->heap[i] = id;
    d->c[id].at = i;
}

static void heap_up(driver *d, uint32_t i)
{
    uint32_t id = d->heap[i];
    while (i > 0 && d->c[d->heap[(i - 1) / 2]].due > d->c[id].due) {
        heap_set(d, i, d->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(d, i, id);
}

static void heap_down(driver *d, uint32_t i)
{
    uint32_t id = d->heap[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = l;
        if (l >= d->nheap)
            break;
        if (r < d->nheap && d->c[d->heap[r]].due < d->c[d->heap[l]].due)
            m = r;
        if (d->c[d->heap[m]].due >= d->c[id].due)
            break;
        heap_set(d, i, d->heap[m]);
        i = m;
    }
    heap_set(d, i, id);
}

static void timer_at(driver *d, uint32_t id, double due, int phase)
{
    d->c[id].due = due;
    d->c[id].phase = phase;
    heap_set(d, d->nheap++, id);
    heap_up(d, d->nheap - 1);
}

static uint32_t timer_pop(driver *d)
{
    uint32_t id = d->heap[0];
    d->c[id].at = UINT32_MAX;
    if (--d->nheap) {
        heap_set(d, 0, d->heap[d->nheap]);
        heap_down(d, 0);
    }
    return id;
}

/* ---- measurements ------------------------------------------------------ */

static double now_s(const driver *d) { return real_now() - d->t0; }

/* The bucket of time t (NULL past the series' bound). */
static ts_bucket *bucket(driver *d, double t)
{
    double i = floor(t / d->spec->bucket_s);
    ts_bucket *b = i >= 0 ? ts_at(&d->ts, (size_t)i, d->outstanding) : NULL;
    if (!b && !d->ts.over)
        d->oom = true;
    return b;
}

static void note_outstanding(driver *d, double t)
{
    ts_bucket *b = bucket(d, t);
    if (b && d->outstanding > b->in_flight)
        b->in_flight = d->outstanding;
    if (d->outstanding > d->m.peak_inflight)
        d->m.peak_inflight = d->outstanding;
}

/* ---- the clients ------------------------------------------------------- */

static void attempt(driver *d, uint32_t id, double now);

/* The logical request of client id is over with decision dec. */
static void finish(driver *d, uint32_t id, hp_decision dec, double now)
{
    dclient *c = &d->c[id];
    hp_call_finish(&d->client, &c->call, now);
    double latency = now - c->req_start;
    d->lat[d->nlat++] = latency;
    metrics *m = &d->m;
    m->tasks++;
    if (dec.action == HP_DONE_OK) {
        m->successes++;
        m->task_successes++;
        d->lat_good += latency;
        ts_bucket *b = bucket(d, now);
        if (b)
            b->goodput++;
    } else {
        m->failures++;
        m->gave_up_attempts += dec.reason == HP_REASON_ATTEMPTS;
        m->non_retryable_failures += dec.reason == HP_REASON_NON_RETRYABLE;
        m->unknown_outcomes += dec.reason == HP_REASON_UNKNOWN_OUTCOME;
        m->gave_up_budget += dec.reason == HP_REASON_BUDGET;
        m->retries_denied += dec.reason == HP_REASON_RETRY_LIMITED;
    }
    m->completion_time_s = now;
    c->done++;
    d->open--;
    if (c->done < d->spec->requests_per_client)
        timer_at(d, id, now + dist_sample(&d->spec->think, scn_data(), d->rng.r[RNG_ARRIVALS]), P_START);
    else
        c->phase = P_DONE;
}

/* Client id's timer fired: a new logical request, or the next attempt. */
static void fire(driver *d, uint32_t id, double now)
{
    dclient *c = &d->c[id];
    if (c->phase == P_START) {
        hp_call_start(&c->call, &d->policy, now);
        c->req_start = now;
        ts_bucket *b = bucket(d, now);
        if (b)
            b->offered++;
    }
    attempt(d, id, now);
}

/* The headers herd serve reads (sim/model/shed.h): with [server]
 * drop_expired, X-Herd-Deadline, the seconds left of the attempt's timeout
 * as curl counts it (ms; none without a timeout); with [clients] priority
 * = sheddable, X-Herd-Priority.  The list's nodes live in the client: no
 * allocation per attempt. */
static void tag_headers(driver *d, dclient *c, long timeout_ms)
{
    static char sheddable[] = "X-Herd-Priority: sheddable";
    struct curl_slist *head = NULL, **tail = &head;
    if (d->spec->drop_expired && timeout_ms > 0) {
        snprintf(c->deadline_hdr, sizeof c->deadline_hdr, "X-Herd-Deadline: %ld.%03ld", timeout_ms / 1000,
                 timeout_ms % 1000);
        c->hdr[0] = (struct curl_slist){.data = c->deadline_hdr, .next = NULL};
        *tail = &c->hdr[0];
        tail = &c->hdr[0].next;
    }
    if (d->spec->sheddable) {
        c->hdr[1] = (struct curl_slist){.data = sheddable, .next = NULL};
        *tail = &c->hdr[1];
    }
    curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, head);
}

static void attempt(driver *d, uint32_t id, double now)
{
    dclient *c = &d->c[id];
    hp_admit a = hp_call_admit(&d->client, &c->call, &d->policy, now, rng_uniform(&d->rng, RNG_BACKOFF));
    if (!a.allowed) { /* fails locally: nothing is sent */
        d->m.throttled += a.deny == HP_DENY_THROTTLED;
        d->m.breaker_rejected += a.deny == HP_DENY_BREAKER;
        hp_decision dec = {.action = HP_GIVE_UP,
                           .reason = a.deny == HP_DENY_DEADLINE ? HP_REASON_BUDGET : HP_REASON_NON_RETRYABLE};
        finish(d, id, dec, now);
        return;
    }
    long ms = isinf(a.timeout_s) ? 0 : (long)fmax(1, ceil(a.timeout_s * 1000));
    curl_easy_setopt(c->easy, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(c->easy, CURLOPT_CONNECTTIMEOUT_MS, ms);
    tag_headers(d, c, ms);
    c->retry_after[0] = c->retry_after_ms[0] = c->ratelimit_reset[0] = '\0';
    c->overloaded = false;
    if (curl_multi_add_handle(d->multi, c->easy) != CURLM_OK) {
        d->oom = true;
        return;
    }
    c->phase = P_WAIT;
    c->sent = now;
    d->attempts++;
    d->outstanding++;
    note_outstanding(d, now);
}

/* The outcome of a finished transfer, as the policy library names it. */
static int outcome_of(CURL *e, CURLcode rc)
{
    long status = 0;
    switch (rc) {
    case CURLE_OK:
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        return status >= 100 && status <= 599 ? (int)status : HP_OUTCOME_UNKNOWN;
    case CURLE_OPERATION_TIMEDOUT:
        return HP_OUTCOME_TIMEOUT;
    case CURLE_COULDNT_CONNECT:
        return HP_OUTCOME_CONN_REFUSED;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
        return HP_OUTCOME_CONN_RESET;
    default:
        return HP_OUTCOME_UNKNOWN;
    }
}

/* Client id's attempt ended with transfer result rc. */
static void complete(driver *d, uint32_t id, CURLcode rc, double now)
{
    dclient *c = &d->c[id];
    curl_multi_remove_handle(d->multi, c->easy);
    d->outstanding--;
    note_outstanding(d, now);
    int out = outcome_of(c->easy, rc);
    metrics *m = &d->m;
    if (out == HP_OUTCOME_CONN_REFUSED) {
        m->refused++;
        ts_bucket *b = bucket(d, now);
        if (b)
            b->refused++;
    } else {
        m->calls++; /* the client's count; herd serve's replaces it */
        ts_bucket *b = bucket(d, c->sent);
        if (b) {
            b->arrivals++;
            b->turned_away += out == 429 || out == 503; /* herd serve's answers for load */
        }
    }
    m->timeouts += out == HP_OUTCOME_TIMEOUT;
    m->status_429 += out == 429;
    m->rejected += out == 503;
    hp_class cls = hp_classify(out);
    if (cls == HP_CLASS_NOT_IMPLEMENTED || cls == HP_CLASS_BAD_REQUEST || cls == HP_CLASS_AUTH ||
        cls == HP_CLASS_NOT_FOUND)
        m->non_retryable_replies++;
    ts_bucket *b = bucket(d, now);
    if (b) {
        if (cls == HP_CLASS_OK)
            b->successes++;
        else
            b->errors++;
    }
    /* the headers as the policy reads them: retry-after-ms first when it
     * does (ra_ms), then Retry-After; X-RateLimit-Reset with ra_reset */
    hp_result r = {.outcome = out, .retry_after_s = -1, .overloaded = c->overloaded, .reset_s = 0};
    /* parsed without the policy's cap: hp_decide_result applies
     * retry_after_max_s itself, and ra_above (stop, backoff) needs to see
     * how long the server asked for (a clamped value never exceeds it) */
    double ra, max = DRIVE_RETRY_AFTER_PARSE_MAX_S;
    if (d->policy.ra_ms && c->retry_after_ms[0] && hp_parse_retry_after_ms(c->retry_after_ms, max, &ra) == 0)
        r.retry_after_s = ra;
    else if (c->retry_after[0] && hp_parse_retry_after(c->retry_after, (double)time(NULL), max, &ra) == 0)
        r.retry_after_s = ra;
    if (d->policy.ra_reset && c->ratelimit_reset[0] &&
        hp_parse_ratelimit_reset(c->ratelimit_reset, (double)time(NULL), &ra) == 0)
        r.reset_s = ra;
    hp_decision dec = hp_call_outcome(&d->client, &c->call, &d->policy, r, now, rng_uniform(&d->rng, RNG_BACKOFF));
    if (dec.action == HP_RETRY) {
        m->retries++;
        m->retries_after_honoured += dec.retry_after_used;
        if (b)
            b->retries_scheduled++;
        timer_at(d, id, now + dec.delay_s, P_BACKOFF);
        return;
    }
    finish(d, id, dec, now);
}

/* ---- libcurl ----------------------------------------------------------- */

static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
    (void)p;
    (void)ctx;
    return size * n;
}

/* If the header line p[0..len) is `name: value`, copies the value
 * (trimmed, truncated to out[n - 1]) and returns true. */
static bool header_value(const char *p, size_t len, const char *name, char *out, size_t n)
{
    size_t h = strlen(name);
    if (len <= h || strncasecmp(p, name, h) != 0)
        return false;
    size_t v = h, e = len;
    while (v < e && (p[v] == ' ' || p[v] == '\t'))
        v++;
    while (e > v && (p[e - 1] == '\r' || p[e - 1] == '\n' || p[e - 1] == ' '))
        e--;
    size_t k = e - v < n - 1 ? e - v : n - 1;
    memcpy(out, p + v, k);
    out[k] = '\0';
    return true;
}

/* Keeps the reply's Retry-After, retry-after-ms, X-RateLimit-Reset and
 * X-Herd-Overloaded. */
static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
    dclient *c = ctx;
    size_t len = size * n;
    if (header_value(p, len, "Retry-After:", c->retry_after, sizeof c->retry_after) ||
        header_value(p, len, "retry-after-ms:", c->retry_after_ms, sizeof c->retry_after_ms) ||
        header_value(p, len, "X-RateLimit-Reset:", c->ratelimit_reset, sizeof c->ratelimit_reset)) {
    } else if (len > 18 && !strncasecmp(p, "X-Herd-Overloaded:", 18)) {
        c->overloaded = true;
    }
    return len;
}

static int client_setup(drive_conn *conn, uint32_t i, const char *url)
{
    dclient *c = &conn->clients[i];
    if (!(c->easy = curl_easy_init()))
        return -1;
    curl_easy_setopt(c->easy, CURLOPT_URL, url);
    curl_easy_setopt(c->easy, CURLOPT_PRIVATE, c);
    curl_easy_setopt(c->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c->easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(c->easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c->easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c->easy, CURLOPT_HEADERDATA, c);
    curl_easy_setopt(c->easy, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(c->easy, CURLOPT_PROXY, "");
    if (conn->resolve)
        curl_easy_setopt(c->easy, CURLOPT_RESOLVE, conn->resolve);
    return 0;
}

static void client_cleanup(drive_conn *conn, uint32_t i)
{
    if (conn->clients[i].easy)
        curl_easy_cleanup(conn->clients[i].easy);
    conn->clients[i].easy = NULL;
}

int drive_clients_open(drive_conn *conn, uint32_t n, const char *url)
{
    conn->clients = herd_calloc(n ? n : 1, sizeof *conn->clients);
    conn->heap = herd_calloc(n ? n : 1, sizeof *conn->heap);
    if (!conn->clients || !conn->heap)
        return -1;
    conn->n = n;
    for (uint32_t i = 0; i < n; i++)
        if (client_setup(conn, i, url) != 0)
            return -1;
    return 0;
}

void drive_clients_close(drive_conn *conn)
{
    for (uint32_t i = 0; conn->clients && i < conn->n; i++)
        client_cleanup(conn, i);
    herd_free(conn->clients);
    herd_free(conn->heap);
    conn->clients = NULL;
    conn->heap = NULL;
}

/* ---- one replication --------------------------------------------------- */

/* Start times from the arrivals stream, in client order, as the model
 * draws them (burst: all at 0; spread: uniform; poisson: model_next_start). */
static void schedule_starts(driver *d)
{
    gsl_rng *r = d->rng.r[RNG_ARRIVALS];
    double t = 0;
    for (uint32_t i = 0; i < d->n; i++) {
        if (d->spec->start == SPEC_START_SPREAD)
            t = d->spec->spread_s * gsl_rng_uniform(r);
        else if (d->spec->start == SPEC_START_POISSON)
            t = model_next_start(d->spec, t, r);
        if (t > d->last_start)
            d->last_start = t;
        timer_at(d, i, t, P_START);
    }
}

/* Every transfer libcurl has finished: its outcome. */
static void drain(driver *d)
{
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(d->multi, &left))) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        dclient *c;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&c);
        complete(d, (uint32_t)(c - d->c), msg->data.result, now_s(d));
    }
}

/* libcurl's multi_socket interface: it says which sockets to watch (an
 * epoll set) and when to call it back; each event costs O(1), where
 * curl_multi_perform walks every transfer (O(clients) per wake-up). */
static int on_socket(CURL *e, curl_socket_t fd, int what, void *ctx, void *sockp)
{
    (void)e;
    (void)sockp;
    drive_conn *conn = ctx;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(conn->epfd, EPOLL_CTL_DEL, fd, NULL);
        return 0;
    }
    struct epoll_event ev = {.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u),
                             .data.fd = fd};
    if (epoll_ctl(conn->epfd, EPOLL_CTL_MOD, fd, &ev) != 0)
        epoll_ctl(conn->epfd, EPOLL_CTL_ADD, fd, &ev);
    return 0;
}

static int on_timer(CURLM *m, long ms, void *ctx)
{
    (void)m;
    drive_conn *conn = ctx;
    conn->curl_due = ms < 0 ? -1 : real_now() + (double)ms / 1000;
    return 0;
}

int drive_multi_open(drive_conn *conn)
{
    if (!(conn->multi = curl_multi_init()))
        return -1;
    conn->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (conn->epfd < 0)
        return -1;
    conn->curl_due = -1;
    curl_multi_setopt(conn->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(conn->multi, CURLMOPT_SOCKETDATA, conn);
    curl_multi_setopt(conn->multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(conn->multi, CURLMOPT_TIMERDATA, conn);
    return 0;
}

/* Runs the loop until every logical request is finished or a bound is
 * reached; returns what stopped it early (NULL: nothing). */
static const char *run_loop(driver *d)
{
    const drive_options *o = d->opt;
    for (;;) {
        double now = now_s(d);
        if (!d->open)
            return NULL;
        if (now >= o->max_seconds)
            return "--max-seconds";
        if (d->attempts >= o->max_requests)
            return "--max-requests";
        if (d->oom)
            return "out of memory";
        while (d->nheap && d->c[d->heap[0]].due <= now && d->attempts < o->max_requests)
            fire(d, timer_pop(d), now);
        drive_conn *conn = d->conn;
        int running;
        if (conn->curl_due >= 0 && real_now() >= conn->curl_due) {
            conn->curl_due = -1;
            curl_multi_socket_action(d->multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        drain(d);
        now = now_s(d);
        double next = d->nheap ? d->c[d->heap[0]].due : INFINITY;
        next = fmin(next, o->max_seconds);
        if (conn->curl_due >= 0)
            next = fmin(next, conn->curl_due - d->t0);
        double wait = next - now;
        int ms = wait <= 0 ? 0 : wait > 0.1 ? 100 : (int)ceil(wait * 1000);
        struct epoll_event ev[256];
        int n = epoll_wait(conn->epfd, ev, 256, ms);
        for (int i = 0; i < n; i++) {
            int flags = (ev[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) | (ev[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                        (ev[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
            curl_multi_socket_action(d->multi, ev[i].data.fd, flags, &running);
        }
        drain(d);
    }
}

/* The client's view of server-side metrics (against a server other than
 * herd serve): in_flight is the attempts in flight as the client sees
 * them; served, queueing and utilization are unknown (nan or 0). */
static void drive_stats_client(driver *d)
{
    d->m.mean_wait_s = d->m.p_wait = d->m.utilization = NAN;
    d->m.wasted_work_s = 0;
}

int drive_replication(const model_spec *spec, hp_strategy strategy, uint64_t seed, const drive_options *o,
                      drive_conn *conn, model_results *out, const char **stopped, char *err, size_t errlen)
{
    driver *d = herd_calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "drive: out of memory");
        return -1;
    }
    int rc = -1;
    d->spec = spec;
    d->opt = o;
    d->n = spec->clients;
    d->multi = conn->multi;
    d->conn = conn;
    /* the host's pool: [clients] connections_per_host (0: unlimited, libcurl's default) */
    curl_multi_setopt(d->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)spec->connections_per_host);
    d->policy = spec->policy;
    d->policy.strategy = strategy;
    hp_client_init(&d->client, &spec->guard, 0); /* no hedging: real_unsupported refused it */
    uint64_t total = (uint64_t)spec->clients * spec->requests_per_client;
    d->open = total;
    d->m.clients = spec->clients;
    d->ts.bucket_s = spec->bucket_s;
    d->ts.max = (size_t)ceil(o->max_seconds / spec->bucket_s) + 2;
    d->c = conn->clients;
    d->heap = conn->heap;
    d->lat = herd_malloc_array(total ? total : 1, sizeof *d->lat);
    if (!d->lat || rng_init(&d->rng, seed) != 0) {
        snprintf(err, errlen, "drive: out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < d->n; i++) {
        d->c[i].done = 0;
        d->c[i].at = UINT32_MAX;
    }
    if (drive_reset(conn, seed, spec->bucket_s, o->max_seconds, err, errlen) != 0)
        goto done;
    d->t0 = real_now();
    schedule_starts(d);
    *stopped = run_loop(d);
    double end = now_s(d);
    for (uint32_t i = 0; i < d->n; i++) /* a bound stopped it: abandon what is in flight */
        if (d->c[i].phase == P_WAIT) {
            curl_multi_remove_handle(d->multi, d->c[i].easy);
            d->c[i].phase = P_DONE;
        }
    if (d->oom) {
        snprintf(err, errlen, "drive: out of memory");
        goto done;
    }
    metrics *m = &d->m;
    m->unfinished = d->open;
    if (d->open)
        m->completion_time_s = end;
    m->task_success_rate = m->tasks ? (double)m->task_successes / (double)m->tasks : NAN;
    m->mean_task_latency_s = m->task_successes ? d->lat_good / (double)m->task_successes : NAN;
    if (conn->herd) {
        if (drive_stats_server(conn, m, &d->ts, err, errlen) != 0)
            goto done;
    } else {
        drive_stats_client(d);
    }
    uint64_t finished = m->successes + m->failures;
    m->amplification = finished ? (double)m->calls / (double)finished : NAN;
    /* every request is measured (no warm-up, no window: real_unsupported) */
    m->measured = 0;
    for (size_t i = 0; i < d->ts.len; i++)
        m->measured += d->ts.b[i].offered;
    m->measured_ok = m->successes;
    results_summarize_series(m, &d->ts, spec, d->last_start);
    results_latency(m, d->lat, (size_t)d->nlat);
    results_mark_undefined(m);
    out->m = *m;
    out->ts = d->ts;
    d->ts = (timeseries){0};
    rc = 0;
done:
    ts_free(&d->ts);
    rng_free(&d->rng);
    herd_free(d->lat);
    herd_free(d);
    return rc;
}
