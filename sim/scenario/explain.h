/*
 * explain.h - what the files of the resolved-model dump (explain.c,
 * explain_server.c) share; private to sim/scenario.
 */
#ifndef HERD_SCENARIO_EXPLAIN_H
#define HERD_SCENARIO_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "keys.h"

#define KEYTXT 160

/* One dump in progress: the point's config and compiled spec, and what
 * the whole point decides about keys of several sections. */
typedef struct xctx {
    FILE *f;
    const scn_config *c;
    model_spec spec;
    const char *path;
    const char *const *sets;
    int nsets;
    bool origins;
    hp_strategy strategies[HP_STRATEGY_COUNT];
    uint32_t nstrategies;
    bool ra_sent, reset_sent, any_timeout, obeys_overload, adaptive;
    bool any_sheddable; /* some traffic is sheddable ([clients] or a [tool]) */
    void *scratch;      /* sizeof (scn_config) bytes: where scn_x_put tries a value as input */
} xctx;

/* v in the fewest significant digits that read back as the same double
 * (15, 16 or 17): canonical, and 0.005 rather than 0.0050000000000000001. */
typedef struct numtxt {
    char s[32];
} numtxt;

numtxt scn_x_num(double v);

/* The origin of a value (code: SCN_ORIGIN_* or a line) as text. */
void scn_x_origin_text(const xctx *x, int code, char *out, size_t n);
/* One line "KEY = VALUE" (with origins: "# ORIGIN", or "# unused: WHY"
 * when why is not NULL, and then left out of the canonical text). */
void scn_x_put(xctx *x, const char *kname, const char *value, const char *origin, const char *why);
/* A section's header and the keys names[n] of the key table, each with
 * its reason whys[i] to be unused (whys NULL: all read). */
void scn_x_put_section(xctx *x, const char *section, const char *const *names, const char *const *whys, size_t n);

/* [server] and its error_rate_NNN lines (explain_server.c). */
void scn_x_server(xctx *x);

#endif
