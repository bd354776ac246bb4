/*
 * herdpolicy/plugin.h - a team's own retry decisions behind herd's client
 * API: the plugin ABI (version 1).  Include <herdpolicy/plugin.h> (it
 * includes <herdpolicy.h>).
 *
 * A plugin is a shared object that exports one symbol, HP_PLUGIN_ENTRY
 * ("herd_plugin_entry"), a function returning a pointer to a const
 * descriptor (hp_plugin).  herd's retry loop (hp_call_start / admit /
 * outcome / finish) stays the loop: its order, the deadline, the retry
 * limiter, the breaker, throttling and hedging stay around the plugin.  The
 * plugin replaces the decisions inside it: whether an attempt may go
 * (admit) and, after an outcome, done / retry after how long / give up
 * (decide).
 *
 * What the ABI learned from others:
 *   - the descriptor starts with a magic block (hp_plugin_magic) that the
 *     host compares field by field and names the field that differs
 *     (PostgreSQL's PG_MODULE_MAGIC);
 *   - an ABI version in the handshake (Redis modules) and the descriptor's
 *     size as compiled: callbacks are only ever appended, and the host
 *     reads no field beyond desc_size (SQLite's routines table);
 *   - the host owns memory: the plugin states the sizes of its blocks and
 *     herd allocates them, zeroed (Lua's lua_newstate(alloc, ud));
 *   - everything crosses by pointer to a versioned struct, never a struct
 *     by value whose layout could change without a version bump
 *     (FoundationDB's C workload context, apple/foundationdb PR #12357).
 *
 * The determinism contract (herd plugin check tests what it can):
 *   - time only from now_s (herd's simulated clock, seconds);
 *   - randomness only from the n_uniforms uniforms in [0, 1) herd passes to
 *     each decision: herd draws them from the simulation's backoff stream,
 *     the first being the one its built-in strategies use, so a plugin
 *     with one uniform sees the numbers full jitter sees (common random
 *     numbers across strategies, and clients computed ahead, keep
 *     working);
 *   - no globals, threads, I/O or clocks after configure: state lives in
 *     the blocks herd hands over (configuration: read only after
 *     configure; per client; per call);
 *   - the same inputs give bit-identical outputs.
 * herd validates every value returned (a known action, a finite delay >=
 * 0, a known reason) and stops with the plugin's name, the client and the
 * time otherwise.
 */
#ifndef HERDPOLICY_PLUGIN_H
#define HERDPOLICY_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "../herdpolicy.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HP_PLUGIN_ABI_VERSION 1u
#define HP_PLUGIN_MAGIC_WORD 0x64726568u /* "herd" in memory on a little-endian machine */
#define HP_PLUGIN_ENTRY "herd_plugin_entry"
#define HP_PLUGIN_MAX_UNIFORMS 8u

/* Flags (hp_plugin.flags). */
/* The plugin reads herd's resolved policy (hp_plugin_in.policy: the
 * [retry] keys and the strategy of the run).  Without it, the [retry]
 * keys the plugin replaces are refused as changing nothing. */
#define HP_PLUGIN_READS_POLICY 1u
/* The callbacks must not run on two threads at once (an interpreter with
 * one lock): herd runs the jobs of a scenario with it one after the
 * other (--jobs has no effect; run shards as processes instead). */
#define HP_PLUGIN_NOT_REENTRANT 2u
#define HP_PLUGIN_KNOWN_FLAGS 3u

/* Compared field by field with the host's at load time. */
typedef struct hp_plugin_magic {
    uint32_t magic;         /* HP_PLUGIN_MAGIC_WORD */
    uint32_t abi_version;   /* HP_PLUGIN_ABI_VERSION as compiled */
    uint32_t desc_size;     /* sizeof(hp_plugin) as compiled */
    uint32_t policy_size;   /* sizeof(hp_policy) as compiled */
    uint32_t in_size;       /* sizeof(hp_plugin_in) as compiled */
    uint32_t pointer_size;  /* sizeof(void *) */
} hp_plugin_magic;

/* What a plugin compiled against this header puts first in its descriptor. */
#define HP_PLUGIN_MAGIC_INIT                                                                               \
    {HP_PLUGIN_MAGIC_WORD, HP_PLUGIN_ABI_VERSION, (uint32_t)sizeof(struct hp_plugin),                      \
     (uint32_t)sizeof(hp_policy), (uint32_t)sizeof(struct hp_plugin_in), (uint32_t)sizeof(void *)}

/* What configure may ask the host (herd owns it; valid during configure
 * only). */
typedef struct hp_plugin_host {
    void *ctx;
    /* The value of scenario key plugin.KEY, or NULL if not written.  A key
     * the plugin never asks for is refused by herd (it changes nothing). */
    const char *(*get)(void *ctx, const char *key);
    /* The i-th written key's name (from 0), NULL past the last: for
     * plugins that pass every key on (the Python adapter's kwargs).
     * Reading a name does not count as reading the key. */
    const char *(*key_at)(void *ctx, uint32_t i);
    /* The folder of the scenario file ("." for --set only). */
    const char *scenario_dir;
    /* What follows the adapter's name in the plugin key (python:MODULE:OBJECT
     * gives "MODULE:OBJECT"); "" for a plugin named by its path. */
    const char *argument;
    /* Uniforms per decision of this configuration: the descriptor's
     * n_uniforms on entry; configure may lower it (an adapter whose
     * configurations draw different numbers: fixed per configuration). */
    uint32_t n_uniforms;
} hp_plugin_host;

/* The inputs of a callback (read only; valid during the call). */
typedef struct hp_plugin_in {
    double now_s;             /* herd's clock */
    const hp_policy *policy;  /* herd's resolved policy of this call, the run's strategy in it */
    double deadline_s;        /* the call's deadline (+infinity: none) */
    uint32_t attempts;        /* attempts counted so far, including the current one */
    uint32_t retries;         /* retries decided so far */
    uint32_t tool;            /* the tool of the call (0 without [tool] sections) */
    uint32_t n_uniforms;      /* decide: the number of uniforms in u */
    const double *u;          /* decide: n_uniforms uniforms in [0, 1) */
    hp_result result;         /* decide: the outcome as the policy reads it (Retry-After in seconds) */
    hp_class cls;             /* decide: herd's class of result.outcome */
} hp_plugin_in;

/* What decide returns (the host zeroes it before the call). */
typedef struct hp_plugin_out {
    int action;               /* HP_DONE_OK, HP_RETRY or HP_GIVE_UP */
    int reason;               /* HP_GIVE_UP: an hp_reason (0: none in particular) */
    double delay_s;           /* HP_RETRY: the sleep, finite and >= 0 */
    int retry_after_used;     /* HP_RETRY: 1 if the sleep is the server's Retry-After */
    const char *note;         /* optional: why, when a value is refused (e.g. an exception's
                               * text); must stay valid until the next callback */
} hp_plugin_out;

/* The descriptor (const, static in the plugin). */
typedef struct hp_plugin {
    hp_plugin_magic magic;    /* HP_PLUGIN_MAGIC_INIT */
    const char *name;         /* shown in messages */
    const char *version;
    uint32_t flags;           /* HP_PLUGIN_* */
    uint32_t n_uniforms;      /* uniforms per decision, 0 .. HP_PLUGIN_MAX_UNIFORMS */
    uint32_t config_size;     /* bytes of the configuration block (zeroed before configure) */
    uint32_t client_size;     /* bytes per client (zeroed at the start of each run) */
    uint32_t call_size;       /* bytes per logical call (zeroed before call_start) */
    /* Reads plugin.* keys through host into config: 0, or -1 with a
     * message in err[0..n).  Runs once per configuration, before any run. */
    int (*configure)(void *config, hp_plugin_host *host, char *err, size_t n);
    /* A logical call starts (in->policy, now_s, deadline_s, tool; a plugin
     * that needs the start time keeps now_s in its call block). */
    void (*call_start)(const void *config, void *client, void *call, const hp_plugin_in *in);
    /* Before each attempt, after herd counted it (in->attempts): 1 sends
     * it, 0 denies it (the call ends, HP_DENY_PLUGIN).  NULL: always 1. */
    int (*admit)(const void *config, void *client, void *call, const hp_plugin_in *in);
    /* After each attempt's outcome: the decision into *out. */
    void (*decide)(const void *config, void *client, void *call, const hp_plugin_in *in, hp_plugin_out *out);
    /* The call is over.  NULL: nothing to do. */
    void (*finish)(const void *config, void *client, void *call, const hp_plugin_in *in);
    /* Releases what configure acquired outside the block.  NULL: nothing. */
    void (*release)(void *config);
    /* A run is over: releases what a client's block refers to outside it
     * (called once per client, at the end of every run).  NULL: nothing. */
    void (*client_free)(const void *config, void *client);
} hp_plugin;

/* The entry symbol's type. */
typedef const hp_plugin *(*hp_plugin_entry_fn)(void);

/* The descriptor of ABI version 1 (up to client_free). */
#define HP_PLUGIN_V1_SIZE (offsetof(hp_plugin, client_free) + sizeof(void (*)(const void *, void *)))

/* NULL if d can be used by this library, else a message naming the first
 * field of the magic block that differs ("abi_version is 2, this herd
 * speaks 1"), a descriptor too short for its version, unknown flags, too
 * many uniforms or a missing callback, written into err[0..n). */
const char *hp_plugin_check(const hp_plugin *d, char *err, size_t n);

/* One plugin as the client API uses it for one client's call: the
 * descriptor, its configuration and the two state blocks. */
typedef struct hp_plugin_use {
    const hp_plugin *plugin;
    const void *config;
    void *client;             /* client_size bytes */
    void *call;               /* call_size bytes */
    uint32_t tool;            /* passed on in hp_plugin_in.tool */
    uint32_t n_uniforms;      /* of this configuration (hp_plugin_host.n_uniforms) */
    const char *error;        /* set when the plugin returned a value herd refuses (a static
                               * message; the decision is then HP_GIVE_UP) */
    double error_value;       /* the delay refused, or the action / reason as a number */
    const char *note;         /* the plugin's hp_plugin_out.note with the refusal, or NULL */
} hp_plugin_use;

/* The client API with a plugin: as hp_call_start, hp_call_admit,
 * hp_call_outcome and hp_call_finish (client.h), in the same order, with
 * the plugin's admit after step 2 (the attempt counted) and its decision
 * as step 5 instead of hp_decide_result.  use NULL: exactly the functions
 * without a plugin.  u of hp_call_outcome_plugin: use->n_uniforms uniforms
 * (u[0] alone without a plugin).  After each, check use->error. */
void hp_call_start_plugin(hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s);
hp_admit hp_call_admit_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s,
                              double u);
hp_decision hp_call_outcome_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, hp_result r,
                                   double now_s, const double *u);
void hp_call_finish_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s);

#ifdef __cplusplus
}
#endif
#endif /* HERDPOLICY_PLUGIN_H */
