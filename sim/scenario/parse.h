/*
 * parse.h - the state of one scenario read (pstate), shared by the two
 * halves of reading a scenario; private to sim/scenario.
 *
 *   scenario.c  the file: bytes, lines and sections (our line reader under
 *               inih, the prescan), --set, scn_load/scn_load_text
 *   assign.c    one key = value: the key table applied to the section it
 *               is in ([variant] and [sweep] kept as text), where each
 *               value came from recorded for messages and --explain
 */
#ifndef HERD_SCENARIO_PARSE_H
#define HERD_SCENARIO_PARSE_H

#include <stdio.h>

#include "keys.h"
#include "scenario.h"

#define LINE_MAX_LEN 1024


typedef struct pstate {
    scn_config *c;
    const char *path;
    FILE *fp;
    int lineno;          /* line most recently handed to inih */
    int long_line;       /* first overlong line, 0 if none */
    int failed;          /* line of the first error (-1 if it has none) */
    int max_line;        /* inih's line buffer, from the reader */
    char *err;
    int key_line[SCN_MAX_KEYS]; /* where each non-outage key was set (0: default) */
    int section_line;    /* line of the current section header */
    char section[LINE_MAX_LEN];
    unsigned char seen_outage_key[SPEC_MAX_OUTAGES][SCN_MAX_KEYS];
    unsigned char seen_error[1000 + 8];
    int error_line[SPEC_MAX_ERRORS]; /* the origin of c->errors[i] (a line, SET_ORIGIN(k)) */
    /* --set overrides: while one is applied, set_origin = SET_ORIGIN(k);
     * key_line and section lines record it, so validation blames the flag */
    const char *const *sets;
    const char *const *shown;
    int nsets;
    int set_origin;
} pstate;

/* The parse state's record of where things came from, for validate.c. */
scn_origins scn_ps_origins(const pstate *ps);

/* Records the first error: "WHERE: " + fmt with a, b, c (NULL: "") into
 * ps->err; WHERE is FILE:LINE, or the --set flag when line is 0.  Later
 * errors are dropped. */
void scn_ps_fail(pstate *ps, int line, const char *fmt, const char *a, const char *b, const char *c);

/* Sets section.name = value from `line` (0 for --set).  1, or 0 with the
 * error in ps->err. */
int scn_ps_set_key(pstate *ps, const char *section, const char *name, const char *value, int line);

/* [variant NAME] section's key name = value (name NULL: the header
 * declares the variant, which may have no keys).  1, or 0 with the error. */
int scn_ps_set_variant(pstate *ps, const char *section, const char *name, const char *value, int line);

#endif
