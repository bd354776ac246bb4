/*
 * client_state.h - where a client's retry state lives (private to
 * client.c): the innermost layer's counters in the client record, the
 * outer layers' whole states in md->outer, and the optional per-client
 * arrays (decorrelated-jitter memory, deadline, send time, retry cost) that
 * exist only when some policy can use them.  Loads and stores as the policy
 * library's hp_state and hp_call see them; all inline, on the hot path.
 */
#ifndef HERD_CLIENT_STATE_H
#define HERD_CLIENT_STATE_H

#include <assert.h>
#include <math.h>

#include "model.h"

/* The retry state of layer k of client id, as the policy library sees it.
 * An outer layer's is stored whole (md->outer); the innermost layer's
 * counters are in the client record, its decorrelated-jitter memory and
 * its deadline in md->prev_sleep and md->deadline, which exist only when
 * some innermost policy can use them (without them: 0, never read, and
 * no deadline; md->bare_call says that no optional array exists). */
static inline hp_state st_inner(const model *md, uint32_t id)
{
    const client *c = &md->clients[id];
    hp_state st = {.deadline_s = INFINITY, .attempts = c->attempts, .retries = c->retries};
    if (!md->bare_call) {
        st.prev_sleep_s = md->prev_sleep ? md->prev_sleep[id] : 0;
        st.deadline_s = md->deadline ? md->deadline[id] : INFINITY;
    }
    return st;
}

static inline hp_state st_load(const model *md, uint32_t id, uint32_t k)
{
    if (k + 1 < md->nlayers)
        return md->outer[(size_t)id * (md->nlayers - 1) + k];
    return st_inner(md, id);
}

/* Stores st back as the innermost layer's state of client id. */
static inline void st_store_inner(model *md, uint32_t id, const hp_state *st)
{
    client *c = &md->clients[id];
    c->attempts = st->attempts;
    c->retries = st->retries;
    if (md->bare_call) {
        assert(!(st->deadline_s < INFINITY)); /* model_init allocates md->deadline when one can occur */
        return;
    }
    if (md->prev_sleep)
        md->prev_sleep[id] = st->prev_sleep_s;
    if (md->deadline)
        md->deadline[id] = st->deadline_s;
    else
        assert(!(st->deadline_s < INFINITY));
}

/* Stores st back as layer k's state of client id (see st_load). */
static inline void st_store(model *md, uint32_t id, uint32_t k, const hp_state *st)
{
    if (k + 1 < md->nlayers)
        md->outer[(size_t)id * (md->nlayers - 1) + k] = *st;
    else
        st_store_inner(md, id, st);
}

/* The innermost layer's call of client id, as the library's client API
 * sees it: the retry state (st_load), plus what hedging and the limiter
 * keep, from the arrays that exist only when they are on.  `ahead`: the
 * clients are computed ahead, so neither a limiter nor an adaptive send
 * rate holds anything (no flags). */
static inline hp_call call_load(const model *md, uint32_t id, const bool ahead)
{
    const client *c = &md->clients[id];
    hp_call call = {.st = st_inner(md, id)};
    if (!ahead)
        call.flags = (c->flags & CL_RETRY_HELD ? HP_CALL_RETRY_HELD : 0) |
                     (c->flags & CL_TOKEN_HELD ? HP_CALL_TOKEN_HELD : 0);
    if (!md->bare_call) {
        call.sent_s = md->sent_at ? md->sent_at[id] : 0;
        call.retry_cost = md->retry_cost ? md->retry_cost[id] : 0;
    }
    return call;
}

static inline void call_store(model *md, uint32_t id, const hp_call *call, const bool ahead)
{
    client *c = &md->clients[id];
    st_store_inner(md, id, &call->st);
    if (!md->bare_call) {
        if (md->sent_at)
            md->sent_at[id] = call->sent_s;
        if (md->retry_cost)
            md->retry_cost[id] = call->retry_cost;
    }
    if (ahead) {
        assert(!(call->flags & (HP_CALL_RETRY_HELD | HP_CALL_TOKEN_HELD)));
        return;
    }
    c->flags = (c->flags & ~(CL_RETRY_HELD | CL_TOKEN_HELD) & 0xfu) |
               (call->flags & HP_CALL_RETRY_HELD ? CL_RETRY_HELD : 0) |
               (call->flags & HP_CALL_TOKEN_HELD ? CL_TOKEN_HELD : 0);
}

#endif
