/*
 * plugin_cmd.c - herd plugin check SPEC [KEY=VALUE ...]: a retry plugin
 * (herdpolicy/plugin.h) against its contract before a scenario uses it.
 *
 *   1. the handshake (the magic block field by field, the descriptor's
 *      size, flags, uniforms, callbacks) and configure with the keys given;
 *   2. the undefined symbols of a C plugin: no clock, random function or
 *      thread creation imported (the loader refuses them);
 *   3. determinism, on a synthetic workload through the client API (4
 *      clients x 40 calls, outcomes and uniforms from splitmix64): the
 *      same run twice gives bit-identical decisions; the clients one after
 *      the other give each client the decisions it gets when they
 *      interleave (what --jobs 1 against --jobs 2 would show: state kept
 *      outside the blocks herd hands over); and other uniforms change
 *      some delay when the plugin reads any.
 * Exit status 0 when every check passes, 1 when a determinism check
 * fails, 2 when the plugin is refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../plugin/loader.h"
#include "cli.h"

#define NCLIENTS 4
#define NCALLS 40

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
    return (double)(splitmix(s) >> 11) * 0x1.0p-53;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

typedef struct workload {
    const hpl_instance *in;
    unsigned char *client[NCLIENTS], *call[NCLIENTS];
    uint64_t rng[NCLIENTS];
    double now[NCLIENTS];
    uint64_t hash[NCLIENTS];
    char why[HPL_ERR_MAX];
} workload;

static const int outcomes[] = {200, 200, 503, HP_OUTCOME_TIMEOUT, 429, HP_OUTCOME_CONN_REFUSED, 500, 404, 200, 503};

/* One call of client c, start to finish; 0, or -1 with wl->why. */
static int one_call(workload *wl, const hp_policy *p, int c)
{
    const hp_plugin *d = wl->in->desc;
    hp_plugin_use use = {.plugin = d, .config = wl->in->config, .client = wl->client[c], .call = wl->call[c],
                         .n_uniforms = wl->in->n_uniforms};
    hp_call call;
    hp_call_start_plugin(&call, p, &use, wl->now[c]);
    for (int guard = 0; guard < 1000; guard++) {
        hp_admit a = hp_call_admit_plugin(NULL, &call, p, &use, wl->now[c], 0);
        wl->hash[c] = fnv(wl->hash[c], &a.allowed, sizeof a.allowed);
        if (!a.allowed)
            break;
        hp_result r = {.outcome = outcomes[splitmix(&wl->rng[c]) % (sizeof outcomes / sizeof outcomes[0])],
                       .retry_after_s = HP_NO_RETRY_AFTER};
        if (r.outcome == 429)
            r.retry_after_s = 2;
        wl->now[c] += 0.05 + 0.01 * (double)(splitmix(&wl->rng[c]) % 10);
        double u[HP_PLUGIN_MAX_UNIFORMS] = {0};
        for (uint32_t i = 0; i < (use.n_uniforms ? use.n_uniforms : 1); i++)
            u[i] = uniform(&wl->rng[c]);
        hp_decision dec = hp_call_outcome_plugin(NULL, &call, p, &use, r, wl->now[c], u);
        if (use.error) {
            snprintf(wl->why, sizeof wl->why, "client %d at t = %.9g s: %s (got %g)%s%s", c, wl->now[c], use.error,
                     use.error_value, use.note ? ": " : "", use.note ? use.note : "");
            return -1;
        }
        wl->hash[c] = fnv(wl->hash[c], &dec.action, sizeof dec.action);
        wl->hash[c] = fnv(wl->hash[c], &dec.reason, sizeof dec.reason);
        wl->hash[c] = fnv(wl->hash[c], &dec.delay_s, sizeof dec.delay_s);
        if (dec.action != HP_RETRY)
            break;
        wl->now[c] += dec.delay_s;
    }
    hp_call_finish_plugin(NULL, &call, p, &use, wl->now[c]);
    wl->now[c] += 1;
    return 0;
}

/* The workload with seed, the clients interleaved or one after the other;
 * the per-client hashes in wl->hash.  0, or -1 with wl->why. */
static int run(workload *wl, const hp_policy *p, uint64_t seed, int interleave)
{
    const hp_plugin *d = wl->in->desc;
    for (int c = 0; c < NCLIENTS; c++) {
        if (d->client_free)
            d->client_free(wl->in->config, wl->client[c]);
        memset(wl->client[c], 0, d->client_size + 1);
        memset(wl->call[c], 0, d->call_size + 1);
        wl->rng[c] = seed * 1000003u + (uint64_t)c;
        wl->now[c] = 0;
        wl->hash[c] = 0xcbf29ce484222325ull;
    }
    if (interleave) {
        for (int k = 0; k < NCALLS; k++)
            for (int c = 0; c < NCLIENTS; c++)
                if (one_call(wl, p, c))
                    return -1;
    } else {
        for (int c = 0; c < NCLIENTS; c++)
            for (int k = 0; k < NCALLS; k++)
                if (one_call(wl, p, c))
                    return -1;
    }
    return 0;
}

int cmd_plugin(int argc, char **argv)
{
    if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        printf("usage: herd plugin check PATH.so|python:MODULE:OBJECT [KEY=VALUE ...]\n"
               "a retry plugin against its contract (doc/plugins.md): the handshake and configure with the keys\n"
               "given (a scenario's plugin.KEY without plugin.), the imported symbols (no clock, random function\n"
               "or thread), and a synthetic workload: the same calls twice, clients interleaved or one after the\n"
               "other, another seed\n"
               "exit status: 0 every check passes, 1 a determinism check fails, 2 the plugin is refused\n");
        return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
    }
    if (argc < 4 || strcmp(argv[2], "check")) {
        errorf("usage: herd plugin check PATH.so|python:MODULE:OBJECT [KEY=VALUE ...]");
        return 2;
    }
    char keys[4096] = "";
    size_t used = 0;
    for (int i = 4; i < argc; i++) {
        if (!strchr(argv[i], '=') || strchr(argv[i], '\n') || used + strlen(argv[i]) + 2 > sizeof keys) {
            errorf("plugin check: '%s': expected KEY=VALUE (a plugin.KEY of the scenario without plugin.)", argv[i]);
            return 2;
        }
        used += (size_t)snprintf(keys + used, sizeof keys - used, "%s\n", argv[i]);
    }
    char err[HPL_ERR_MAX];
    const hpl_instance *in = hpl_load(argv[3], ".", keys, err);
    if (!in) {
        errorf("plugin check: %s", err);
        return 2;
    }
    const hp_plugin *d = in->desc;
    printf("handshake: ok: %s %s, ABI version %u, %u uniform%s per decision, blocks of %u (configuration), %u "
           "(client), %u (call) bytes%s%s\n",
           d->name, d->version, d->magic.abi_version, in->n_uniforms, in->n_uniforms == 1 ? "" : "s", d->config_size,
           d->client_size, d->call_size, d->flags & HP_PLUGIN_READS_POLICY ? ", reads herd's policy" : "",
           d->flags & HP_PLUGIN_NOT_REENTRANT ? ", not reentrant (its jobs run one at a time)" : "");
    if (strncmp(argv[3], "python:", 7))
        printf("symbols: ok: no clock, random function or thread creation imported\n");
    else
        printf("symbols: the Python adapter (herd's own); its Python code is held to the contract by the runs "
               "below\n");

    workload wl = {.in = in};
    int rc = 0;
    for (int c = 0; c < NCLIENTS; c++) {
        wl.client[c] = herd_calloc(1, d->client_size + 1);
        wl.call[c] = herd_calloc(1, d->call_size + 1);
        if (!wl.client[c] || !wl.call[c]) {
            errorf("plugin check: out of memory");
            rc = 1;
            goto out;
        }
    }
    hp_policy p = hp_policy_defaults();
    p.strategy = HP_FULL_JITTER;
    p.base_s = 1;
    p.cap_s = 60;
    p.max_attempts = 10;
    uint64_t first[NCLIENTS], second[NCLIENTS];
    if (run(&wl, &p, 1, 1) != 0)
        goto refused;
    memcpy(first, wl.hash, sizeof first);
    if (run(&wl, &p, 1, 1) != 0)
        goto refused;
    memcpy(second, wl.hash, sizeof second);
    if (memcmp(first, second, sizeof first)) {
        printf("determinism: FAILED: the same %d calls twice gave different decisions (state kept outside the "
               "blocks herd hands over, or a clock or random source of its own)\n", NCLIENTS * NCALLS);
        rc = 1;
        goto out;
    }
    printf("determinism: ok: the same %d calls twice, bit-identical decisions\n", NCLIENTS * NCALLS);
    if (run(&wl, &p, 1, 0) != 0)
        goto refused;
    for (int c = 0; c < NCLIENTS; c++)
        if (wl.hash[c] != first[c]) {
            printf("isolation: FAILED: client %d decides differently when the clients run one after the other than "
                   "interleaved (state shared across clients or jobs: keep it in the client and call blocks)\n", c);
            rc = 1;
            goto out;
        }
    printf("isolation: ok: each client decides the same, clients interleaved or one after the other (as --jobs 1 "
           "and --jobs 2)\n");
    if (run(&wl, &p, 2, 1) != 0)
        goto refused;
    int changed = 0;
    for (int c = 0; c < NCLIENTS; c++)
        changed |= wl.hash[c] != first[c];
    if (!changed) {
        printf("seed: FAILED: another seed changes no decision (no outcome or uniform is read?)\n");
        rc = 1;
        goto out;
    }
    printf("seed: ok: another seed changes the decisions\n");
    goto out;
refused:
    printf("values: FAILED: %s: %s\n", d->name, wl.why);
    rc = 2;
out:
    for (int c = 0; c < NCLIENTS; c++) {
        if (d->client_free && wl.client[c])
            d->client_free(in->config, wl.client[c]);
        herd_free(wl.client[c]);
        herd_free(wl.call[c]);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        errorf("plugin check: cannot write to standard output");
        return 1;
    }
    return rc;
}
