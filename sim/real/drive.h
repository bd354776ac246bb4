/*
 * drive.h - herd drive's parts: the session (session.c: the libcurl
 * handles kept across replications, the control protocol of herd serve,
 * the strategies x replications and the reports) and one replication
 * (drive.c).
 */
#ifndef HERD_DRIVE_H
#define HERD_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include <curl/curl.h>

#include "../model/results.h"
#include "../scenario/scenario.h"
#include "real.h"

struct dclient;

/* What lives across replications: the multi handle and its connection
 * cache, one easy handle per client, the control handle. */
typedef struct drive_conn {
    CURLM *multi;
    int epfd;                   /* the sockets libcurl watches */
    double curl_due;            /* when libcurl wants to be called (monotonic s), < 0: never */
    CURL *control;              /* control requests to herd serve */
    struct curl_slist *resolve; /* localhost:PORT:127.0.0.1 */
    struct dclient *clients;
    uint32_t *heap;
    uint32_t n;
    bool herd;                  /* the target is herd serve */
    double connect_wait_s;      /* how long a control request waits for a refusing target */
    char base[512];             /* scheme://host:port of the target */
} drive_conn;

/* One replication of strategy with the given replication seed against
 * conn's target; *out receives the results (free with
 * model_results_free), *stopped the bound that stopped it (NULL: none).
 * Returns 0, or -1 with err. */
int drive_replication(const model_spec *spec, hp_strategy strategy, uint64_t seed, const drive_options *o,
                      drive_conn *conn, model_results *out, const char **stopped, char *err, size_t errlen);

/* herd serve only (else no-op): a new replication with this seed, its
 * series in buckets of bucket_s over horizon_s. */
int drive_reset(drive_conn *conn, uint64_t seed, double bucket_s, double horizon_s, char *err, size_t errlen);

/* herd serve's counters and series since the reset, into m and ts
 * (arrivals and in_flight per bucket replace the client's view). */
int drive_stats_server(drive_conn *conn, metrics *m, timeseries *ts, char *err, size_t errlen);

/* The multi handle on the multi_socket interface (drive.c): 0, or -1. */
int drive_multi_open(drive_conn *conn);

/* The n clients and their easy handles on url (drive.c): 0, or -1 (out of
 * memory; drive_clients_close is still safe).  Close them before the
 * multi handle. */
int drive_clients_open(drive_conn *conn, uint32_t n, const char *url);
void drive_clients_close(drive_conn *conn);

/* The default of --connect-timeout: how long herd serve of this scenario
 * may refuse connections (the end of its last connection_refused outage,
 * measured from its start or a reset) plus DRIVE_CONNECT_GRACE_S for a
 * server still starting; a plain server where nothing listens fails after
 * the grace alone when the scenario refuses no connections. */
#define DRIVE_CONNECT_GRACE_S 5.0
double drive_connect_default(const model_spec *spec);

/* herd drive: every strategy x replication of cfg against o->target, the
 * reports into outdir (summary.csv, aggregate.csv, timeseries.csv,
 * manifest.txt), the table on stdout unless quiet.  Returns 0; -1 (run or
 * I/O failure, err) ; -2 (the scenario asks for what drive cannot do). */
int real_drive(const scn_config *cfg, const char *shown, const drive_options *o, const char *outdir,
               const char *command, char *err, size_t errlen);

#endif
