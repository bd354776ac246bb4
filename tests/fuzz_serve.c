/*
 * fuzz_serve.c - libFuzzer harness over herd serve's request handling
 * (sim/real/serve.c, serve_route_of: the path and the query arguments that
 * decide what a request is; libmicrohttpd parses the HTTP itself).
 *
 *   make fuzz (build/fuzz_serve)
 *
 * An input is "PATH?QUERY" (the query split at '&' and '=' as
 * libmicrohttpd hands it over, the first value of a name winning).  The
 * route must agree with an oracle written from the documented contract:
 * /_herd/info, /_herd/stats, /_herd/reset with a decimal seed and
 * optional seconds in (0, 1e6], any other /_herd/ path 404, the rest the
 * model.  The whole input is also an X-Herd-Deadline and an
 * X-Herd-Priority header value (sim/model/shed.h: shed_parse_deadline,
 * shed_parse_priority), checked against oracles from their contracts.
 * Any crash, sanitizer report or disagreement is a bug.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/model/shed.h"
#include "../sim/real/backend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16

typedef struct query {
    const char *name[MAX_ARGS], *value[MAX_ARGS];
    int n;
} query;

static const char *lookup(void *ctx, const char *name)
{
    const query *q = ctx;
    for (int i = 0; i < q->n; i++)
        if (!strcmp(q->name[i], name))
            return q->value[i];
    return NULL;
}

/* The oracle's reading of a seed: 0 when v is a non-empty string of
 * decimal digits (its range is checked with strtoull after), else -1. */
static int oracle_u64(const char *v)
{
    return v && *v && strspn(v, "0123456789") == strlen(v) ? 0 : -1;
}

/* The oracle's reading of an X-Herd-Deadline value: digits with at most
 * one '.', at least one digit, at most 10 before the point; its value by
 * strtod; 0 with *out, or -1. */
static int oracle_deadline(const char *v, double *out)
{
    size_t digits = 0, whole = 0, dots = 0;
    for (const char *p = v; *p; p++) {
        if (*p == '.') {
            if (dots++)
                return -1;
        } else if (*p >= '0' && *p <= '9') {
            digits++;
            whole += !dots;
        } else
            return -1;
    }
    if (!digits || whole > 10)
        return -1;
    *out = strtod(v, NULL);
    return 0;
}

/* shed_parse_deadline and shed_parse_priority against their oracles. */
static void check_headers(const char *v)
{
    double got = -7, want = 0;
    int rc = shed_parse_deadline(v, &got), orc = oracle_deadline(v, &want);
    if (rc == 0 && (orc != 0 || !(got >= 0 && got <= 1e9)))
        abort(); /* accepted something malformed, or out of range */
    if (rc != 0 && got != -7)
        abort(); /* a refusal leaves the value alone */
    if (orc == 0 && fabs(want - 1e9) > 1e-3 && (rc == 0) != (want <= 1e9))
        abort(); /* well formed: accepted exactly when at most 1e9 (away from the bound's rounding) */
    if (rc == 0 && fabs(got - want) > 1e-12 + 1e-9 * want)
        abort();
    int pr = shed_parse_priority(v);
    if (pr != (!strcmp(v, "critical") ? 0 : !strcmp(v, "sheddable") ? 1 : -1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[2048];
    if (size >= sizeof buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    if (strlen(buf) != size)
        return 0; /* libmicrohttpd hands over C strings */
    check_headers(buf);
    query q = {.n = 0};
    char *qs = strchr(buf, '?');
    if (qs) {
        *qs++ = '\0';
        for (char *p = qs; p && *p && q.n < MAX_ARGS;) {
            char *amp = strchr(p, '&');
            if (amp)
                *amp = '\0';
            char *eq = strchr(p, '=');
            if (eq)
                *eq = '\0';
            q.name[q.n] = p;
            q.value[q.n] = eq ? eq + 1 : "";
            q.n++;
            p = amp ? amp + 1 : NULL;
        }
    }
    serve_route r = serve_route_of(buf, lookup, &q, 0.5, 60);
    int herd = strncmp(buf, "/_herd/", 7) == 0;
    if (!herd && r.kind != SERVE_MODEL)
        abort();
    if (herd && r.kind == SERVE_MODEL)
        abort();
    if (r.kind == SERVE_INFO && strcmp(buf, "/_herd/info"))
        abort();
    if (r.kind == SERVE_STATS && strcmp(buf, "/_herd/stats"))
        abort();
    if ((r.kind == SERVE_RESET || r.kind == SERVE_BAD_RESET) != !strcmp(buf, "/_herd/reset"))
        abort();
    if (r.kind == SERVE_RESET) {
        const char *seed = lookup(&q, "seed");
        if (oracle_u64(seed) != 0)
            abort(); /* only decimals are seeds */
        errno = 0;
        unsigned long long want = strtoull(seed, NULL, 10);
        if (errno || want != r.seed)
            abort();
        if (!(r.bucket_s > 0 && r.bucket_s <= 1e6) || !(r.horizon_s > 0 && r.horizon_s <= 1e6))
            abort();
        if (!lookup(&q, "bucket_s") && r.bucket_s != 0.5)
            abort();
        if (!lookup(&q, "horizon_s") && r.horizon_s != 60)
            abort();
    }
    if (r.kind == SERVE_BAD_RESET) {
        const char *seed = lookup(&q, "seed");
        const char *b = lookup(&q, "bucket_s"), *h = lookup(&q, "horizon_s");
        /* a well-formed reset is never refused */
        int seed_ok = oracle_u64(seed) == 0;
        if (seed_ok) {
            errno = 0;
            (void)strtoull(seed, NULL, 10);
            seed_ok = errno == 0;
        }
        int sec_ok = 1;
        const char *sv[2] = {b, h};
        for (int i = 0; i < 2; i++)
            if (sv[i]) {
                char *end;
                double x = strtod(sv[i], &end);
                sec_ok &= end != sv[i] && !*end && x > 0 && x <= 1e6;
            }
        if (seed_ok && sec_ok)
            abort();
    }
    return 0;
}
