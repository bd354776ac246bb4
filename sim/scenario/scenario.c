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
 * The key table (keys.c) is the single description of the format; one
 * key = value is applied in assign.c (parse.h: the state both share);
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
#include "parse.h"

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
        scn_ps_fail(ps, ps->lineno, "key '%s' appears before any [section]", name, NULL, NULL);
        return 0;
    }
    char norm[LINE_MAX_LEN];
    normalise_section(section, strlen(section), norm, sizeof norm);
    return scn_ps_set_key(ps, norm, name, value, ps->lineno);
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
    scn_ps_fail(ps, line, "[%s]: empty section; %s", name, needs, NULL);
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
                scn_ps_fail(ps, lineno, "the file contains a NUL byte; expected a text scenario file", NULL, NULL, NULL);
                goto out;
            }
            if (buf[k] == '\r' && k + 1 != end) {
                scn_ps_fail(ps, lineno, "a carriage return inside a line (CR-only line endings?); expected LF or CRLF line "
                                 "endings", NULL, NULL, NULL);
                goto out;
            }
            if (k != 0 && k + 2 < len && (unsigned char)buf[k] == 0xEF && (unsigned char)buf[k + 1] == 0xBB &&
                (unsigned char)buf[k + 2] == 0xBF) {
                scn_ps_fail(ps, lineno, "a byte-order mark after the start of the file; expected one only as the first "
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
                scn_ps_fail(ps, lineno, "syntax error: expected [section], key = value, or a comment starting with ';' or "
                                 "'#'", NULL, NULL, NULL);
                goto out;
            }
            open_keys = 1;
            continue;
        }
        const char *close = memchr(p, ']', (size_t)(e - p));
        if (!close) {
            scn_ps_fail(ps, lineno, "syntax error: a section header without ']'; expected [section]", NULL, NULL, NULL);
            goto out;
        }
        for (const char *q = close + 1; q < e; q++)
            if (*q != ' ' && *q != '\t') {
                scn_ps_fail(ps, lineno, "text after the section header's ']'; expected nothing but blanks (put keys on "
                                 "their own lines)", NULL, NULL, NULL);
                goto out;
            }
        char name[LINE_MAX_LEN];
        if ((size_t)(close - p - 1) >= sizeof name) {
            scn_ps_fail(ps, lineno, "section name too long", NULL, NULL, NULL);
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
                scn_ps_fail(ps, lineno, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                     name, NULL, NULL);
                goto out;
            }
        } else if (strcmp(name, "run") && strcmp(name, "clients") && strcmp(name, "network") &&
                   strcmp(name, "server") && strcmp(name, "retry") && strcmp(name, "idempotency") &&
                   strcmp(name, "limits") && !(strncmp(name, "sweep", 5) == 0 && (name[5] == ' ' || name[5] == '\0'))) {
            scn_ps_fail(ps, lineno,
                 "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
                 "tool NAME, layer NAME, variant NAME or sweep [NAME]",
                 name, NULL, NULL);
            goto out;
        }
        if (named == 7 && !scn_ps_set_variant(ps, name, NULL, NULL, lineno))
            goto out;
        if (nsec == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            seen_section *bigger = herd_realloc_array(secs, ncap, sizeof *secs);
            if (!bigger) {
                scn_ps_fail(ps, 0, "out of memory reading the file", NULL, NULL, NULL);
                goto out;
            }
            secs = bigger;
            cap = ncap;
        }
        if (!(secs[nsec].name = herd_strdup(name))) {
            scn_ps_fail(ps, 0, "out of memory reading the file", NULL, NULL, NULL);
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
        scn_ps_fail(ps, secs[at].line, "duplicate section [%s] (first on line %s); each section appears once", secs[at].name,
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
        else /* a link loop (ELOOP), an I/O error: always the reason */
            snprintf(err, SCN_ERR_MAX, "%s: cannot open scenario: %s", shown, strerror(e ? e : EIO));
        break;
    }
    return -1;
}

static int load_text(scn_config *c, const char *path, const char *const *sets, const char *const *set_shown,
                     int nsets, char err[static SCN_ERR_MAX], char **text, size_t *textlen, int effect);

int scn_load_text(scn_config *c, const char *path, const char *const *sets, const char *const *set_shown, int nsets,
                  char err[static SCN_ERR_MAX],
                  char **text, size_t *textlen)
{
    return load_text(c, path, sets, set_shown, nsets, err, text, textlen, 1);
}

int scn_load_candidate(scn_config *c, const char *path, const char *const *sets, int nsets,
                       char err[static SCN_ERR_MAX])
{
    return load_text(c, path, sets, NULL, nsets, err, NULL, NULL, 0);
}

static int load_text(scn_config *c, const char *path, const char *const *sets, const char *const *set_shown,
                     int nsets, char err[static SCN_ERR_MAX], char **text, size_t *textlen, int effect)
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
        scn_ps_fail(ps, ps->long_line, "line longer than %s characters; shorten it", n, NULL, NULL);
        goto out;
    }
    if (line > 0 && (!ps->failed || line < ps->failed)) {
        ps->failed = 0;
        scn_ps_fail(ps, line, "syntax error: expected [section], key = value, or a comment starting with ';' or '#'", NULL,
             NULL, NULL);
        goto out;
    }
    if (ps->failed || line != 0) {
        if (!ps->failed)
            scn_ps_fail(ps, 0, "cannot read the file", NULL, NULL, NULL);
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
            scn_ps_fail(ps, 0, "variants are declared in the scenario file; --set cannot add or change one", NULL, NULL,
                 NULL);
            goto out;
        }
        if (!assign(ps, sets[i]))
            goto out;
    }
    ps->set_origin = 0;
    scn_origins o = scn_ps_origins(ps);
    rc = scn_check(c, &o, err);
    if (rc == 0)
        rc = scn_check_variation(c, ps->path, sets, set_shown, nsets, err);
#ifndef HERD_NO_EFFECT_CHECK
    /* (build/herd-nocheck, a test binary only, leaves the no-op rule out:
     * tests/noop.sh runs what herd refuses as "no effect" with it, to
     * show that the simulation does not change either) */
    if (rc == 0 && effect)
        rc = scn_check_effect(c, file_only, ps->path, sets, nsets, err);
#endif
    (void)effect;
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
    /* SECTION.plugin.KEY: the key is plugin.KEY */
    for (const char *p = assignment; eq && dot && p + 8 <= eq; p++)
        if (!strncmp(p, ".plugin.", 8) && p > assignment) {
            dot = p;
            break;
        }
    if (!eq || !dot || dot == assignment || dot + 1 == eq) {
        scn_ps_fail(ps, 0, "expected section.key=value (e.g. server.workers=50)", NULL, NULL, NULL);
        return 0;
    }
    char section[LINE_MAX_LEN], name[LINE_MAX_LEN];
    if ((size_t)(dot - assignment) >= sizeof section || (size_t)(eq - dot - 1) >= sizeof name) {
        scn_ps_fail(ps, 0, "section or key too long", NULL, NULL, NULL);
        return 0;
    }
    normalise_section(assignment, (size_t)(dot - assignment), section, sizeof section);
    normalise_section(dot + 1, (size_t)(eq - dot - 1), name, sizeof name);
    const char *value = eq + 1;
    while (*value == ' ' || *value == '\t')
        value++;
    return scn_ps_set_key(ps, section, name, value, 0);
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
