/*
 * host.h - the clients' hosts ([clients] hosts, connections_per_host):
 * client i runs on host i mod hosts; each host sends one attempt after
 * another ([network] send_cost_s each, model_send) and, with
 * connections_per_host = C, holds a pool of C connections.
 *
 * An attempt takes a free connection of its host when it is issued, or
 * waits for one in its host's FIFO; it holds the connection until its
 * attempt ends for the client (the reply, or its timeout: the client
 * closes the connection then, and a late reply finds it gone).  The
 * attempt's timer runs from when it was issued, so the wait for a
 * connection counts in the attempt timeout, as libcurl counts it
 * (CURLOPT_TIMEOUT_MS includes the time a transfer is queued for a
 * connection; see doc/network.md).
 *
 * Invariants: busy[h] <= conns; a host's FIFO is non-empty only while
 * busy[h] == conns; a client is in at most one FIFO, only while its
 * innermost attempt is outstanding (tag odd).  Every operation is O(1):
 * the FIFOs are doubly linked through two arrays indexed by client, so an
 * attempt that times out while waiting leaves in place.  All memory is
 * allocated in host_pool_init.
 */
#ifndef HERD_HOST_H
#define HERD_HOST_H

#include <stdint.h>

struct model;

#define HOST_NONE UINT32_MAX

enum { HOST_IDLE = 0, HOST_WAITING, HOST_HOLDING };

typedef struct host_pool {
    uint32_t hosts;       /* >= 1 */
    uint32_t conns;       /* connections per host, >= 1 */
    uint32_t *busy;       /* per host: connections held */
    uint32_t *head, *tail; /* per host: its FIFO of waiting clients (HOST_NONE: empty) */
    uint32_t *next, *prev; /* per client: its neighbours in its host's FIFO */
    uint8_t *state;       /* per client: HOST_IDLE, HOST_WAITING or HOST_HOLDING */
    uint64_t waits;       /* attempts that waited for a connection (tests) */
    double wait_sum;      /* their waits, summed, for those that got one (tests) */
    double *wait_from;    /* per client: when its wait began */
    double *expires;      /* per client: when its waiting attempt's timeout fires (INFINITY: none),
                           * for what the attempt carries with [server] drop_expired */
} host_pool;

/* Sets up the hosts of md's spec: md->pool with connections_per_host
 * (else NULL), md->sender_free per host with hosts > 1 and a send cost
 * (else NULL: the one host's sender is md->send_free).  0, or -1 on
 * allocation failure (host_free is still safe). */
int host_init(struct model *md);
void host_free(struct model *md);

/* Client id issues its innermost attempt (tag md->clients[id].tag, its
 * timeout timeout_s from now, INFINITY: none): it is sent now through its
 * host's sender when a connection is free, else it waits in its host's
 * FIFO. */
void host_acquire(struct model *md, uint32_t id, double timeout_s);

/* Client id's attempt is over (a reply or its timeout): the connection it
 * holds goes to the first attempt waiting on its host (sent now), or it
 * leaves the FIFO it was waiting in. */
void host_release(struct model *md, uint32_t id);

#endif
