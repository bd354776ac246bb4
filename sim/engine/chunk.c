/*
 * chunk.c - the chunk pool and chunk FIFO (see chunk.h).
 *
 * Slabs are allocated 64-byte aligned by over-allocating one chunk's worth
 * and rounding the start up; the raw pointer is kept for freeing.
 */
#include "chunk.h"

#include <assert.h>
#include <string.h>

#include "../base/alloc.h"

_Static_assert(sizeof(ck_chunk) == CK_BYTES, "a chunk is 512 bytes");
_Static_assert(sizeof(ck_narrow) == 24, "a narrow entry is 24 bytes");
_Static_assert(offsetof(ck_chunk, u) == 32, "slots start at 32 bytes");

#define CK_FIRST_SLAB 16
#define CK_MAX_SLAB 512

void ck_pool_init(ck_pool *p)
{
    memset(p, 0, sizeof *p);
    p->next_slab = CK_FIRST_SLAB;
}

void ck_pool_free(ck_pool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nslab; i++)
        herd_free(p->slab[i]);
    herd_free(p->slab);
    ck_pool_init(p);
}

/* Adds a slab to the free list.  0, or -1 (allocation; pool unchanged). */
static int add_slab(ck_pool *p)
{
    if (p->nslab == p->slabcap) {
        size_t ncap = p->slabcap ? p->slabcap * 2 : 16;
        ck_chunk **n = herd_realloc_array(p->slab, ncap, sizeof *n);
        if (!n)
            return -1;
        p->slab = n;
        p->slabcap = ncap;
    }
    size_t k = p->next_slab;
    char *raw = herd_malloc_array(k + 1, CK_BYTES);
    if (!raw)
        return -1;
    p->slab[p->nslab++] = (ck_chunk *)raw;
    ck_chunk *c = (ck_chunk *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    for (size_t i = k; i-- > 0;) { /* lowest address first on the list */
        c[i].next = p->free;
        p->free = &c[i];
    }
    p->total += k;
    if (p->next_slab < CK_MAX_SLAB)
        p->next_slab *= 2;
    return 0;
}

ck_chunk *ck_get(ck_pool *p)
{
    if (!p->free && add_slab(p) != 0)
        return NULL;
    ck_chunk *c = p->free;
    p->free = c->next;
    c->next = NULL;
    c->n = 0;
    if (++p->used > p->peak)
        p->peak = p->used;
    return c;
}

int ck_reserve(ck_pool *p, size_t n)
{
    while (p->total - p->used < n)
        if (add_slab(p) != 0)
            return -1;
    return 0;
}

void ck_fifo_init(ck_fifo *f, int narrow)
{
    memset(f, 0, sizeof *f);
    f->narrow = narrow != 0;
}

int ck_fifo_push(ck_fifo *f, ck_pool *p, const eq_event *ev)
{
    uint32_t cap = f->narrow ? CK_NARROW : CK_EVENTS;
    ck_chunk *t = f->tail;
    if (!t || t->n == cap) {
        ck_chunk *c = ck_get(p);
        if (!c)
            return -1;
        if (t)
            t->next = c;
        else {
            f->head = c;
            f->off = 0;
        }
        f->tail = t = c;
    }
    if (f->narrow) {
        ck_narrow *s = &t->u.nv[t->n];
        s->time = ev->time;
        s->seq = ev->seq;
        s->type = ev->type;
        s->obj = ev->obj;
        s->tag = ev->tag;
    } else {
        t->u.ev[t->n] = *ev;
    }
    t->n++;
    f->len++;
    return 0;
}

int ck_fifo_pop(ck_fifo *f, ck_pool *p, eq_event *out)
{
    if (!f->len)
        return -1;
    ck_chunk *h = f->head;
    if (f->narrow) {
        const ck_narrow *s = &h->u.nv[f->off];
        *out = (eq_event){.time = s->time, .seq = s->seq, .type = s->type, .obj = s->obj, .tag = s->tag};
    } else {
        *out = h->u.ev[f->off];
    }
    f->off++;
    f->len--;
    if (f->off == h->n) { /* the head chunk is used up (if it is the tail, the queue is empty) */
        f->head = h->next;
        if (!f->head)
            f->tail = NULL;
        f->off = 0;
        ck_put(p, h);
    }
    return 0;
}
