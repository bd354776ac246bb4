/*
 * plot.c - validates a results directory and draws its figures with the
 * gnuplot scripts of plots/ (see plot.h).
 *
 * Three stages, and gnuplot only runs in the last:
 *
 *   1. load: every CSV of the directory is read once, line by line, and
 *      validated (csv_rd, check_header, check_row); what the figures need
 *      is kept (aggregate.csv and compare.csv rows with a few metrics, the
 *      replication-0 series of timeseries.csv at the first sweep point).
 *   2. prepare: each figure's data is computed from those rows (the work
 *      awk pipelines in the scripts used to do) and written into a private
 *      directory as NAME.csv (numbers, a header per block) and NAME.tsv
 *      (labels and settings, "key<TAB>value").  Labels come only from
 *      validated fields: strategy names, variant names, sweep keys and
 *      values, all of a restricted character set without quotes, tabs,
 *      '#', '@', '<', '|' or '\'.
 *   3. draw: `gnuplot -c SCRIPT WORKDIR [OPTION ...]` per script; the
 *      figures land in WORKDIR and are renamed into the results directory
 *      when every script succeeded.  The WORKDIR path given to gnuplot
 *      starts with '/' or "./", so gnuplot never reads it as a pipe
 *      ("<cmd", "|cmd").
 *
 * gnuplot's stdout and stderr go to an unnamed temporary file rather than a
 * pipe, so a chatty gnuplot can never block on a full pipe while we wait for
 * it; its first lines are quoted when it fails.
 */
#include "plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"
#include "../scenario/scenario.h"
#include "csv.h"

extern char **environ;

#define GNUPLOT_MISSING "gnuplot not found in PATH; install gnuplot-nox (make deps does)"
#define QUOTED_LINES 6   /* lines of gnuplot's output quoted in an error */
#define QUOTED_WIDTH 200 /* characters kept of each */

/* Bounds of a results CSV. */
#define CSV_MAX_BYTES (1LL << 30) /* 1 GiB per file */
#define LINE_MAX_BYTES 65536
#define MAX_COLS 1024
#define LABEL_MAX (SCN_VALUE_MAX - 1) /* variant names, sweep values, tool names */
#define KEYNAME_MAX 127               /* a swept key: section [NAME].key */
#define NUMBER_MAX 40
#define MAX_KEYS (SCN_MAX_SWEEPS + 1) /* variant, then the swept keys */
#define SHOWN_MAX 300                 /* characters of a path echoed in a message */
#define VALUE_SHOWN 40                /* characters of a bad value echoed */

/* ------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------ */

/* s (at most max bytes of it) with every byte outside printable ASCII, and
 * the backslash, escaped (\n, \t, \r, \\, \xHH), so a message stays on one
 * line and cannot drive a terminal; "..." marks a cut. */
static void esc(char *out, size_t outlen, const char *s, size_t max)
{
    size_t o = 0, i;
    if (outlen == 0)
        return;
    for (i = 0; s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        char t[8];
        if (c == '\\')
            snprintf(t, sizeof t, "\\\\");
        else if (c == '\n')
            snprintf(t, sizeof t, "\\n");
        else if (c == '\t')
            snprintf(t, sizeof t, "\\t");
        else if (c == '\r')
            snprintf(t, sizeof t, "\\r");
        else if (c < 0x20 || c >= 0x7f)
            snprintf(t, sizeof t, "\\x%02x", c);
        else
            t[0] = (char)c, t[1] = '\0';
        size_t n = strlen(t);
        if (o + n + 4 > outlen)
            break;
        memcpy(out + o, t, n);
        o += n;
    }
    if (s[i] && o + 4 <= outlen) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/* snprintf into out[PATH_MAX]; -1 with err when the path does not fit. */
static int path_fmt(char *out, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, PATH_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= PATH_MAX) {
        char shown[SHOWN_MAX + 8];
        esc(shown, sizeof shown, out, 200);
        snprintf(err, errlen, "%s...: path too long", shown);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Reading a CSV: one line at a time, every byte checked
 * ------------------------------------------------------------------------ */

typedef struct csv_rd {
    FILE *f;
    char shown[SHOWN_MAX + 8]; /* the path, escaped */
    long line;
    long long bytes;
    char *lbuf;                /* the line, NUL-terminated */
    char *fbuf;                /* its fields, each NUL-terminated */
    const char *field[MAX_COLS];
    int nf;
    char *err;
    size_t errlen;
} csv_rd;

/* "FILE:LINE: message"; returns PLOT_INVALID. */
static int rd_fail(csv_rd *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "%s:%ld: ", r->shown, r->line);
    if (n >= 0 && (size_t)n < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return PLOT_INVALID;
}

/* Splits r->lbuf into r->field[] (RFC 4180 quoting: "a,b" and "" inside
 * quotes).  0 or PLOT_INVALID. */
static int rd_split(csv_rd *r)
{
    const char *p = r->lbuf;
    char *o = r->fbuf;
    r->nf = 0;
    for (;;) {
        if (r->nf == MAX_COLS)
            return rd_fail(r, "more than %d fields; expected a herd CSV", MAX_COLS);
        r->field[r->nf] = o;
        if (*p == '"') {
            for (p++;; p++) {
                if (*p == '\0')
                    return rd_fail(r, "field %d: a quote that is never closed; expected \"...\" within the line",
                                   r->nf + 1);
                if (*p == '"') {
                    if (p[1] != '"')
                        break;
                    p++;
                }
                *o++ = *p;
            }
            p++;
            if (*p != ',' && *p != '\0')
                return rd_fail(r, "field %d: text after a closing quote; expected a comma or the end of the line",
                               r->nf + 1);
        } else {
            for (; *p != ',' && *p != '\0'; p++) {
                if (*p == '"')
                    return rd_fail(r, "field %d: a quote inside an unquoted field; expected a field quoted whole",
                                   r->nf + 1);
                *o++ = *p;
            }
        }
        *o++ = '\0';
        r->nf++;
        if (*p != ',')
            return 0;
        p++;
    }
}

/* Reads and splits the next line.  1, 0 at the end of the file,
 * PLOT_INVALID, or -1 on a read error. */
static int rd_line(csv_rd *r)
{
    size_t n = 0;
    int c;
    r->line++;
    while ((c = getc(r->f)) != EOF) {
        if (++r->bytes > CSV_MAX_BYTES)
            return rd_fail(r, "the file is larger than %lld bytes; expected at most that", CSV_MAX_BYTES);
        if (c == '\n') {
            if (n == 0)
                return rd_fail(r, "an empty line; expected a row of comma-separated fields");
            r->lbuf[n] = '\0';
            int rc = rd_split(r);
            return rc ? rc : 1;
        }
        if (c == '\0')
            return rd_fail(r, "a NUL byte; expected text");
        if (c < 0x20 || c == 0x7f)
            return rd_fail(r, "control character \\x%02x; expected printable text", c);
        if (n == LINE_MAX_BYTES)
            return rd_fail(r, "a line longer than %d bytes; expected a herd CSV", LINE_MAX_BYTES);
        r->lbuf[n++] = (char)c;
    }
    if (ferror(r->f)) {
        snprintf(r->err, r->errlen, "%s: read error: %s", r->shown, strerror(errno));
        return -1;
    }
    if (n > 0)
        return rd_fail(r, "the last line has no newline (a truncated file?); expected complete lines");
    r->line--;
    return 0;
}

/* ------------------------------------------------------------------------
 * What a results CSV must look like
 * ------------------------------------------------------------------------ */

typedef enum ftype { T_VARIANT, T_KEYVAL, T_STRATEGY, T_U64, T_DBL, T_TOOL } ftype;

typedef struct colspec {
    char name[96];
    ftype t;
} colspec;

enum { K_SUMMARY, K_AGGREGATE, K_TIMESERIES, K_COMPARE, K_TOOLS, NKINDS };
static const char *const kind_file[NKINDS] = {"summary.csv", "aggregate.csv", "timeseries.csv", "compare.csv",
                                              "tools.csv"};

/* These three lists must match report.c (a fresh run's figures, drawn by
 * tests/plot.sh, fail if they drift). */
static const char *const ts_cols[] = {"replication", "time_s", "arrivals",          "refused", "in_flight",
                                      "successes",   "errors", "retries_scheduled", "offered", "goodput"};
static const char *const compared[] = {"completion_time_s", "calls",         "retries",
                                       "successes",         "failures",      "peak_inflight",
                                       "peak_arrivals_per_s", "mean_latency_s", "p99_latency_s"};
static const char *const tool_cols[] = {"requests", "successes", "failures", "unknown_outcomes",
                                        "calls",    "effects",   "duplicate_effects", "lost_operations"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The columns after `strategy` of a file of this kind; their number. */
static int tail_spec(int kind, colspec *c, int max)
{
    int n = 0;
#define ADD(ty, ...)                                                                                                  \
    do {                                                                                                              \
        if (n < max) {                                                                                                \
            snprintf(c[n].name, sizeof c[n].name, __VA_ARGS__);                                                       \
            c[n].t = (ty);                                                                                            \
        }                                                                                                             \
        n++;                                                                                                          \
    } while (0)
    switch (kind) {
    case K_SUMMARY:
        ADD(T_U64, "replication");
        ADD(T_U64, "seed");
        for (size_t k = 0; k < metric_count; k++)
            ADD(metric_table[k].type == METRIC_U64 ? T_U64 : T_DBL, "%s", metric_table[k].name);
        break;
    case K_AGGREGATE:
        ADD(T_U64, "replications");
        for (size_t k = 0; k < metric_count; k++) {
            ADD(T_DBL, "%s_mean", metric_table[k].name);
            ADD(T_DBL, "%s_ci95", metric_table[k].name);
        }
        break;
    case K_TIMESERIES:
        for (size_t k = 0; k < COUNT(ts_cols); k++)
            ADD(strcmp(ts_cols[k], "time_s") ? T_U64 : T_DBL, "%s", ts_cols[k]);
        break;
    case K_COMPARE:
        ADD(T_STRATEGY, "baseline");
        ADD(T_U64, "replications");
        for (size_t k = 0; k < COUNT(compared); k++) {
            ADD(T_DBL, "%s_change_pct_mean", compared[k]);
            ADD(T_DBL, "%s_change_pct_ci95", compared[k]);
        }
        break;
    default:
        ADD(T_TOOL, "tool");
        ADD(T_U64, "replications");
        for (size_t k = 0; k < COUNT(tool_cols); k++) {
            ADD(T_DBL, "%s_mean", tool_cols[k]);
            ADD(T_DBL, "%s_ci95", tool_cols[k]);
        }
        break;
    }
#undef ADD
    return n;
}

/* A variant name, as [variant NAME] allows it: 1-63 of [A-Za-z0-9._-]. */
static int valid_variant(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > LABEL_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
              *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static int label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr(" ._+-(),:/", c);
}

/* A sweep value: 1-63 of letters, digits, space and . _ + - ( ) , : /
 * (numbers, names, distributions such as normal(0.1, 0.02)); commas only
 * within balanced parentheses, as a sweep list is split at the others. */
static int valid_keyval(const char *s)
{
    size_t n = strlen(s);
    int depth = 0;
    if (n == 0 || n > LABEL_MAX || s[0] == ' ' || s[n - 1] == ' ')
        return 0;
    for (; *s; s++) {
        if (!label_char(*s) || (*s == ',' && depth == 0))
            return 0;
        depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
        if (depth < 0)
            return 0;
    }
    return depth == 0;
}

/* A swept key's column name: section.key, where the section may carry a
 * name ("outage 1.end_s"): 3-127 of [A-Za-z0-9._ -], with a dot. */
static int valid_keyname(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || n > KEYNAME_MAX || !strchr(s, '.') || s[0] == '.' || s[n - 1] == '.' || s[0] == ' ' ||
        s[n - 1] == ' ')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
              *s == '_' || *s == '.' || *s == ' '))
            return 0;
    return 1;
}

/* A decimal number as herd writes it: [-+]digits[.digits][e[-+]digits]. */
static int num_text(const char *s)
{
    const char *p = s;
    int digits = 0;
    if (*p == '-' || *p == '+')
        p++;
    for (; *p >= '0' && *p <= '9'; p++)
        digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0' && p - s <= NUMBER_MAX;
}

static int valid_dbl(const char *s)
{
    return num_text(s) || !strcmp(s, "nan") || !strcmp(s, "inf") || !strcmp(s, "-inf");
}

static int valid_u64(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 20)
        return 0;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return n < 20 || strcmp(s, "18446744073709551615") <= 0;
}

/* A tool name ([tool NAME]): 1-63 bytes; never passed to gnuplot. */
static int valid_tool(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= LABEL_MAX;
}

static double dbl_of(const char *s)
{
    if (!strcmp(s, "nan"))
        return NAN;
    if (!strcmp(s, "inf"))
        return INFINITY;
    if (!strcmp(s, "-inf"))
        return -INFINITY;
    return strtod(s, NULL);
}

/* The key columns shared by every CSV of a directory: `variant` (with
 * [variant] sections), one per swept key, then `strategy`. */
typedef struct keyset {
    int k;       /* columns before strategy */
    int variant; /* the first of them is `variant` */
    char name[MAX_KEYS][KEYNAME_MAX + 1];
} keyset;

static void keys_text(const keyset *ks, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < ks->k && o < n; i++)
        o += (size_t)snprintf(out + o, n - o, "%s,", ks->name[i]);
    if (o < n)
        snprintf(out + o, n - o, "strategy");
}

#define EXPECT_KEYS "[variant,] [section.key, ...] strategy"

/* Checks the header of a file of this kind: the key columns (the same as
 * *ks when have_ks, else they set *ks), then exactly the columns of tail. */
static int check_header(csv_rd *r, int kind, keyset *ks, int have_ks, const colspec *tail, int ntail)
{
    char v[VALUE_SHOWN * 4 + 8];
    keyset got = {0};
    int i = 0;
    got.variant = r->nf > 0 && !strcmp(r->field[0], "variant");
    i = got.variant;
    if (got.variant)
        snprintf(got.name[0], sizeof got.name[0], "variant");
    for (; i < r->nf && strcmp(r->field[i], "strategy"); i++) {
        esc(v, sizeof v, r->field[i], VALUE_SHOWN);
        if (!valid_keyname(r->field[i]))
            return rd_fail(r, "column %d is '%s'; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...", i + 1,
                           v, kind_file[kind], tail[0].name);
        if (i >= MAX_KEYS)
            return rd_fail(r, "more than %d key columns before strategy; expected " EXPECT_KEYS, MAX_KEYS);
        snprintf(got.name[i], sizeof got.name[i], "%s", r->field[i]);
    }
    if (i == r->nf)
        return rd_fail(r, "no strategy column; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...",
                       kind_file[kind], tail[0].name);
    got.k = i;
    if (have_ks) {
        int same = got.k == ks->k;
        for (int j = 0; same && j < got.k; j++)
            same = !strcmp(got.name[j], ks->name[j]);
        if (!same) {
            char a[MAX_KEYS * (KEYNAME_MAX + 1) + 16], b[sizeof a];
            keys_text(&got, a, sizeof a);
            keys_text(ks, b, sizeof b);
            return rd_fail(r, "key columns %s; expected %s, as in aggregate.csv", a, b);
        }
    } else {
        *ks = got;
    }
    int have = r->nf - got.k - 1;
    for (int j = 0; j < have || j < ntail; j++) {
        int col = got.k + 2 + j;
        if (j >= ntail) {
            esc(v, sizeof v, r->field[col - 1], VALUE_SHOWN);
            return rd_fail(r, "column %d is '%s'; expected the header to end after '%s' (%d columns)", col, v,
                           tail[ntail - 1].name, got.k + 1 + ntail);
        }
        if (j >= have)
            return rd_fail(r, "the header ends after %d columns; expected '%s' next (%d columns)", r->nf,
                           tail[j].name, got.k + 1 + ntail);
        if (strcmp(r->field[col - 1], tail[j].name)) {
            esc(v, sizeof v, r->field[col - 1], VALUE_SHOWN);
            return rd_fail(r, "column %d is '%s'; expected '%s'", col, v, tail[j].name);
        }
    }
    return 0;
}

/* Checks a data row against the header; *strategy is its strategy. */
static int check_row(csv_rd *r, const keyset *ks, const colspec *tail, int ntail, int *strategy)
{
    char v[VALUE_SHOWN * 4 + 8];
    int want = ks->k + 1 + ntail;
    if (r->nf != want)
        return rd_fail(r, "%d fields; expected %d, as in the header", r->nf, want);
    for (int i = 0; i < want; i++) {
        const char *f = r->field[i];
        ftype t = i < ks->k ? (i == 0 && ks->variant ? T_VARIANT : T_KEYVAL)
                            : i == ks->k ? T_STRATEGY : tail[i - ks->k - 1].t;
        const char *name = i < ks->k ? ks->name[i] : i == ks->k ? "strategy" : tail[i - ks->k - 1].name;
        esc(v, sizeof v, f, VALUE_SHOWN);
        switch (t) {
        case T_VARIANT:
            if (!valid_variant(f))
                return rd_fail(r, "column %d (variant) is '%s'; expected a variant name of 1-%d letters, digits, "
                                  "'-', '_', '.'",
                               i + 1, v, LABEL_MAX);
            break;
        case T_KEYVAL:
            if (!valid_keyval(f))
                return rd_fail(r, "column %d (%s) is '%s'; expected a sweep value of 1-%d letters, digits, spaces "
                                  "and . _ + - ( ) : / (commas only within parentheses)",
                               i + 1, name, v, LABEL_MAX);
            break;
        case T_STRATEGY: {
            hp_strategy s;
            if (hp_strategy_parse(f, &s) != 0)
                return rd_fail(r, "column %d (%s) is '%s'; expected immediate, constant, exponential, full_jitter, "
                                  "equal_jitter or decorrelated_jitter",
                               i + 1, name, v);
            if (i == ks->k)
                *strategy = (int)s;
            break;
        }
        case T_U64:
            if (!valid_u64(f))
                return rd_fail(r, "column %d (%s) is '%s'; expected an unsigned integer", i + 1, name, v);
            break;
        case T_DBL:
            if (!valid_dbl(f))
                return rd_fail(r, "column %d (%s) is '%s'; expected a number (or nan)", i + 1, name, v);
            break;
        case T_TOOL:
            if (!valid_tool(f))
                return rd_fail(r, "column %d (%s) is '%s'; expected a tool name of 1-%d characters", i + 1, name, v,
                               LABEL_MAX);
            break;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * What the figures keep of the CSVs
 * ------------------------------------------------------------------------ */

/* The metrics of aggregate.csv the figures use (sweep.gp, variants.gp,
 * goodput.gp's trigger); compare.csv keeps one, the completion time. */
static const char *const agg_metric[] = {
    "completion_time_s", "calls",         "peak_arrivals_per_s", "p99_latency_s",   "failures",
    "duplicate_effects", "lost_operations", "unknown_outcomes",  "status_429",      "gave_up_budget",
    "gave_up_attempts",  "non_retryable_failures", "max_latency_s", "wasted_work_s", "trigger_start_s",
    "trigger_end_s"};
#define NMET COUNT(agg_metric)
static const char *const sweep_metric[] = {"completion_time_s", "calls", "peak_arrivals_per_s", "p99_latency_s",
                                           "failures"};
static const char *const variant_metric[] = {"duplicate_effects", "lost_operations", "unknown_outcomes",
                                             "status_429",        "gave_up_budget",  "gave_up_attempts",
                                             "non_retryable_failures", "failures",   "max_latency_s",
                                             "wasted_work_s"};
#define N_SWEEP_METRIC COUNT(sweep_metric)
#define N_VARIANT_METRIC COUNT(variant_metric)

static int met_index(const char *name)
{
    for (size_t i = 0; i < NMET; i++)
        if (!strcmp(agg_metric[i], name))
            return (int)i;
    return -1;
}

/* A row of aggregate.csv or compare.csv. */
typedef struct prow {
    char *keys;                 /* the key fields, NUL-separated (owned) */
    const char *key[MAX_KEYS];  /* into keys */
    int strategy, baseline;     /* baseline: compare.csv, else -1 */
    unsigned long long reps;
    double mean[NMET], ci[NMET];
} prow;

typedef struct ptable {
    int present;
    prow *row;
    size_t n, cap;
    int cmean[NMET], cci[NMET], cbase, creps; /* column indices, -1: none */
} ptable;

/* A replication-0 row of timeseries.csv at the first sweep point. */
typedef struct tsrow {
    int variant;  /* index into tstable.variant, -1 without variants */
    int strategy;
    int in_point; /* at the first row's point (variant included) */
    double t, arrivals, refused, offered, goodput;
} tsrow;

typedef struct tstable {
    int present;
    long rows; /* data rows read */
    char first[MAX_KEYS][LABEL_MAX + 1];
    tsrow *r;
    size_t n, cap;
    char (*variant)[LABEL_MAX + 1];
    size_t nvariant, capvariant;
} tstable;

typedef struct folder {
    keyset ks;
    int have_ks;
    ptable agg, cmp;
    tstable ts;
} folder;

static void folder_free(folder *fo)
{
    ptable *t[2] = {&fo->agg, &fo->cmp};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < t[k]->n; i++)
            herd_free(t[k]->row[i].keys);
        herd_free(t[k]->row);
    }
    herd_free(fo->ts.r);
    herd_free(fo->ts.variant);
    memset(fo, 0, sizeof *fo);
}

static int oom(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory reading the results");
    return -1;
}

/* Keeps a validated row of aggregate.csv (cmp == 0) or compare.csv. */
static int keep_prow(ptable *t, const keyset *ks, csv_rd *r, int strategy, char *err, size_t errlen)
{
    if (t->n == t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 64;
        prow *nr = herd_realloc_array(t->row, ncap, sizeof *nr);
        if (!nr)
            return oom(err, errlen);
        t->row = nr;
        t->cap = ncap;
    }
    prow *p = &t->row[t->n];
    memset(p, 0, sizeof *p);
    size_t len = 1;
    for (int i = 0; i < ks->k; i++)
        len += strlen(r->field[i]) + 1;
    p->keys = herd_malloc_array(len, 1);
    if (!p->keys)
        return oom(err, errlen);
    char *o = p->keys;
    for (int i = 0; i < ks->k; i++) {
        size_t n = strlen(r->field[i]) + 1;
        memcpy(o, r->field[i], n);
        p->key[i] = o;
        o += n;
    }
    p->strategy = strategy;
    p->baseline = -1;
    if (t->cbase >= 0) {
        hp_strategy b;
        if (hp_strategy_parse(r->field[t->cbase], &b) == 0)
            p->baseline = (int)b;
    }
    p->reps = t->creps >= 0 ? strtoull(r->field[t->creps], NULL, 10) : 0;
    for (size_t m = 0; m < NMET; m++) {
        p->mean[m] = t->cmean[m] >= 0 ? dbl_of(r->field[t->cmean[m]]) : NAN;
        p->ci[m] = t->cci[m] >= 0 ? dbl_of(r->field[t->cci[m]]) : NAN;
    }
    t->n++;
    return 0;
}

static int variant_index(tstable *ts, const char *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < ts->nvariant; i++)
        if (!strcmp(ts->variant[i], v))
            return (int)i;
    if (ts->nvariant == ts->capvariant) {
        size_t ncap = ts->capvariant ? 2 * ts->capvariant : 8;
        char (*nv)[LABEL_MAX + 1] = herd_realloc_array(ts->variant, ncap, sizeof *nv);
        if (!nv)
            return oom(err, errlen);
        ts->variant = nv;
        ts->capvariant = ncap;
    }
    snprintf(ts->variant[ts->nvariant], sizeof ts->variant[0], "%s", v);
    return (int)ts->nvariant++;
}

/* Keeps a validated row of timeseries.csv if it is of replication 0 at the
 * first row's sweep point. */
static int keep_tsrow(tstable *ts, const keyset *ks, csv_rd *r, int strategy, char *err, size_t errlen)
{
    int k = ks->k;
    if (ts->rows++ == 0)
        for (int i = 0; i < k; i++)
            snprintf(ts->first[i], sizeof ts->first[i], "%s", r->field[i]);
    if (strcmp(r->field[k + 1], "0"))
        return 0;
    int in_point = 1;
    for (int i = 0; i < k; i++)
        if (strcmp(r->field[i], ts->first[i])) {
            if (i >= ks->variant)
                return 0; /* another sweep point */
            in_point = 0;
        }
    if (ts->n == ts->cap) {
        size_t ncap = ts->cap ? 2 * ts->cap : 1024;
        tsrow *nr = herd_realloc_array(ts->r, ncap, sizeof *nr);
        if (!nr)
            return oom(err, errlen);
        ts->r = nr;
        ts->cap = ncap;
    }
    tsrow *p = &ts->r[ts->n];
    p->variant = -1;
    if (ks->variant && (p->variant = variant_index(ts, r->field[0], err, errlen)) < 0)
        return -1;
    p->strategy = strategy;
    p->in_point = in_point;
    /* replication, time_s, arrivals, refused, in_flight, successes, errors,
     * retries_scheduled, offered, goodput */
    p->t = dbl_of(r->field[k + 2]);
    p->arrivals = dbl_of(r->field[k + 3]);
    p->refused = dbl_of(r->field[k + 4]);
    p->offered = dbl_of(r->field[k + 9]);
    p->goodput = dbl_of(r->field[k + 10]);
    ts->n++;
    return 0;
}

/* Reads and validates dir/NAME of this kind, keeping what the figures use.
 * 0 (also when the file does not exist: *present = 0), PLOT_INVALID, or -1. */
static int load_csv(const char *dir, int kind, folder *fo, char *err, size_t errlen)
{
    char path[PATH_MAX];
    csv_rd r;
    memset(&r, 0, sizeof r);
    r.err = err;
    r.errlen = errlen;
    if (path_fmt(path, err, errlen, "%s/%s", dir, kind_file[kind]))
        return -1;
    esc(r.shown, sizeof r.shown, path, SHOWN_MAX);
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", r.shown, strerror(errno));
        return -1;
    }
    r.line = 1;
    if (!S_ISREG(st.st_mode))
        return rd_fail(&r, "not a regular file; expected a herd CSV");
    /* O_NONBLOCK: a FIFO swapped in after the stat must not hang us. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", r.shown, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return rd_fail(&r, "not a regular file; expected a herd CSV");
    }
    if (st.st_size > CSV_MAX_BYTES) {
        close(fd);
        return rd_fail(&r, "the file is %lld bytes; expected at most %lld", (long long)st.st_size, CSV_MAX_BYTES);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    r.f = fdopen(fd, "r");
    if (!r.f) {
        close(fd);
        return oom(err, errlen);
    }
    r.line = 0;
    colspec *tail = herd_malloc_array(MAX_COLS, sizeof *tail);
    r.lbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    r.fbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    int rc = -1;
    if (!tail || !r.lbuf || !r.fbuf) {
        oom(err, errlen);
        goto done;
    }
    int ntail = tail_spec(kind, tail, MAX_COLS);
    if ((rc = rd_line(&r)) <= 0) {
        if (rc == 0) {
            r.line = 1;
            rc = rd_fail(&r, "an empty file; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...",
                         kind_file[kind], tail[0].name);
        }
        goto done;
    }
    if ((rc = check_header(&r, kind, &fo->ks, fo->have_ks, tail, ntail)) != 0)
        goto done;
    fo->have_ks = 1;

    ptable *t = kind == K_AGGREGATE ? &fo->agg : kind == K_COMPARE ? &fo->cmp : NULL;
    if (t) {
        t->present = 1;
        t->cbase = t->creps = -1;
        for (size_t m = 0; m < NMET; m++)
            t->cmean[m] = t->cci[m] = -1;
        for (int j = 0; j < ntail; j++) {
            int col = fo->ks.k + 1 + j;
            const char *nm = tail[j].name;
            size_t len = strlen(nm);
            if (!strcmp(nm, "baseline"))
                t->cbase = col;
            else if (!strcmp(nm, "replications"))
                t->creps = col;
            else if (kind == K_COMPARE) {
                if (!strcmp(nm, "completion_time_s_change_pct_mean"))
                    t->cmean[0] = col;
                else if (!strcmp(nm, "completion_time_s_change_pct_ci95"))
                    t->cci[0] = col;
            } else if (len > 5) {
                char base[96];
                int is_mean = !strcmp(nm + len - 5, "_mean");
                int is_ci = len > 5 && !strcmp(nm + len - 5, "_ci95");
                snprintf(base, sizeof base, "%.*s", (int)(len - 5), nm);
                int m = (is_mean || is_ci) ? met_index(base) : -1;
                if (m >= 0)
                    *(is_mean ? &t->cmean[m] : &t->cci[m]) = col;
            }
        }
    }
    if (kind == K_TIMESERIES)
        fo->ts.present = 1;
    for (;;) {
        int strategy = 0;
        if ((rc = rd_line(&r)) <= 0)
            break;
        if ((rc = check_row(&r, &fo->ks, tail, ntail, &strategy)) != 0)
            break;
        if (t && (rc = keep_prow(t, &fo->ks, &r, strategy, err, errlen)) != 0)
            break;
        if (kind == K_TIMESERIES && (rc = keep_tsrow(&fo->ts, &fo->ks, &r, strategy, err, errlen)) != 0)
            break;
    }
done:
    fclose(r.f);
    herd_free(tail);
    herd_free(r.lbuf);
    herd_free(r.fbuf);
    return rc;
}

/* ------------------------------------------------------------------------
 * Writing the figures' data
 * ------------------------------------------------------------------------ */

/* An ordered set of labels (at most LABEL_MAX bytes each). */
typedef struct slist {
    char (*v)[LABEL_MAX + 1];
    size_t n, cap;
} slist;

static long slist_find(const slist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return (long)i;
    return -1;
}

/* The index of s, added if new; -1 when out of memory. */
static long slist_add(slist *l, const char *s)
{
    long i = slist_find(l, s);
    if (i >= 0)
        return i;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        char (*nv)[LABEL_MAX + 1] = herd_realloc_array(l->v, ncap, sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    snprintf(l->v[l->n], sizeof l->v[0], "%s", s);
    return (long)l->n++;
}

static void slist_free(slist *l)
{
    herd_free(l->v);
    memset(l, 0, sizeof *l);
}

/* A file of the work directory being written. */
typedef struct wfile {
    FILE *f;
    char path[PATH_MAX];
} wfile;

static int w_open(wfile *w, const char *wd, const char *name, const char *ext, char *err, size_t errlen)
{
    if (path_fmt(w->path, err, errlen, "%s/%s.%s", wd, name, ext))
        return -1;
    w->f = fopen(w->path, "w");
    if (!w->f) {
        char shown[SHOWN_MAX + 8];
        esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
        return -1;
    }
    return 0;
}

static int w_close(wfile *w, char *err, size_t errlen)
{
    if (!w->f)
        return 0;
    int bad = ferror(w->f);
    int e = errno;
    if (fclose(w->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    w->f = NULL;
    if (bad) {
        char shown[SHOWN_MAX + 8];
        esc(shown, sizeof shown, w->path, SHOWN_MAX);
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(e ? e : EIO));
        return -1;
    }
    return 0;
}

/* A number as gnuplot reads it: %.17g, NaN for anything not finite. */
static void put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

/* key<TAB>value lines (values never hold a tab or a newline: they are
 * validated labels, strategy names or numbers). */
static void info_s(FILE *f, const char *k, const char *v)
{
    if (*v)
        fprintf(f, "%s\t%s\n", k, v);
}

static void info_n(FILE *f, const char *k, double v)
{
    fprintf(f, "%s\t", k);
    put_num(f, v);
    fputc('\n', f);
}

/* Appends "a = b" (sep first unless out is empty) to out[n]. */
static void append(char *out, size_t n, const char *sep, const char *a, const char *b)
{
    size_t o = strlen(out);
    if (o < n)
        snprintf(out + o, n - o, "%s%s%s%s", o ? sep : "", a, b ? " = " : "", b ? b : "");
}

static const char *sname(int s)
{
    return hp_strategy_name((hp_strategy)s);
}

/* A failure of the data itself (a valid file with nothing to draw). */
static int data_fail(char *err, size_t errlen, const char *dir, const char *file, const char *what)
{
    char shown[SHOWN_MAX + 8];
    esc(shown, sizeof shown, dir, SHOWN_MAX);
    snprintf(err, errlen, "%s/%s: %s", shown, file, what);
    return -1;
}

/* timeseries.csv/.tsv: per strategy of the first row's point, replication
 * 0, the blocks "time_s,arrivals,refused", each closed by an empty bucket. */
static int prep_timeseries(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, ns = 0, last = -1;
    double bucket = 0, tmax = 0, amax = 0, fmax = 0, lt = 0;
    char strategies[128] = "", label[MAX_KEYS * (KEYNAME_MAX + LABEL_MAX + 8)] = "";
    /* pass 1: the strategies, the bucket width (the smallest step of time
     * within a strategy) and the ranges */
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (!p->in_point)
            continue;
        if (p->strategy != last) {
            append(strategies, sizeof strategies, " ", sname(p->strategy), NULL);
            last = p->strategy;
            ns++;
        } else if (p->t > lt && (bucket == 0 || p->t - lt < bucket)) {
            bucket = p->t - lt;
        }
        lt = p->t;
        if (p->arrivals + p->refused > 0 && p->t > tmax)
            tmax = p->t;
        if (p->arrivals > amax)
            amax = p->arrivals;
        if (p->refused > fmax)
            fmax = p->refused;
    }
    if (ns == 0)
        return data_fail(err, errlen, dir, "timeseries.csv", "no data at the first sweep point in replication 0");
    /* pass 2: the blocks */
    if (w_open(&d, wd, "timeseries", "csv", err, errlen) || w_open(&in, wd, "timeseries", "tsv", err, errlen))
        goto done;
    last = -1;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (!p->in_point)
            continue;
        if (p->strategy != last) {
            if (last >= 0)
                fprintf(d.f, "%.17g,0,0\n\n\n", lt + (bucket > 0 ? bucket : 1));
            fprintf(d.f, "time_s,arrivals,refused\n");
            last = p->strategy;
        }
        lt = p->t;
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->arrivals, p->refused);
    }
    fprintf(d.f, "%.17g,0,0\n", lt + (bucket > 0 ? bucket : 1));
    for (int i = 0; i < fo->ks.k; i++)
        append(label, sizeof label, ", ", fo->ks.name[i], ts->first[i]);
    info_n(in.f, "ns", ns);
    info_s(in.f, "strategies", strategies);
    info_n(in.f, "bucket", bucket);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "amax", amax);
    info_n(in.f, "fmax", fmax);
    info_s(in.f, "label", label);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* goodput.csv/.tsv: per variant and strategy at the first sweep point,
 * replication 0, the blocks "time_s,offered,goodput". */
static int prep_goodput(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, np = 0, lastv = -2, lasts = -1;
    double bw = 0, t0 = 0, tmax = 0, ymax = 0;
    if (w_open(&d, wd, "goodput", "csv", err, errlen) || w_open(&in, wd, "goodput", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != lastv || p->strategy != lasts) {
            char name[LABEL_MAX + 64];
            if (p->variant >= 0)
                snprintf(name, sizeof name, "%s / %s", ts->variant[p->variant], sname(p->strategy));
            else
                snprintf(name, sizeof name, "%s", sname(p->strategy));
            info_s(in.f, "panel", name);
            fprintf(d.f, "%stime_s,offered,goodput\n", np ? "\n\n" : "");
            lastv = p->variant;
            lasts = p->strategy;
            t0 = p->t;
            np++;
        }
        if (bw == 0 && p->t > t0)
            bw = p->t - t0;
        if (p->offered + p->goodput > 0 && p->t > tmax)
            tmax = p->t;
        if (p->offered > ymax)
            ymax = p->offered;
        if (p->goodput > ymax)
            ymax = p->goodput;
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->offered, p->goodput);
    }
    if (np == 0) {
        data_fail(err, errlen, dir, "timeseries.csv", "no data at the first sweep point in replication 0");
        goto done;
    }
    double tst = NAN, te = NAN;
    if (fo->agg.n) {
        tst = fo->agg.row[0].mean[met_index("trigger_start_s")];
        te = fo->agg.row[0].mean[met_index("trigger_end_s")];
    }
    info_n(in.f, "np", np);
    info_n(in.f, "bw", bw == 0 ? 1 : bw);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "ymax", ymax);
    info_n(in.f, "has_trigger", isfinite(tst) && isfinite(te));
    info_n(in.f, "trigger_start", isfinite(tst) ? tst : 0);
    info_n(in.f, "trigger_end", isfinite(te) ? te : 0);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* NAME.csv/.tsv for sweep.gp: metric m of t (aggregate.csv; compare.csv
 * when compare) against the first key column, one block "x,mean,ci95" per
 * (panel = value of the second key column, strategy), panels outermost, x
 * in numeric order (non-numeric x: positions 1..nx in file order).  Rows
 * must match the first row in the third and later key columns; compare
 * leaves out the baseline strategy. */
static int prep_sweep(const folder *fo, const ptable *t, int m, int compare, const char *dir, const char *wd,
                      const char *name, char *err, size_t errlen)
{
    const keyset *ks = &fo->ks;
    int nsw = ks->k;
    const char *file = compare ? "compare.csv" : "aggregate.csv";
    char what[160], fixed[MAX_KEYS * (KEYNAME_MAX + LABEL_MAX + 8)] = "", strategies[128] = "";
    slist xs = {0}, gs = {0};
    int si[HP_STRATEGY_COUNT], ns = 0;
    double *Y = NULL, *E = NULL;
    char *has = NULL;
    size_t *ord = NULL;
    wfile d = {0}, in = {0};
    int rc = -1;
    snprintf(what, sizeof what, "no values of %s%s", compare ? "completion_time_s_change_pct" : agg_metric[m],
             "_mean");
    if (t->n == 0) {
        rc = data_fail(err, errlen, dir, file, what);
        goto done;
    }
    const prow *r0 = &t->row[0];
    for (int i = 2; i < nsw; i++)
        append(fixed, sizeof fixed, ", ", ks->name[i], r0->key[i]);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        si[s] = -1;
    /* pass 1: strategies, panels and x values, in file order */
    int nonnum = 0;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        int skip = 0;
        for (int k = 2; k < nsw && !skip; k++)
            skip = strcmp(p->key[k], r0->key[k]) != 0;
        if (skip || (compare && p->strategy == p->baseline))
            continue;
        if (si[p->strategy] < 0) {
            si[p->strategy] = ns++;
            append(strategies, sizeof strategies, " ", sname(p->strategy), NULL);
        }
        if (slist_add(&gs, nsw >= 2 ? p->key[1] : "") < 0 || slist_add(&xs, p->key[0]) < 0) {
            rc = oom(err, errlen);
            goto done;
        }
    }
    size_t nx = xs.n, ng = gs.n;
    for (size_t i = 0; i < nx; i++)
        if (!num_text(xs.v[i]))
            nonnum = 1;
    size_t cells = ng * (size_t)(ns ? ns : 1) * (nx ? nx : 1);
    Y = herd_malloc_array(cells, sizeof *Y);
    E = herd_malloc_array(cells, sizeof *E);
    has = herd_calloc(cells, 1);
    ord = herd_malloc_array(nx ? nx : 1, sizeof *ord);
    if (!Y || !E || !has || !ord) {
        rc = oom(err, errlen);
        goto done;
    }
    /* pass 2: the values and the ranges */
    int ny = 0, allpos = 0, noci = 0;
    double lo = 0, hi = 0, ymin = 0, ymax = 0, minpos = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        int skip = 0;
        for (int k = 2; k < nsw && !skip; k++)
            skip = strcmp(p->key[k], r0->key[k]) != 0;
        if (skip || (compare && p->strategy == p->baseline))
            continue;
        double y = p->mean[m], e = p->ci[m];
        if (!isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        size_t g = (size_t)slist_find(&gs, nsw >= 2 ? p->key[1] : ""), x = (size_t)slist_find(&xs, p->key[0]);
        size_t c = (g * (size_t)ns + (size_t)si[p->strategy]) * nx + x;
        Y[c] = y;
        E[c] = e;
        has[c] = 1;
        if (!ny++) {
            lo = y - e;
            hi = y + e;
            ymin = ymax = y;
            allpos = 1;
        }
        if (y - e < lo)
            lo = y - e;
        if (y + e > hi)
            hi = y + e;
        if (y < ymin)
            ymin = y;
        if (y > ymax)
            ymax = y;
        if (y <= 0)
            allpos = 0;
        double b = y - e > 0 ? y - e : y;
        if (y > 0 && (isnan(minpos) || b < minpos))
            minpos = b;
    }
    if (ny == 0) {
        rc = data_fail(err, errlen, dir, file, what);
        goto done;
    }
    /* x in numeric order (stable), and how evenly a linear or a log axis
     * spreads them: the smallest gap between neighbours, as a share of the
     * axis */
    for (size_t i = 0; i < nx; i++)
        ord[i] = i;
    if (!nonnum)
        for (size_t i = 1; i < nx; i++) {
            size_t v = ord[i], j = i;
            for (; j > 0 && strtod(xs.v[ord[j - 1]], NULL) > strtod(xs.v[v], NULL); j--)
                ord[j] = ord[j - 1];
            ord[j] = v;
        }
    double gaplin = 1, gaplog = 1;
    if (!nonnum && nx > 1) {
        double a = strtod(xs.v[ord[0]], NULL), z = strtod(xs.v[ord[nx - 1]], NULL);
        for (size_t i = 1; i < nx; i++) {
            double u = strtod(xs.v[ord[i - 1]], NULL), v = strtod(xs.v[ord[i]], NULL);
            if (z > a && (v - u) / (z - a) < gaplin)
                gaplin = (v - u) / (z - a);
            if (a > 0 && z > a && log(v / u) / log(z / a) < gaplog)
                gaplog = log(v / u) / log(z / a);
        }
        if (a <= 0)
            gaplog = 0;
    }
    if (w_open(&d, wd, name, "csv", err, errlen) || w_open(&in, wd, name, "tsv", err, errlen))
        goto done;
    for (size_t g = 0; g < ng; g++)
        for (int s = 0; s < ns; s++) {
            int any = 0;
            fprintf(d.f, "%sx,mean,ci95\n", g || s ? "\n\n" : "");
            for (size_t i = 0; i < nx; i++) {
                size_t c = (g * (size_t)ns + (size_t)s) * nx + ord[i];
                if (!has[c])
                    continue;
                if (nonnum)
                    fprintf(d.f, "%zu", i + 1);
                else
                    fputs(xs.v[ord[i]], d.f);
                fprintf(d.f, ",%.17g,%.17g\n", Y[c], E[c]);
                any = 1;
            }
            if (!any)
                fputs("NaN,NaN,0\n", d.f);
        }
    info_s(in.f, "format", "sweep");
    info_n(in.f, "ns", ns);
    info_s(in.f, "strategies", strategies);
    info_n(in.f, "ng", (double)ng);
    info_n(in.f, "nx", (double)nx);
    info_n(in.f, "xnum", !nonnum);
    info_n(in.f, "noci", noci);
    info_s(in.f, "xkey", ks->name[0]);
    info_s(in.f, "gkey", nsw >= 2 ? ks->name[1] : "");
    info_s(in.f, "fixed", fixed);
    if (r0->reps) {
        char reps[32];
        snprintf(reps, sizeof reps, "%llu", r0->reps);
        info_s(in.f, "reps", reps);
    }
    info_s(in.f, "baseline", compare && r0->baseline >= 0 ? sname(r0->baseline) : "");
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    info_n(in.f, "ymin", ymin);
    info_n(in.f, "ymax", ymax);
    info_n(in.f, "allpos", allpos);
    info_n(in.f, "minpos", isnan(minpos) ? 0 : minpos);
    info_n(in.f, "xmin", nonnum ? 1 : strtod(xs.v[ord[0]], NULL));
    info_n(in.f, "xmax", nonnum ? (double)nx : strtod(xs.v[ord[nx - 1]], NULL));
    info_n(in.f, "gaplin", gaplin);
    info_n(in.f, "gaplog", gaplog);
    for (size_t g = 0; g < ng; g++)
        info_s(in.f, "glab", gs.v[g]);
    for (size_t i = 0; i < nx; i++)
        info_s(in.f, "xlab", xs.v[ord[i]]);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&xs);
    slist_free(&gs);
    herd_free(Y);
    herd_free(E);
    herd_free(has);
    herd_free(ord);
    return rc;
}

/* compare.csv/.tsv for compare.gp (no sweep): per strategy but the
 * baseline, a block "pos,mean,ci95" of the completion-time change. */
static int prep_compare_bars(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->cmp;
    wfile d = {0}, in = {0};
    char strategies[128] = "";
    int rc = -1, ns = 0, noci = 0;
    double lo = 0, hi = 0;
    if (t->n == 0)
        return data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
    if (w_open(&d, wd, "compare", "csv", err, errlen) || w_open(&in, wd, "compare", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        double y = p->mean[0], e = p->ci[0];
        if (p->strategy == p->baseline || !isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        if (!ns) {
            lo = y - e;
            hi = y + e;
        }
        if (y - e < lo)
            lo = y - e;
        if (y + e > hi)
            hi = y + e;
        append(strategies, sizeof strategies, " ", sname(p->strategy), NULL);
        ns++;
        fprintf(d.f, "%spos,mean,ci95\n%d,%.17g,%.17g\n", ns > 1 ? "\n\n" : "", ns, y, e);
    }
    if (!ns) {
        data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
        goto done;
    }
    info_s(in.f, "format", "bars");
    info_n(in.f, "ns", ns);
    info_s(in.f, "strategies", strategies);
    info_s(in.f, "baseline", t->row[0].baseline >= 0 ? sname(t->row[0].baseline) : "");
    if (t->row[0].reps) {
        char reps[32];
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
        info_s(in.f, "reps", reps);
    }
    info_n(in.f, "noci", noci);
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* The rows of aggregate.csv at its first sweep point (variant aside). */
static int at_first_point(const folder *fo, const prow *p)
{
    for (int k = fo->ks.variant; k < fo->ks.k; k++)
        if (strcmp(p->key[k], fo->agg.row[0].key[k]))
            return 0;
    return 1;
}

/* The metrics of variant_metric that are not zero everywhere (at the first
 * sweep point), space-separated into out; their number. */
static int variant_metrics(const folder *fo, char *out, size_t n)
{
    int nm = 0;
    out[0] = '\0';
    for (size_t k = 0; k < N_VARIANT_METRIC; k++) {
        int m = met_index(variant_metric[k]), nz = 0;
        if (fo->agg.cmean[m] < 0)
            continue;
        for (size_t i = 0; i < fo->agg.n && !nz; i++)
            nz = at_first_point(fo, &fo->agg.row[i]) && isfinite(fo->agg.row[i].mean[m]) &&
                 fo->agg.row[i].mean[m] != 0;
        if (nz) {
            append(out, n, " ", variant_metric[k], NULL);
            nm++;
        }
    }
    return nm;
}

/* variants-METRIC.csv for every metric of variant_metric (a row per
 * variant: its name, then mean and CI per strategy), variants.tsv. */
static int prep_variants(const folder *fo, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->agg;
    slist vs = {0};
    int si[HP_STRATEGY_COUNT], sorder[HP_STRATEGY_COUNT], ns = 0, rc = -1;
    char strategies[128] = "", mlist[512], label[MAX_KEYS * (KEYNAME_MAX + LABEL_MAX + 8)] = "";
    const prow **cell = NULL;
    wfile d = {0}, in = {0};
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        si[s] = -1;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_first_point(fo, p))
            continue;
        if (si[p->strategy] < 0) {
            si[p->strategy] = ns;
            sorder[ns++] = p->strategy;
            append(strategies, sizeof strategies, " ", sname(p->strategy), NULL);
        }
        if (slist_add(&vs, p->key[0]) < 0) {
            rc = oom(err, errlen);
            goto done;
        }
    }
    cell = herd_calloc(vs.n * (size_t)ns + 1, sizeof *cell);
    if (!cell) {
        rc = oom(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (at_first_point(fo, p))
            cell[(size_t)slist_find(&vs, p->key[0]) * (size_t)ns + (size_t)si[p->strategy]] = p;
    }
    for (size_t k = 0; k < N_VARIANT_METRIC; k++) {
        int m = met_index(variant_metric[k]);
        char name[96];
        if (t->cmean[m] < 0)
            continue;
        snprintf(name, sizeof name, "variants-%s", variant_metric[k]);
        if (w_open(&d, wd, name, "csv", err, errlen))
            goto done;
        fputs("variant", d.f);
        for (int s = 0; s < ns; s++)
            fprintf(d.f, ",%s_mean,%s_ci95", sname(sorder[s]), sname(sorder[s]));
        fputc('\n', d.f);
        for (size_t v = 0; v < vs.n; v++) {
            fputs(vs.v[v], d.f);
            for (int s = 0; s < ns; s++) {
                const prow *p = cell[v * (size_t)ns + (size_t)s];
                fputc(',', d.f);
                put_num(d.f, p ? p->mean[m] : NAN);
                fprintf(d.f, ",%.17g", p && isfinite(p->ci[m]) ? p->ci[m] : 0);
            }
            fputc('\n', d.f);
        }
        if (w_close(&d, err, errlen))
            goto done;
    }
    if (w_open(&in, wd, "variants", "tsv", err, errlen))
        goto done;
    variant_metrics(fo, mlist, sizeof mlist);
    for (int i = fo->ks.variant; i < fo->ks.k; i++)
        append(label, sizeof label, ", ", fo->ks.name[i], t->row[0].key[i]);
    info_n(in.f, "ns", ns);
    info_s(in.f, "strategies", strategies);
    info_s(in.f, "metrics", mlist);
    info_n(in.f, "nv", (double)vs.n);
    info_s(in.f, "label", label);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&vs);
    herd_free(cell);
    return rc;
}

/* sensitivity.csv/.tsv: compare.csv with two sweep columns as a grid; per
 * point (col = index of the second key's value, row = of the first) the
 * completion-time reduction of every strategy, and whether the 62/65 claim
 * holds (full jitter 62 +/- 3 %, decorrelated jitter 65 +/- 3 % and ahead). */
static int prep_sensitivity(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->cmp;
    slist as = {0}, bs = {0};
    double *red = NULL;
    char *seen = NULL;
    size_t *order = NULL, norder = 0;
    wfile d = {0}, in = {0};
    int rc = -1;
    for (size_t i = 0; i < t->n; i++)
        if (slist_add(&as, t->row[i].key[0]) < 0 || slist_add(&bs, t->row[i].key[1]) < 0) {
            rc = oom(err, errlen);
            goto done;
        }
    if (t->n == 0) {
        rc = data_fail(err, errlen, dir, "compare.csv", "no rows");
        goto done;
    }
    size_t na = as.n, nb = bs.n, cells = na * nb;
    red = herd_malloc_array(cells * HP_STRATEGY_COUNT, sizeof *red);
    seen = herd_calloc(cells, 1);
    order = herd_malloc_array(cells, sizeof *order);
    if (!red || !seen || !order) {
        rc = oom(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < cells * HP_STRATEGY_COUNT; i++)
        red[i] = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        size_t c = (size_t)slist_find(&as, p->key[0]) * nb + (size_t)slist_find(&bs, p->key[1]);
        if (!seen[c]) {
            seen[c] = 1;
            order[norder++] = c;
        }
        red[c * HP_STRATEGY_COUNT + (size_t)p->strategy] = -p->mean[0];
    }
    if (w_open(&d, wd, "sensitivity", "csv", err, errlen) || w_open(&in, wd, "sensitivity", "tsv", err, errlen))
        goto done;
    fputs("col,row,ok", d.f);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        fprintf(d.f, ",%s", sname(s));
    fputc('\n', d.f);
    for (size_t i = 0; i < norder; i++) {
        size_t c = order[i];
        double f = red[c * HP_STRATEGY_COUNT + HP_FULL_JITTER], dj = red[c * HP_STRATEGY_COUNT + HP_DECORRELATED_JITTER];
        int ok = f >= 59 && f <= 65 && dj >= 62 && dj <= 68 && dj > f; /* false with a NaN */
        fprintf(d.f, "%zu,%zu,%d", c % nb, c / nb, ok);
        for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
            fputc(',', d.f);
            put_num(d.f, red[c * HP_STRATEGY_COUNT + (size_t)s]);
        }
        fputc('\n', d.f);
    }
    info_s(in.f, "k1", fo->ks.name[0]);
    info_s(in.f, "k2", fo->ks.name[1]);
    info_n(in.f, "na", (double)na);
    info_n(in.f, "nb", (double)nb);
    for (size_t i = 0; i < na; i++)
        info_s(in.f, "alab", as.v[i]);
    for (size_t i = 0; i < nb; i++)
        info_s(in.f, "blab", bs.v[i]);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&as);
    slist_free(&bs);
    herd_free(red);
    herd_free(seen);
    herd_free(order);
    return rc;
}

/* ------------------------------------------------------------------------
 * The scripts and their figures
 * ------------------------------------------------------------------------ */

/* A script and the figures (base names) it writes, each as .png and .svg. */
typedef struct plot_script {
    const char *name;
    const char *const *figures;
    size_t nfigures;
} plot_script;

static const char *const timeseries_figs[] = {"timeseries"};
static const char *const sweep_figs[] = {"sweep_completion_time_s", "sweep_calls", "sweep_peak_arrivals_per_s",
                                         "sweep_p99_latency_s", "sweep_failures"};
static const char *const compare_figs[] = {"compare"};
static const char *const sensitivity_figs[] = {"sensitivity"};
static const char *const variants_figs[] = {"variants"};
static const char *const goodput_figs[] = {"goodput"};
enum { SCRIPT_TIMESERIES, SCRIPT_SWEEP, SCRIPT_COMPARE, SCRIPT_SENSITIVITY, SCRIPT_VARIANTS, SCRIPT_GOODPUT, NSCRIPTS };
static const plot_script scripts[NSCRIPTS] = {
    {"timeseries.gp", timeseries_figs, 1},
    {"sweep.gp", sweep_figs, COUNT(sweep_figs)},
    {"compare.gp", compare_figs, 1},
    {"sensitivity.gp", sensitivity_figs, 1},
    {"variants.gp", variants_figs, 1},
    {"goodput.gp", goodput_figs, 1},
};
static const char *const formats[] = {"png", "svg"};

/* Writes the data of every figure in use[] into wd. */
static int prepare(const folder *fo, const int *use, const char *dir, const char *wd, char *err, size_t errlen)
{
    if (use[SCRIPT_TIMESERIES] && prep_timeseries(fo, dir, wd, err, errlen))
        return -1;
    if (use[SCRIPT_GOODPUT] && prep_goodput(fo, dir, wd, err, errlen))
        return -1;
    if (use[SCRIPT_SWEEP])
        for (size_t k = 0; k < N_SWEEP_METRIC; k++) {
            char name[64];
            snprintf(name, sizeof name, "sweep_%s", sweep_metric[k]);
            if (prep_sweep(fo, &fo->agg, met_index(sweep_metric[k]), 0, dir, wd, name, err, errlen))
                return -1;
        }
    if (use[SCRIPT_COMPARE] &&
        (fo->ks.k > 0 ? prep_sweep(fo, &fo->cmp, 0, 1, dir, wd, "compare", err, errlen)
                      : prep_compare_bars(fo, dir, wd, err, errlen)))
        return -1;
    if (use[SCRIPT_SENSITIVITY] && prep_sensitivity(fo, dir, wd, err, errlen))
        return -1;
    if (use[SCRIPT_VARIANTS] && prep_variants(fo, wd, err, errlen))
        return -1;
    return 0;
}

/* 1 if every script is readable in d. */
static int has_scripts(const char *d)
{
    char p[PATH_MAX], e[8];
    for (size_t i = 0; i < NSCRIPTS; i++)
        if (path_fmt(p, e, sizeof e, "%s/%s", d, scripts[i].name) || access(p, R_OK) != 0)
            return 0;
    return 1;
}

/* The plots directory into out[PATH_MAX]: $HERD_PLOTS, <exe dir>/plots or
 * <exe dir>/../share/herd/plots.  0, or -1 with err. */
static int find_scripts(char *out, char *err, size_t errlen)
{
    const char *env = getenv("HERD_PLOTS");
    char shown[SHOWN_MAX + 8];
    if (env && *env) {
        if (path_fmt(out, err, errlen, "%s", env))
            return -1;
        if (!has_scripts(out)) {
            esc(shown, sizeof shown, env, SHOWN_MAX);
            snprintf(err, errlen, "HERD_PLOTS=%s: no timeseries.gp, sweep.gp and compare.gp there", shown);
            return -1;
        }
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0) {
        snprintf(err, errlen, "cannot find the plot scripts: /proc/self/exe: %s; set HERD_PLOTS to the plots directory",
                 strerror(errno));
        return -1;
    }
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    if (path_fmt(out, err, errlen, "%s/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    if (path_fmt(out, err, errlen, "%s/../share/herd/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    esc(shown, sizeof shown, exe, SHOWN_MAX);
    snprintf(err, errlen,
             "cannot find the plot scripts in %s/plots or %s/../share/herd/plots; set HERD_PLOTS to the plots directory",
             shown, shown);
    return -1;
}

/* Appends to err the first non-blank lines of log, each indented and
 * escaped. */
static void quote_log(FILE *log, char *err, size_t errlen)
{
    char line[QUOTED_WIDTH + 2], shown[4 * QUOTED_WIDTH + 8];
    int quoted = 0;
    rewind(log);
    while (quoted < QUOTED_LINES && fgets(line, sizeof line, log)) {
        size_t n = strlen(line);
        int cut = n > 0 && line[n - 1] != '\n' && !feof(log);
        if (cut) { /* skip the rest of a long line */
            int c;
            while ((c = getc(log)) != EOF && c != '\n')
                ;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (strspn(line, " \t") == n)
            continue;
        esc(shown, sizeof shown, line, QUOTED_WIDTH);
        size_t used = strlen(err);
        if (used + 1 < errlen)
            snprintf(err + used, errlen - used, "\n  %s%s", shown, cut ? "..." : "");
        quoted++;
    }
}

/* Runs `gnuplot -c script wd [a1 [a2]]`.  0 when gnuplot exits with status
 * 0, else -1 with err (gnuplot missing, or its status and first lines). */
static int run_gnuplot(const char *script, const char *wd, const char *a1, const char *a2, char *err, size_t errlen)
{
    char shown[SHOWN_MAX + 8];
    esc(shown, sizeof shown, script, SHOWN_MAX);
    FILE *log = tmpfile();
    if (!log) {
        snprintf(err, errlen, "cannot create a temporary file for gnuplot's messages: %s", strerror(errno));
        return -1;
    }
    int rc = -1;
    posix_spawn_file_actions_t fa;
    int e = posix_spawn_file_actions_init(&fa);
    if (e) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    if ((e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, fileno(log), 1)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, fileno(log), 2))) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        posix_spawn_file_actions_destroy(&fa);
        goto done;
    }
    char *argv[] = {"gnuplot", "-c", (char *)script, (char *)wd, (char *)a1, (char *)a2, NULL};
    pid_t pid;
    e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT) {
        snprintf(err, errlen, GNUPLOT_MISSING);
        goto done;
    }
    if (e) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "gnuplot -c %s: waitpid: %s", shown, strerror(errno));
            goto done;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rc = 0;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(err, errlen, GNUPLOT_MISSING); /* a spawn that reports exec failure as 127 */
    } else {
        if (WIFEXITED(status))
            snprintf(err, errlen, "gnuplot -c %s failed (exit status %d):", shown, WEXITSTATUS(status));
        else
            snprintf(err, errlen, "gnuplot -c %s was killed by signal %d:", shown,
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        quote_log(log, err, errlen);
    }
done:
    fclose(log);
    return rc;
}

/* Runs script i on wd and checks that it wrote each figure there. */
static int render_one(int i, const folder *fo, const char *plots, const char *wd, char *err, size_t errlen)
{
    char script[PATH_MAX], fig[PATH_MAX], shown[SHOWN_MAX + 8];
    const char *a1 = NULL, *a2 = NULL;
    const char *name = scripts[i].name;
    if (i == SCRIPT_SWEEP)
        a1 = "auto";
    if (i == SCRIPT_COMPARE && fo->ks.k > 0) { /* swept: drawn like the sweep figures */
        name = "sweep.gp";
        a1 = "linear";
        a2 = "compare";
    }
    if (path_fmt(script, err, errlen, "%s%s/%s", plots[0] == '/' ? "" : "./", plots, name))
        return -1;
    if (run_gnuplot(script, wd, a1, a2, err, errlen))
        return -1;
    for (size_t f = 0; f < scripts[i].nfigures; f++)
        for (size_t k = 0; k < 2; k++) {
            struct stat st;
            if (path_fmt(fig, err, errlen, "%s/%s.%s", wd, scripts[i].figures[f], formats[k]))
                return -1;
            if (stat(fig, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
                esc(shown, sizeof shown, script, SHOWN_MAX);
                snprintf(err, errlen, "%s did not write %s.%s", shown, scripts[i].figures[f], formats[k]);
                return -1;
            }
        }
    return 0;
}

/* Removes the private directory wd and whatever is in it. */
static void remove_workdir(const char *wd)
{
    DIR *dp = opendir(wd);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL)
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(dirfd(dp), de->d_name, 0);
        closedir(dp);
    }
    rmdir(wd);
}

int plot_render(const char *dir, int quiet, char *err, size_t errlen)
{
    char d[PATH_MAX], wd[PATH_MAX], plots[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
    char shown[SHOWN_MAX + 8];
    int use[NSCRIPTS] = {0}, rc = -1, made = 0;
    folder fo;
    memset(&fo, 0, sizeof fo);

    if (path_fmt(d, err, errlen, "%s", dir))
        return -1;
    for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
        d[n - 1] = '\0';
    esc(shown, sizeof shown, dir, SHOWN_MAX);
    if (path_fmt(from, err, errlen, "%s/aggregate.csv", d))
        return -1;
    struct stat st;
    if (stat(from, &st) != 0) {
        snprintf(err, errlen, "%s: not a herd results directory (no aggregate.csv)", shown);
        return -1;
    }

    /* 1. every CSV, validated; aggregate.csv first: its key columns are
     * every file's */
    static const int order[] = {K_AGGREGATE, K_SUMMARY, K_TIMESERIES, K_COMPARE, K_TOOLS};
    for (size_t i = 0; i < COUNT(order); i++)
        if ((rc = load_csv(d, order[i], &fo, err, errlen)) != 0)
            goto done;
    rc = -1;

    int nsweeps = fo.ks.k - fo.ks.variant;
    char mlist[512];
    use[SCRIPT_SWEEP] = nsweeps > 0;
    use[SCRIPT_VARIANTS] = fo.ks.variant && variant_metrics(&fo, mlist, sizeof mlist) > 0;
    use[SCRIPT_TIMESERIES] = use[SCRIPT_GOODPUT] = fo.ts.rows > 0;
    use[SCRIPT_COMPARE] = fo.cmp.present;
    use[SCRIPT_SENSITIVITY] = fo.cmp.present && nsweeps == 2 && !fo.ks.variant;
    int any = 0;
    for (int i = 0; i < NSCRIPTS; i++)
        any |= use[i];
    if (any && find_scripts(plots, err, errlen))
        goto done;

    /* 2. the figures' data, in a private directory beside the figures (so
     * that they can be renamed into place) */
    if (any) {
        if (path_fmt(wd, err, errlen, "%s%s/.herd-plot.XXXXXX", d[0] == '/' ? "" : "./", d))
            goto done;
        if (!mkdtemp(wd)) {
            snprintf(err, errlen, "%s: cannot write figures there: %s", shown, strerror(errno));
            goto done;
        }
        made = 1;
        if (prepare(&fo, use, dir, wd, err, errlen))
            goto done;
        const char *keep = getenv("HERD_PLOT_DATA");
        if (keep && *keep && (csv_mkdirs(keep, err, errlen) || prepare(&fo, use, dir, keep, err, errlen)))
            goto done;
    }

    /* 3. draw, then move every figure into place */
    for (int i = 0; i < NSCRIPTS; i++)
        if (use[i] && render_one(i, &fo, plots, wd, err, errlen))
            goto done;
    for (int i = 0; i < NSCRIPTS; i++)
        for (size_t j = 0; use[i] && j < scripts[i].nfigures; j++)
            for (size_t k = 0; k < 2; k++) {
                if (path_fmt(from, err, errlen, "%s/%s.%s", wd, scripts[i].figures[j], formats[k]) ||
                    path_fmt(to, err, errlen, "%s/%s.%s", d, scripts[i].figures[j], formats[k]))
                    goto done;
                if (rename(from, to) != 0) {
                    char t[SHOWN_MAX + 8];
                    esc(t, sizeof t, to, SHOWN_MAX);
                    snprintf(err, errlen, "%s: cannot write the figure: %s", t, strerror(errno));
                    goto done;
                }
            }

    if (!quiet) {
        const char *sep = "wrote ";
        for (int i = 0; i < NSCRIPTS; i++)
            for (size_t j = 0; use[i] && j < scripts[i].nfigures; j++)
                for (size_t k = 0; k < 2; k++) {
                    char fig[PATH_MAX + 64];
                    snprintf(fig, sizeof fig, "%s/%s.%s", d, scripts[i].figures[j], formats[k]);
                    esc(shown, sizeof shown, fig, SHOWN_MAX);
                    printf("%s%s", sep, shown);
                    sep = ", ";
                }
        if (*sep == ',') {
            printf("\n");
        } else {
            esc(shown, sizeof shown, d, SHOWN_MAX);
            printf("%s: nothing to plot (timeseries.csv is empty, no sweep, no compare.csv)\n", shown);
        }
    }
    rc = 0;
done:
    if (made)
        remove_workdir(wd);
    folder_free(&fo);
    return rc;
}

int plot_dir(const char *dir, char *err, size_t errlen)
{
    return plot_render(dir, 0, err, errlen);
}
