/*
 * validate.c - the checks of a parsed scenario that span keys (cap_s
 * against base_s, data files against [clients], outages against each other,
 * memory), run once the file and every --set are read (scenario.c) and again
 * on each expanded run (scn_validate).  A single key's type and range are
 * checked as it is read (keys.c).
 */
#include "keys.h"

#include "../plugin/loader.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../spec/memory.h"
#include "data.h"
#include "explain.h"

/* "PATH:LINE", "--set ASSIGNMENT" or "PATH" for an origin. */
void scn_origin_text(const scn_origins *o, int where, char *out, size_t n)
{
    if (where > 0)
        snprintf(out, n, "%s:%d", o->path, where);
    else if (where <= -2 && o->sets && -where - 2 < o->nsets)
        scn_override_text(o->sets, o->shown, -where - 2, out, n);
    else
        snprintf(out, n, "%s", o->path);
}

void scn_override_text(const char *const *sets, const char *const *shown, int k, char *out, size_t n)
{
    if (shown && shown[k])
        snprintf(out, n, "%s", shown[k]);
    else
        snprintf(out, n, "--set %s", sets[k]);
}

/* Where key section.name was set: a line, a --set origin, or 0. */
static int line_of(const scn_origins *from, const char *section, const char *name)
{
    size_t i = scn_key_find(section, name);
    if (!from || !from->key_line || i == scn_key_count)
        return 0;
    int w = from->key_line[i];
    return w > 0 || w <= -2 ? w : 0;
}

/* The [limits] key a library check message is about: of the keys whose
 * names (or "breaker x" for breaker_x, and so on) it mentions, the first
 * one the scenario set (a consistency message names two keys, "a exceeds
 * b", and the one set is the one to blame), else the first mentioned, else
 * "limiter". */
static const char *limits_key_for(const char *msg, const scn_origins *from)
{
    const char *best = "limiter", *best_set = NULL;
    const char *at = NULL, *at_set = NULL;
    for (size_t i = scn_first_key("limits"); i < scn_key_count && !strcmp(scn_key_table[i].section, "limits"); i++) {
        const char *name = scn_key_table[i].name;
        char alt[96];
        snprintf(alt, sizeof alt, "%s", name);
        char *us = strchr(alt, '_');
        if (us && (!strncmp(alt, "breaker_", 8) || !strncmp(alt, "throttle_", 9) || !strncmp(alt, "hedge_", 6)))
            *us = ' ';
        const char *p = strstr(msg, name);
        const char *q = strstr(msg, alt);
        if (!p || (q && q < p))
            p = q;
        if (!p)
            continue;
        if (!at || p < at) {
            at = p;
            best = name;
        }
        if (line_of(from, "limits", name) != 0 && (!at_set || p < at_set)) {
            at_set = p;
            best_set = name;
        }
    }
    return best_set ? best_set : best;
}

double scn_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return 16.0 * 1024 * 1024 * 1024;
    return 0.8 * (double)pages * (double)size;
}

/* NULL if every attempt sent to the server has a bounded wait (a timeout
 * or a budget: its own, or an outer layer's propagated deadline), else
 * what lacks one ("[retry]", a tool or the innermost layer). */
static const char *unbounded_wait(const scn_config *c)
{
    static char what[SCN_NAME_MAX + 16];
    if (c->nlayers) {
        for (uint32_t l = c->nlayers; l-- > 0;) {
            hp_policy p = scn_layer_policy(c, l, HP_EXPONENTIAL);
            if (p.attempt_timeout_s > 0 || p.budget_s > 0)
                return NULL;
            if (l == 0 || !c->layers[l - 1].propagate_deadline)
                break;
        }
        snprintf(what, sizeof what, "[layer %s]", c->layers[c->nlayers - 1].name);
        return what;
    }
    for (uint32_t t = 0; t < (c->ntools ? c->ntools : 1); t++) {
        hp_policy p = scn_tool_policy(c, t, HP_EXPONENTIAL);
        if (!(p.attempt_timeout_s > 0) && !(p.budget_s > 0)) {
            snprintf(what, sizeof what, c->ntools ? "[tool %s]" : "[retry]", c->ntools ? c->tools[t].name : "");
            return what;
        }
    }
    return NULL;
}

/* True if every sleep of p between attempts is 0, whatever its spelling:
 * immediate, or random (no jitter) whose delay distribution can draw only
 * 0 (constant(0), uniform(0, 0)). */
static int never_sleeps(const hp_policy *p)
{
    if (p->strategy == HP_IMMEDIATE)
        return 1;
    if (p->strategy != HP_RANDOM || p->jitter != HP_JITTER_NONE)
        return 0;
    double hi = p->delay_kind == HP_DELAY_UNIFORM ? p->delay_b : p->delay_a;
    return p->delay_kind != HP_DELAY_EXPONENTIAL && hi == 0; /* exponential(0) means exponential(base_s) */
}

/* The rules of data files: a trace goes with start = trace and nothing
 * else sets the rate; a capacity timeline's error rates with the
 * background errors stay probabilities. */
static int check_data(const scn_config *c, const scn_origins *from, char *err)
{
    int l = 0;
    char m[SCN_ERR_MAX], o[SCN_ERR_MAX / 2];
    const spec_table *data = scn_data();
    m[0] = '\0';
    if (c->start == SPEC_START_TRACE) {
        const spec_entry *e = spec_table_entry(data, c->trace);
        if (!e) {
            l = line_of(from, "clients", "start");
            snprintf(m, sizeof m, "[clients] start = trace needs trace_file (a CSV of time_s,rate_per_s)");
        } else if (line_of(from, "clients", "count") || c->clients != SCN_DEFAULT_CLIENTS) {
            /* a count from the file, or from a variant, a sweep or --set */
            l = line_of(from, "clients", "count");
            snprintf(m, sizeof m, "[clients] count: with start = trace the number of clients is derived from the "
                                  "trace (one per arrival); expected no count");
        } else if (c->rate_per_s > 0 || c->step_rate_per_s > 0 || c->spike_rate_per_s > 0) {
            l = line_of(from, "clients", c->rate_per_s > 0 ? "rate_per_s" : c->step_rate_per_s > 0 ? "step_rate_per_s"
                                                                                                  : "spike_rate_per_s");
            snprintf(m, sizeof m, "[clients] with start = trace the trace sets the rate; expected no rate_per_s, "
                                  "step_rate_per_s or spike_rate_per_s");
        } else if (c->horizon_s < spec_trace_t(data, e)[e->n - 1]) {
            l = line_of(from, "run", "horizon_s");
            snprintf(m, sizeof m, "[run] horizon_s (%g s) ends before the trace (%g s); expected horizon_s >= the "
                                  "trace's last time_s", c->horizon_s, spec_trace_t(data, e)[e->n - 1]);
        } else if (spec_trace_cum(data, e, c->trace_linear)[e->n - 1] > 1e7) {
            l = line_of(from, "clients", "trace_file");
            snprintf(m, sizeof m, "[clients] trace_file: the trace makes %.3g arrivals on average; expected at most 1e7",
                     spec_trace_cum(data, e, c->trace_linear)[e->n - 1]);
        }
    } else if (c->trace) {
        l = line_of(from, "clients", "trace_file");
        snprintf(m, sizeof m, "[clients] trace_file is used with start = trace only; expected start = trace or no "
                              "trace_file");
    }
    const spec_entry *cap = spec_table_entry(data, c->capacity);
    if (!m[0] && cap && c->kind == SPEC_SERVER_OCC) {
        l = line_of(from, "server", "capacity_file");
        snprintf(m, sizeof m, "[server] capacity_file works with kind = queue only");
    }
    if (!m[0] && cap) {
        double bg = 0;
        for (uint32_t i = 0; i < c->nerrors; i++)
            bg += c->errors[i].p;
        const double *er = data->v + cap->off + 3 * (size_t)cap->n;
        for (uint32_t r = 0; r < cap->n && !m[0]; r++)
            if (er[r] + bg > 1 + 1e-12) {
                char row[200];
                scn_data_row_origin(c->capacity, r, row, sizeof row);
                l = line_of(from, "server", "capacity_file");
                snprintf(m, sizeof m, "[server] capacity_file: %s: column 4 (error_rate): %g plus the error_rate_* "
                                      "keys (%g) exceeds 1; expected at most 1 in all", row, er[r], bg);
            }
    }
    if (!m[0])
        return 0;
    scn_origin_text(from, l, o, sizeof o);
    snprintf(err, SCN_ERR_MAX, "%s: %s", o, m);
    return -1;
}

/* Where origin code o is shown from (a line, a --set; else the file). */
static int shown_at(int o)
{
    return o > 0 || (o <= -2 && o > SCN_ORIGIN_VARIANT(0)) ? o : 0;
}

/* The plugin of [retry] or of a [tool] (section, e.g. "tool send_email"):
 * loaded, checked and configured (sim/plugin/loader.h).  0, or -1 with err. */
static int check_plugin(const scn_config *c, const scn_plugin *pl, const char *section, const scn_origins *from,
                        char err[static SCN_ERR_MAX])
{
    char o[SCN_ERR_MAX / 2], e[HPL_ERR_MAX];
    if (!pl->spec[0] && !pl->keys[0])
        return 0;
    if (!pl->spec[0]) {
        scn_origin_text(from, shown_at(pl->keys_origin), o, sizeof o);
        snprintf(err, SCN_ERR_MAX, "%s: [%s] plugin.KEY without plugin in the same section; expected plugin = "
                                   "PATH.so or python:MODULE:OBJECT", o, section);
        return -1;
    }
    if (c->nlayers) {
        scn_origin_text(from, shown_at(pl->origin), o, sizeof o);
        snprintf(err, SCN_ERR_MAX, "%s: [%s] plugin: with [layer] sections the innermost layer's built-in policy "
                                   "decides each attempt; expected no [layer] sections (plugins in [layer] are not "
                                   "supported yet)", o, section);
        return -1;
    }
    if (hpl_load(pl->spec, scn_data_dir(), pl->keys, e))
        return 0;
    int at = pl->origin; /* a message about plugin.KEY blames that key */
    const char *kname = strstr(e, "plugin.");
    if (kname) {
        kname += 7;
        size_t kl = strcspn(kname, ": ");
        unsigned i = 0;
        for (const char *l = pl->keys; *l && i < SCN_PLUGIN_KEYS; i++) {
            if (!strncmp(l, kname, kl) && l[kl] == '=') {
                at = pl->key_origin[i];
                break;
            }
            const char *eol = strchr(l, '\n');
            if (!eol)
                break;
            l = eol + 1;
        }
    }
    scn_origin_text(from, shown_at(at), o, sizeof o);
    snprintf(err, SCN_ERR_MAX, "%s: [%s] plugin = %s: %s", o, section, pl->spec, e);
    return -1;
}

int scn_check(const scn_config *c, const scn_origins *from, char err[static SCN_ERR_MAX])
{
#define BAD(line, ...)                                                                                        \
    do {                                                                                                      \
        char m_[SCN_ERR_MAX], o_[SCN_ERR_MAX / 2];                                                            \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                                 \
        scn_origin_text(from, (int)(line), o_, sizeof o_);                                                      \
        snprintf(err, SCN_ERR_MAX, "%s: %s", o_, m_);                                                         \
        return -1;                                                                                            \
    } while (0)

    if (c->policy.cap_s < c->policy.base_s) {
        int l = line_of(from, "retry", "cap_s");
        BAD(l ? l : line_of(from, "retry", "base_s"),
            "[retry] cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s", c->policy.cap_s,
            c->policy.base_s);
    }
    double wsum = 0;
    for (uint32_t t = 0; t < c->ntools; t++) {
        const scn_tool *tool = &c->tools[t];
        hp_policy p = scn_tool_policy(c, t, HP_EXPONENTIAL);
        if (p.cap_s < p.base_s)
            BAD(tool->line, "[tool %s]: cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s", tool->name,
                p.cap_s, p.base_s);
        wsum += tool->weight;
    }
    for (uint32_t l = 0; l < c->nlayers; l++) {
        hp_policy p = scn_layer_policy(c, l, HP_EXPONENTIAL);
        if (p.cap_s < p.base_s)
            BAD(c->layers[l].line, "[layer %s]: cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s",
                c->layers[l].name, p.cap_s, p.base_s);
        /* retry_on: the documented retryable classes, or a class this
         * layer's retry_also (or retry_with_retry_after) makes retryable */
        uint32_t beyond = c->layers[l].retry_mask & ~SCN_RETRYABLE_CLASSES & ~p.retry_also & ~p.retry_with_ra;
        if (beyond) {
            int cl = 0;
            while (!(beyond >> cl & 1))
                cl++;
            size_t first = scn_first_key("layer"), i = first;
            while (i < scn_key_count && strcmp(scn_key_table[i].name, "retry_on"))
                i++;
            int at = i < scn_key_count ? c->layers[l].origin[i - first] : 0;
            BAD(at > 0 || at <= -2 ? at : c->layers[l].line,
                "[layer %s] retry_on: %s is not a class this layer can retry; expected server, rate_limited, timeout, "
                "connection, conflict, unknown, request_timeout, overloaded, or a class its retry_also adds",
                c->layers[l].name, hp_class_name((hp_class)cl));
        }
    }
    {
        hp_limiter_opts lo = c->limiter_opts;
        lo.kind = (hp_limiter_kind)c->limiter;
        const char *m = hp_limiter_check(&lo);
        if (!m && c->breaker)
            m = hp_breaker_check(&c->breaker_opts);
        if (!m && c->throttling)
            m = hp_throttle_check(&c->throttle_opts);
        if (!m && c->hedging)
            m = hp_hedge_check(&c->hedge_opts);
        if (m) {
            const char *lk = limits_key_for(m, from);
            int l = line_of(from, "limits", lk);
            /* a default against a default: the key that turned the mechanism on */
            static const char *const on[] = {"limiter", "breaker", "adaptive_throttling", "hedging"};
            for (size_t i = 0; !l && i < sizeof on / sizeof on[0]; i++)
                l = line_of(from, "limits", on[i]);
            BAD(l, "[limits] %s: %s; expected consistent [limits] values", lk, m);
        }
    }
    if (c->hedging && c->nlayers)
        BAD(line_of(from, "limits", "hedging"), "[limits] hedging works without [layer] sections");
    if (scn_expanded_layers(c) > SPEC_MAX_LAYERS)
        BAD(c->layers[c->nlayers - 1].line,
            "[layer %s]: %u retry loops once two-layer presets are expanded; expected at most %d",
            c->layers[c->nlayers - 1].name, scn_expanded_layers(c), SPEC_MAX_LAYERS);
    {
        const char *m = hp_policy_check(&c->policy);
        if (m)
            BAD(line_of(from, "retry", "jitter_factor"), "[retry]: %s; expected a consistent retry policy", m);
        for (uint32_t t = 0; t < c->ntools; t++) {
            hp_policy p = scn_tool_policy(c, t, HP_EXPONENTIAL);
            if ((m = hp_policy_check(&p)) != NULL)
                BAD(c->tools[t].line, "[tool %s]: %s; expected a consistent retry policy", c->tools[t].name, m);
        }
        for (uint32_t l = 0; l < c->nlayers; l++) {
            hp_policy p = scn_layer_policy(c, l, HP_EXPONENTIAL);
            if ((m = hp_policy_check(&p)) != NULL)
                BAD(c->layers[l].line, "[layer %s]: %s; expected a consistent retry policy", c->layers[l].name, m);
        }
    }
    if (c->nlayers && c->kind == SPEC_SERVER_OCC)
        BAD(c->layers[0].line, "[layer %s]: layers work with the queue server only", c->layers[0].name);
    if (c->ntools && !(wsum > 0))
        BAD(c->tools[0].line, "[tool %s]: the tool weights sum to 0; expected at least one weight > 0",
            c->tools[0].name);
    if (c->shed_sheddable_above >= 1 && !c->capacity)
        BAD(line_of(from, "server", "shed_sheddable_above"),
            "[server] shed_sheddable_above = 1 never sheds: without a capacity_file at most every worker is busy, a "
            "share of 1, not above it; expected a fraction below 1");
    /* one rule for keys that cannot act: a wait threshold at or beyond
     * the horizon is never exceeded (no attempt waits longer than the
     * run), as a share of 1 is never above every worker busy */
    if (c->codel_target_s > 0 && c->codel_target_s >= c->horizon_s)
        BAD(line_of(from, "server", "codel_target_s"),
            "[server] codel_target_s = %g s never acts: no attempt waits longer than horizon_s = %g s; expected a "
            "target below horizon_s (0: no CoDel)", c->codel_target_s, c->horizon_s);
    if (c->queue_discipline == SPEC_QD_ADAPTIVE_LIFO && c->adaptive_lifo_after_s >= c->horizon_s)
        BAD(line_of(from, "server", "adaptive_lifo_after_s"),
            "[server] adaptive_lifo_after_s = %g s never acts: no attempt waits longer than horizon_s = %g s; "
            "expected a wait below horizon_s (or queue_discipline = fifo)", c->adaptive_lifo_after_s, c->horizon_s);
    if (c->keys == SPEC_KEYS_CONTENT_HASH && c->kind == SPEC_SERVER_OCC)
        BAD(line_of(from, "idempotency", "keys"), "[idempotency] keys: the occ server has no key store");
    if (c->baseline_variant[0]) {
        uint32_t v = 0;
        while (v < c->nvariants && strcmp(c->variants[v].name, c->baseline_variant))
            v++;
        if (v == c->nvariants)
            BAD(line_of(from, "run", "baseline_variant"), "[run] baseline_variant = %s is not a [variant] of the scenario",
                c->baseline_variant);
    }
    if (c->baseline >= 0) {
        hp_strategy s[HP_STRATEGY_COUNT];
        uint32_t n = scn_strategies(c, s), i;
        for (i = 0; i < n && (int)s[i] != c->baseline; i++)
            ;
        if (i == n)
            BAD(line_of(from, "run", "baseline"), "[run] baseline = %s is not one of the strategies run",
                hp_strategy_name((hp_strategy)c->baseline));
    }
    if (c->concurrency_limiter == SPEC_CL_AIMD || c->concurrency_limiter == SPEC_CL_GRADIENT2) {
        if (c->limiter_min > c->limiter_max) {
            int l = line_of(from, "server", "limiter_min");
            BAD(l ? l : line_of(from, "server", "limiter_max"),
                "[server] limiter_min (%u) is above limiter_max (%u); expected limiter_min <= limiter_max",
                c->limiter_min, c->limiter_max);
        }
        if (c->concurrency_limit < c->limiter_min || c->concurrency_limit > c->limiter_max) {
            int l = line_of(from, "server", "concurrency_limit");
            BAD(l ? l : line_of(from, "server", "concurrency_limiter"),
                "[server] concurrency_limit (%u, the initial limit) is outside [limiter_min, limiter_max] = [%u, %u]; "
                "expected limiter_min <= concurrency_limit <= limiter_max",
                c->concurrency_limit, c->limiter_min, c->limiter_max);
        }
    }
    if (c->limiter_window_s > 0 && c->limiter_window_s < 0.1)
        BAD(line_of(from, "server", "limiter_window_s"),
            "[server] limiter_window_s = %g s: WindowedLimit's window is at least 0.1 s; expected 0 (no window) or "
            "a number in [0.1, 1e9]", c->limiter_window_s);
    if (c->concurrency_limiter != SPEC_CL_NONE && c->kind == SPEC_SERVER_QUEUE && !c->capacity) {
        /* the attempts admitted are at most workers + queue: a limit
         * above that never rejects anything */
        uint64_t room = (uint64_t)c->workers + c->queue;
        uint32_t lo = c->concurrency_limiter == SPEC_CL_FIXED ? c->concurrency_limit
                      : c->concurrency_limit < c->limiter_min ? c->concurrency_limit
                                                              : c->limiter_min;
        if (lo > room) {
            int l = line_of(from, "server", c->concurrency_limiter == SPEC_CL_FIXED ? "concurrency_limit" : "limiter_min");
            BAD(l ? l : line_of(from, "server", "concurrency_limiter"),
                "[server] concurrency_limiter: no effect, because its limit (at least %u) is above workers + queue "
                "(%llu), so it never rejects an attempt; expected a limit of at most %llu",
                lo, (unsigned long long)room, (unsigned long long)room);
        }
    }
    if (c->kind == SPEC_SERVER_OCC) {
        int l = line_of(from, "server", "kind");
        if (c->noutages)
            BAD(l, "[server] kind = occ has no outages; remove the [outage %s] section", c->outages[0].name);
        if (c->nerrors)
            BAD(l, "[server] kind = occ has no background errors; remove the error_rate_* keys");
        if (c->policy.attempt_timeout_s > 0)
            BAD(l, "[server] kind = occ never loses a reply; remove [retry] attempt_timeout_s");
    }
    /* A retry loop that can spin at one instant for ever: unlimited
     * attempts, no sleep (immediate), no network delay, against a server
     * that can fail at once (an outage, errors, a full queue).  The delay
     * is judged by its support, not its spelling: constant(0), an
     * empirical file of zeros, a mixture of such are all "no delay". */
    double delay_lo, delay_hi;
    dist_support(&c->delay, scn_data(), &delay_lo, &delay_hi);
    if (c->kind == SPEC_SERVER_QUEUE && delay_hi == 0) {
        hp_strategy run[HP_STRATEGY_COUNT];
        uint32_t nrun = scn_strategies(c, run);
        for (uint32_t s = 0; s < nrun; s++) {
            uint32_t n = c->nlayers ? c->nlayers : c->ntools ? c->ntools : 1;
            for (uint32_t i = 0; i < n; i++) {
                hp_policy p = c->nlayers ? scn_layer_policy(c, i, run[s]) : scn_tool_policy(c, c->ntools ? i : SPEC_MAX_TOOLS, run[s]);
                if (!never_sleeps(&p) || p.max_attempts != 0)
                    continue;
                char what[SCN_NAME_MAX + 16];
                snprintf(what, sizeof what, c->nlayers ? "[layer %s]" : c->ntools ? "[tool %s]" : "[retry]",
                         c->nlayers ? c->layers[i].name : c->ntools ? c->tools[i].name : "");
                int l = c->nlayers ? c->layers[i].line : c->ntools ? c->tools[i].line : line_of(from, "retry", "max_attempts");
                BAD(l ? l : line_of(from, "network", "delay_s"),
                    "%s max_attempts = 0 (unlimited) with strategy %s and [network] delay_s = 0%s: a failing "
                    "request would retry for ever at one instant; expected max_attempts > 0, a network delay > 0 "
                    "or a strategy that sleeps",
                    what, p.strategy == HP_IMMEDIATE ? "immediate" : "random with delay_s always 0",
                    c->delay.kind == DIST_CONSTANT ? "" : " (every value it can draw is 0)");
            }
        }
    }
    if (c->horizon_s / c->bucket_s > 1e8) {
        int l = line_of(from, "run", "bucket_s");
        BAD(l ? l : line_of(from, "run", "horizon_s"),
            "[run] bucket_s = %g s over horizon_s = %g s makes %.3g timeseries buckets; expected at most 1e8 (a "
            "larger bucket_s or a shorter horizon_s)",
            c->bucket_s, c->horizon_s, c->horizon_s / c->bucket_s);
    }
    if (c->window_s[1] > c->window_s[0] && c->window_s[1] > c->horizon_s) {
        int l = line_of(from, "run", "window_s");
        BAD(l ? l : line_of(from, "run", "horizon_s"),
            "[run] window_s = %s:%s ends after horizon_s = %s s: requests started after the horizon never "
            "happen; expected TO <= horizon_s",
            scn_x_num(c->window_s[0]).s, scn_x_num(c->window_s[1]).s, scn_x_num(c->horizon_s).s);
    }
    if (c->start == SPEC_START_SPREAD && !(c->spread_s > 0))
        BAD(line_of(from, "clients", "start"), "[clients] start = spread needs spread_s > 0");
    if (c->requests_per_client % c->task_steps)
        BAD(line_of(from, "clients", "task_steps"),
            "[clients] requests_per_client (%u) must be a multiple of task_steps (%u)", c->requests_per_client,
            c->task_steps);
    if (c->spike_rate_per_s > 0 && !(c->spike_end_s > c->spike_start_s))
        BAD(line_of(from, "clients", "spike_end_s"), "[clients] spike_end_s must be after spike_start_s");
    if (c->start == SPEC_START_POISSON && !(c->rate_per_s > 0))
        BAD(line_of(from, "clients", "start"), "[clients] start = poisson needs rate_per_s > 0");
    if (check_data(c, from, err) != 0)
        return -1;
    double total = 0;
    for (uint32_t i = 0; i < c->nerrors; i++)
        total += c->errors[i].p;
    if (total > 1 + 1e-12) {
        /* blame the rate applied last: a --set (the latest) before any line
         * of the file (the last one) */
        int where = 0;
        for (uint32_t i = 0; from && from->error_line && i < c->nerrors; i++) {
            int w = from->error_line[i];
            if (w <= -2 ? (where > 0 || where == 0 || w < where) : (where >= 0 && w > where))
                where = w;
        }
        BAD(where, "[server] the error_rate_* probabilities sum to %g; expected at most 1", total);
    }
    for (uint32_t i = 0; i < c->noutages; i++) {
        const scn_outage *o = &c->outages[i];
        if (isnan(o->start_s) || isnan(o->end_s))
            BAD(o->line, "[outage %s]: missing required key %s", o->name, isnan(o->start_s) ? "start_s" : "end_s");
        if (!(o->end_s > o->start_s))
            BAD(o->line, "[outage %s]: end_s (%g) must be after start_s (%g)", o->name, o->end_s, o->start_s);
        const char *unbounded = o->mode == SPEC_OUTAGE_BLACK_HOLE ? unbounded_wait(c) : NULL;
        if (unbounded)
            BAD(o->line,
                "[outage %s]: a black_hole outage never answers, so clients would wait forever; "
                "set attempt_timeout_s > 0 (or budget_s) for %s",
                o->name, unbounded);
        for (uint32_t j = 0; j < i; j++) {
            const scn_outage *q = &c->outages[j];
            if (o->start_s < q->end_s && q->start_s < o->end_s)
                BAD(o->line, "[outage %s] [%g, %g) overlaps [outage %s] [%g, %g); expected disjoint outages",
                    o->name, o->start_s, o->end_s, q->name, q->start_s, q->end_s);
        }
    }
    if (check_plugin(c, &c->plugin, "retry", from, err) != 0)
        return -1;
    bool retry_plugin_read = !c->ntools;
    for (uint32_t t = 0; t < c->ntools; t++) {
        char sec[SCN_NAME_MAX + 8];
        snprintf(sec, sizeof sec, "tool %s", c->tools[t].name);
        if (check_plugin(c, &c->tools[t].plugin, sec, from, err) != 0)
            return -1;
        retry_plugin_read |= !c->tools[t].plugin.spec[0];
    }
    if (c->plugin.spec[0] && !retry_plugin_read)
        BAD(shown_at(c->plugin.origin),
            "[retry] plugin: no effect, because every [tool] section has its own plugin; expected no [retry] plugin, "
            "or a tool without its own");
    if ((double)c->clients * c->requests_per_client > 4e9)
        BAD(line_of(from, "clients", "requests_per_client"),
            "clients x requests_per_client exceeds 4e9 logical requests");
    model_spec spec;
    scn_compile(c, &spec);
    if (c->clients_per_instance) {
        int l = line_of(from, "limits", "clients_per_instance");
        if (!spec_guard_shares_state(&spec))
            BAD(l, "[limits] clients_per_instance: no effect, because [limits] configures no limiter, breaker, "
                   "throttling or hedging, and no innermost retry policy has adaptive_rate_limiter (nothing is "
                   "kept per instance); expected one of them, or no clients_per_instance");
        if (c->clients_per_instance >= spec.clients)
            BAD(l, "[limits] clients_per_instance: no effect, because %u clients per instance put all %u clients "
                   "in one instance, as without the key (one state shared by all); expected fewer than %u, or no "
                   "clients_per_instance",
                c->clients_per_instance, spec.clients, spec.clients);
    }
    if (c->hosts > spec.clients)
        BAD(line_of(from, "clients", "hosts"),
            "[clients] hosts = %u exceeds the %u clients: client i runs on host i mod hosts, so a host beyond "
            "them has no client; expected hosts <= %u",
            c->hosts, spec.clients, spec.clients);
    uint32_t per_host = spec.clients / c->hosts + (spec.clients % c->hosts != 0);
    if (c->connections_per_host && c->hosts <= spec.clients && c->connections_per_host >= per_host)
        BAD(line_of(from, "clients", "connections_per_host"),
            "[clients] connections_per_host: no effect, because %u connections per host are at least the %u "
            "clients of a host (each with one attempt at a time): every attempt has a connection, as without the "
            "key; expected fewer than %u, or no connections_per_host",
            c->connections_per_host, per_host, per_host);
    if (c->connections_per_host && spec.guard.hedging)
        BAD(line_of(from, "clients", "connections_per_host"),
            "[clients] connections_per_host with [limits] hedging: a hedged copy would need a connection of "
            "its own, which herd does not model; expected no connections_per_host, or hedging = false");
    double need = spec_memory_estimate(&spec);
    double have = scn_memory_limit();
    if (need > have)
        BAD(line_of(from, "clients", "count"),
            "this scenario needs about %.1f GiB of memory per simulation (clients x requests_per_client); "
            "at most %.1f GiB (80%% of this machine's memory) can be used; expected fewer clients or requests",
            need / (1024.0 * 1024 * 1024), have / (1024.0 * 1024 * 1024));
    return 0;
#undef BAD
}

int scn_validate(const scn_config *c, const char *path, char err[static SCN_ERR_MAX])
{
    scn_origins o = {.path = path}; /* after expansion: no lines to blame */
    return scn_check(c, &o, err);
}
