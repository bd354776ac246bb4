/*
 * real.h - the scenario against real sockets: `herd serve` (a real HTTP
 * server that behaves like the scenario's server model, libmicrohttpd) and
 * `herd drive` (the scenario's clients in real time against an HTTP server,
 * libcurl's multi interface, every retry decision through the client API of
 * libherdpolicy).
 *
 * Both read the compiled model_spec (scenario/scn_compile) and nothing
 * else; drive hands its measurements to the same report writers as
 * `herd run` (report/report.h) in the same results structures
 * (model/results.h), so the CSV columns are the same by construction.
 *
 * Real traffic stays on loopback: serve binds 127.0.0.1 only; drive refuses
 * any target but http://127.0.0.1:PORT/ (or localhost, pinned to
 * 127.0.0.1).  Every real run is bounded in time and requests and stops by
 * itself.
 *
 * The control protocol between them (drive uses it when GET /_herd/info
 * answers "herd serve"):
 *   POST /_herd/reset?seed=S&bucket_s=B&horizon_s=H
 *                              a new replication: the server drops what it
 *                              holds, zeroes its counters, reseeds its
 *                              streams from the replication seed S, keeps
 *                              its series in buckets of B seconds over H
 *                              (default: the scenario's) and restarts its
 *                              clock (outage windows are measured from this
 *                              instant);
 *   GET  /_herd/stats          the server's counters and its per-bucket
 *                              arrivals and peak in-flight since the reset.
 * Control requests are never subject to the model (outages, errors, limits).
 */
#ifndef HERD_REAL_H
#define HERD_REAL_H

#include <stddef.h>
#include <stdint.h>

#include "../spec/spec.h"

#define REAL_ERR_MAX 512

/* Seconds on the monotonic clock. */
double real_now(void);

/* Raises the soft limit of open files to the hard limit (a thousand
 * clients need a thousand sockets); returns the soft limit now in force. */
long real_raise_nofile(void);

/* NULL if the real server (serve != 0) or driver (0) can run spec, else a
 * static message naming the scenario feature it cannot reproduce. */
const char *real_unsupported(const model_spec *spec, int serve);

typedef struct serve_options {
    uint16_t port;        /* 0: any free port */
    double max_seconds;   /* the server stops by itself after this long */
    uint64_t max_requests; /* ... or after this many requests of the model */
    int quiet;
} serve_options;

/* Runs the server for spec until SIGINT/SIGTERM or a bound; prints
 * "herd serve: listening on http://127.0.0.1:PORT/" on stdout once ready.
 * Returns 0, or -1 with err (could not bind, out of memory). */
int real_serve(const model_spec *spec, const serve_options *o, char *err, size_t errlen);

typedef struct drive_options {
    const char *target;     /* http://127.0.0.1:PORT/PATH */
    double max_seconds;     /* per replication: stops and counts the rest unfinished */
    uint64_t max_requests;  /* attempts per replication, the same */
    double connect_timeout_s; /* how long a control request waits for a target that refuses connections */
    int quiet;
} drive_options;

/* 0 if url is an http URL on 127.0.0.1 (or localhost), else -1 with err. */
int real_check_target(const char *url, char *err, size_t errlen);

#endif
