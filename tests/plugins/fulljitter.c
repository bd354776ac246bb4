/*
 * fulljitter.c - full jitter written from the formula alone, without
 * libherdpolicy: sleep u * min(cap, base * 2^n) before retry n (AWS
 * Architecture Blog, "Exponential Backoff and Jitter", 2015), retrying
 * the classes herd's table retries, up to max_attempts attempts.  Keys:
 * plugin.base_s, plugin.cap_s, plugin.max_attempts.  tests/plugin.sh holds
 * it bit-equal to the built-in full_jitter on a grid, then end to end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "herdpolicy/plugin.h"

typedef struct config {
    double base_s, cap_s;
    unsigned max_attempts;
} config;

static int number(hp_plugin_host *host, const char *key, double lo, double *out, char *err, size_t n)
{
    const char *v = host->get(host->ctx, key);
    char *end;
    if (!v) {
        snprintf(err, n, "plugin.%s: missing; expected a number >= %g", key, lo);
        return -1;
    }
    *out = strtod(v, &end);
    if (*end || !(*out >= lo) || !isfinite(*out)) {
        snprintf(err, n, "plugin.%s: expected a number >= %g, got '%s'", key, lo, v);
        return -1;
    }
    return 0;
}

static int configure(void *cfg, hp_plugin_host *host, char *err, size_t n)
{
    config *c = cfg;
    double m;
    if (number(host, "base_s", 1e-9, &c->base_s, err, n) || number(host, "cap_s", c->base_s, &c->cap_s, err, n) ||
        number(host, "max_attempts", 1, &m, err, n))
        return -1;
    c->max_attempts = (unsigned)m;
    return 0;
}

static void call_start(const void *cfg, void *client, void *call, const hp_plugin_in *in)
{
    (void)cfg, (void)client, (void)call, (void)in;
}

/* u * min(cap, base * 2^n), below the ceiling (u < 1) */
double fulljitter_sleep(double base, double cap, unsigned n, double u);
double fulljitter_sleep(double base, double cap, unsigned n, double u)
{
    double c = n > 1023 ? cap : base * ldexp(1.0, (int)n);
    if (!(c < cap))
        c = cap;
    double s = u * c;
    return s < c ? s : nextafter(c, 0.0);
}

static void decide(const void *cfg, void *client, void *call, const hp_plugin_in *in, hp_plugin_out *out)
{
    const config *c = cfg;
    (void)client, (void)call;
    switch (in->cls) {
    case HP_CLASS_OK:
        out->action = HP_DONE_OK;
        return;
    case HP_CLASS_SERVER: case HP_CLASS_RATE_LIMITED: case HP_CLASS_TIMEOUT: case HP_CLASS_CONNECTION:
    case HP_CLASS_CONFLICT: case HP_CLASS_REQUEST_TIMEOUT: case HP_CLASS_OVERLOADED: case HP_CLASS_UNKNOWN:
        break;
    default:
        out->action = HP_GIVE_UP;
        out->reason = HP_REASON_NON_RETRYABLE;
        return;
    }
    if (in->attempts >= c->max_attempts) {
        out->action = HP_GIVE_UP;
        out->reason = HP_REASON_ATTEMPTS;
        return;
    }
    out->action = HP_RETRY;
    out->delay_s = fulljitter_sleep(c->base_s, c->cap_s, in->retries, in->u[0]);
}

static const hp_plugin desc = {
    .magic = HP_PLUGIN_MAGIC_INIT,
    .name = "fulljitter",
    .version = "1",
    .n_uniforms = 1,
    .config_size = sizeof(config),
    .configure = configure,
    .call_start = call_start,
    .decide = decide,
};

const hp_plugin *herd_plugin_entry(void);
const hp_plugin *herd_plugin_entry(void)
{
    return &desc;
}
