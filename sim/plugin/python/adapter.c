/*
 * adapter.c - the C half of herd's Python adapter (herd-python.so): a
 * retry plugin on the ABI of herdpolicy/plugin.h whose decisions are
 * Python code, built with python3-cffi in embedding mode ("Using Python
 * to make a plug-in for an existing C program").  herd never links
 * libpython: this shared object does, and herd loads it only for
 * `plugin = python:MODULE:OBJECT`.  The herdpy_* functions are defined in
 * Python (runtime.py, cffi's embedding API); this file is the descriptor
 * and the callbacks, which pass scalars to them.
 *
 * One interpreter, one lock (the GIL): the descriptor says
 * HP_PLUGIN_NOT_REENTRANT and herd runs the jobs of such a scenario one
 * after the other.  PYTHONHASHSEED is fixed (0) before the interpreter
 * starts, so that set and dict orders are the same in every run.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "herdpolicy/plugin.h"

#include "herdpy.h" /* the Python side (runtime.py) */

typedef struct pycfg {
    uint64_t h;      /* the configured Python object's handle */
    char why[1024];  /* the last refusal's text (one interpreter: one decision at a time) */
} pycfg;

typedef struct pyhandle {
    uint64_t h;      /* a Python object's handle; 0: none yet */
} pyhandle;

static int cb_configure(void *config, hp_plugin_host *host, char *err, size_t n)
{
    pycfg *c = config;
    size_t cap = 4096, used = 0;
    char *keys = malloc(cap);
    if (!keys) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    keys[0] = '\0';
    for (uint32_t i = 0;; i++) {
        const char *k = host->key_at(host->ctx, i);
        if (!k)
            break;
        const char *v = host->get(host->ctx, k); /* every key goes to the Python object, which may refuse it */
        size_t need = strlen(k) + strlen(v ? v : "") + 2;
        if (used + need + 1 > cap) {
            char *more = realloc(keys, cap = 2 * (used + need + 1));
            if (!more) {
                free(keys);
                snprintf(err, n, "out of memory");
                return -1;
            }
            keys = more;
        }
        used += (size_t)snprintf(keys + used, cap - used, "%s=%s\n", k, v ? v : "");
    }
    /* the shipped adapters: python/ beside this shared object */
    char adir[4096] = ".";
    Dl_info info;
    if (dladdr((void *)cb_configure, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash)
            snprintf(adir, sizeof adir, "%.*s/python", (int)(slash - info.dli_fname), info.dli_fname);
        else
            snprintf(adir, sizeof adir, "python");
    }
    uint32_t nu = host->n_uniforms;
    int rc = herdpy_configure(host->argument, host->scenario_dir, adir, keys, &c->h, &nu, err, n);
    free(keys);
    if (rc == 0)
        host->n_uniforms = nu;
    return rc;
}

static void cb_call_start(const void *config, void *client, void *call, const hp_plugin_in *in)
{
    const pycfg *c = config;
    herdpy_call_start(c->h, &((pyhandle *)client)->h, &((pyhandle *)call)->h, in->now_s, in->tool, in->deadline_s);
}

static int cb_admit(const void *config, void *client, void *call, const hp_plugin_in *in)
{
    const pycfg *c = config;
    return herdpy_admit(c->h, ((pyhandle *)client)->h, ((pyhandle *)call)->h, in->now_s, in->attempts);
}

static void cb_decide(const void *config, void *client, void *call, const hp_plugin_in *in, hp_plugin_out *out)
{
    pycfg *c = (pycfg *)config; /* why: the adapter's own buffer */
    int action = -1, reason = 0;
    double delay = 0;
    c->why[0] = '\0';
    herdpy_decide(c->h, ((pyhandle *)client)->h, ((pyhandle *)call)->h, in->now_s, in->attempts, in->retries, in->tool,
                  in->result.outcome, (int)in->cls, in->result.retry_after_s, in->u, in->n_uniforms, &action, &reason,
                  &delay, c->why, sizeof c->why);
    out->action = action;
    out->reason = reason;
    out->delay_s = delay;
    out->note = c->why[0] ? c->why : NULL;
}

static void cb_finish(const void *config, void *client, void *call, const hp_plugin_in *in)
{
    const pycfg *c = config;
    herdpy_finish(c->h, ((pyhandle *)client)->h, ((pyhandle *)call)->h, in->now_s);
    ((pyhandle *)call)->h = 0;
}

static void cb_client_free(const void *config, void *client)
{
    const pycfg *c = config;
    if (((pyhandle *)client)->h)
        herdpy_client_free(c->h, ((pyhandle *)client)->h);
    ((pyhandle *)client)->h = 0;
}

static void cb_release(void *config)
{
    pycfg *c = config;
    if (c->h)
        herdpy_release(c->h);
    c->h = 0;
}

static const hp_plugin desc = {
    .magic = HP_PLUGIN_MAGIC_INIT,
    .name = "python",
    .version = "1",
    .flags = HP_PLUGIN_NOT_REENTRANT,
    .n_uniforms = HP_PLUGIN_MAX_UNIFORMS, /* each configuration says how many it draws (uniforms, default 1) */
    .config_size = sizeof(pycfg),
    .client_size = sizeof(pyhandle),
    .call_size = sizeof(pyhandle),
    .configure = cb_configure,
    .call_start = cb_call_start,
    .admit = cb_admit,
    .decide = cb_decide,
    .finish = cb_finish,
    .release = cb_release,
    .client_free = cb_client_free,
};

__attribute__((visibility("default"))) const hp_plugin *herd_plugin_entry(void);
const hp_plugin *herd_plugin_entry(void)
{
    setenv("PYTHONHASHSEED", "0", 1); /* before the interpreter starts (at the first herdpy_* call) */
    return &desc;
}
