/*
 * assign.c - one scenario key = value into a scn_config (parse.h): the key
 * table (keys.c) applied to the section the key is in, [outage NAME],
 * [tool NAME] and [layer NAME] created on first use, [variant] and
 * [sweep] keys kept as text for expand.c, and where every value came from
 * recorded (FILE:LINE, a --set flag, a preset) for messages and --explain.
 *
 * An unknown key is refused with the nearest known one.  Nothing here
 * reads the file: scenario.c hands over each key with its line.
 */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/text.h"
#include "data.h"
#include "keys.h"

/* The parse state's record of where things came from, for validate.c. */
scn_origins scn_ps_origins(const pstate *ps)
{
    return (scn_origins){.path = ps->path, .key_line = ps->key_line, .sets = ps->sets, .shown = ps->shown,
                         .nsets = ps->nsets,
                         .error_line = ps->error_line};
}

void scn_ps_fail(pstate *ps, int line, const char *fmt, const char *a, const char *b, const char *c)
{
    if (ps->failed)
        return;
    ps->failed = line > 0 ? line : -1;
    char msg[SCN_ERR_MAX], where[SCN_ERR_MAX / 2];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "", c ? c : "");
    scn_origins o = scn_ps_origins(ps);
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
int scn_ps_set_variant(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    int declare = !name; /* declared by its header (prescan): a variant may have no keys */
    if (declare)
        ps->section_line = line;
    const char *sub = section + 7;
    while (*sub == ' ')
        sub++;
    scn_config *c = ps->c;
    if (!*sub || strlen(sub) >= SCN_NAME_MAX || !scn_valid_name(sub)) {
        scn_ps_fail(ps, line, "[%s]: a variant needs a name of 1-63 letters, digits, '-', '_', '.', e.g. [variant no_keys]",
             section, NULL, NULL);
        return 0;
    }
    scn_variant *v = NULL;
    for (uint32_t i = 0; i < c->nvariants; i++)
        if (!strcmp(c->variants[i].name, sub))
            v = &c->variants[i];
    if (!v) {
        if (c->nvariants == SCN_MAX_VARIANTS) {
            scn_ps_fail(ps, line, "[%s]: too many variants (at most 16)", section, NULL, NULL);
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
        scn_ps_fail(ps, line, "[%s] %s: a variant's keys are section.key (e.g. retry.max_attempts = 3)", section, name,
             NULL);
        return 0;
    }
    size_t used = strlen(v->sets), need = strlen(name) + strlen(value) + 2;
    if (used + need >= sizeof v->sets) {
        scn_ps_fail(ps, line, "[%s]: too many overrides (1023 characters at most)", section, NULL, NULL);
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
            scn_ps_fail(ps, line, "[%s]: too many sweeps (at most 4)", section, NULL, NULL);
            return 0;
        }
        if (strlen(sub) >= SCN_NAME_MAX) {
            scn_ps_fail(ps, line, "[%s]: sweep name too long", section, NULL, NULL);
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
        scn_ps_fail(ps, line, "[%s]: unknown key '%s'; a sweep has `key` (section.key) and `values` (FROM:TO:STEP or a, b, c)",
             section, name, NULL);
        return 0;
    }
    if (line > 0 && *field) {
        scn_ps_fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
        return 0;
    }
    if (!*value || strlen(value) >= cap) {
        scn_ps_fail(ps, line, "[%s] %s: expected a non-empty value shorter than %s characters", section, name,
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
    scn_ps_fail(ps, line, "%s: %s", where, m, NULL);
    return 0;
}

/* `plugin = PATH.so` and `plugin.KEY = value` in [retry] or [tool NAME]
 * (kept as text; loaded and configured by validate.c). */
static int set_plugin(pstate *ps, const char *section, const char *kind, const char *sub, const char *name,
                      const char *value, int line)
{
    scn_plugin *pl;
    if (!strcmp(kind, "retry")) {
        pl = &ps->c->plugin;
    } else if (!strcmp(kind, "tool")) {
        scn_tool *t = find_tool(ps->c, 0, sub, line > 0 ? ps->section_line : ps->set_origin);
        if (!t) {
            scn_ps_fail(ps, line, "[%s]: too many tools (at most 8)", section, NULL, NULL);
            return 0;
        }
        pl = &t->plugin;
    } else {
        scn_ps_fail(ps, line,
                    "[%s] %s: a retry plugin is written in [retry] or a [tool NAME] section (not yet in [layer]: "
                    "the innermost layer's built-in policy decides there)",
                    section, name, NULL);
        return 0;
    }
    if (!strcmp(name, "plugin")) {
        if (line > 0 && pl->origin > 0) {
            scn_ps_fail(ps, line, "[%s] plugin: duplicate key", section, NULL, NULL);
            return 0;
        }
        if (strlen(value) >= sizeof pl->spec || strchr(value, '\n')) {
            scn_ps_fail(ps, line, "[%s] plugin: expected PATH.so or python:MODULE:OBJECT shorter than 256 characters",
                        section, NULL, NULL);
            return 0;
        }
        snprintf(pl->spec, sizeof pl->spec, "%s", value);
        pl->origin = origin_code(ps, line);
        return 1;
    }
    const char *k = name + 7;
    size_t kl = strlen(k);
    if (!kl || strspn(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != kl || strchr(value, '\n')) {
        scn_ps_fail(ps, line, "[%s] %s: expected plugin.KEY with KEY of letters, digits and '_'", section, name, NULL);
        return 0;
    }
    /* an earlier value of the key: a duplicate in the file, replaced by an override */
    char *at = pl->keys;
    unsigned idx = 0;
    while (at && *at) {
        char *eol = strchr(at, '\n');
        if (!strncmp(at, k, kl) && at[kl] == '=') {
            if (line > 0) {
                scn_ps_fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            memmove(at, eol + 1, strlen(eol + 1) + 1);
            for (unsigned j = idx; j + 1 < SCN_PLUGIN_KEYS; j++)
                pl->key_origin[j] = pl->key_origin[j + 1];
            continue;
        }
        at = eol ? eol + 1 : NULL;
        idx++;
    }
    if (idx >= SCN_PLUGIN_KEYS) {
        scn_ps_fail(ps, line, "[%s] %s: at most 32 plugin keys in one section", section, name, NULL);
        return 0;
    }
    pl->key_origin[idx] = origin_code(ps, line);
    size_t used = strlen(pl->keys);
    if (used + kl + strlen(value) + 2 >= sizeof pl->keys) {
        scn_ps_fail(ps, line, "[%s] %s: the plugin keys of one section are longer than 767 characters", section, name,
                    NULL);
        return 0;
    }
    snprintf(pl->keys + used, sizeof pl->keys - used, "%s=%s\n", k, value);
    if (!pl->keys_origin)
        pl->keys_origin = origin_code(ps, line);
    return 1;
}

/* Sets section.name = value from `line` (0 for --set).  Returns 1 on
 * success, 0 on error (ps->err filled). */
int scn_ps_set_key(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    const char *kind = section;
    const char *sub = NULL;
    if (!*value) {
        scn_ps_fail(ps, line, "[%s] %s: empty value; expected a value (see `herd keys` for what this key takes)", section,
             name, NULL);
        return 0;
    }
    if (strncmp(section, "sweep", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))
        return set_sweep(ps, section, name, value, line);
    if (strncmp(section, "variant", 7) == 0 && (section[7] == ' ' || section[7] == '\0'))
        return scn_ps_set_variant(ps, section, name, value, line);
    if ((strncmp(section, "outage", 6) == 0 && (section[6] == ' ' || section[6] == '\0')) ||
        (strncmp(section, "tool", 4) == 0 && (section[4] == ' ' || section[4] == '\0')) ||
        (strncmp(section, "layer", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))) {
        kind = section[0] == 'o' ? "outage" : section[0] == 't' ? "tool" : "layer";
        sub = section + strlen(kind);
        while (*sub == ' ')
            sub++;
        if (!*sub || strlen(sub) >= SCN_NAME_MAX) {
            scn_ps_fail(ps, line, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                 section, NULL, NULL);
            return 0;
        }
    } else if (strcmp(section, "run") && strcmp(section, "clients") && strcmp(section, "network") &&
               strcmp(section, "server") && strcmp(section, "retry") && strcmp(section, "idempotency") &&
               strcmp(section, "limits")) {
        scn_ps_fail(ps, line,
             "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
             "tool NAME, layer NAME, variant NAME or sweep [NAME]",
             section, NULL, NULL);
        return 0;
    }

    /* [server] error_rate_NNN / error_rate_connection_refused ... */
    if (strcmp(kind, "server") == 0 && strncmp(name, "error_rate_", 11) == 0) {
        int outcome;
        if (scn_parse_outcome(name + 11, &outcome) != 0) {
            scn_ps_fail(ps, line, "[server] %s: unknown error; expected error_rate_NNN with an HTTP status 100..599, "
                           "error_rate_connection_refused or error_rate_connection_reset", name, NULL, NULL);
            return 0;
        }
        double p;
        if (scn_parse_double(value, &p) != 0 || p < 0 || p > 1) {
            scn_ps_fail(ps, line, "[server] %s: expected a probability in [0, 1], got '%s'", name, value, NULL);
            return 0;
        }
        size_t slot = outcome > 0 ? (size_t)outcome : (size_t)(1000 - outcome);
        if (line > 0 && ps->seen_error[slot]) {
            scn_ps_fail(ps, line, "[server] %s: duplicate key", name, NULL, NULL);
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
            scn_ps_fail(ps, line, "[server] %s: too many error_rate keys (at most 16)", name, NULL, NULL);
            return 0;
        }
        c->error_origin[c->nerrors] = origin_code(ps, line);
        ps->error_line[c->nerrors] = line > 0 ? line : ps->set_origin;
        c->errors[c->nerrors++] = (spec_error_rate){.outcome = outcome, .p = p};
        return 1;
    }

    if (!strcmp(name, "plugin") || !strncmp(name, "plugin.", 7))
        return set_plugin(ps, section, kind, sub, name, value, line);

    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        if (strcmp(k->section, kind) || strcmp(k->name, name))
            continue;
        void *base = ps->c;
        int *seen = &ps->key_line[i];
        if (sub && (kind[0] == 't' || kind[0] == 'l')) {
            scn_tool *t = find_tool(ps->c, kind[0] == 'l', sub, line > 0 ? ps->section_line : ps->set_origin);
            if (!t) {
                scn_ps_fail(ps, line, kind[0] == 'l' ? "[%s]: too many layers (at most 6)" : "[%s]: too many tools (at most 8)",
                     section, NULL, NULL);
                return 0;
            }
            uint64_t bit = (uint64_t)1 << (i - scn_first_key(kind));
            if (line > 0 && (t->set & bit)) {
                scn_ps_fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
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
            scn_ps_fail(ps, line, "[retry] preset: put it before the other [retry] keys (line %s), which it would replace",
                 l, NULL, NULL);
            return 0;
        }
        if (!strcmp(kind, "retry") && k->type != K_PRESET && line > 0 && !ps->c->retry_keys_line)
            ps->c->retry_keys_line = line;
        if (sub) {
            scn_outage *o = find_outage(ps->c, sub, 1, line > 0 ? ps->section_line : ps->set_origin);
            if (!o) {
                scn_ps_fail(ps, line, "[%s]: too many outages (at most 32)", section, NULL, NULL);
                return 0;
            }
            base = o;
            unsigned char *s = &ps->seen_outage_key[o - ps->c->outages][i];
            if (line > 0 && *s) {
                scn_ps_fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            *s = 1;
        } else if (line > 0 && *seen > 0) {
            char prev[32];
            snprintf(prev, sizeof prev, "%d", *seen);
            scn_ps_fail(ps, line, "[%s] %s: duplicate key (first set on line %s)", section, name, prev);
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
        scn_ps_fail(ps, line, "[%s] %s: %s", section, name, why);
        return 0;
    }
    const char *cands[SCN_MAX_KEYS];
    size_t nc = 0;
    for (size_t i = 0; i < scn_key_count; i++)
        if (!strcmp(scn_key_table[i].section, kind))
            cands[nc++] = scn_key_table[i].name;
    const char *near = scn_nearest(name, cands, nc);
    if (near)
        scn_ps_fail(ps, line, "[%s]: unknown key '%s' (did you mean %s?); see `herd keys` for every key", section, name, near);
    else
        scn_ps_fail(ps, line, "[%s]: unknown key '%s' (see `herd keys` for every key)", section, name, NULL);
    return 0;
}
