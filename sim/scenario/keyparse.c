/*
 * keyparse.c - a value of the scenario format into the field of its key:
 * strict numbers and statuses, each key type of the table (keys.c) with its
 * range, presets, and the "did you mean" hints of the messages.
 */
#include "keys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../spec/metrics.h"
#include "data.h"

static const char *apply_preset(const key *k, void *field, const char *value, char *buf, size_t n);

/* Strict numbers: the whole value must be one number of the scenario
 * syntax (spec_parse_number). */
int scn_parse_double(const char *s, double *out)
{
    return spec_parse_number(s, out);
}

int scn_parse_u64(const char *s, uint64_t *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

int scn_parse_outcome(const char *s, int *out)
{
    if (strcmp(s, "connection_refused") == 0) {
        *out = HP_OUTCOME_CONN_REFUSED;
        return 0;
    }
    if (strcmp(s, "connection_reset") == 0) {
        *out = HP_OUTCOME_CONN_RESET;
        return 0;
    }
    uint64_t v;
    if (scn_parse_u64(s, &v) != 0 || v < 100 || v > 599)
        return -1;
    *out = (int)v;
    return 0;
}

/* Edit distance (insertions, deletions, substitutions) of a and b, for
 * words up to 63 characters (longer ones: a large number). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 1000;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

const char *scn_nearest(const char *word, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t bd = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, cands[i]);
        if (d < bd) {
            bd = d;
            best = cands[i];
        }
    }
    size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2;
    return best && bd <= limit && bd < len ? best : NULL;
}

int scn_valid_name(const char *s)
{
    if (!*s || strlen(s) >= SCN_NAME_MAX || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

void scn_range_text(const key *k, char *buf, size_t n)
{
    int no_zero = k->lo == 0 && scn_zero_refusal(k) != NULL; /* (0, hi] */
    if (k->type == K_U64)
        snprintf(buf, n, "an integer in [%.0f, 2^64 - 1]", k->lo);
    else if (k->type == K_U32)
        snprintf(buf, n, "an integer in [%.0f, %.0f]", no_zero ? 1 : k->lo, k->hi);
    else
        snprintf(buf, n, "a number in %s%g, %g]%s%s", no_zero ? "(" : "[", k->lo, k->hi, *k->unit ? " " : "",
                 k->unit);
}

/* A 0 written to a key whose library field reads 0 as its default (and has
 * no HP_OFF: compile.c) is refused with the reason.  NULL, or the message
 * in buf. */
static const char *refuse_zero(const key *k, double v, const char *range, char *buf, size_t n)
{
    const char *why = v == 0 ? scn_zero_refusal(k) : NULL;
    if (!why)
        return NULL;
    snprintf(buf, n, "0 is refused: %s; expected %s", why, range);
    return buf;
}

/* Applies value to the field of key k at base.  Returns NULL or a message
 * (written into buf). */
const char *scn_apply(const key *k, void *base, const char *value, char *buf, size_t n)
{
    char *field = (char *)base + k->off;
    char range[128];
    switch (k->type) {
    case K_DOUBLE: {
        double v;
        scn_range_text(k, range, sizeof range);
        if (scn_parse_double(value, &v) != 0 || v < k->lo || v > k->hi) {
            snprintf(buf, n, "expected %s, got '%s'", range, value);
            return buf;
        }
        if (refuse_zero(k, v, range, buf, n))
            return buf;
        memcpy(field, &v, sizeof v);
        return NULL;
    }
    case K_WINDOW: {
        double v[2];
        const char *colon = strchr(value, ':');
        char a[64];
        if (colon && (size_t)(colon - value) < sizeof a) {
            memcpy(a, value, (size_t)(colon - value));
            a[colon - value] = '\0';
        }
        if (!colon || (size_t)(colon - value) >= sizeof a || scn_parse_double(a, &v[0]) != 0 ||
            scn_parse_double(colon + 1, &v[1]) != 0 || !(v[0] >= k->lo) || !(v[1] <= k->hi) || !(v[0] < v[1])) {
            snprintf(buf, n, "expected FROM:TO, two times in seconds with %g <= FROM < TO <= %g (the logical "
                             "requests started in [FROM, TO) are measured), got '%s'", k->lo, k->hi, value);
            return buf;
        }
        memcpy(field, v, sizeof v);
        return NULL;
    }
    case K_U32:
    case K_U64: {
        uint64_t v;
        scn_range_text(k, range, sizeof range);
        if (scn_parse_u64(value, &v) != 0 || (double)v < k->lo || (double)v > k->hi) {
            snprintf(buf, n, "expected %s, got '%s'", range, value);
            return buf;
        }
        if (refuse_zero(k, (double)v, range, buf, n))
            return buf;
        if (k->type == K_U32) {
            uint32_t w = (uint32_t)v;
            memcpy(field, &w, sizeof w);
        } else {
            memcpy(field, &v, sizeof v);
        }
        return NULL;
    }
    case K_DIST: {
        dist d;
        char m[SCN_ERR_MAX];
        int from_file;
        if (scn_parse_dist(value, &d, m, sizeof m, &from_file)) {
            if (from_file) /* the message quotes the file's line */
                snprintf(buf, n, "%s", m);
            else
                snprintf(buf, n, "%s, got '%s'", m, value);
            return buf;
        }
        memcpy(field, &d, sizeof d);
        return NULL;
    }
    case K_DATA: {
        uint32_t idx = 0;
        if (strcmp(value, "none") && scn_load_data(value, (spec_data_kind)k->lo, &idx, buf, n))
            return buf;
        memcpy(field, &idx, sizeof idx);
        return NULL;
    }
    case K_STRATEGY: {
        hp_strategy s;
        if (hp_strategy_parse(value, &s) != 0) {
            snprintf(buf, n, "unknown strategy '%s'; expected one of immediate, constant, exponential, "
                             "full_jitter, equal_jitter, decorrelated_jitter, random", value);
            return buf;
        }
        memcpy(field, &s, sizeof s);
        return NULL;
    }
    case K_STRATEGIES: {
        scn_config *c = base;
        hp_strategy list[HP_STRATEGY_COUNT];
        uint32_t cnt = 0;
        const char *p = value;
        if (!strcmp(value, "all")) { /* every strategy, in the library's order */
            for (int i = 0; i < HP_STRATEGY_COUNT; i++)
                c->strategies[i] = (hp_strategy)i;
            c->nstrategies = HP_STRATEGY_COUNT;
            return NULL;
        }
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            size_t len = strcspn(p, ", \t");
            char name[64];
            if (len == 0 || len >= sizeof name) {
                snprintf(buf, n, "expected a comma-separated list of strategies, got '%s'", value);
                return buf;
            }
            memcpy(name, p, len);
            name[len] = '\0';
            hp_strategy s;
            if (hp_strategy_parse(name, &s) != 0) {
                snprintf(buf, n, "unknown strategy '%s'; expected immediate, constant, exponential, "
                                 "full_jitter, equal_jitter, decorrelated_jitter or random", name);
                return buf;
            }
            for (uint32_t i = 0; i < cnt; i++)
                if (list[i] == s) {
                    snprintf(buf, n, "strategy '%s' is listed twice", name);
                    return buf;
                }
            list[cnt++] = s;
            p += len;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            if (*p != ',') {
                snprintf(buf, n, "expected a comma-separated list of strategies, got '%s'", value);
                return buf;
            }
            p++;
        }
        memcpy(c->strategies, list, sizeof list[0] * cnt);
        c->nstrategies = cnt;
        return NULL;
    }
    case K_ENUM:
        for (int i = 0; k->enums[i]; i++)
            if (strcmp(value, k->enums[i]) == 0) {
                memcpy(field, &i, sizeof i); /* enums are int-sized */
                return NULL;
            }
        {
            size_t used = (size_t)snprintf(buf, n, "expected one of");
            for (int i = 0; k->enums[i] && used < n; i++)
                used += (size_t)snprintf(buf + used, n - used, "%s %s", i ? "," : "", k->enums[i]);
            if (used < n)
                snprintf(buf + used, n - used, "; got '%s'", value);
        }
        return buf;
    case K_NAME:
        if (!scn_valid_name(value)) {
            snprintf(buf, n, "expected 1-63 characters from letters, digits, '-', '_', '.', got '%s'", value);
            return buf;
        }
        memcpy(field, value, strlen(value) + 1);
        return NULL;
    case K_COLUMNS: {
        char tmp[sizeof ((scn_config *)0)->columns];
        if (strlen(value) >= sizeof tmp) {
            snprintf(buf, n, "expected at most %zu characters", sizeof tmp - 1);
            return buf;
        }
        size_t used = 0;
        tmp[0] = '\0';
        for (const char *p = value; *p;) {
            p += strspn(p, " \t,");
            size_t len = strcspn(p, " \t,");
            if (!len)
                break;
            size_t m;
            for (m = 0; m < spec_metric_count; m++)
                if (strlen(spec_metrics[m].name) == len && !strncmp(spec_metrics[m].name, p, len))
                    break;
            if (m == spec_metric_count) {
                const char *names[128] = {0};
                size_t nn = 0;
                for (size_t q = 0; q < spec_metric_count && nn < 128; q++)
                    names[nn++] = spec_metrics[q].name;
                char word[64];
                snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), p);
                const char *near = scn_nearest(word, names, nn);
                if (near)
                    snprintf(buf, n, "unknown metric '%.*s' (did you mean %s?); expected column names of summary.csv",
                             (int)len, p, near);
                else {
                    size_t u = (size_t)snprintf(buf, n, "unknown metric '%.*s'; expected column names of summary.csv:",
                                                (int)len, p);
                    for (size_t q = 0; q < nn && u < n; q++)
                        u += (size_t)snprintf(buf + u, n - u, "%s %s", q ? "," : "", names[q]);
                }
                return buf;
            }
            used += (size_t)snprintf(tmp + used, sizeof tmp - used, "%s%.*s", used ? "," : "", (int)len, p);
            p += len;
        }
        if (!used) {
            snprintf(buf, n, "expected a comma-separated list of metric names");
            return buf;
        }
        memcpy(field, tmp, used + 1);
        return NULL;
    }
    case K_CLASSES: {
        uint32_t mask = 0;
        for (const char *p = value; *p;) {
            p += strspn(p, " \t,");
            size_t len = strcspn(p, " \t,");
            if (!len)
                break;
            int cl;
            for (cl = 0; cl < HP_CLASS_COUNT; cl++) {
                const char *nm = hp_class_name((hp_class)cl);
                if (strlen(nm) == len && !strncmp(nm, p, len))
                    break;
            }
            if (cl == HP_CLASS_COUNT || cl == HP_CLASS_OK) {
                snprintf(buf, n, "%s class '%.*s'; expected server, rate_limited, timeout, connection, "
                                 "conflict, unknown, request_timeout, overloaded, not_implemented, bad_request, "
                                 "auth or not_found", cl == HP_CLASS_OK ? "not a failure" : "unknown", (int)len, p);
                return buf;
            }
            if (!strcmp(k->name, "retry_also") && !(SCN_REFUSED_CLASSES >> cl & 1)) {
                snprintf(buf, n, "%.*s is retried already; retry_also adds a class herd's table refuses: "
                                 "not_implemented, bad_request, auth or not_found", (int)len, p);
                return buf;
            }
            mask |= 1u << cl;
            p += len;
        }
        if (!mask) { /* an empty mask is the default (retry_on: every class), not "none" */
            snprintf(buf, n, "expected a list of at least one class, got '%s'", value);
            return buf;
        }
        memcpy(field, &mask, sizeof mask);
        return NULL;
    }
    case K_STATUSES: {
        uint16_t st[HP_MAX_NO_RETRY_STATUS] = {0};
        int cnt = 0;
        for (const char *p = value; *p;) {
            p += strspn(p, " \t,");
            size_t len = strcspn(p, " \t,");
            if (!len)
                break;
            char word[16];
            uint64_t v;
            snprintf(word, sizeof word, "%.*s", (int)(len < 15 ? len : 15), p);
            if (len > 15 || scn_parse_u64(word, &v) != 0 || v < 100 || v > 599) {
                snprintf(buf, n, "expected a list of up to %d HTTP statuses (100..599), got '%s'",
                         HP_MAX_NO_RETRY_STATUS, value);
                return buf;
            }
            if (cnt == HP_MAX_NO_RETRY_STATUS) {
                snprintf(buf, n, "expected at most %d statuses, got '%s'", HP_MAX_NO_RETRY_STATUS, value);
                return buf;
            }
            st[cnt++] = (uint16_t)v;
            p += len;
        }
        if (!cnt) {
            snprintf(buf, n, "expected a list of HTTP statuses, got '%s'", value);
            return buf;
        }
        memcpy(field, st, sizeof st);
        return NULL;
    }
    case K_BOOL:
    case K_NBOOL: {
        int v = !strcmp(value, "true") ? 1 : !strcmp(value, "false") ? 0 : -1;
        if (v < 0) {
            snprintf(buf, n, "expected true or false, got '%s'", value);
            return buf;
        }
        bool b = k->type == K_NBOOL ? !v : v;
        memcpy(field, &b, sizeof b);
        return NULL;
    }
    case K_PRESET:
        return apply_preset(k, field, value, buf, n);
    case K_BASELINE: {
        int b = -1;
        hp_strategy s;
        if (strcmp(value, "none") != 0) {
            if (hp_strategy_parse(value, &s) != 0) {
                snprintf(buf, n, "expected none or a strategy name, got '%s'", value);
                return buf;
            }
            b = (int)s;
        }
        memcpy(field, &b, sizeof b);
        return NULL;
    }
    case K_DELAY: {
        dist d;
        const char *m = dist_parse(value, &d);
        if (m || (d.kind != DIST_EXPONENTIAL && d.kind != DIST_UNIFORM && d.kind != DIST_CONSTANT)) {
            snprintf(buf, n, "expected exponential(MEAN), uniform(LO, HI) or constant(V) (the retry library draws the "
                             "delay from one uniform number), got '%s'", value);
            return buf;
        }
        hp_policy *pol = (hp_policy *)(void *)field;
        pol->delay_kind = d.kind == DIST_EXPONENTIAL ? HP_DELAY_EXPONENTIAL
                          : d.kind == DIST_UNIFORM   ? HP_DELAY_UNIFORM
                                                     : HP_DELAY_CONSTANT;
        pol->delay_a = d.a;
        pol->delay_b = d.kind == DIST_UNIFORM ? d.b : 0;
        return NULL;
    }
    case K_OUTCOME:
        if (scn_parse_outcome(value, (int *)(void *)field) != 0) {
            snprintf(buf, n, "expected an HTTP status 100..599, connection_refused or connection_reset, got '%s'",
                     value);
            return buf;
        }
        return NULL;
    }
    return "internal: unknown key type";
}

/* A preset value: a side-effect level (0..3) or a library preset (index +
 * SCN_LIBRARY_PRESET).  [retry] applies it to the policy at once; [tool] and
 * [layer] record it for scn_compile. */
static const char *apply_preset(const key *k, void *field, const char *value, char *buf, size_t n)
{
    hp_side_effect e;
    int v = -1;
    const hp_library_preset *lp = NULL;
    if (hp_effect_parse(value, &e) == 0) {
        v = (int)e;
    } else {
        for (uint32_t i = 0; i < hp_library_preset_count(); i++)
            if (!strcmp(hp_library_preset_at(i)->name, value)) {
                lp = hp_library_preset_at(i);
                v = SCN_LIBRARY_PRESET + (int)i;
            }
    }
    if (v < 0) {
        const char *names[HP_EFFECT_COUNT + 64];
        size_t nn = 0;
        for (int i = 0; i < HP_EFFECT_COUNT; i++)
            names[nn++] = hp_effect_name((hp_side_effect)i);
        for (uint32_t i = 0; i < hp_library_preset_count() && nn < sizeof names / sizeof names[0]; i++)
            names[nn++] = hp_library_preset_at(i)->name;
        const char *near = scn_nearest(value, names, nn);
        if (near)
            snprintf(buf, n, "unknown preset '%s' (did you mean %s?); expected read, reversible, irreversible, "
                             "destructive or a library preset of `herd presets`", value, near);
        else
            snprintf(buf, n, "unknown preset '%s'; expected read, reversible, irreversible, destructive or a "
                             "library preset of `herd presets`", value);
        return buf;
    }
    bool in_retry = k->off == offsetof(scn_config, policy);
    if (lp && lp->two_layers && strcmp(k->section, "layer") != 0) {
        snprintf(buf, n, "'%s' is two retry loops (a framework around an SDK); expected it in a [layer NAME] "
                         "section, which it expands into both", value);
        return buf;
    }
    if (in_retry) {
        /* [retry] preset: the preset's numbers replace the policy's */
        hp_policy *p = (hp_policy *)(void *)field;
        scn_apply_preset_policy(p, v);
    } else {
        memcpy(field, &v, sizeof v);
    }
    return NULL;
}

void scn_apply_preset_policy(hp_policy *p, int preset)
{
    if (preset >= SCN_LIBRARY_PRESET) {
        const hp_library_preset *lp = hp_library_preset_at((uint32_t)(preset - SCN_LIBRARY_PRESET));
        hp_policy q = lp->policy;
        /* what the operation is (its side effect, its key) stays the scenario's */
        q.non_idempotent = p->non_idempotent;
        q.idempotency_key = p->idempotency_key;
        q.not_found_ok_on_retry = p->not_found_ok_on_retry;
        if (!(q.retry_after_max_s > 0))
            q.retry_after_max_s = HP_DEFAULT_RETRY_AFTER_MAX_S;
        *p = q;
        return;
    }
    if (preset < 0)
        return;
    hp_policy q = hp_policy_preset((hp_side_effect)preset);
    p->max_attempts = q.max_attempts;
    p->base_s = q.base_s;
    p->cap_s = q.cap_s;
    p->non_idempotent = q.non_idempotent;
    p->not_found_ok_on_retry = q.not_found_ok_on_retry;
}

int scn_preset_sets(int preset, const key *k)
{
    if (preset < 0 || k->type == K_PRESET || strcmp(k->section, "retry") ||
        k->off < offsetof(scn_config, policy) || k->off >= offsetof(scn_config, policy) + sizeof(hp_policy))
        return 0;
    if (preset >= SCN_LIBRARY_PRESET) /* see scn_apply_preset_policy */
        return strcmp(k->name, "idempotent") && strcmp(k->name, "not_found_ok_on_retry");
    return !strcmp(k->name, "max_attempts") || !strcmp(k->name, "base_s") || !strcmp(k->name, "cap_s") ||
           !strcmp(k->name, "idempotent") || !strcmp(k->name, "not_found_ok_on_retry");
}

const char *scn_preset_name(int preset)
{
    if (preset >= SCN_LIBRARY_PRESET) {
        const hp_library_preset *lp = hp_library_preset_at((uint32_t)(preset - SCN_LIBRARY_PRESET));
        return lp ? lp->name : "";
    }
    return preset >= 0 ? hp_effect_name((hp_side_effect)preset) : "";
}

size_t scn_key_field_size(const key *k)
{
    switch (k->type) {
    case K_DOUBLE:
        return sizeof(double);
    case K_WINDOW:
        return 2 * sizeof(double);
    case K_BOOL:
    case K_NBOOL:
        return sizeof(bool);
    case K_STATUSES:
        return sizeof(uint16_t) * HP_MAX_NO_RETRY_STATUS;
    default:
        return sizeof(int);
    }
}
