/*
 * names.h - private to libherdpolicy (not installed): the one way the
 * library turns its enums into names and back, through a table indexed
 * by the enum (each hp_*_name and hp_*_parse is a line over these).
 */
#ifndef HERD_POLICY_NAMES_H
#define HERD_POLICY_NAMES_H

#include <stddef.h>
#include <string.h>

/* names[i], or NULL when i is out of [0, n). */
static inline const char *name_at(const char *const *names, unsigned n, unsigned i)
{
    return i < n ? names[i] : NULL;
}

/* The index of name in names[0..n) (exact, case-sensitive), or -1 (NULL
 * name included). */
static inline int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; name != NULL && i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

#endif
