/*
 * backend.h - herd serve's parts: the HTTP layer (serve.c: libmicrohttpd,
 * the listening socket, the answers and their headers, the control
 * endpoints, the server's life) and the simulated server behind it
 * (backend.c: workers, queue, outages, errors, the rate limiter, service
 * times, the counters and series).
 *
 * The backend knows a request only by its connection, an opaque handle it
 * gives back to the HTTP layer through the serve_* functions below.
 */
#ifndef HERD_BACKEND_H
#define HERD_BACKEND_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/rng.h"
#include "../model/limiter.h"
#include "real.h"

struct MHD_Connection;

/* One request of the model. */
typedef struct job {
    struct job *next;       /* the queue (oldest first), the held list or a resume batch */
    struct job *prev;       /* the queue: the next older one (NULL at the head) */
    struct MHD_Connection *conn;
    double arrived;         /* server clock */
    double deadline;        /* drop_expired: arrived + its X-Herd-Deadline (INFINITY: none) */
    double due;             /* in service: when it completes (server clock) */
    double service;         /* its service time */
    int answer;             /* the status to send when resumed; 0: close unanswered */
    bool served;            /* the answer is a served reply */
    uint32_t lim;           /* its slot in the concurrency limiter, if one is configured */
} job;

/* The simulated server; every field under mu. */
typedef struct backend {
    const model_spec *spec;
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* the timer thread's */
    double t0;              /* monotonic time of the last reset: the server clock's zero */
    rng_set rng;
    bool stop;
    /* the model */
    uint32_t busy, qlen, nheap;
    job *qhead, *qtail;     /* waiting, oldest first; served in queue_discipline's order */
    job **heap;             /* in service, by due time; workers places */
    job *held;              /* black-holed and lost replies */
    double tokens, tokens_at;
    srv_limiter lim;        /* [server] concurrency_limiter (model/limiter.h) */
    /* counters since the reset */
    uint64_t requests_total; /* since the start, for --max-requests */
    uint64_t calls, rejected, outage_errors, background_errors, status_429, replies_lost, served, waited, late;
    uint64_t expired_skipped, shed; /* drop_expired skips; sheddable requests shed */
    uint64_t concurrency_rejected;
    uint32_t peak_inflight;
    double wait_sum, busy_area, busy_since, wasted;
    uint32_t *arrivals, *inflight; /* per bucket */
    size_t nb, hi;          /* buckets; one past the highest touched */
    double bucket_s;        /* their width */
} backend;

/* s zeroed: its mutex, condition variable, heap, series and streams for
 * spec; 0, or -1 when out of memory (then backend_free). */
int backend_init(backend *s, const model_spec *spec);
void backend_free(backend *s);

/* The server clock (under s->mu). */
double backend_clock(const backend *s);

/* True if spec's outage at server time t is a connection_refused one. */
bool backend_refusing_at(const model_spec *spec, double t);
/* The next outage boundary after server time t (INFINITY: none). */
double backend_next_edge(const model_spec *spec, double t);

/* What a request carries in its headers: X-Herd-Deadline (the seconds
 * left of its client's timeout; INFINITY: none or malformed) and
 * X-Herd-Priority (sheddable; else critical).  See sim/model/shed.h. */
typedef struct serve_tags {
    double deadline_left_s;
    bool sheddable;
} serve_tags;

/* A request of the model arrives on conn with tags: the status to answer
 * at once (*retry_after >= 0: the delay to announce; *overloaded: the
 * overload signal), 0 when the backend holds it (*held its job, conn
 * suspended), or -1 when conn is to be closed unanswered (also a request
 * drop_expired skips: its client has given up). */
int backend_arrive(backend *s, struct MHD_Connection *conn, serve_tags tags, job **held, double *retry_after,
                   bool *overloaded);

/* The timer thread (arg: the backend): completes services when they are due. */
void *backend_timer_main(void *arg);

/* A new replication (see real.h): 0 with *drop the requests held until now,
 * to be closed unanswered, or -1 (out of memory; nothing changed). */
int backend_reset(backend *s, uint64_t seed, double bucket_s, double horizon_s, job **drop);

/* Stops the timer thread; returns every request held, to be closed unanswered. */
job *backend_stop(backend *s);

/* The stats text (see real.h); NULL when out of memory. */
char *backend_stats_text(backend *s);

/* The HTTP layer's side (serve.c). */
void serve_suspend(struct MHD_Connection *conn);  /* under s->mu */
bool serve_peer_gone(struct MHD_Connection *conn); /* the client already closed it (gave up) */

/* What a request asks of herd serve, decided from its path and query
 * alone (no connection: tests/fuzz_serve.c calls it directly). */
typedef enum serve_route_kind {
    SERVE_MODEL = 0,   /* any path outside /_herd/: the simulated server */
    SERVE_INFO,        /* /_herd/info */
    SERVE_RESET,       /* /_herd/reset?seed=N[&bucket_s=S&horizon_s=S]: seed, bucket_s, horizon_s set */
    SERVE_BAD_RESET,   /* /_herd/reset with a missing or malformed argument: 400 */
    SERVE_STATS,       /* /_herd/stats */
    SERVE_NO_ENDPOINT  /* another /_herd/ path: 404 */
} serve_route_kind;

typedef struct serve_route {
    serve_route_kind kind;
    uint64_t seed;
    double bucket_s, horizon_s; /* seconds in (0, 1e6]; the defaults when not given */
} serve_route;

/* The query argument `name` of a request, or NULL (ctx: the caller's). */
typedef const char *(*serve_arg_fn)(void *ctx, const char *name);

/* Routes url (NUL-terminated, the path without the query) with its query
 * arguments from arg(ctx, name); bucket_s and horizon_s are the defaults
 * a reset keeps.  Pure: no state, no allocation. */
serve_route serve_route_of(const char *url, serve_arg_fn arg, void *ctx, double bucket_s, double horizon_s);
void serve_resume_list(job *list);                /* outside s->mu: answers (or closes) each job */

#endif
