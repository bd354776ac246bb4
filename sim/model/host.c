/*
 * host.c - the clients' connection pools (host.h): per host a count of
 * connections held and a FIFO of the attempts waiting for one, linked
 * through per-client arrays, so that acquiring, releasing and leaving the
 * FIFO on a timeout are O(1) and allocate nothing.
 */
#include "host.h"

#include "../base/alloc.h"
#include "model.h"

int host_init(model *md)
{
    const model_spec *spec = md->spec;
    md->pool = NULL;
    md->sender_free = NULL;
    if (spec->hosts > 1 && (spec->send_cost_s > 0 || spec->reply_cost_s > 0) &&
        !(md->sender_free = herd_calloc(spec->hosts, sizeof *md->sender_free)))
        return -1;
    if (!spec->connections_per_host)
        return 0;
    host_pool *p = herd_calloc(1, sizeof *p);
    if (!p)
        return -1;
    md->pool = p;
    p->hosts = spec->hosts ? spec->hosts : 1;
    p->conns = spec->connections_per_host;
    size_t n = spec->clients ? spec->clients : 1;
    p->busy = herd_calloc(p->hosts, sizeof *p->busy);
    p->head = herd_malloc_array(p->hosts, sizeof *p->head);
    p->tail = herd_malloc_array(p->hosts, sizeof *p->tail);
    p->next = herd_malloc_array(n, sizeof *p->next);
    p->prev = herd_malloc_array(n, sizeof *p->prev);
    p->state = herd_calloc(n, sizeof *p->state);
    p->wait_from = herd_calloc(n, sizeof *p->wait_from);
    p->expires = herd_calloc(n, sizeof *p->expires);
    if (!p->busy || !p->head || !p->tail || !p->next || !p->prev || !p->state || !p->wait_from || !p->expires)
        return -1;
    for (uint32_t h = 0; h < p->hosts; h++)
        p->head[h] = p->tail[h] = HOST_NONE;
    return 0;
}

void host_free(model *md)
{
    herd_free(md->sender_free);
    md->sender_free = NULL;
    host_pool *p = md->pool;
    if (!p)
        return;
    herd_free(p->busy);
    herd_free(p->head);
    herd_free(p->tail);
    herd_free(p->next);
    herd_free(p->prev);
    herd_free(p->state);
    herd_free(p->wait_from);
    herd_free(p->expires);
    herd_free(p);
    md->pool = NULL;
}

/* Client id takes a connection of its host and its attempt is sent,
 * left_s before its timeout. */
static void take(model *md, host_pool *p, uint32_t h, uint32_t id, double left_s)
{
    p->busy[h]++;
    p->state[id] = HOST_HOLDING;
    const client *c = &md->clients[id];
    model_send(md, EV_ARRIVE, id, c->tag, (int32_t)c->done, left_s);
}

void host_acquire(model *md, uint32_t id, double timeout_s)
{
    host_pool *p = md->pool;
    uint32_t h = id % p->hosts;
    if (p->busy[h] < p->conns) {
        take(md, p, h, id, timeout_s);
        return;
    }
    p->state[id] = HOST_WAITING;
    p->wait_from[id] = sim_now(md->sim);
    p->expires[id] = p->wait_from[id] + timeout_s;
    p->waits++;
    p->next[id] = HOST_NONE;
    p->prev[id] = p->tail[h];
    if (p->tail[h] != HOST_NONE)
        p->next[p->tail[h]] = id;
    else
        p->head[h] = id;
    p->tail[h] = id;
}

/* Takes client id out of host h's FIFO. */
static void unlink_waiter(host_pool *p, uint32_t h, uint32_t id)
{
    uint32_t a = p->prev[id], b = p->next[id];
    if (a != HOST_NONE)
        p->next[a] = b;
    else
        p->head[h] = b;
    if (b != HOST_NONE)
        p->prev[b] = a;
    else
        p->tail[h] = a;
}

void host_release(model *md, uint32_t id)
{
    host_pool *p = md->pool;
    uint32_t h = id % p->hosts;
    uint8_t s = p->state[id];
    p->state[id] = HOST_IDLE;
    if (s == HOST_WAITING) { /* its timeout fired before a connection was free */
        unlink_waiter(p, h, id);
        return;
    }
    if (s != HOST_HOLDING)
        return;
    p->busy[h]--;
    uint32_t w = p->head[h];
    if (w == HOST_NONE)
        return;
    unlink_waiter(p, h, w);
    double now = sim_now(md->sim);
    p->wait_sum += now - p->wait_from[w];
    take(md, p, h, w, p->expires[w] - now);
}
