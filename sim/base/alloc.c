/*
 * alloc.c - the one allocation hook (see alloc.h).
 *
 * The fault-injection counter is the only process-wide state in the
 * simulator; it is inert unless a test arms it.
 */
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static long fail_after = -1;
static long count;

static int should_fail(void)
{
    count++;
    if (fail_after < 0)
        return 0;
    if (fail_after == 0)
        return 1;
    fail_after--;
    return 0;
}

long herd_alloc_fail_after(long n)
{
    long c = count;
    count = 0;
    fail_after = n;
    return c;
}

void *herd_malloc_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    if (should_fail())
        return NULL;
    return malloc((n && size) ? n * size : 1);
}

void *herd_calloc(size_t n, size_t size)
{
    if (should_fail())
        return NULL;
    return calloc(n ? n : 1, size ? size : 1);
}

void *herd_realloc_array(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    if (should_fail())
        return NULL;
    return realloc(p, (n && size) ? n * size : 1);
}

void herd_free(void *p) { free(p); }

char *herd_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = herd_malloc_array(n, 1);
    if (d)
        memcpy(d, s, n);
    return d;
}
