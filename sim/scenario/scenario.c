/*
 * scenario.c - scenario files and --set overrides into a scn_config (see
 * scenario.h), then handed to validate.c's checks.
 *
 * inih does the INI syntax; this file does everything else.  inih is fed
 * through our own line reader, which
 *   - counts lines, so every message carries FILE:LINE (Debian's inih does
 *     not pass line numbers to handlers),
 *   - detects lines longer than the buffer, which inih would silently split,
 *   - strips leading blanks, so an indented key is a key and never an inih
 *     "multi-line continuation" of the previous value.
 *
 * The key table (keys.c) is the single description of the format;
 * sweeps and variants are expanded in expand.c; the checks across keys
 * are in validate.c.
 */
#include "scenario.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../base/text.h"
#include "data.h"
#include "keys.h"

#define LINE_MAX_LEN 1024

void scn_defaults(scn_config *c)
{
    memset(c, 0, sizeof *c);
    c->seed = 1;
    c->replications = 10;
    c->bucket_s = 1;
    c->baseline = -1;
    snprintf(c->columns, sizeof c->columns, "completion_time_s,calls,refused,peak_arrivals_per_s,p99_latency_s,failures");
    c->horizon_s = 3600;
    c->clients = SCN_DEFAULT_CLIENTS;
    c->requests_per_client = 1;
    c->start = SPEC_START_BURST;
    c->think = (dist){.kind = DIST_CONSTANT, .a = 0};
    c->delay = (dist){.kind = DIST_CONSTANT, .a = 0.005};
    c->workers = 100;
    c->queue = 1000;
    c->adaptive_lifo_after_s = 0.1;
    c->codel_interval_s = 0.1;
    /* Netflix/concurrency-limits' defaults (AIMDLimit.Builder, Gradient2Limit.Builder) */
    c->concurrency_limit = 20;
    c->limiter_min = 20;
    c->limiter_max = 200;
    c->aimd_backoff_ratio = 0.9;
    c->aimd_timeout_s = 5;
    c->gradient2_smoothing = 0.2;
    c->gradient2_rtt_tolerance = 1.5;
    c->gradient2_long_window = 600;
    c->gradient2_queue_size = 4;
    c->limiter_window_size = 10; /* WindowedLimit.Builder */
    c->service = (dist){.kind = DIST_EXPONENTIAL, .a = 0.1};
    c->policy = hp_policy_defaults();
    c->policy.strategy = HP_EXPONENTIAL;
    c->policy.base_s = 1;
    c->policy.cap_s = 60;
    c->policy.max_attempts = 5;
    c->policy.retry_after_max_s = HP_DEFAULT_RETRY_AFTER_MAX_S;
    c->retry_after_s = 1;
    c->side_effect = HP_EFFECT_READ;
    c->task_steps = 1;
    c->hosts = 1;
    c->trigger_start_s = -1;
    c->trigger_end_s = -1;
    c->recovery_dwell_s = 10;
    c->retry_preset = -1;
    /* the library's defaults written out, so that a 0 here is a 0 the
     * scenario wrote (compile.c maps it to HP_OFF, or the key refused it) */
    c->limiter_opts = hp_limiter_defaults(HP_LIMITER_NONE);
    c->breaker_opts = hp_breaker_defaults();
    c->throttle_opts = hp_throttle_defaults();
    c->hedge_opts = hp_hedge_defaults();
}

/* ---- parse state --------------------------------------------------- */

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
static scn_origins origins_of(const pstate *ps)
{
    return (scn_origins){.path = ps->path, .key_line = ps->key_line, .sets = ps->sets, .shown = ps->shown,
                         .nsets = ps->nsets,
                         .error_line = ps->error_line};
}

static void fail(pstate *ps, int line, const char *fmt, const char *a, const char *b, const char *c)
{
    if (ps->failed)
        return;
    ps->failed = line > 0 ? line : -1;
    char msg[SCN_ERR_MAX], where[SCN_ERR_MAX / 2];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "", c ? c : "");
    scn_origins o = origins_of(ps);
    scn_origin_text(&o, line > 0 ? line : ps->set_origin, where, sizeof where);
    snprintf(ps->err, SCN_ERR_MAX, "%s: %s", where, msg);
}


static scn_outage *find_outage(scn_config *c, const char *name, int create, int line)
{
    for (uint32_t i = 0; i < c->noutages; i++)
        if (strcmp(c->outages[i].name, name) == 0)
            return &c->outages[i];
    if (!create || c->noutages == SPEC_MAX_OUTAGES)
        return NULL;
    scn_outage *o = &c->outages[c->noutages++];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", name);
    o->start_s = o->end_s = NAN;
    o->mode = SPEC_OUTAGE_FAIL_FAST;
    o->outcome = 503;
    o->error_p = 0.5;
    o->line = line;
    return o;
}

/* The [tool NAME] or [layer NAME] section called name, created if new. */
static scn_tool *find_tool(scn_config *c, int layer, const char *name, int line)
{
    scn_tool *arr = layer ? c->layers : c->tools;
    uint32_t *n = layer ? &c->nlayers : &c->ntools, max = layer ? SPEC_MAX_LAYERS : SPEC_MAX_TOOLS;
    for (uint32_t i = 0; i < *n; i++)
        if (strcmp(arr[i].name, name) == 0)
            return &arr[i];
    if (*n == max)
        return NULL;
    scn_tool *t = &arr[(*n)++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->effect = -1;
    t->priority = -1;
    t->preset = -1;
    t->weight = 1;
    t->line = line;
    t->propagate_deadline = true;
    t->reissue_p = 1;
    t->think = (dist){.kind = DIST_CONSTANT, .a = 0};
    return t;
}

/* [variant NAME]: every key is "section.key", kept as text and applied when
 * the variants are expanded. */
static int set_variant(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    int declare = !name; /* declared by its header (prescan): a variant may have no keys */
    if (declare)
        ps->section_line = line;
    const char *sub = section + 7;
    while (*sub == ' ')
        sub++;
    scn_config *c = ps->c;
    if (!*sub || strlen(sub) >= SCN_NAME_MAX || !scn_valid_name(sub)) {
        fail(ps, line, "[%s]: a variant needs a name of 1-63 letters, digits, '-', '_', '.', e.g. [variant no_keys]",
             section, NULL, NULL);
        return 0;
    }
    scn_variant *v = NULL;
    for (uint32_t i = 0; i < c->nvariants; i++)
        if (!strcmp(c->variants[i].name, sub))
            v = &c->variants[i];
    if (!v) {
        if (c->nvariants == SCN_MAX_VARIANTS) {
            fail(ps, line, "[%s]: too many variants (at most 16)", section, NULL, NULL);
            return 0;
        }
        v = &c->variants[c->nvariants++];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", sub);
        v->line = line > 0 ? ps->section_line : ps->set_origin;
    }
    if (declare)
        return 1;
    if (!strchr(name, '.')) {
        fail(ps, line, "[%s] %s: a variant's keys are section.key (e.g. retry.max_attempts = 3)", section, name,
             NULL);
        return 0;
    }
    size_t used = strlen(v->sets), need = strlen(name) + strlen(value) + 2;
    if (used + need >= sizeof v->sets) {
        fail(ps, line, "[%s]: too many overrides (1023 characters at most)", section, NULL, NULL);
        return 0;
    }
    snprintf(v->sets + used, sizeof v->sets - used, "%s=%s\n", name, value);
    return 1;
}

/* [sweep] or [sweep NAME]: key = section.key, values = FROM:TO:STEP or a
 * list.  The values are checked when the sweep is expanded. */
static int set_sweep(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    const char *sub = section + 5;
    while (*sub == ' ')
        sub++;
    scn_config *c = ps->c;
    scn_sweep *s = NULL;
    for (uint32_t i = 0; i < c->nsweeps; i++)
        if (!strcmp(c->sweeps[i].name, sub))
            s = &c->sweeps[i];
    if (!s) {
        if (c->nsweeps == SCN_MAX_SWEEPS) {
            fail(ps, line, "[%s]: too many sweeps (at most 4)", section, NULL, NULL);
            return 0;
        }
        if (strlen(sub) >= SCN_NAME_MAX) {
            fail(ps, line, "[%s]: sweep name too long", section, NULL, NULL);
            return 0;
        }
        s = &c->sweeps[c->nsweeps++];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", sub);
        s->line = line > 0 ? ps->section_line : 0; /* 0: a --sweep */
    }
    char *field;
    size_t cap;
    if (!strcmp(name, "key")) {
        field = s->key;
        cap = sizeof s->key;
    } else if (!strcmp(name, "values")) {
        field = s->values;
        cap = sizeof s->values;
    } else {
        fail(ps, line, "[%s]: unknown key '%s'; a sweep has `key` (section.key) and `values` (FROM:TO:STEP or a, b, c)",
             section, name, NULL);
        return 0;
    }
    if (line > 0 && *field) {
        fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
        return 0;
    }
    if (!*value || strlen(value) >= cap) {
        fail(ps, line, "[%s] %s: expected a non-empty value shorter than %s characters", section, name,
             cap == sizeof s->key ? "96" : "1024");
        return 0;
    }
    memcpy(field, value, strlen(value) + 1);
    return 1;
}

/* The origin code (SCN_ORIGIN_*) of a value set from `line` (0: an
 * override, whose code is ps->set_origin). */
static int origin_code(const pstate *ps, int line)
{
    return line > 0 ? line : ps->set_origin ? ps->set_origin : SCN_ORIGIN_OTHER;
}

/* Records where key i (of a section that is not repeated) was set.  A
 * [retry] preset replaces the fields it sets, whose earlier origins then no
 * longer hold: they become the preset's (origin 0 with retry_preset). */
static void record_origin(pstate *ps, const key *k, size_t i, const char *value, int line)
{
    scn_config *c = ps->c;
    c->origin[i] = origin_code(ps, line);
    if (k->type != K_PRESET || strcmp(k->section, "retry"))
        return;
    scn_tool scratch = {.preset = -1};
    size_t t = scn_first_key("tool");
    while (t < scn_key_count && scn_key_table[t].type != K_PRESET)
        t++;
    char buf[SCN_ERR_MAX];
    if (t < scn_key_count && !scn_apply(&scn_key_table[t], &scratch, value, buf, sizeof buf))
        c->retry_preset = scratch.preset;
    for (size_t j = scn_first_key("retry"); j < scn_key_count && !strcmp(scn_key_table[j].section, "retry"); j++)
        if (j != i && scn_preset_sets(c->retry_preset, &scn_key_table[j]))
            c->origin[j] = 0;
}

/* Applies value to key k in base; 1, or 0 with "[section] name: ..." */
static int apply_key(pstate *ps, const key *k, void *base, const char *section, const char *name,
                     const char *value, int line)
{
    char buf[SCN_ERR_MAX], where[SCN_ERR_MAX];
    const char *m = scn_apply(k, base, value, buf, sizeof buf);
    if (!m)
        return 1;
    snprintf(where, sizeof where, "[%s] %s", section, name);
    fail(ps, line, "%s: %s", where, m, NULL);
    return 0;
}

/* Sets section.name = value from `line` (0 for --set).  Returns 1 on
 * success, 0 on error (ps->err filled). */
static int set_key(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    const char *kind = section;
    const char *sub = NULL;
    if (!*value) {
        fail(ps, line, "[%s] %s: empty value; expected a value (see `herd keys` for what this key takes)", section,
             name, NULL);
        return 0;
    }
    if (strncmp(section, "sweep", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))
        return set_sweep(ps, section, name, value, line);
    if (strncmp(section, "variant", 7) == 0 && (section[7] == ' ' || section[7] == '\0'))
        return set_variant(ps, section, name, value, line);
    if ((strncmp(section, "outage", 6) == 0 && (section[6] == ' ' || section[6] == '\0')) ||
        (strncmp(section, "tool", 4) == 0 && (section[4] == ' ' || section[4] == '\0')) ||
        (strncmp(section, "layer", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))) {
        kind = section[0] == 'o' ? "outage" : section[0] == 't' ? "tool" : "layer";
        sub = section + strlen(kind);
        while (*sub == ' ')
            sub++;
        if (!*sub || strlen(sub) >= SCN_NAME_MAX) {
            fail(ps, line, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                 section, NULL, NULL);
            return 0;
        }
    } else if (strcmp(section, "run") && strcmp(section, "clients") && strcmp(section, "network") &&
               strcmp(section, "server") && strcmp(section, "retry") && strcmp(section, "idempotency") &&
               strcmp(section, "limits")) {
        fail(ps, line,
             "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
             "tool NAME, layer NAME, variant NAME or sweep [NAME]",
             section, NULL, NULL);
        return 0;
    }

    /* [server] error_rate_NNN / error_rate_connection_refused ... */
    if (strcmp(kind, "server") == 0 && strncmp(name, "error_rate_", 11) == 0) {
        int outcome;
        if (scn_parse_outcome(name + 11, &outcome) != 0) {
            fail(ps, line, "[server] %s: unknown error; expected error_rate_NNN with an HTTP status 100..599, "
                           "error_rate_connection_refused or error_rate_connection_reset", name, NULL, NULL);
            return 0;
        }
        double p;
        if (scn_parse_double(value, &p) != 0 || p < 0 || p > 1) {
            fail(ps, line, "[server] %s: expected a probability in [0, 1], got '%s'", name, value, NULL);
            return 0;
        }
        size_t slot = outcome > 0 ? (size_t)outcome : (size_t)(1000 - outcome);
        if (line > 0 && ps->seen_error[slot]) {
            fail(ps, line, "[server] %s: duplicate key", name, NULL, NULL);
            return 0;
        }
        ps->seen_error[slot] = 1;
        scn_config *c = ps->c;
        for (uint32_t i = 0; i < c->nerrors; i++)
            if (c->errors[i].outcome == outcome) {
                c->errors[i].p = p;
                c->error_origin[i] = origin_code(ps, line);
                ps->error_line[i] = line > 0 ? line : ps->set_origin;
                return 1;
            }
        if (c->nerrors == SPEC_MAX_ERRORS) {
            fail(ps, line, "[server] %s: too many error_rate keys (at most 16)", name, NULL, NULL);
            return 0;
        }
        c->error_origin[c->nerrors] = origin_code(ps, line);
        ps->error_line[c->nerrors] = line > 0 ? line : ps->set_origin;
        c->errors[c->nerrors++] = (spec_error_rate){.outcome = outcome, .p = p};
        return 1;
    }

    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        if (strcmp(k->section, kind) || strcmp(k->name, name))
            continue;
        void *base = ps->c;
        int *seen = &ps->key_line[i];
        if (sub && (kind[0] == 't' || kind[0] == 'l')) {
            scn_tool *t = find_tool(ps->c, kind[0] == 'l', sub, line > 0 ? ps->section_line : ps->set_origin);
            if (!t) {
                fail(ps, line, kind[0] == 'l' ? "[%s]: too many layers (at most 6)" : "[%s]: too many tools (at most 8)",
                     section, NULL, NULL);
                return 0;
            }
            uint64_t bit = (uint64_t)1 << (i - scn_first_key(kind));
            if (line > 0 && (t->set & bit)) {
                fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            if (!apply_key(ps, k, t, section, name, value, line))
                return 0;
            t->set |= bit;
            t->origin[i - scn_first_key(kind)] = origin_code(ps, line);
            return 1;
        }
        if (k->type == K_PRESET && !sub && line > 0 && ps->c->retry_keys_line > 0) {
            char l[32];
            snprintf(l, sizeof l, "%d", ps->c->retry_keys_line);
            fail(ps, line, "[retry] preset: put it before the other [retry] keys (line %s), which it would replace",
                 l, NULL, NULL);
            return 0;
        }
        if (!strcmp(kind, "retry") && k->type != K_PRESET && line > 0 && !ps->c->retry_keys_line)
            ps->c->retry_keys_line = line;
        if (sub) {
            scn_outage *o = find_outage(ps->c, sub, 1, line > 0 ? ps->section_line : ps->set_origin);
            if (!o) {
                fail(ps, line, "[%s]: too many outages (at most 32)", section, NULL, NULL);
                return 0;
            }
            base = o;
            unsigned char *s = &ps->seen_outage_key[o - ps->c->outages][i];
            if (line > 0 && *s) {
                fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            *s = 1;
        } else if (line > 0 && *seen > 0) {
            char prev[32];
            snprintf(prev, sizeof prev, "%d", *seen);
            fail(ps, line, "[%s] %s: duplicate key (first set on line %s)", section, name, prev);
            return 0;
        }
        if (!apply_key(ps, k, base, section, name, value, line))
            return 0;
        if (!sub)
            *seen = line > 0 ? line : ps->set_origin ? ps->set_origin : -1;
        if (sub)
            ((scn_outage *)base)->origin[i - scn_first_key("outage")] = origin_code(ps, line);
        else
            record_origin(ps, k, i, value, line);
        return 1;
    }
    const char *why = scn_retired_key(kind, name);
    if (why) {
        fail(ps, line, "[%s] %s: %s", section, name, why);
        return 0;
    }
    const char *cands[SCN_MAX_KEYS];
    size_t nc = 0;
    for (size_t i = 0; i < scn_key_count; i++)
        if (!strcmp(scn_key_table[i].section, kind))
            cands[nc++] = scn_key_table[i].name;
    const char *near = scn_nearest(name, cands, nc);
    if (near)
        fail(ps, line, "[%s]: unknown key '%s' (did you mean %s?); see `herd keys` for every key", section, name, near);
    else
        fail(ps, line, "[%s]: unknown key '%s' (see `herd keys` for every key)", section, name, NULL);
    return 0;
}

/* ---- inih glue ----------------------------------------------------- */

static char *reader(char *str, int num, void *stream)
{
    pstate *ps = stream;
    ps->max_line = num;
    if (!fgets(str, num, ps->fp))
        return NULL;
    ps->lineno++;
    size_t len = strlen(str);
    if (len == (size_t)num - 1 && str[len - 1] == '\r') {
        /* a line of the longest length ending in CRLF: the CR is not one of
         * its characters, and the LF is still to come */
        int ch = fgetc(ps->fp);
        if (ch == '\n' || ch == EOF)
            return str;
        ungetc(ch, ps->fp);
    }
    if (len == (size_t)num - 1 && str[len - 1] != '\n' && !feof(ps->fp)) {
        int ch;
        while ((ch = fgetc(ps->fp)) != EOF && ch != '\n')
            ;
        if (!ps->long_line)
            ps->long_line = ps->lineno;
        str[0] = '\0';
        return str;
    }
    size_t lead = strspn(str, " \t");
    if (lead)
        memmove(str, str + lead, len - lead + 1);
    if (str[0] == '[')
        ps->section_line = ps->lineno;
    return str;
}

/* A section name with blanks trimmed and inner runs of blanks made one
 * space: "[ outage \t 1 ]" is [outage 1]. */
static void normalise_section(const char *in, size_t len, char *out, size_t n)
{
    text_collapse_blanks(in, len, out, n);
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    pstate *ps = user;
    if (ps->failed)
        return 0;
    if (!*section) {
        fail(ps, ps->lineno, "key '%s' appears before any [section]", name, NULL, NULL);
        return 0;
    }
    char norm[LINE_MAX_LEN];
    normalise_section(section, strlen(section), norm, sizeof norm);
    return set_key(ps, norm, name, value, ps->lineno);
}

/* One section header seen by the prescan. */
typedef struct seen_section {
    char *name;         /* normalised */
    int line;
} seen_section;

static int by_name_then_line(const void *a, const void *b)
{
    const seen_section *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* What a section of each repeatable kind needs, for the message refusing
 * an empty one (NULL: the kind may be empty). */
static const char *section_needs(const char *name)
{
    static const struct {
        const char *kind, *needs;
    } need[] = {
        {"outage", "an outage needs start_s and end_s (and may set mode, status, error_p)"},
        {"tool", "a tool needs at least one key (weight, side_effect, preset, max_attempts, ...)"},
        {"layer", "a layer needs at least one key (kind, preset, strategy, max_attempts, ...); an empty one would "
                  "not be a layer"},
        {"sweep", "a sweep needs key (section.key) and values (FROM:TO:STEP or a, b, c)"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        size_t n = strlen(need[i].kind);
        if (!strncmp(name, need[i].kind, n) && (name[n] == ' ' || name[n] == '\0'))
            return need[i].needs;
    }
    return NULL;
}

/* 1 (with ps->err filled) if the section whose header is on `line` had no
 * key and is of a kind that needs some.  [variant NAME] may be empty: it is
 * the scenario as written, a control the other variants are compared with. */
static int empty_section(pstate *ps, int line, int had_keys, const char *name)
{
    const char *needs = line > 0 && !had_keys ? section_needs(name) : NULL;
    if (!needs)
        return 0;
    fail(ps, line, "[%s]: empty section; %s", name, needs, NULL);
    return 1;
}

/* The strict grammar, checked on the whole file before inih sees it (inih
 * is lenient where a scenario must not be):
 *   - lines end with LF or CRLF; a CR elsewhere (CR-only files) is refused;
 *   - a UTF-8 byte-order mark only at the very start; no NUL bytes;
 *   - a line is blank, a comment (';' or '#' first), a section header
 *     `[name]` with nothing after `]`, or `key = value`;
 *   - section names are normalised (blanks trimmed, inner runs made one
 *     space) and must be known; a duplicate is refused, however many
 *     sections the file has (sorted, O(n log n));
 *   - an [outage NAME], [tool NAME], [layer NAME] or [sweep [NAME]] has at
 *     least one key (an empty one would silently be no section at all).
 * Returns 0, or -1 with ps->err naming the first bad line. */
static int prescan(pstate *ps, const char *buf, size_t len)
{
    size_t nsec = 0, cap = 0;
    seen_section *secs = NULL;
    int rc = -1, lineno = 0;
    int open_line = 0, open_keys = 0; /* the last named section header and whether a key followed it */
    char open_name[LINE_MAX_LEN] = "";
    for (size_t pos = 0;;) {
        if (pos >= len) { /* the end of the file closes the last section */
            if (empty_section(ps, open_line, open_keys, open_name))
                goto out;
            break;
        }
        lineno++;
        size_t end = pos;
        while (end < len && buf[end] != '\n')
            end++;
        size_t stop = end; /* the line without its terminator */
        for (size_t k = pos; k < end; k++) {
            if (buf[k] == '\0') {
                fail(ps, lineno, "the file contains a NUL byte; expected a text scenario file", NULL, NULL, NULL);
                goto out;
            }
            if (buf[k] == '\r' && k + 1 != end) {
                fail(ps, lineno, "a carriage return inside a line (CR-only line endings?); expected LF or CRLF line "
                                 "endings", NULL, NULL, NULL);
                goto out;
            }
            if (k != 0 && k + 2 < len && (unsigned char)buf[k] == 0xEF && (unsigned char)buf[k + 1] == 0xBB &&
                (unsigned char)buf[k + 2] == 0xBF) {
                fail(ps, lineno, "a byte-order mark after the start of the file; expected one only as the first "
                                 "bytes, or none", NULL, NULL, NULL);
                goto out;
            }
        }
        if (stop > pos && buf[stop - 1] == '\r' && stop == end)
            stop--;
        const char *p = buf + pos, *e = buf + stop;
        if (lineno == 1 && e - p >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
            (unsigned char)p[2] == 0xBF)
            p += 3;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        pos = end + 1;
        if (p == e || *p == ';' || *p == '#')
            continue;
        if (*p != '[') {
            const char *eq = memchr(p, '=', (size_t)(e - p));
            const char *colon = memchr(p, ':', (size_t)(e - p));
            if (!eq || (colon && colon < eq) || eq == p) {
                fail(ps, lineno, "syntax error: expected [section], key = value, or a comment starting with ';' or "
                                 "'#'", NULL, NULL, NULL);
                goto out;
            }
            open_keys = 1;
            continue;
        }
        const char *close = memchr(p, ']', (size_t)(e - p));
        if (!close) {
            fail(ps, lineno, "syntax error: a section header without ']'; expected [section]", NULL, NULL, NULL);
            goto out;
        }
        for (const char *q = close + 1; q < e; q++)
            if (*q != ' ' && *q != '\t') {
                fail(ps, lineno, "text after the section header's ']'; expected nothing but blanks (put keys on "
                                 "their own lines)", NULL, NULL, NULL);
                goto out;
            }
        char name[LINE_MAX_LEN];
        if ((size_t)(close - p - 1) >= sizeof name) {
            fail(ps, lineno, "section name too long", NULL, NULL, NULL);
            goto out;
        }
        normalise_section(p + 1, (size_t)(close - p - 1), name, sizeof name);
        if (empty_section(ps, open_line, open_keys, open_name))
            goto out;
        open_line = lineno;
        open_keys = 0;
        snprintf(open_name, sizeof open_name, "%s", name);
        size_t named = 0;
        if (strncmp(name, "outage", 6) == 0 && (name[6] == ' ' || name[6] == '\0'))
            named = 6;
        else if (strncmp(name, "tool", 4) == 0 && (name[4] == ' ' || name[4] == '\0'))
            named = 4;
        else if (strncmp(name, "layer", 5) == 0 && (name[5] == ' ' || name[5] == '\0'))
            named = 5;
        else if (strncmp(name, "variant", 7) == 0 && (name[7] == ' ' || name[7] == '\0'))
            named = 7;
        if (named) {
            const char *sub = name + named + (name[named] == ' ');
            if (!*sub || strlen(sub) >= SCN_NAME_MAX) {
                fail(ps, lineno, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                     name, NULL, NULL);
                goto out;
            }
        } else if (strcmp(name, "run") && strcmp(name, "clients") && strcmp(name, "network") &&
                   strcmp(name, "server") && strcmp(name, "retry") && strcmp(name, "idempotency") &&
                   strcmp(name, "limits") && !(strncmp(name, "sweep", 5) == 0 && (name[5] == ' ' || name[5] == '\0'))) {
            fail(ps, lineno,
                 "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
                 "tool NAME, layer NAME, variant NAME or sweep [NAME]",
                 name, NULL, NULL);
            goto out;
        }
        if (named == 7 && !set_variant(ps, name, NULL, NULL, lineno))
            goto out;
        if (nsec == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            seen_section *bigger = herd_realloc_array(secs, ncap, sizeof *secs);
            if (!bigger) {
                fail(ps, 0, "out of memory reading the file", NULL, NULL, NULL);
                goto out;
            }
            secs = bigger;
            cap = ncap;
        }
        if (!(secs[nsec].name = herd_strdup(name))) {
            fail(ps, 0, "out of memory reading the file", NULL, NULL, NULL);
            goto out;
        }
        secs[nsec++].line = lineno;
    }
    if (nsec > 1)
        qsort(secs, nsec, sizeof *secs, by_name_then_line);
    int dup = 0;
    size_t at = 0;
    for (size_t i = 1; i < nsec; i++) /* report the earliest second occurrence */
        if (!strcmp(secs[i].name, secs[i - 1].name) && (!dup || secs[i].line < secs[at].line)) {
            dup = 1;
            at = i;
        }
    if (dup) {
        size_t first = at;
        while (first > 0 && !strcmp(secs[first - 1].name, secs[at].name))
            first--;
        char prev[32];
        snprintf(prev, sizeof prev, "%d", secs[first].line);
        fail(ps, secs[at].line, "duplicate section [%s] (first on line %s); each section appears once", secs[at].name,
             prev, NULL);
        goto out;
    }
    rc = 0;
out:
    for (size_t i = 0; i < nsec; i++)
        herd_free(secs[i].name);
    herd_free(secs);
    return rc;
}

static void default_name(scn_config *c, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
        n -= 4;
    if (n >= SCN_NAME_MAX)
        n = SCN_NAME_MAX - 1;
    char name[SCN_NAME_MAX];
    memcpy(name, b, n);
    name[n] = '\0';
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_' || *p == '.'))
            *p = '_';
    snprintf(c->name, sizeof c->name, "%s", scn_valid_name(name) ? name : "scenario");
}

static int assign(pstate *ps, const char *assignment);

void scn_display_path(const char *path, char *out, size_t n)
{
    size_t len = strlen(path);
    if (len <= 120)
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "...%s", path + len - 117);
}

int scn_load(scn_config *c, const char *path, const char *const *sets, int nsets, char err[static SCN_ERR_MAX])
{
    return scn_load_text(c, path, sets, NULL, nsets, err, NULL, NULL);
}

/* The whole file into a NUL-terminated buffer (herd_malloc), through the
 * one checked open.  0, or -1 with err filled. */
static int slurp(const char *path, const char *shown, char **out, size_t *len, char err[static SCN_ERR_MAX])
{
    const long long max = 64LL << 20;
    int e = 0;
    herd_file_status s = herd_file_read(path, max, 0, out, len, &e);
    switch (s) {
    case HERD_FILE_OK:
        return 0;
    case HERD_FILE_MISSING:
        snprintf(err, SCN_ERR_MAX, "%s: cannot open scenario: %s", shown, strerror(e));
        break;
    case HERD_FILE_DIRECTORY:
        snprintf(err, SCN_ERR_MAX, "%s: is a directory; expected a scenario file (.ini)", shown);
        break;
    case HERD_FILE_NOT_REGULAR:
        snprintf(err, SCN_ERR_MAX, "%s: is not a regular file (a FIFO or a device); expected a scenario file (.ini)",
                 shown);
        break;
    case HERD_FILE_TOO_LARGE:
        snprintf(err, SCN_ERR_MAX, "%s: larger than 64 MiB; expected a scenario file", shown);
        break;
    default:
        if (e == ENOMEM)
            snprintf(err, SCN_ERR_MAX, "%s: out of memory reading the scenario", shown);
        else if (e == EACCES || e == EPERM)
            snprintf(err, SCN_ERR_MAX, "%s: cannot open scenario: %s", shown, strerror(e));
        else
            snprintf(err, SCN_ERR_MAX, "%s: cannot read the file", shown);
        break;
    }
    return -1;
}

int scn_load_text(scn_config *c, const char *path, const char *const *sets, const char *const *set_shown, int nsets,
                  char err[static SCN_ERR_MAX],
                  char **text, size_t *textlen)
{
    char *buf = NULL;
    size_t buflen = 0;
    scn_config *file_only = NULL; /* the scenario before --set (scn_check_effect) */
    static pstate ps_zero;
    pstate *ps = malloc(sizeof *ps); /* large (seen tables): not on the stack */
    if (!ps) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", path);
        return -1;
    }
    *ps = ps_zero;
    scn_defaults(c);
    scn_data_begin(path); /* a new data store; relative data paths start from the scenario's folder */
    ps->c = c;
    char shown[128];
    scn_display_path(path, shown, sizeof shown);
    ps->path = shown;
    ps->err = err;
    err[0] = '\0';
    int rc = -1;

    if (slurp(path, ps->path, &buf, &buflen, err) != 0)
        goto out;
    ps->fp = buflen ? fmemopen(buf, buflen, "r") : NULL;
    if (buflen && !ps->fp) {
        snprintf(err, SCN_ERR_MAX, "%s: cannot read the file: %s", ps->path, strerror(errno));
        goto out;
    }
    if (buflen == 0) {
        snprintf(err, SCN_ERR_MAX, "%s: the file is empty; expected a scenario (see scenarios/ for examples)", ps->path);
        goto out;
    }
    if (prescan(ps, buf, buflen) != 0)
        goto out;
    default_name(c, path);
    int line = ini_parse_stream(reader, ps, handler, ps);
    /* Report the earliest of: an overlong line, an inih syntax error, an
     * error of ours. */
    if (ps->long_line && (!ps->failed || ps->long_line < ps->failed) && (line <= 0 || ps->long_line <= line)) {
        ps->failed = 0;
        char n[32];
        snprintf(n, sizeof n, "%d", ps->max_line - 2);
        fail(ps, ps->long_line, "line longer than %s characters; shorten it", n, NULL, NULL);
        goto out;
    }
    if (line > 0 && (!ps->failed || line < ps->failed)) {
        ps->failed = 0;
        fail(ps, line, "syntax error: expected [section], key = value, or a comment starting with ';' or '#'", NULL,
             NULL, NULL);
        goto out;
    }
    if (ps->failed || line != 0) {
        if (!ps->failed)
            fail(ps, 0, "cannot read the file", NULL, NULL, NULL);
        goto out;
    }
    ps->sets = sets;
    ps->shown = set_shown;
    ps->nsets = nsets;
    if (nsets && !(file_only = herd_malloc_array(1, sizeof *file_only))) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", ps->path);
        goto out;
    }
    if (file_only)
        *file_only = *c;
    for (int i = 0; i < nsets; i++) {
        ps->set_origin = SET_ORIGIN(i);
        char canon[LINE_MAX_LEN];
        scn_key_canonical(sets[i], canon, sizeof canon);
        if (!strncmp(canon, "variant", 7)) {
            fail(ps, 0, "variants are declared in the scenario file; --set cannot add or change one", NULL, NULL,
                 NULL);
            goto out;
        }
        if (!assign(ps, sets[i]))
            goto out;
    }
    ps->set_origin = 0;
    scn_origins o = origins_of(ps);
    rc = scn_check(c, &o, err);
    if (rc == 0)
        rc = scn_check_variation(c, ps->path, sets, set_shown, nsets, err);
#ifndef HERD_NO_EFFECT_CHECK
    /* (build/herd-nocheck, a test binary only, leaves the no-op rule out:
     * tests/noop.sh runs what herd refuses as "no effect" with it, to
     * show that the simulation does not change either) */
    if (rc == 0)
        rc = scn_check_effect(c, file_only, ps->path, sets, nsets, err);
#endif
out:
    herd_free(file_only);
    if (ps->fp)
        fclose(ps->fp);
    free(ps);
    if (rc == 0 && text) {
        *text = buf;
        *textlen = buflen;
    } else {
        herd_free(buf);
    }
    return rc;
}

/* Applies "section.key=value" through set_key (line 0: not from the file).
 * Returns 1, or 0 with ps->err filled. */
static int assign(pstate *ps, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = NULL;
    for (const char *p = assignment; eq && p < eq; p++)
        if (*p == '.')
            dot = p;
    if (!eq || !dot || dot == assignment || dot + 1 == eq) {
        fail(ps, 0, "expected section.key=value (e.g. server.workers=50)", NULL, NULL, NULL);
        return 0;
    }
    char section[LINE_MAX_LEN], name[LINE_MAX_LEN];
    if ((size_t)(dot - assignment) >= sizeof section || (size_t)(eq - dot - 1) >= sizeof name) {
        fail(ps, 0, "section or key too long", NULL, NULL, NULL);
        return 0;
    }
    normalise_section(assignment, (size_t)(dot - assignment), section, sizeof section);
    normalise_section(dot + 1, (size_t)(eq - dot - 1), name, sizeof name);
    const char *value = eq + 1;
    while (*value == ' ' || *value == '\t')
        value++;
    return set_key(ps, section, name, value, 0);
}

int scn_set(scn_config *c, const char *assignment, const char *origin, char err[static SCN_ERR_MAX])
{
    return scn_set_coded(c, assignment, origin, SCN_ORIGIN_OTHER, err);
}

int scn_set_coded(scn_config *c, const char *assignment, const char *origin, int code, char err[static SCN_ERR_MAX])
{
    static pstate ps_zero;
    pstate *ps = malloc(sizeof *ps);
    if (!ps) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", origin);
        return -1;
    }
    *ps = ps_zero;
    ps->c = c;
    ps->err = err;
    char where[SCN_ERR_MAX];
    snprintf(where, sizeof where, "%s %s", origin, assignment);
    ps->path = where;
    ps->set_origin = code;
    int rc = assign(ps, assignment) ? 0 : -1;
    free(ps);
    return rc;
}
