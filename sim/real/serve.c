/*
 * serve.c - herd serve: a real HTTP server (libmicrohttpd) that behaves
 * like the scenario's server model (model/server.c), on 127.0.0.1 only.
 *
 * A request of the model (any path outside /_herd/) goes to the simulated
 * server (backend.c, which describes the model's order), which answers it
 * at once, holds it or has its connection closed; this file turns that
 * into HTTP: the answers and their headers (Retry-After, retry-after-ms,
 * X-RateLimit-Reset, X-Herd-Overloaded), the control endpoints (real.h),
 * the listening socket and the server's life.
 *
 * Threads: libmicrohttpd's internal polling thread (epoll, not select:
 * a thousand connections exceed FD_SETSIZE) runs the handler; suspended
 * connections wait for their service.  The backend's timer thread
 * completes services and resumes their connections.  An accept thread owns
 * the listening socket (libmicrohttpd runs without one and gets each
 * accepted connection through MHD_add_connection), closes it during
 * connection_refused outages and listens again after them.  One mutex (the
 * backend's) guards the model state; libmicrohttpd is never called back
 * into from our side while a thread waits for it in the other direction
 * (resumes happen outside the mutex, except the suspend in the handler,
 * which must precede any resume of the same request).
 */
#define _GNU_SOURCE
#include "backend.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "../base/alloc.h"
#include "../model/shed.h"

typedef struct server {
    backend m;              /* the simulated server */
    const serve_options *opt;
    struct MHD_Daemon *daemon;
    /* the listening socket */
    int lfd;
    uint16_t port;
    int wake[2];            /* wakes the accept thread (reset, stop) */
    /* under m.mu: resets asked for, and the last one whose listening
     * state (closed in a connection_refused outage) the accept thread has
     * applied; a reset answers only once the two agree (applied_cv) */
    uint64_t epoch, applied;
    pthread_cond_t applied_cv;
    bool applied_cv_up;
} server;

static char control_marker; /* *req_cls of a control request */

/* ---- the backend's connections ----------------------------------------- */

void serve_suspend(struct MHD_Connection *conn) { MHD_suspend_connection(conn); }

/* Outside the mutex: lets libmicrohttpd answer (or close) each job. */
void serve_resume_list(job *list)
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

/* A request of the model: the backend answers it at once, holds it (its
 * connection suspended) or has its connection closed. */
static enum MHD_Result arrive(server *s, struct MHD_Connection *conn, void **req_cls)
{
    double ra;
    bool overloaded;
    job *j = NULL;
    double left;
    serve_tags tags = {
        .deadline_left_s =
            shed_parse_deadline(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Herd-Deadline"), &left) == 0
                ? left
                : INFINITY,
        .sheddable = shed_parse_priority(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Herd-Priority")) == 1};
    int status = backend_arrive(&s->m, conn, tags, &j, &ra, &overloaded);
    if (status < 0)
        return MHD_NO;
    if (status == 0) {
        *req_cls = j;
        return MHD_YES;
    }
    return answer(conn, s->m.spec, (unsigned)status, status == 503 || status >= 500 ? "unavailable\n" : "error\n",
                  ra, overloaded);
}

/* True if the client already closed the connection (gave up on it). */
bool serve_peer_gone(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return false;
    char c;
    ssize_t n = recv(ci->connect_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
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

/* Hands every connection waiting in the listening socket's backlog to
 * libmicrohttpd (none left: accept4 says EAGAIN on the non-blocking
 * socket). */
static void accept_pending(server *s)
{
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

/* The accept thread: hands connections to libmicrohttpd; closes the socket
 * during connection_refused outages and listens again after them.
 * Closing a listening socket resets the connections still in its backlog
 * (the kernel completed their handshake: the client already sent its
 * request and then reads a reset, not a refusal), so the backlog is
 * accepted first: those connections were made before the outage began,
 * and their requests meet it as any open connection's do (backend.c).
 * After each pass it records the reset epoch it applied (reset() waits
 * for it: a reset is answered only once the socket is in the state of the
 * new clock, so a client that connects after the answer is never left in
 * a backlog about to be closed). */
static void *accept_main(void *arg)
{
    server *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->m.mu);
        bool stop = s->m.stop;
        uint64_t epoch = s->epoch;
        double now = backend_clock(&s->m);
        bool refuse = backend_refusing_at(s->m.spec, now);
        double next = backend_next_edge(s->m.spec, now);
        pthread_mutex_unlock(&s->m.mu);
        if (stop)
            break;
        if (refuse && s->lfd >= 0) {
            accept_pending(s);
            close(s->lfd);
            s->lfd = -1;
        } else if (!refuse && s->lfd < 0) {
            uint16_t p;
            s->lfd = listen_on(s->port, &p); /* SO_REUSEADDR: the port is ours again at once */
        }
        pthread_mutex_lock(&s->m.mu);
        s->applied = epoch;
        pthread_cond_broadcast(&s->applied_cv);
        pthread_mutex_unlock(&s->m.mu);
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
        if (s->lfd >= 0 && (p[1].revents & POLLIN))
            accept_pending(s);
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


static int reset(server *s, uint64_t seed, double bucket_s, double horizon_s)
{
    job *drop;
    if (backend_reset(&s->m, seed, bucket_s, horizon_s, &drop) != 0)
        return -1;
    serve_resume_list(drop);
    pthread_mutex_lock(&s->m.mu);
    uint64_t mine = ++s->epoch;
    pthread_mutex_unlock(&s->m.mu);
    wake_acceptor(s);
    /* answer once the listening socket is in the new clock's state (see
     * accept_main); bounded, so a stuck thread cannot hold the handler */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    pthread_mutex_lock(&s->m.mu);
    while (s->applied < mine && !s->m.stop)
        if (pthread_cond_timedwait(&s->applied_cv, &s->m.mu, &until) != 0)
            break;
    pthread_mutex_unlock(&s->m.mu);
    return 0;
}

/* v as an unsigned decimal (required): 0, or -1. */
static int parse_u64(const char *v, uint64_t *out)
{
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

/* v as seconds in (0, 1e6] (optional: NULL keeps *out): 0, or -1. */
static int parse_seconds(const char *v, double *out)
{
    if (!v)
        return 0;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0 && x <= 1e6))
        return -1;
    *out = x;
    return 0;
}

serve_route serve_route_of(const char *url, serve_arg_fn arg, void *ctx, double bucket_s, double horizon_s)
{
    serve_route r = {.kind = SERVE_MODEL, .bucket_s = bucket_s, .horizon_s = horizon_s};
    if (strncmp(url, "/_herd/", 7) != 0)
        return r;
    if (!strcmp(url, "/_herd/info")) {
        r.kind = SERVE_INFO;
    } else if (!strcmp(url, "/_herd/reset")) {
        r.kind = parse_u64(arg(ctx, "seed"), &r.seed) != 0 || parse_seconds(arg(ctx, "bucket_s"), &r.bucket_s) != 0 ||
                         parse_seconds(arg(ctx, "horizon_s"), &r.horizon_s) != 0
                     ? SERVE_BAD_RESET
                     : SERVE_RESET;
    } else if (!strcmp(url, "/_herd/stats")) {
        r.kind = SERVE_STATS;
    } else {
        r.kind = SERVE_NO_ENDPOINT;
    }
    return r;
}

static const char *conn_arg(void *ctx, const char *name)
{
    return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result control(server *s, struct MHD_Connection *conn, const char *url)
{
    serve_route r = serve_route_of(url, conn_arg, conn, s->m.spec->bucket_s, s->m.spec->horizon_s);
    switch (r.kind) {
    case SERVE_INFO:
        return answer_copy(conn, 200, "herd serve\n");
    case SERVE_BAD_RESET:
        return answer_copy(conn, 400, "expected /_herd/reset?seed=N[&bucket_s=S&horizon_s=S]\n");
    case SERVE_RESET:
        if (reset(s, r.seed, r.bucket_s, r.horizon_s) != 0)
            return answer_copy(conn, 503, "out of memory\n");
        return answer_copy(conn, 200, "reset\n");
    case SERVE_STATS: {
        char *t = backend_stats_text(&s->m);
        if (!t)
            return MHD_NO;
        enum MHD_Result rc = answer_copy(conn, 200, t);
        herd_free(t);
        return rc;
    }
    default:
        return answer_copy(conn, 404, "no such control endpoint (/_herd/info, /_herd/reset?seed=N, /_herd/stats)\n");
    }
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
        return j->answer ? answer(conn, s->m.spec, (unsigned)j->answer, "ok\n", -1, false) : MHD_NO;
    }
    if (serve_route_of(url, conn_arg, conn, 1, 1).kind != SERVE_MODEL) {
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
    s->opt = o;
    s->lfd = -1;
    s->wake[0] = s->wake[1] = -1;
    if (backend_init(&s->m, spec) != 0) {
        snprintf(err, errlen, "serve: out of memory");
        return -1;
    }
    if (pthread_cond_init(&s->applied_cv, NULL) != 0) {
        snprintf(err, errlen, "serve: cannot create a condition variable");
        return -1;
    }
    s->applied_cv_up = true;
    if (pipe2(s->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        snprintf(err, errlen, "serve: cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    s->lfd = listen_on(o->port, &s->port);
    if (s->lfd < 0) {
        snprintf(err, errlen, "serve: cannot listen on 127.0.0.1:%u: %s", o->port, strerror(errno));
        return -1;
    }
    s->m.t0 = real_now();
    return 0;
}

static void teardown(server *s)
{
    if (s->lfd >= 0)
        close(s->lfd);
    for (int i = 0; i < 2; i++)
        if (s->wake[i] >= 0)
            close(s->wake[i]);
    if (s->applied_cv_up)
        pthread_cond_destroy(&s->applied_cv);
    backend_free(&s->m);
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
        pthread_mutex_lock(&s->m.mu);
        bool full = s->m.requests_total >= s->opt->max_requests;
        pthread_mutex_unlock(&s->m.mu);
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
    job *drop;
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
    if (pthread_create(&timer, NULL, backend_timer_main, &s->m) != 0 || !(timer_up = true) ||
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
        printf("herd serve: stopped (%s) after %llu requests\n", end, (unsigned long long)s->m.requests_total);
        fflush(stdout);
    }
    rc = 0;
done:
    drop = backend_stop(&s->m);
    if (s->applied_cv_up) { /* a reset waiting for the accept thread stops waiting */
        pthread_mutex_lock(&s->m.mu);
        pthread_cond_broadcast(&s->applied_cv);
        pthread_mutex_unlock(&s->m.mu);
    }
    wake_acceptor(s);
    if (timer_up)
        pthread_join(timer, NULL);
    if (acceptor_up)
        pthread_join(acceptor, NULL);
    if (s->daemon) {
        serve_resume_list(drop); /* libmicrohttpd stops only with every connection resumed */
        MHD_stop_daemon(s->daemon);
    }
    teardown(s);
    herd_free(s);
    /* SIGINT and SIGTERM stay blocked: the process ends next, and a second
     * signal sent while it stops must not turn a clean stop into a kill */
    return rc;
}

