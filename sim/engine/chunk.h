/*
 * chunk.h - fixed-size blocks of events for the engine's FIFO lanes and
 * bucketed queues, and the pool they come from.
 *
 * A chunk is 512 bytes: a 32-byte header (the next chunk, the slots
 * written) and 15 events of 32 bytes, or 20 narrow entries of 24 bytes
 * (an event without arg and aux).  Every slot is 32-byte aligned inside a
 * 64-byte aligned chunk, so no event straddles two cache lines.
 *
 * The pool allocates chunks in slabs through the allocation hook (first
 * slab 16 chunks, each next one twice the last, at most 512 chunks =
 * 256 KiB), keeps freed chunks on a free list and reuses them before
 * allocating: its memory is the peak number of chunks in use, rounded up
 * to a slab, and nothing is ever copied to grow.  Slabs are returned only
 * by ck_pool_free.  Costs: ck_get and ck_put are O(1).
 */
#ifndef HERD_CHUNK_H
#define HERD_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "equeue.h"

#define CK_BYTES 512
#define CK_EVENTS 15   /* (512 - 32) / 32 */
#define CK_NARROW 20   /* (512 - 32) / 24 */

/* An event without its arg and aux (both 0): what a timer needs. */
typedef struct ck_narrow {
    double time;
    uint64_t seq : 56;
    uint64_t type : 8;
    uint32_t obj;
    uint32_t tag;
} ck_narrow;

typedef struct ck_chunk {
    struct ck_chunk *next; /* the next chunk of the list it is in */
    uint32_t n;            /* slots written */
    uint32_t unused_[5];
    union {
        eq_event ev[CK_EVENTS];
        ck_narrow nv[CK_NARROW];
    } u;
} ck_chunk;

typedef struct ck_pool {
    ck_chunk *free;      /* free list through ->next */
    ck_chunk **slab;     /* every slab allocated, for ck_pool_free */
    size_t nslab, slabcap;
    size_t next_slab;    /* chunks in the next slab */
    size_t total;        /* chunks allocated */
    size_t used;         /* chunks handed out and not returned */
    size_t peak;         /* most chunks in use at once */
} ck_pool;

/* An empty pool (allocates nothing). */
void ck_pool_init(ck_pool *p);

/* Frees every slab: every chunk handed out becomes invalid.  Safe on an
 * initialised or already-freed pool, and on NULL. */
void ck_pool_free(ck_pool *p);

/* A chunk with next = NULL and n = 0, or NULL if a new slab could not be
 * allocated (the pool is unchanged). */
ck_chunk *ck_get(ck_pool *p);

/* Makes sure the next n ck_get calls succeed without allocating: 0, or -1
 * if a slab could not be allocated (some may have been added). */
int ck_reserve(ck_pool *p, size_t n);

/* Returns c (not NULL, from this pool) to the free list. */
static inline void ck_put(ck_pool *p, ck_chunk *c)
{
    c->next = p->free;
    p->free = c;
    p->used--;
}

/* ------------------------------------------------------------------ fifo */

/* A FIFO queue of events in a list of chunks: push at the tail, pop at the
 * head; a chunk goes back to the pool as soon as its last slot is popped.
 * `narrow` fixes the slot format for the queue's life: 24-byte entries
 * (arg and aux are not stored and pop as 0) or whole events.  Memory: the
 * entries plus at most two partly used chunks. */
typedef struct ck_fifo {
    ck_chunk *head, *tail;
    uint32_t off;        /* next slot to pop in head */
    uint32_t narrow;     /* 1: ck_narrow slots */
    uint64_t len;
} ck_fifo;

/* An empty queue of the given slot format. */
void ck_fifo_init(ck_fifo *f, int narrow);

/* Appends a copy of *ev (narrow: only time, seq, type, obj and tag).
 * Returns 0, or -1 if no chunk could be allocated (queue unchanged). */
int ck_fifo_push(ck_fifo *f, ck_pool *p, const eq_event *ev);

/* Removes the oldest entry into *out (narrow: arg = 0, aux = 0).
 * Returns 0, or -1 if the queue is empty. */
int ck_fifo_pop(ck_fifo *f, ck_pool *p, eq_event *out);

#endif
