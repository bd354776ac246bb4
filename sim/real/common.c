/*
 * common.c - what serve and drive share: the clock, the file limit, and
 * which scenario features have a real counterpart (see real.h).
 */
#include "real.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

double real_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long real_raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl); /* at worst the old limit stays */
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    return rl.rlim_cur == RLIM_INFINITY ? 1L << 20 : (long)rl.rlim_cur;
}

const char *real_unsupported(const model_spec *spec, int serve)
{
    if (spec->kind == SPEC_SERVER_OCC)
        return "[server] kind = occ (the optimistic-concurrency server) has no real counterpart in herd serve; "
               "expected kind = queue";
    if (spec->keys != SPEC_KEYS_NONE)
        return "[idempotency] keys: the real server keeps no key store; expected keys = none";
    if (spec->capacity)
        return "[server] capacity_file: herd serve does not replay capacity timelines; expected none";
    for (uint32_t i = 0; i < spec->noutages; i++)
        if (spec->outages[i].mode == SPEC_OUTAGE_PARTIAL)
            return "[outage] mode = partial: herd serve has fail_fast and black_hole outages only";
    if (spec->codel_target_s > 0)
        return "[server] codel_target_s: herd serve's queue has no CoDel (herd run models it); expected codel_target_s = 0";
    if (serve)
        return NULL;
    if (spec->start == SPEC_START_TRACE)
        return "[clients] start = trace: herd drive starts clients in a burst, spread or as a Poisson stream";
    if (spec->plugin)
        return "[retry] plugin: herd drive runs herd's built-in policies only (a retry plugin runs in herd run); "
               "expected no plugin";
    if (spec->nlayers)
        return "[layer] sections: herd drive runs one retry loop per request (the client API's); remove the layers";
    if (spec->ntools)
        return "[tool] sections: herd drive sends one kind of request; remove the tools";
    if (spec->side_effect != HP_EFFECT_READ)
        return "[clients] side_effect: herd drive sends reads (GET) only; expected side_effect = read";
    if (spec->guard.hedging)
        return "[limits] hedging: herd drive sends no hedged copies; expected hedging = false";
    if (spec->clients_per_instance)
        return "[limits] clients_per_instance: herd drive keeps one [limits] state for all its clients; expected no "
               "clients_per_instance";
    if (spec->task_steps > 1)
        return "[clients] task_steps: herd drive runs single requests; expected task_steps = 1";
    if (spec->hosts > 1)
        return "[clients] hosts: herd drive is one host (one process, one thread, one connection pool); expected "
               "hosts = 1 (run one herd drive per host)";
    if (spec->warmup_s > 0)
        return "[run] warmup_s: herd drive measures from the start; expected warmup_s = 0";
    if (spec_has_window(spec))
        return "[run] window_s: herd drive measures every request; expected no window_s";
    return NULL;
}

int real_check_target(const char *url, char *err, size_t errlen)
{
    const char *p = url;
    if (strncmp(p, "http://", 7) != 0) {
        snprintf(err, errlen, "--target %s: expected http://127.0.0.1:PORT/ (real traffic stays on loopback)", url);
        return -1;
    }
    p += 7;
    size_t host = strcspn(p, ":/?#");
    if (!((host == 9 && !strncmp(p, "127.0.0.1", 9)) || (host == 9 && !strncmp(p, "localhost", 9)))) {
        snprintf(err, errlen, "--target %s: the host must be 127.0.0.1 or localhost (real traffic stays on loopback)",
                 url);
        return -1;
    }
    p += host;
    if (*p == ':') {
        p++;
        unsigned long port = 0;
        size_t n = 0;
        while (p[n] >= '0' && p[n] <= '9' && n < 6)
            port = port * 10 + (unsigned long)(p[n++] - '0');
        if (n == 0 || port < 1 || port > 65535 || (p[n] && p[n] != '/')) {
            snprintf(err, errlen, "--target %s: expected a port in [1, 65535] after the host", url);
            return -1;
        }
        p += n;
    }
    if (*p && *p != '/') {
        snprintf(err, errlen, "--target %s: expected a path starting with / after the host and port", url);
        return -1;
    }
    for (; *p; p++)
        if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f) {
            snprintf(err, errlen, "--target: the URL may not contain blanks or control characters");
            return -1;
        }
    return 0;
}
