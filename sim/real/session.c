/*
 * session.c - herd drive's session: the libcurl handles that live across
 * replications, herd serve's control protocol (real.h), every strategy x
 * replication of the scenario, and the reports through the writers of
 * herd run (report/report.h).
 */
#define _GNU_SOURCE
#include "drive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../engine/rng.h"
#include "../report/report.h"

/* How often a control request is sent again when its connection dies
 * before any answer (every control request is safe to repeat). */
#define CONTROL_TRIES 3

typedef struct body {
    char *p;
    size_t len, cap;
} body;

static size_t keep_body(char *p, size_t size, size_t n, void *ctx)
{
    body *b = ctx;
    size_t len = size * n;
    if (b->len + len + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 4096;
        while (ncap < b->len + len + 1)
            ncap *= 2;
        if (ncap > (64u << 20))
            return 0; /* no control answer is that long */
        char *q = herd_realloc_array(b->p, ncap, 1);
        if (!q)
            return 0;
        b->p = q;
        b->cap = ncap;
    }
    memcpy(b->p + b->len, p, len);
    b->len += len;
    b->p[b->len] = '\0';
    return len;
}

/* A control request (path under the target's host): 0 when the target
 * answered, with its HTTP status in *status and its body (possibly empty:
 * out->p NULL) in *out (caller frees); -1 with err when no answer came,
 * *refused true when nothing accepted the connection for
 * conn->connect_wait_s.  A refusing target is waited for that long (herd
 * serve refuses during a connection_refused outage, measured from its
 * start or its last reset); a connection that dies before the answer is
 * tried again, CONTROL_TRIES times in all. */
static int control(drive_conn *conn, const char *path, bool post, body *out, long *status, bool *refused,
                   char *err, size_t errlen)
{
    char url[700];
    snprintf(url, sizeof url, "%s%s", conn->base, path);
    CURL *e = conn->control;
    *out = (body){0};
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 5000L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(e, CURLOPT_PROXY, "");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, out);
    if (conn->resolve)
        curl_easy_setopt(e, CURLOPT_RESOLVE, conn->resolve);
    if (post)
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
    else
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    CURLcode rc;
    int tries = 0;
    for (double start = real_now();;) {
        rc = curl_easy_perform(e);
        bool died = rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR;
        if (rc == CURLE_COULDNT_CONNECT ? real_now() - start >= conn->connect_wait_s : !died || ++tries >= CONTROL_TRIES)
            break;
        herd_free(out->p);
        *out = (body){0};
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    *refused = rc == CURLE_COULDNT_CONNECT;
    *status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, status);
    if (rc != CURLE_OK) {
        if (*refused)
            snprintf(err, errlen, "drive: %s %s: %s for %g s (nothing listens there? --connect-timeout S sets "
                     "the wait)", post ? "POST" : "GET", url, curl_easy_strerror(rc), conn->connect_wait_s);
        else
            snprintf(err, errlen, "drive: %s %s: %s", post ? "POST" : "GET", url, curl_easy_strerror(rc));
        herd_free(out->p);
        out->p = NULL;
        return -1;
    }
    return 0;
}

int drive_reset(drive_conn *conn, uint64_t seed, double bucket_s, double horizon_s, char *err, size_t errlen)
{
    if (!conn->herd)
        return 0;
    char path[160];
    snprintf(path, sizeof path, "/_herd/reset?seed=%llu&bucket_s=%.17g&horizon_s=%.17g", (unsigned long long)seed,
             bucket_s, horizon_s);
    body b;
    long status;
    bool refused;
    if (control(conn, path, true, &b, &status, &refused, err, errlen) != 0)
        return -1;
    int ok = status == 200 && b.len && !strncmp(b.p, "reset", 5);
    herd_free(b.p);
    if (!ok) {
        snprintf(err, errlen, "drive: %s/_herd/reset was refused by the server (HTTP %ld)", conn->base, status);
        return -1;
    }
    return 0;
}

/* One "name value" line of the stats text; false if absent. */
static bool stat_value(const char *text, const char *name, double *v)
{
    size_t n = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, name, n) && p[n] == ' ') {
            char *end;
            *v = strtod(p + n + 1, &end);
            return end != p + n + 1;
        }
    return false;
}

int drive_stats_server(drive_conn *conn, metrics *m, timeseries *ts, char *err, size_t errlen)
{
    body b;
    long status;
    bool refused;
    if (control(conn, "/_herd/stats", false, &b, &status, &refused, err, errlen) != 0)
        return -1;
    if (status != 200)
        b.len = 0;
    static const char *const names[] = {"calls",  "rejected", "outage_errors", "background_errors",
                                        "status_429", "replies_lost", "served", "waited",
                                        "late_replies", "peak_inflight", "wait_sum", "busy_area",
                                        "wasted_work_s", "workers", "buckets", "expired_skipped", "shed",
                                        "concurrency_rejected"};
    double v[sizeof names / sizeof names[0]];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!b.len || !stat_value(b.p, names[i], &v[i])) {
            snprintf(err, errlen, "drive: %s/_herd/stats: no '%s' in the answer", conn->base, names[i]);
            herd_free(b.p);
            return -1;
        }
    m->calls = (uint64_t)v[0];
    m->rejected = (uint64_t)v[1];
    m->outage_errors = (uint64_t)v[2];
    m->background_errors = (uint64_t)v[3];
    m->status_429 = (uint64_t)v[4];
    m->replies_lost = (uint64_t)v[5];
    m->served = (uint64_t)v[6];
    m->late_replies = (uint64_t)v[8];
    m->peak_inflight = (uint64_t)v[9];
    m->mean_wait_s = m->served ? v[10] / (double)m->served : NAN;
    m->p_wait = m->served ? v[7] / (double)m->served : NAN;
    m->wasted_work_s = v[12];
    m->expired_skipped = (uint64_t)v[15];
    m->shed = (uint64_t)v[16];
    m->concurrency_rejected = (uint64_t)v[17];
    double end = m->completion_time_s;
    m->utilization = end > 0 ? v[11] / (v[13] * end) : NAN;
    /* the server's arrivals and in-flight per bucket replace the client's */
    size_t nb = (size_t)v[14], i = 0;
    for (size_t k = 0; k < ts->len; k++)
        ts->b[k].arrivals = ts->b[k].in_flight = 0;
    for (const char *p = strstr(b.p, "\nb "); p && i < nb; p = strstr(p + 1, "\nb "), i++) {
        unsigned long a, f;
        if (sscanf(p + 3, "%lu %lu", &a, &f) != 2)
            break;
        if (!a && !f && i >= ts->len)
            continue; /* no bucket past the run's series for an idle tail */
        ts_bucket *bk = ts_at(ts, i, 0);
        if (!bk)
            break;
        bk->arrivals = (uint32_t)a;
        bk->in_flight = (uint32_t)f;
    }
    herd_free(b.p);
    return 0;
}

/* The target's scheme://host:port and, for localhost, the pin to
 * 127.0.0.1. */
static int parse_base(drive_conn *conn, const char *target)
{
    const char *host = target + 7;
    size_t hl = strcspn(host, "/?#");
    snprintf(conn->base, sizeof conn->base, "http://%.*s", (int)hl, host);
    if (!strncmp(host, "localhost", 9)) {
        const char *port = host[9] == ':' ? host + 10 : "80";
        char pin[64];
        snprintf(pin, sizeof pin, "localhost:%.*s:127.0.0.1", (int)strcspn(port, "/?#"), port);
        if (!(conn->resolve = curl_slist_append(NULL, pin)))
            return -1;
    }
    return 0;
}

static void conn_close(drive_conn *conn)
{
    drive_clients_close(conn);
    if (conn->control)
        curl_easy_cleanup(conn->control);
    if (conn->multi)
        curl_multi_cleanup(conn->multi);
    if (conn->epfd >= 0)
        close(conn->epfd);
    curl_slist_free_all(conn->resolve);
    memset(conn, 0, sizeof *conn);
}

double drive_connect_default(const model_spec *spec)
{
    double end = 0;
    for (uint32_t i = 0; i < spec->noutages; i++) {
        const spec_outage *u = &spec->outages[i];
        if (u->mode == SPEC_OUTAGE_FAIL_FAST && u->outcome == HP_OUTCOME_CONN_REFUSED && u->end_s > end)
            end = u->end_s;
    }
    return DRIVE_CONNECT_GRACE_S + end;
}

/* manifest.txt of a drive: what ran against what. */
static char *manifest(const scn_config *cfg, const char *shown, const drive_options *o, const char *command,
                      bool herd)
{
    size_t cap = 4096 + strlen(command);
    char *t = malloc(cap);
    if (t)
        snprintf(t, cap,
                 "herd drive (real time, over loopback)\ncommand: %s\nscenario: %s (%s)\nseed: %llu\n"
                 "target: %s (%s)\nbounds per replication: %g s, %llu attempts\n",
                 command, shown, cfg->name, (unsigned long long)cfg->seed, o->target,
                 herd ? "herd serve: server-side metrics are the server's counts" : "not herd serve: "
                 "server-side metrics are the client's view", o->max_seconds,
                 (unsigned long long)o->max_requests);
    return t;
}

int real_drive(const scn_config *cfg, const char *shown, const drive_options *o, const char *outdir,
               const char *command, char *err, size_t errlen)
{
    model_spec *spec = herd_calloc(1, sizeof *spec);
    if (!spec) {
        snprintf(err, errlen, "drive: out of memory");
        return -1;
    }
    scn_compile(cfg, spec);
    const char *why = real_unsupported(spec, 0);
    if (why) {
        snprintf(err, errlen, "%s: drive: %s", shown, why);
        herd_free(spec);
        return -2;
    }
    if (cfg->nsweeps || cfg->nvariants) {
        snprintf(err, errlen, "%s: herd drive runs one scenario point: no [sweep] or [variant] sections", shown);
        herd_free(spec);
        return -2;
    }
    long nofile = real_raise_nofile();
    if (nofile >= 0 && (long)spec->clients + 64 > nofile) {
        snprintf(err, errlen, "%s: drive: %u clients need %u open files, the limit is %ld (ulimit -n)", shown,
                 spec->clients, spec->clients + 64, nofile);
        herd_free(spec);
        return -2;
    }
    if (rep_check_outdir(outdir, err, errlen) != 0) {
        herd_free(spec);
        return -1;
    }
    hp_strategy strat[HP_STRATEGY_COUNT];
    uint32_t ns = scn_strategies(cfg, strat), reps = cfg->replications;
    int rc = -1;
    drive_conn conn = {.epfd = -1};
    model_results *res = herd_calloc((size_t)ns * reps, sizeof *res);
    uint64_t *seeds = herd_calloc((size_t)ns * reps, sizeof *seeds);
    rep_group *groups = herd_calloc(ns, sizeof *groups);
    char *man = NULL;
    if (!res || !seeds || !groups || curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        snprintf(err, errlen, "drive: out of memory");
        goto done;
    }
    if (parse_base(&conn, o->target) != 0 || drive_multi_open(&conn) != 0 ||
        !(conn.control = curl_easy_init()) || drive_clients_open(&conn, spec->clients, o->target) != 0) {
        snprintf(err, errlen, "drive: out of memory (libcurl handles)");
        goto done;
    }
    curl_multi_setopt(conn.multi, CURLMOPT_MAXCONNECTS, (long)spec->clients + 16);
    /* herd serve or any other HTTP server: only a 200 "herd serve" on
     * /_herd/info turns the control requests on; any other answer (a 404 or
     * 405, with a body or none) or a connection closed without one is a
     * plain server, said once; only a target that nothing accepts is an
     * error */
    conn.connect_wait_s = o->connect_timeout_s >= 0 ? o->connect_timeout_s : drive_connect_default(spec);
    body info;
    long status;
    bool refused;
    char whynot[REAL_ERR_MAX];
    if (control(&conn, "/_herd/info", false, &info, &status, &refused, whynot, sizeof whynot) != 0) {
        if (refused) {
            snprintf(err, errlen, "%s", whynot);
            goto done;
        }
        fprintf(stderr, "herd: drive: %s is not herd serve (%s): no control requests, the server-side "
                "metrics are the client's view\n", conn.base, !strncmp(whynot, "drive: ", 7) ? whynot + 7 : whynot);
    } else {
        conn.herd = status == 200 && info.len && !strncmp(info.p, "herd serve", 10);
        herd_free(info.p);
        if (!conn.herd)
            fprintf(stderr, "herd: drive: %s is not herd serve (GET /_herd/info answered HTTP %ld): no control "
                    "requests, the server-side metrics are the client's view\n", conn.base, status);
    }
    for (uint32_t s = 0; s < ns; s++)
        for (uint32_t r = 0; r < reps; r++) {
            size_t j = (size_t)s * reps + r;
            seeds[j] = rng_replication_seed(cfg->seed, r);
            const char *stopped = NULL;
            if (drive_replication(spec, strat[s], seeds[j], o, &conn, &res[j], &stopped, err, errlen) != 0)
                goto done;
            const metrics *m = &res[j].m;
            if (stopped)
                fprintf(stderr, "herd: drive: %s replication %u stopped at %s with %llu request(s) unfinished "
                        "(counted as unfinished)\n", hp_strategy_name(strat[s]), r, stopped,
                        (unsigned long long)m->unfinished);
            if (!o->quiet)
                fprintf(stderr, "herd: drive: %s replication %u: %.3f s, %llu calls, %llu refused, %llu ok\n",
                        hp_strategy_name(strat[s]), r, m->completion_time_s, (unsigned long long)m->calls,
                        (unsigned long long)m->refused, (unsigned long long)m->successes);
        }
    for (uint32_t s = 0; s < ns; s++) {
        rep_group *g = &groups[s];
        g->strategy = strat[s];
        g->nreps = reps;
        g->runs = &res[(size_t)s * reps];
        g->seeds = &seeds[(size_t)s * reps];
        g->bucket_s = spec->bucket_s;
        g->baseline = g->vbaseline = -1;
        for (uint32_t q = 0; q < ns && cfg->baseline >= 0; q++)
            if ((int)strat[q] == cfg->baseline)
                g->baseline = q;
    }
    char title[300];
    snprintf(title, sizeof title, "%s (real, %s)", cfg->name, o->target);
    rep_table table = {.scenario = title, .groups = groups, .ngroups = ns, .clients = cfg->clients,
                       .requests_per_client = cfg->requests_per_client, .replications = reps,
                       .seed = cfg->seed, .points_per_variant = 1, .columns = cfg->columns};
    if (!(man = manifest(cfg, shown, o, command, conn.herd))) {
        snprintf(err, errlen, "drive: out of memory writing the manifest");
        goto done;
    }
    if (rep_write(&table, outdir, man, err, errlen) != 0)
        goto done;
    if (!o->quiet && rep_print_table(stdout, &table, outdir) != 0) {
        snprintf(err, errlen, "drive: cannot write the table to standard output");
        goto done;
    }
    rc = 0;
done:
    conn_close(&conn);
    curl_global_cleanup();
    if (res)
        for (size_t j = 0; j < (size_t)ns * reps; j++)
            model_results_free(&res[j]);
    herd_free(res);
    herd_free(seeds);
    herd_free(groups);
    free(man);
    herd_free(spec);
    return rc;
}
