/*
 * bad.c - plugins herd must refuse, one per BAD_* macro (tests/plugin.sh):
 * BAD_RAND imports rand, BAD_CLOCK imports clock_gettime, BAD_VERSION
 * speaks ABI version 99, BAD_SHORT has a descriptor shorter than version
 * 1's, BAD_NAN returns a NaN delay, BAD_GLOBAL keeps its state in a global
 * (herd plugin check's run-twice test finds it).
 */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "herdpolicy/plugin.h"

#ifdef BAD_GLOBAL
static unsigned calls;
#endif

static int configure(void *config, hp_plugin_host *host, char *err, size_t n)
{
    (void)config, (void)host, (void)err, (void)n;
    return 0;
}

static void call_start(const void *config, void *client, void *call, const hp_plugin_in *in)
{
    (void)config, (void)client, (void)call, (void)in;
}

static void decide(const void *config, void *client, void *call, const hp_plugin_in *in, hp_plugin_out *out)
{
    (void)config, (void)client, (void)call;
    out->action = in->cls == HP_CLASS_OK ? HP_DONE_OK : in->attempts >= 4 ? HP_GIVE_UP : HP_RETRY;
    out->reason = out->action == HP_GIVE_UP ? HP_REASON_ATTEMPTS : 0;
    out->delay_s = in->u[0];
#ifdef BAD_RAND
    out->delay_s = rand() / (double)RAND_MAX;
#endif
#ifdef BAD_CLOCK
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    out->delay_s = (double)(ts.tv_nsec % 1000) / 1000;
#endif
#ifdef BAD_NAN
    if (in->attempts >= 2)
        out->delay_s = NAN;
#endif
#ifdef BAD_GLOBAL
    out->delay_s = 0.001 * (double)(calls++ % 7);
#endif
}

static const hp_plugin desc = {
    .magic = HP_PLUGIN_MAGIC_INIT,
    .name = "bad",
    .version = "1",
    .n_uniforms = 1,
    .configure = configure,
    .call_start = call_start,
    .decide = decide,
};

const hp_plugin *herd_plugin_entry(void);
const hp_plugin *herd_plugin_entry(void)
{
#if defined BAD_VERSION || defined BAD_SHORT
    static hp_plugin d;
    d = desc;
#ifdef BAD_VERSION
    d.magic.abi_version = 99;
#else
    d.magic.desc_size = (uint32_t)offsetof(hp_plugin, finish);
#endif
    return &d;
#else
    return &desc;
#endif
}
