/*
 * explain.c - the resolved model of a scenario, shown (scn_explain).
 *
 * One function, dump(), writes a point's model canonically: every value
 * the model reads, one per line, named by the key that sets it, in key
 * table order; the retry loops with the policy compile resolved for them.
 * `herd check --explain`, manifest.txt and the no-op check all read it,
 * so they cannot disagree.
 *
 * Invariants of the canonical text (origins off):
 *   - a value the model never reads is left out (explain shows it with
 *     the reason, `unused: ...`), so two points print the same text
 *     exactly when the model would run the same way;
 *   - sleeps are normalised by what they compute, not by the fields that
 *     spell it: under a jitter the strategy (but immediate) does not
 *     matter, and a full jitter capped first is the full_jitter strategy;
 *   - output-only keys ([run] columns, bucket_s, timeseries, baseline,
 *     baseline_variant, trigger_*, recovery_*, name) are always printed:
 *     they shape outputs, not the model, and are checked there.
 *
 * [server]'s lines, with the reasons its keys go unread, are in
 * explain_server.c.  The no-op rule that reads this text is in effect.c.
 */
#include "explain.h"

#include "../plugin/loader.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"



/* ---- origins -------------------------------------------------------- */

void scn_x_origin_text(const xctx *x, int code, char *out, size_t n)
{
    const scn_config *c = x->c;
    if (code == 0)
        snprintf(out, n, "default");
    else if (code > 0)
        snprintf(out, n, "%s:%d", x->path, code);
    else if (code <= SCN_ORIGIN_SWEEP(0) && code > SCN_ORIGIN_SWEEP(SCN_MAX_SWEEPS))
        snprintf(out, n, "sweep %s", c->sweeps[SCN_ORIGIN_SWEEP(0) - code].key);
    else if (code <= SCN_ORIGIN_VARIANT(0) && code > SCN_ORIGIN_VARIANT(SCN_MAX_VARIANTS))
        snprintf(out, n, "variant %s", c->variants[SCN_ORIGIN_VARIANT(0) - code].name);
    else if (code <= -2 && -code - 2 < x->nsets)
        snprintf(out, n, "--set %s", x->sets[-code - 2]);
    else
        snprintf(out, n, "override");
}

/* Where the [retry] value of key name came from. */
static void retry_origin(const xctx *x, const char *name, char *out, size_t n)
{
    size_t i = scn_key_find("retry", name);
    if (i == scn_key_count) {
        snprintf(out, n, "default");
        return;
    }
    int code = x->c->origin[i];
    if (code == 0 && scn_preset_sets(x->c->retry_preset, &scn_key_table[i])) {
        char p[128];
        scn_x_origin_text(x, x->c->origin[scn_key_find("retry", "preset")], p, sizeof p);
        snprintf(out, n, "preset %s (%s)", scn_preset_name(x->c->retry_preset), p);
        return;
    }
    scn_x_origin_text(x, code, out, n);
}

/* Where a tool's or layer's policy value of key name came from: its own
 * key, its preset, else [retry]. */
static void section_origin(const xctx *x, const scn_tool *t, const char *kind, const char *name, char *out,
                           size_t n)
{
    size_t first = scn_first_key(kind), i = scn_key_find(kind, name);
    if (t && i < scn_key_count && (t->set >> (i - first) & 1)) {
        scn_x_origin_text(x, t->origin[i - first], out, n);
        return;
    }
    size_t r = scn_key_find("retry", name);
    if (t && t->preset >= 0 && r < scn_key_count && scn_preset_sets(t->preset, &scn_key_table[r])) {
        char p[128];
        scn_x_origin_text(x, t->origin[scn_key_find(kind, "preset") - first], p, sizeof p);
        snprintf(out, n, "preset %s (%s)", scn_preset_name(t->preset), p);
        return;
    }
    retry_origin(x, name, out, n);
}

void scn_origin_label(const scn_config *c, const char *path, const char *const *sets, int nsets, int code, char *out,
                      size_t n)
{
    xctx x = {.c = c, .path = path, .sets = sets, .nsets = nsets};
    scn_x_origin_text(&x, code, out, n);
}

/* ---- lines ---------------------------------------------------------- */

/* 1 if "KEY = VALUE" is input a scenario (or --set) may write: KEY
 * ("section.key", "layer NAME.key", "outage 1.key") names a key of the
 * table, and VALUE is accepted by its parser (tried on x->scratch, never
 * on the config).  A data file's entry, an internal sentinel (a window or
 * a trigger not set: none, -1), a derived line (retry.retry_only) are not. */
static int is_input(xctx *x, const char *kname, const char *value)
{
    char section[64], name[64], msg[256];
    size_t sl = strcspn(kname, " .");
    const char *dot = strrchr(kname, '.');
    if (!x->scratch || !dot || sl >= sizeof section || strlen(dot + 1) >= sizeof name)
        return 0;
    memcpy(section, kname, sl);
    section[sl] = '\0';
    snprintf(name, sizeof name, "%s", dot + 1);
    size_t i = scn_key_find(section, name);
    if (i == scn_key_count)
        return 0;
    const key *k = &scn_key_table[i];
    if (k->type == K_DATA || strstr(value, "data entry")) /* a path is input; its table's index is not */
        return 0;
    return scn_apply(k, x->scratch, value, msg, sizeof msg) == NULL;
}

/* One line: "  KEY = VALUE", with origins "  # ORIGIN"; a value the model
 * does not read (why != NULL) is left out of the canonical text.  What
 * --explain prints is valid input: a line that is not (is_input) is
 * printed as a comment, "  # KEY = VALUE". */
void scn_x_put(xctx *x, const char *kname, const char *value, const char *origin, const char *why)
{
    if (!x->origins) {
        if (!why)
            fprintf(x->f, "%s = %s\n", kname, value);
        return;
    }
    char left[512];
    snprintf(left, sizeof left, is_input(x, kname, value) ? "  %s = %s" : "  # %s = %s", kname, value);
    if (why)
        fprintf(x->f, "%-52s # unused: %s (%s)\n", left, why, origin);
    else
        fprintf(x->f, "%-52s # %s\n", left, origin);
}


numtxt scn_x_num(double v)
{
    numtxt t;
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(t.s, sizeof t.s, "%.*g", prec, v);
        if (strtod(t.s, NULL) == v || v != v)
            break;
    }
    return t;
}

static void fmt_dist(const dist *d, char *out, size_t n)
{
    static const char *const names[] = {"constant", "uniform", "exponential", "normal", "abs_normal", "lognormal",
                                        "pareto", "weibull", "gamma", "empirical", "mixture"};
    const char *nm = (unsigned)d->kind < sizeof names / sizeof names[0] ? names[d->kind] : "?";
    if (d->kind == DIST_EMPIRICAL || d->kind == DIST_MIXTURE)
        snprintf(out, n, "%s(data entry %u)", nm, (unsigned)d->ref);
    else if (d->kind == DIST_CONSTANT || d->kind == DIST_EXPONENTIAL)
        snprintf(out, n, "%s(%s)", nm, scn_x_num(d->a).s);
    else
        snprintf(out, n, "%s(%s, %s)", nm, scn_x_num(d->a).s, scn_x_num(d->b).s);
}

static void fmt_classes(uint32_t mask, const char *none, char *out, size_t n)
{
    size_t u = 0;
    out[0] = '\0';
    for (int cl = 0; cl < HP_CLASS_COUNT && u < n; cl++)
        if (mask >> cl & 1)
            u += (size_t)snprintf(out + u, n - u, "%s%s", u ? ", " : "", hp_class_name((hp_class)cl));
    if (!u)
        snprintf(out, n, "%s", none);
}

/* The value of key k at field (as the key table types it). */
static void fmt_field(const key *k, const void *field, char *out, size_t n)
{
    switch (k->type) {
    case K_DOUBLE:
        snprintf(out, n, "%s", scn_x_num(*(const double *)field).s);
        break;
    case K_WINDOW: {
        const double *w = field;
        if (w[1] > w[0])
            snprintf(out, n, "%s:%s", scn_x_num(w[0]).s, scn_x_num(w[1]).s);
        else
            snprintf(out, n, "none");
        break;
    }
    case K_U32:
    case K_DATA:
        snprintf(out, n, "%u", *(const uint32_t *)field);
        break;
    case K_U64:
        snprintf(out, n, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case K_DIST:
        fmt_dist(field, out, n);
        break;
    case K_STRATEGY:
        snprintf(out, n, "%s", hp_strategy_name(*(const hp_strategy *)field));
        break;
    case K_ENUM: {
        int v = *(const int *)field, m = 0;
        while (k->enums[m])
            m++;
        snprintf(out, n, "%s", v >= 0 && v < m ? k->enums[v] : "?");
        break;
    }
    case K_BOOL:
        snprintf(out, n, "%s", *(const bool *)field ? "true" : "false");
        break;
    case K_NBOOL:
        snprintf(out, n, "%s", *(const bool *)field ? "false" : "true");
        break;
    case K_CLASSES:
        fmt_classes(*(const uint32_t *)field, "none", out, n);
        break;
    case K_STATUSES: {
        const uint16_t *st = field;
        size_t u = 0;
        out[0] = '\0';
        for (int i = 0; i < HP_MAX_NO_RETRY_STATUS && u < n; i++)
            if (st[i])
                u += (size_t)snprintf(out + u, n - u, "%s%u", u ? ", " : "", st[i]);
        if (!u)
            snprintf(out, n, "none");
        break;
    }
    case K_DELAY: {
        const hp_policy *p = field;
        if (p->delay_kind == HP_DELAY_UNIFORM)
            snprintf(out, n, "uniform(%s, %s)", scn_x_num(p->delay_a).s, scn_x_num(p->delay_b).s);
        else if (p->delay_kind == HP_DELAY_CONSTANT)
            snprintf(out, n, "constant(%s)", scn_x_num(p->delay_a).s);
        else if (p->delay_a > 0)
            snprintf(out, n, "exponential(%s)", scn_x_num(p->delay_a).s);
        else
            snprintf(out, n, "exponential(base_s)");
        break;
    }
    default:
        snprintf(out, n, "-");
        break;
    }
}

/* A key of a section that is not repeated, read from the config. */
static void put_key(xctx *x, const char *section, const char *name, const char *why)
{
    size_t i = scn_key_find(section, name);
    if (i == scn_key_count)
        return;
    const key *k = &scn_key_table[i];
    char v[256], o[256], full[KEYTXT];
    if (k->type == K_COLUMNS || k->type == K_NAME)
        snprintf(v, sizeof v, "%s", (const char *)x->c + k->off);
    else if (k->type == K_BASELINE) {
        int b = *(const int *)((const char *)x->c + k->off);
        snprintf(v, sizeof v, "%s", b < 0 ? "none" : hp_strategy_name((hp_strategy)b));
    } else
        fmt_field(k, (const char *)x->c + k->off, v, sizeof v);
    scn_x_origin_text(x, x->c->origin[i], o, sizeof o);
    snprintf(full, sizeof full, "%s.%s", section, name);
    scn_x_put(x, full, v, o, why);
}

/* ---- the retry loops -------------------------------------------------- */

/* The sleep strategy s computes under policy p, by what it computes. */
static const char *sleep_rule(const hp_policy *p, hp_strategy s)
{
    static const char *const jit[] = {"none", "full jitter", "proportional jitter", "symmetric jitter",
                                      "additive jitter", "floor jitter"};
    if (s == HP_IMMEDIATE)
        return "immediate";
    if (p->jitter == HP_JITTER_FULL && !p->jitter_before_cap)
        return "full_jitter";
    if (p->jitter != HP_JITTER_NONE && (unsigned)p->jitter < sizeof jit / sizeof jit[0])
        return jit[p->jitter];
    return hp_strategy_name(s);
}

/* Every policy value of one retry loop.  prefix names its keys ("retry",
 * "tool NAME", "layer NAME"); t is its section (NULL: [retry]); own: the
 * loop fixes its strategy (else it runs each compared one). */
/* The plugin lines of a retry loop: the plugin and each plugin.KEY, with
 * their origins (a tool that takes [retry]'s says so). */
static void put_plugin(xctx *x, const char *prefix, const scn_plugin *pl)
{
    char kn[KEYTXT], o[256], ko[200];
    unsigned i = 0;
    bool inherited = pl == &x->c->plugin && strcmp(prefix, "retry");
    scn_x_origin_text(x, pl->origin, ko, sizeof ko);
    if (inherited)
        snprintf(o, sizeof o, "[retry] plugin (%s)", ko);
    else
        snprintf(o, sizeof o, "%s", ko);
    snprintf(kn, sizeof kn, "%s.plugin", prefix);
    scn_x_put(x, kn, pl->spec, o, NULL);
    for (const char *at = pl->keys; *at;) {
        const char *eq = strchr(at, '='), *eol = strchr(at, '\n');
        if (!eq || !eol)
            break;
        char v[256];
        snprintf(kn, sizeof kn, "%s.plugin.%.*s", prefix, (int)(eq - at), at);
        snprintf(v, sizeof v, "%.*s", (int)(eol - eq - 1), eq + 1);
        scn_x_origin_text(x, pl->key_origin[i < SCN_PLUGIN_KEYS ? i : SCN_PLUGIN_KEYS - 1], ko, sizeof ko);
        i++;
        snprintf(o, sizeof o, "%s%s", inherited ? "[retry] plugin keys, from " : "", ko);
        scn_x_put(x, kn, v, o, NULL);
        at = eol + 1;
    }
}

static void put_loop(xctx *x, const char *title, const char *prefix, const char *kind, const scn_tool *t,
                     const hp_policy *p, bool own, const char *inner_of, const scn_plugin *pl,
                     const struct hpl_instance *inst)
{
    /* a plugin that does not read herd's policy decides the sleep and
     * whether to retry: the keys of both then change nothing */
    char decides[160] = "";
    if (pl && inst && !(inst->desc->flags & HP_PLUGIN_READS_POLICY))
        snprintf(decides, sizeof decides, "plugin %s decides the retries and sleeps (it does not read herd's policy)",
                 inst->desc->name);
    hp_strategy S[HP_STRATEGY_COUNT];
    uint32_t nS = own ? 1 : x->nstrategies;
    if (own)
        S[0] = p->strategy;
    else
        memcpy(S, x->strategies, sizeof S[0] * nS);
    bool all_immediate = true, growth = false, random = false;
    for (uint32_t i = 0; i < nS; i++) {
        const char *r = sleep_rule(p, S[i]);
        all_immediate &= S[i] == HP_IMMEDIATE;
        random |= !strcmp(r, "random");
        growth |= strcmp(r, "immediate") && strcmp(r, "constant") && strcmp(r, "decorrelated_jitter") &&
                  strcmp(r, "random");
    }
    bool retries = decides[0] || p->max_attempts != 1;
    if (x->origins)
        fprintf(x->f, "%s\n", title);
    else
        fprintf(x->f, "%s\n", prefix);

    char kn[KEYTXT], v[256], o[256];
    /* the sleep: one rule per compared strategy */
    size_t u = 0;
    v[0] = '\0';
    for (uint32_t i = 0; i < nS && u < sizeof v; i++)
        u += (size_t)snprintf(v + u, sizeof v - u, "%s%s", i ? ", " : "", sleep_rule(p, S[i]));
    snprintf(kn, sizeof kn, "%s.backoff", prefix);
    char so[128], jo[128];
    if (inner_of)
        snprintf(o, sizeof o, "preset %s (inner loop)", inner_of);
    else {
        if (own)
            section_origin(x, t, kind, "strategy", so, sizeof so);
        else if (x->c->nstrategies)
            scn_x_origin_text(x, x->c->origin[scn_key_find("run", "strategies")], so, sizeof so);
        else
            retry_origin(x, "strategy", so, sizeof so);
        section_origin(x, t, kind, "jitter", jo, sizeof jo);
        snprintf(o, sizeof o, "strategy: %s%s; jitter: %s", own ? "" : "compared, ", so, jo);
    }
    if (decides[0])
        snprintf(v, sizeof v, "plugin %s", inst->desc->name);
    scn_x_put(x, kn, v, o, retries ? NULL : "max_attempts is 1: no retry");
    if (pl)
        put_plugin(x, prefix, pl);

    size_t first = scn_first_key("retry");
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, "retry"); i++) {
        const key *k = &scn_key_table[i];
        if (k->type == K_PRESET || !strcmp(k->name, "strategy") || !strcmp(k->name, "jitter") ||
            k->off < offsetof(scn_config, policy) || k->off >= offsetof(scn_config, policy) + sizeof(hp_policy))
            continue;
        const char *n = k->name, *why = NULL;
        bool backoff = !strcmp(n, "base_s") || !strcmp(n, "cap_s") || !strcmp(n, "multiplier") ||
                       !strcmp(n, "exponent_offset") || !strcmp(n, "jitter_factor") ||
                       !strcmp(n, "jitter_before_cap") || !strcmp(n, "first_retry_zero") || !strcmp(n, "delay_s");
        bool ra = !strcmp(n, "honour_retry_after") || !strcmp(n, "retry_after") || !strcmp(n, "retry_after_above") ||
                  !strcmp(n, "retry_after_max_s") || !strcmp(n, "retry_after_ms") || !strcmp(n, "ratelimit_reset") ||
                  !strcmp(n, "ratelimit_reset_jitter") || !strcmp(n, "retry_with_retry_after");
        bool retry_only = backoff || ra || !strcmp(n, "retry_on_timeout") || !strcmp(n, "unknown_errors") ||
                          !strcmp(n, "retry_also") || !strcmp(n, "no_retry_status") ||
                          !strcmp(n, "not_found_ok_on_retry") || !strcmp(n, "budget_mode") ||
                          !strcmp(n, "adaptive_rate_limiter");
        if (decides[0] && (retry_only || !strcmp(n, "max_attempts")) && strcmp(n, "adaptive_rate_limiter") &&
            strcmp(n, "budget_mode")) /* the loop's own admission reads those two */
            why = decides;
        else if (retry_only && !retries)
            why = "max_attempts is 1: no retry";
        else if (backoff && all_immediate)
            why = "the strategy is immediate: it never sleeps";
        else if ((!strcmp(n, "multiplier") || !strcmp(n, "exponent_offset")) && !growth)
            why = "no sleep of this loop grows with the retry number (constant, decorrelated_jitter, random)";
        else if (!strcmp(n, "jitter_factor") && (p->jitter == HP_JITTER_NONE || p->jitter == HP_JITTER_FULL))
            why = p->jitter == HP_JITTER_NONE ? "jitter is none" : "jitter is full, which has no factor";
        else if (!strcmp(n, "jitter_before_cap") && p->jitter == HP_JITTER_NONE)
            why = "jitter is none";
        else if (!strcmp(n, "delay_s") && !random)
            why = "no compared strategy is random (or a jitter replaces it)";
        else if (!strcmp(n, "budget_mode") && !(p->budget_s > 0))
            why = "budget_s is 0: no deadline";
        else if (!strcmp(n, "retry_on_timeout") && !x->any_timeout)
            why = "no attempt ever times out (no attempt_timeout_s or budget_s in any loop)";
        else if (ra && !strcmp(n, "ratelimit_reset") && !x->reset_sent)
            why = "the server sends no X-RateLimit-Reset ([server] ratelimit_reset with rate_limit_rps)";
        else if (ra && !strcmp(n, "ratelimit_reset_jitter") && (!x->reset_sent || !p->ra_reset))
            why = "this loop reads no X-RateLimit-Reset";
        else if (ra && strcmp(n, "ratelimit_reset") && strcmp(n, "ratelimit_reset_jitter") &&
                 strcmp(n, "retry_after") && strcmp(n, "retry_after_max_s") && !x->ra_sent)
            why = "the server sends no Retry-After ([server] retry_after, retry_after_on_503)";
        else if ((!strcmp(n, "retry_after") || !strcmp(n, "retry_after_max_s")) && !x->ra_sent && !x->reset_sent)
            why = "the server sends no Retry-After and no X-RateLimit-Reset";
        else if (!strcmp(n, "retry_after_above") && p->ra_mode != HP_RA_INSTEAD)
            why = "retry_after is not instead";
        else if (!strcmp(n, "retry_after_ms") && x->spec.retry_after_format == SPEC_RA_SECONDS)
            why = "[server] retry_after_format is seconds: no retry-after-ms header";
        snprintf(kn, sizeof kn, "%s.%s", prefix, n);
        fmt_field(k, (const char *)p + (k->off - offsetof(scn_config, policy)), v, sizeof v);
        if (inner_of)
            snprintf(o, sizeof o, "preset %s (inner loop)", inner_of);
        else
            section_origin(x, t, kind, n, o, sizeof o);
        scn_x_put(x, kn, v, o, why);
    }
    /* what no key sets directly: the classes a preset limits retries to, a key */
    snprintf(kn, sizeof kn, "%s.%s", prefix, t && !strcmp(kind, "layer") ? "retry_on" : "retry_only");
    fmt_classes(p->retry_only, "every retryable class", v, sizeof v);
    if (t && !strcmp(kind, "layer") && t->retry_mask)
        section_origin(x, t, kind, "retry_on", o, sizeof o);
    else if (inner_of)
        snprintf(o, sizeof o, "preset %s (inner loop)", inner_of);
    else
        section_origin(x, t, kind, "preset", o, sizeof o);
    scn_x_put(x, kn, v, o, retries ? NULL : "max_attempts is 1: no retry");
    snprintf(kn, sizeof kn, "%s.idempotency_key", prefix);
    scn_x_origin_text(x, x->c->origin[scn_key_find("idempotency", "keys")], o, sizeof o);
    scn_x_put(x, kn, p->idempotency_key ? "true" : "false", o, NULL);
}

/* ---- the whole point ------------------------------------------------ */

void scn_x_put_section(xctx *x, const char *section, const char *const *names, const char *const *whys, size_t n)
{
    fprintf(x->f, x->origins ? "[%s]\n" : "%s\n", section);
    for (size_t i = 0; i < n; i++)
        put_key(x, section, names[i], whys ? whys[i] : NULL);
}

static void dump(xctx *x)
{
    const scn_config *c = x->c;
    const model_spec *s = &x->spec;
    scn_compile(c, &x->spec);
    x->nstrategies = scn_strategies(c, x->strategies);

    /* what the server sends, which decides what the clients' Retry-After keys can do */
    bool any429 = false;
    for (uint32_t i = 0; i < s->nerrors; i++)
        any429 |= s->errors[i].outcome == 429 && s->errors[i].p > 0;
    for (uint32_t i = 0; i < s->noutages; i++)
        any429 |= s->outages[i].outcome == 429 && s->outages[i].mode != SPEC_OUTAGE_BLACK_HOLE;
    x->ra_sent = (s->rate_limit_rps > 0 && s->retry_after != SPEC_RA_NONE) || s->retry_after_on_503 || any429;
    x->reset_sent = (s->rate_limit_rps > 0 && s->ratelimit_reset) || any429;
    x->any_timeout = false;
    x->obeys_overload = false;
    x->adaptive = s->policy.adaptive_rate;
    for (uint32_t t = 0; t < s->ntools; t++)
        x->adaptive |= s->tools[t].policy.adaptive_rate;
    for (uint32_t l = 0; l < s->nlayers; l++)
        x->adaptive |= s->layers[l].policy.adaptive_rate;
    for (uint32_t l = 0; l < s->nlayers; l++) {
        x->any_timeout |= s->layers[l].policy.attempt_timeout_s > 0 || s->layers[l].policy.budget_s > 0;
        x->obeys_overload |= s->layers[l].policy.obey_overload;
    }
    if (!s->nlayers)
        for (uint32_t t = 0; t < (s->ntools ? s->ntools : 1); t++) {
            const hp_policy *p = s->ntools ? &s->tools[t].policy : &s->policy;
            x->any_timeout |= p->attempt_timeout_s > 0 || p->budget_s > 0;
        }

    /* [run]: what decides the runs */
    char v[256], o[256];
    fprintf(x->f, x->origins ? "[run]\n" : "run\n");
    put_key(x, "run", "seed", NULL);
    put_key(x, "run", "replications", NULL);
    size_t u = 0;
    v[0] = '\0';
    for (uint32_t i = 0; i < x->nstrategies && u < sizeof v; i++)
        u += (size_t)snprintf(v + u, sizeof v - u, "%s%s", i ? ", " : "", hp_strategy_name(x->strategies[i]));
    if (c->nstrategies)
        scn_x_origin_text(x, c->origin[scn_key_find("run", "strategies")], o, sizeof o);
    else
        retry_origin(x, "strategy", o, sizeof o);
    scn_x_put(x, "run.strategies", v, o, NULL);
    if (c->nstrategies) {
        retry_origin(x, "strategy", o, sizeof o);
        scn_x_put(x, "retry.strategy", hp_strategy_name(c->policy.strategy), o,
            "[run] strategies replaces it: every loop without its own strategy runs each compared one");
    }
    put_key(x, "run", "horizon_s", NULL);
    put_key(x, "run", "warmup_s", NULL);

    /* outputs: shape what is written, not the model */
    static const char *const outs[] = {"name", "columns", "bucket_s", "timeseries", "baseline", "baseline_variant",
                                       "trigger_start_s", "trigger_end_s", "recovery_dwell_s", "window_s"};
    fprintf(x->f, x->origins ? "[run] outputs (checked against the outputs, not the model)\n" : "outputs\n");
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        put_key(x, "run", outs[i], NULL);

    /* [clients] */
    bool poisson = c->start == SPEC_START_POISSON, trace = c->start == SPEC_START_TRACE;
    /* a host holds at most ceil(clients / hosts) clients, each with one
     * attempt at a time ([limits] hedging is refused with a pool) */
    uint32_t per_host = s->clients / s->hosts + (s->clients % s->hosts != 0);
    char pool_why[128];
    snprintf(pool_why, sizeof pool_why, "at most %u clients a host: every attempt has a connection", per_host);
    const char *pool_unused = s->connections_per_host >= per_host ? pool_why : NULL;
    if (!s->connections_per_host)
        pool_unused = NULL; /* 0: no pool, the default */
    const char *cl[] = {"count", "requests_per_client", "task_steps", "start", "spread_s", "rate_per_s", "step_at_s",
                        "step_rate_per_s", "spike_start_s", "spike_end_s", "spike_rate_per_s", "trace_file",
                        "trace_interpolation", "think_time_s", "side_effect", "priority", "hosts",
                        "connections_per_host"};
    bool occ = s->kind == SPEC_SERVER_OCC, shedding = !occ && s->shed_sheddable_above > 0, own_priorities = s->ntools > 0,
         any_sheddable = s->ntools ? false : s->sheddable;
    for (uint32_t t = 0; t < c->ntools; t++) {
        own_priorities &= c->tools[t].priority >= 0;
        any_sheddable |= s->tools[t].sheddable;
    }
    x->any_sheddable = any_sheddable;
    const char *clw[] = {
        trace ? "start = trace: the count is derived from the trace" : NULL,
        NULL,
        NULL,
        NULL,
        c->start != SPEC_START_SPREAD ? "start is not spread" : NULL,
        !poisson ? "start is not poisson" : NULL,
        !poisson ? "start is not poisson" : !(c->step_rate_per_s > 0) ? "step_rate_per_s is 0: no step" : NULL,
        !poisson ? "start is not poisson" : NULL,
        !poisson ? "start is not poisson" : !(c->spike_rate_per_s > 0) ? "spike_rate_per_s is 0: no spike" : NULL,
        !poisson ? "start is not poisson" : !(c->spike_rate_per_s > 0) ? "spike_rate_per_s is 0: no spike" : NULL,
        !poisson ? "start is not poisson" : NULL,
        !trace ? "start is not trace" : NULL,
        !trace ? "start is not trace" : NULL,
        c->requests_per_client <= 1 ? "requests_per_client is 1: no pause between requests" : NULL,
        c->ntools ? "[tool] sections give every request its side effect" : NULL,
        occ                ? "kind is occ: no priorities"
        : !shedding        ? "[server] shed_sheddable_above is 0: nothing reads a priority"
        : own_priorities   ? "every [tool] section sets its own priority"
                           : NULL,
        !s->connections_per_host && !(s->send_cost_s > 0) && !(s->reply_cost_s > 0)
            ? "no connections_per_host and no [network] send_cost_s or reply_cost_s: the hosts share nothing"
            : NULL,
        pool_unused,
    };
    scn_x_put_section(x, "clients", cl, clw, sizeof cl / sizeof cl[0]);
    if (trace) {
        snprintf(v, sizeof v, "%u", s->clients);
        scn_x_put(x, "clients.count (derived)", v, "the trace", NULL);
    }

    const char *net[] = {"delay_s", "send_cost_s", "reply_cost_s"};
    scn_x_put_section(x, "network", net, NULL, 3);

    scn_x_server(x);

    /* outages, in time order (their names are labels only) */
    for (uint32_t j = 0; j < s->noutages; j++) {
        const scn_outage *ot = NULL;
        for (uint32_t i = 0; i < c->noutages; i++)
            if (c->outages[i].start_s == s->outages[j].start_s)
                ot = &c->outages[i];
        if (!ot)
            continue;
        char k[KEYTXT];
        fprintf(x->f, x->origins ? "[outage %s]\n" : "outage\n", ot->name);
        size_t first = scn_first_key("outage");
        for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, "outage"); i++) {
            const key *ky = &scn_key_table[i];
            const char *why = NULL;
            if (!strcmp(ky->name, "error_p") && ot->mode != SPEC_OUTAGE_PARTIAL)
                why = "mode is not partial";
            else if (!strcmp(ky->name, "status") && ot->mode == SPEC_OUTAGE_BLACK_HOLE)
                why = "mode is black_hole: nothing is answered";
            if (ky->type == K_OUTCOME) {
                if (ot->outcome > 0)
                    snprintf(v, sizeof v, "%d", ot->outcome);
                else
                    snprintf(v, sizeof v, "%s",
                             ot->outcome == HP_OUTCOME_CONN_REFUSED ? "connection_refused" : "connection_reset");
            } else
                fmt_field(ky, (const char *)ot + ky->off, v, sizeof v);
            snprintf(k, sizeof k, "outage %s.%s", ot->name, ky->name);
            scn_x_origin_text(x, ot->origin[i - first], o, sizeof o);
            scn_x_put(x, k, v, o, why);
        }
    }

    const char *idem[] = {"keys", "enforcement", "content_collision_p"};
    const char *idw[] = {NULL, c->keys == SPEC_KEYS_NONE ? "keys is none: the server stores no keys" : NULL,
                         c->keys != SPEC_KEYS_CONTENT_HASH ? "keys is not content_hash" : NULL};
    scn_x_put_section(x, "idempotency", idem, idw, 3);

    /* [limits]: each mechanism's parameters only when it is on */
    fprintf(x->f, x->origins ? "[limits]\n" : "limits\n");
    size_t first = scn_first_key("limits");
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, "limits"); i++) {
        const char *n = scn_key_table[i].name, *why = NULL;
        static const char *const pre[] = {"", "aws_", "grpc_", "envoy_", "finagle_"};
        static const char *const not[] = {"", "limiter is not aws_quota", "limiter is not grpc", "limiter is not envoy",
                                          "limiter is not finagle"};
        for (int l = 1; l < 5; l++)
            if (!strncmp(n, pre[l], strlen(pre[l])) && c->limiter != l)
                why = not[l];
        if (!strncmp(n, "breaker_", 8) && !c->breaker)
            why = "breaker is false";
        if (!strncmp(n, "throttle_", 9) && !c->throttling)
            why = "adaptive_throttling is false";
        if (!strncmp(n, "hedge_", 6) && !c->hedging)
            why = "hedging is false";
        else if (!strcmp(n, "hedge_percentile") && c->hedge_opts.mode != HP_HEDGE_PERCENTILE)
            why = "hedge_mode is fixed";
        if (!strcmp(n, "clients_per_instance") && c->limiter == HP_LIMITER_NONE && !c->breaker && !c->throttling &&
            !c->hedging && !x->adaptive)
            why = "no limiter, breaker, throttling, hedging or adaptive_rate_limiter keeps state per instance";
        put_key(x, "limits", n, why);
    }

    /* the retry loops that run */
    char title[256], prefix[KEYTXT];
    if (s->nlayers) {
        uint32_t n = 0;
        for (uint32_t l = 0; l < c->nlayers && n < s->nlayers; l++) {
            const scn_tool *L = &c->layers[l];
            const spec_layer *sl = &s->layers[n++];
            snprintf(title, sizeof title, "[layer %s] retry loop %u of %u (outermost first)", L->name, n, s->nlayers);
            snprintf(prefix, sizeof prefix, "layer %s", L->name);
            put_loop(x, title, prefix, "layer", L, &sl->policy, sl->own_strategy, NULL, NULL, NULL);
            char k[KEYTXT];
            static const char *const lk[] = {"kind", "obey_overload", "propagate_deadline", "think_time_s",
                                             "reissue_p", "repeat_p", "dedup_window_s"};
            size_t lf = scn_first_key("layer");
            for (size_t i = 0; i < sizeof lk / sizeof lk[0]; i++) {
                size_t ki = scn_key_find("layer", lk[i]);
                const key *ky = &scn_key_table[ki];
                const char *why = NULL;
                if (i >= 3 && L->kind != SPEC_LAYER_LLM)
                    why = "kind is plain";
                else if (i == 2 && n == s->nlayers)
                    why = "the innermost layer has no inner layer";
                fmt_field(ky, (const char *)L + ky->off, v, sizeof v);
                snprintf(k, sizeof k, "layer %s.%s", L->name, lk[i]);
                if (L->set >> (ki - lf) & 1)
                    scn_x_origin_text(x, L->origin[ki - lf], o, sizeof o);
                else
                    snprintf(o, sizeof o, "default");
                scn_x_put(x, k, v, o, why);
            }
            const hp_library_preset *lp =
                L->preset >= SCN_LIBRARY_PRESET ? hp_library_preset_at((uint32_t)(L->preset - SCN_LIBRARY_PRESET)) : NULL;
            if (lp && lp->two_layers && n < s->nlayers) {
                sl = &s->layers[n++];
                snprintf(title, sizeof title, "[layer %s] inner loop (preset %s), retry loop %u of %u", L->name,
                         lp->name, n, s->nlayers);
                snprintf(prefix, sizeof prefix, "layer %s (inner)", L->name);
                put_loop(x, title, prefix, "layer", L, &sl->policy, true, lp->name, NULL, NULL);
            }
        }
    }
    if (s->ntools) {
        for (uint32_t t = 0; t < s->ntools; t++) {
            const scn_tool *T = &c->tools[t];
            char k[KEYTXT];
            fprintf(x->f, x->origins ? "[tool %s]\n" : "tool %s\n", T->name);
            size_t tf = scn_first_key("tool");
            snprintf(k, sizeof k, "tool %s.weight", T->name);
            double wsum = 0;
            for (uint32_t i = 0; i < s->ntools; i++)
                wsum += s->tools[i].weight;
            snprintf(v, sizeof v, "%s", scn_x_num(s->tools[t].weight / wsum).s); /* what the model draws with */
            size_t wi = scn_key_find("tool", "weight");
            if (T->set >> (wi - tf) & 1)
                scn_x_origin_text(x, T->origin[wi - tf], o, sizeof o);
            else
                snprintf(o, sizeof o, "default");
            scn_x_put(x, k, v, o, s->ntools == 1 ? "the only tool: every request uses it" : NULL);
            snprintf(k, sizeof k, "tool %s.side_effect", T->name);
            size_t ei = scn_key_find("tool", "side_effect");
            if (T->set >> (ei - tf) & 1)
                scn_x_origin_text(x, T->origin[ei - tf], o, sizeof o);
            else if (T->preset >= 0 && T->preset < HP_EFFECT_COUNT)
                snprintf(o, sizeof o, "preset %s", scn_preset_name(T->preset));
            else
                snprintf(o, sizeof o, "default");
            scn_x_put(x, k, hp_effect_name(s->tools[t].effect), o, NULL);
            snprintf(k, sizeof k, "tool %s.priority", T->name);
            size_t pi = scn_key_find("tool", "priority");
            if (T->set >> (pi - tf) & 1)
                scn_x_origin_text(x, T->origin[pi - tf], o, sizeof o);
            else
                snprintf(o, sizeof o, "[clients] priority");
            scn_x_put(x, k, s->tools[t].sheddable ? "sheddable" : "critical", o,
                occ ? "kind is occ: no priorities"
                    : !shedding ? "[server] shed_sheddable_above is 0: nothing reads a priority" : NULL);
            if (!s->nlayers) {
                snprintf(title, sizeof title, "[tool %s] retry loop", T->name);
                snprintf(prefix, sizeof prefix, "tool %s", T->name);
                put_loop(x, title, prefix, "tool", T, &s->tools[t].policy, s->tools[t].own_strategy, NULL,
                         scn_plugin_at(x->c, t), s->tools[t].plugin);
            } else if (x->origins)
                fprintf(x->f, "  (its policy keys are unused: the [layer] sections are the retry loops)\n");
        }
    } else if (!s->nlayers) {
        put_loop(x, "[retry] retry loop (every request)", "retry", "retry", NULL, &s->policy, false, NULL,
                 scn_plugin_at(x->c, SPEC_MAX_TOOLS), s->plugin);
    }
}

int scn_explain(FILE *f, const scn_config *c, const char *path, const char *const *sets, int nsets, bool origins)
{
    xctx *x = herd_calloc(1, sizeof *x);
    if (!x)
        return -1;
    *x = (xctx){.f = f, .c = c, .path = path, .sets = sets, .nsets = nsets, .origins = origins};
    if (origins && !(x->scratch = herd_malloc_array(1, sizeof(scn_config)))) {
        herd_free(x);
        return -1;
    }
    dump(x);
    herd_free(x->scratch);
    herd_free(x);
    return ferror(f) ? -1 : 0;
}

int scn_explain_points(FILE *f, const scn_config *c, const char *path, const char *const *sets, int nsets,
                       bool origins)
{
    int rc = -1;
    char (*labels[SCN_MAX_SWEEPS])[SCN_VALUE_MAX] = {0};
    long nl[SCN_MAX_SWEEPS], total = 1;
    scn_config *point = herd_malloc_array(1, sizeof *point);
    char e[SCN_ERR_MAX];
    if (!point)
        goto out;
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const char *msg;
        labels[i] = herd_malloc_array(SCN_SWEEP_POINTS_MAX, sizeof *labels[i]);
        nl[i] = labels[i] ? scn_sweep_labels(&c->sweeps[i], labels[i], SCN_SWEEP_POINTS_MAX, &msg) : -1;
        if (nl[i] <= 0)
            goto out;
        total *= nl[i];
    }
    uint32_t nvar = c->nvariants ? c->nvariants : 1;
    for (uint32_t v = 0; v < nvar; v++)
        for (long p = 0; p < total; p++) {
            const char *lab[SCN_MAX_SWEEPS];
            long rest = p;
            for (int i = (int)c->nsweeps - 1; i >= 0; i--) {
                lab[i] = labels[i][rest % nl[i]];
                rest /= nl[i];
            }
            if (scn_derive(point, c, c->nvariants ? (int)v : -1, lab, path, e) != 0)
                goto out;
            fprintf(f, "== point %ld:", (long)v * total + p + 1);
            if (c->nvariants)
                fprintf(f, " variant %s", c->variants[v].name);
            for (uint32_t i = 0; i < c->nsweeps; i++)
                fprintf(f, " %s=%s", c->sweeps[i].key, lab[i]);
            if (!c->nvariants && !c->nsweeps)
                fprintf(f, " the scenario");
            fprintf(f, "\n");
            if (scn_explain(f, point, path, sets, nsets, origins) != 0)
                goto out;
        }
    rc = ferror(f) ? -1 : 0;
out:
    for (uint32_t i = 0; i < c->nsweeps; i++)
        herd_free(labels[i]);
    herd_free(point);
    return rc;
}
