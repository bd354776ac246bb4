/*
 * space.h - the search space of herd tune: dimensions KEY=SPEC in the
 * sweep syntax (a list A,B,C or a range FROM:TO:STEP, enumerated by the
 * same code as [sweep] values), and the candidates, their cartesian
 * product (the first dimension outermost, as sweeps).
 *
 * A candidate is only a list of overrides "KEY=VALUE": it reaches the
 * model through the one key table, exactly as --set, --sweep and variants
 * do, so every rule those follow (a bad value, a key that may not vary, a
 * key that changes nothing) applies to it unchanged.
 */
#ifndef HERD_SPACE_H
#define HERD_SPACE_H

#include <stddef.h>

#include "../scenario/scenario.h"

#define TUNE_MAX_DIMS 8
#define TUNE_MAX_CANDIDATES 2048

typedef struct tune_dim {
    char key[SCN_SWEEP_KEY_MAX];        /* canonical "section.key" */
    char (*labels)[SCN_VALUE_MAX];      /* its values, in order */
    long n;
} tune_dim;

typedef struct tune_space {
    tune_dim dims[TUNE_MAX_DIMS];
    int ndims;
    size_t ncand;                       /* product of the dimensions' sizes */
} tune_space;

/* Adds the dimension "KEY=SPEC" (text as given to --search).  Returns 0,
 * or -1 with a one-line message in err: no '=', a key without a section,
 * a key given twice, a malformed list or range, too many dimensions or
 * candidates. */
int tune_space_add(tune_space *s, const char *text, char *err, size_t errlen);

/* Candidate c's value index along every dimension (idx[0..ndims)). */
void tune_space_index(const tune_space *s, size_t c, long *idx);

/* Candidate c's override for dimension d, "KEY=VALUE", into out. */
void tune_space_set(const tune_space *s, size_t c, int d, char *out, size_t n);

/* 1 if canonical key `key` is one of the dimensions. */
int tune_space_has(const tune_space *s, const char *key);

void tune_space_free(tune_space *s);

#endif
