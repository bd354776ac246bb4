/*
 * builtin.c - a retry plugin that calls libherdpolicy's own functions
 * with the policy herd resolved (HP_PLUGIN_READS_POLICY): hp_state_start
 * and hp_decide_result on a state of its own (its attempts are herd's
 * count, in->attempts: no admit callback).  It must reproduce the
 * built-in strategies byte for byte (tests/plugin.sh).
 */
#include <string.h>

#include "herdpolicy/plugin.h"

typedef struct call_state {
    hp_state st;
} call_state;

static int configure(void *config, hp_plugin_host *host, char *err, size_t n)
{
    (void)config, (void)host, (void)err, (void)n;
    return 0;
}

static void call_start(const void *config, void *client, void *call, const hp_plugin_in *in)
{
    (void)config, (void)client;
    hp_state_start(&((call_state *)call)->st, in->policy, in->now_s);
}

static void decide(const void *config, void *client, void *call, const hp_plugin_in *in, hp_plugin_out *out)
{
    (void)config, (void)client;
    hp_state *st = &((call_state *)call)->st;
    st->attempts = in->attempts;
    hp_decision d = hp_decide_result(in->policy, st, in->result, in->now_s, in->u[0]);
    out->action = d.action;
    out->reason = d.reason;
    out->delay_s = d.delay_s;
    out->retry_after_used = d.retry_after_used;
}

static const hp_plugin desc = {
    .magic = HP_PLUGIN_MAGIC_INIT,
    .name = "builtin",
    .version = "1",
    .flags = HP_PLUGIN_READS_POLICY,
    .n_uniforms = 1,
    .call_size = sizeof(call_state),
    .configure = configure,
    .call_start = call_start,
    .decide = decide,
};

const hp_plugin *herd_plugin_entry(void);
const hp_plugin *herd_plugin_entry(void)
{
    return &desc;
}
