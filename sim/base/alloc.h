/*
 * alloc.h - every allocation of the simulator goes through these wrappers,
 * so that a test can make the n-th allocation fail (fault injection) and
 * check that each call site fails cleanly.  The policy library does not
 * allocate at all.
 */
#ifndef HERD_ALLOC_H
#define HERD_ALLOC_H

#include <stddef.h>

/* malloc(n * size) with overflow check; NULL on overflow or failure. */
void *herd_malloc_array(size_t n, size_t size);
/* calloc(n, size); NULL on failure. */
void *herd_calloc(size_t n, size_t size);
/* realloc(p, n * size) with overflow check; on failure p is untouched. */
void *herd_realloc_array(void *p, size_t n, size_t size);
/* free(p); herd_free(NULL) is a no-op. */
void herd_free(void *p);
/* strdup through the hook. */
char *herd_strdup(const char *s);

/* Fault injection: after `n` more successful allocations, every allocation
 * fails; a negative n disables injection (the default).  Returns the number
 * of allocations made since the last call. Not thread-safe: tests only. */
long herd_alloc_fail_after(long n);

#endif
