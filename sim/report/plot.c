/*
 * plot.c - validates a results directory and draws its figures with the
 * gnuplot scripts of plots/ (see plot.h).
 *
 * Three stages, and gnuplot only runs in the last:
 *
 *   1. load: every CSV of the directory is read once, line by line, and
 *      validated (csv_rd, check_header, check_row); what the figures need
 *      is kept (aggregate.csv and compare.csv rows with the metrics the
 *      figures draw, the series of timeseries.csv of the selected
 *      replication at the selected sweep point).  manifest.txt, if any, is
 *      read for the scenario's name, [run] columns, outages and spike
 *      (load_manifest: names of a restricted set, metric names, numbers).
 *      The selection (--variant, --point, --replication, --metric) is
 *      checked against the rows as they are read.
 *   2. prepare: each figure's data is computed from those rows (the work
 *      awk pipelines in the scripts used to do) and written into a private
 *      directory as NAME.csv (numbers, a header per block) and NAME.tsv
 *      (labels and settings, "key<TAB>value"; layout, titles, windows to
 *      shade), with style.tsv (terminal, text sizes, line widths).  Labels
 *      come only from validated fields: strategy names, variant names,
 *      sweep keys and values, metric names, the scenario's name, all of a
 *      restricted character set without quotes, tabs, '#', '@', '<', '|'
 *      or '\'.
 *   3. draw: `gnuplot -c SCRIPT WORKDIR [OPTION ...]` per script; the
 *      figures land in WORKDIR and are renamed into the results directory
 *      when every script succeeded (with the dumb terminal, printed on
 *      stdout instead).  The WORKDIR path given to gnuplot
 *      starts with '/' or "./", so gnuplot never reads it as a pipe
 *      ("<cmd", "|cmd").
 *
 * gnuplot's stdout and stderr go to an unnamed temporary file rather than a
 * pipe, so a chatty gnuplot can never block on a full pipe while we wait for
 * it; its first lines are quoted when it fails.
 */
#include "plot.h"

#include "../base/text.h"

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
            size_t ne;
            const char *const *extra = metric_agg_extra(&metric_table[k], &ne);
            for (size_t e = 0; e < ne; e++)
                ADD(strcmp(extra[e], "_n") ? T_DBL : T_U64, "%s%s", metric_table[k].name, extra[e]);
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
                                  "equal_jitter, decorrelated_jitter or random",
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

/* Appends "a = b" (sep first unless out is empty) to out[n]. */
static void append(char *out, size_t n, const char *sep, const char *a, const char *b)
{
    size_t o = strlen(out);
    if (o < n)
        snprintf(out + o, n - o, "%s%s%s%s", o ? sep : "", a, b ? " = " : "", b ? b : "");
}

#define MAX_WANT 64        /* metrics of aggregate.csv kept per row */
#define MAX_OUTAGES 32     /* outage sections read from the manifest */
#define MAX_MSETS 256      /* outage and spike overrides read from the manifest */
#define MAX_WIN 16         /* windows shaded in a figure over time */
#define REP_MAX 1000000    /* replications that can be selected: 0 .. REP_MAX - 1 */
#define MANIFEST_LINE 4096 /* longer lines of manifest.txt are skipped */
#define NAME_MAX_LEN 63    /* a scenario name, as [run] name allows it */

/* What the sweep figures draw by default; what the variants figure draws
 * when the scenario has no [run] columns (herd run's default table). */
static const char *const sweep_default[] = {"completion_time_s", "calls", "peak_arrivals_per_s", "p99_latency_s",
                                            "failures"};
static const char *const columns_default[] = {"completion_time_s", "calls", "refused", "peak_arrivals_per_s",
                                              "p99_latency_s", "failures"};

/* Index of a metric in metric_table, or -1. */
static int metric_index(const char *name)
{
    for (size_t k = 0; k < metric_count; k++)
        if (!strcmp(metric_table[k].name, name))
            return (int)k;
    return -1;
}

/* Index of a metric in compared[] (the columns of compare.csv), or -1. */
static int compared_index(const char *name)
{
    for (size_t k = 0; k < COUNT(compared); k++)
        if (!strcmp(compared[k], name))
            return (int)k;
    return -1;
}

/* A row of aggregate.csv or compare.csv. */
typedef struct prow {
    char *keys;                /* the key fields, NUL-separated, then v (one block, owned) */
    const char *key[MAX_KEYS]; /* into keys */
    int strategy, baseline;    /* baseline: compare.csv, else -1 */
    unsigned long long reps;
    double *v;                 /* mean and ci95 of each kept metric: v[2w], v[2w + 1] */
} prow;

typedef struct ptable {
    int present;
    prow *row;
    size_t n, cap;
    int nw;                /* metrics kept */
    int want[MAX_WANT];    /* aggregate.csv: metric_table index; compare.csv: compared[] index */
    int cmean[MAX_WANT], cci[MAX_WANT], cbase, creps; /* column indices, -1: none */
} ptable;

/* The position of metric m (metric_table index; compared[] index for
 * compare.csv) among the metrics t keeps, or -1. */
static int kept(const ptable *t, int m)
{
    for (int w = 0; w < t->nw; w++)
        if (t->want[w] == m)
            return w;
    return -1;
}

static void want_metric(ptable *t, int m)
{
    if (m >= 0 && kept(t, m) < 0 && t->nw < MAX_WANT)
        t->want[t->nw++] = m;
}

/* The replications seen in a file (below REP_MAX). */
typedef struct repset {
    unsigned char *seen;
    size_t n; /* seen[0 .. n - 1] */
    int any;
} repset;

static int repset_add(repset *r, const char *field)
{
    unsigned long long v = strtoull(field, NULL, 10);
    r->any = 1;
    if (v >= REP_MAX)
        return 0;
    if (v >= r->n) {
        size_t ncap = r->n ? r->n : 64;
        while (ncap <= v)
            ncap *= 2;
        if (ncap > REP_MAX)
            ncap = REP_MAX;
        unsigned char *ns = herd_realloc_array(r->seen, ncap, 1);
        if (!ns)
            return -1;
        memset(ns + r->n, 0, ncap - r->n);
        r->seen = ns;
        r->n = ncap;
    }
    r->seen[v] = 1;
    return 0;
}

/* The replications of r as "0-9, 12" into out. */
static void repset_text(const repset *r, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < r->n; i++) {
        if (!r->seen[i])
            continue;
        size_t j = i;
        while (j + 1 < r->n && r->seen[j + 1])
            j++;
        char t[64];
        if (j > i)
            snprintf(t, sizeof t, "%zu-%zu", i, j);
        else
            snprintf(t, sizeof t, "%zu", i);
        append(out, n, ", ", t, NULL);
        i = j;
    }
}

/* A row of timeseries.csv at the selected point and replication. */
typedef struct tsrow {
    int variant; /* index into tstable.variant, -1 without variants */
    int strategy;
    double t, arrivals, refused, offered, goodput;
} tsrow;

typedef struct tstable {
    int present;
    long rows; /* data rows read */
    tsrow *r;
    size_t n, cap;
    char (*variant)[LABEL_MAX + 1];
    size_t nvariant, capvariant;
    repset reps;
} tstable;

/* What manifest.txt says, as far as the figures use it: the scenario's
 * name, its [run] columns, its outages and load spike, and the overrides
 * of those (--set, [variant] lines).  Only names of a restricted character
 * set, metric indices and numbers are kept. */
typedef struct moutage {
    char sect[KEYNAME_MAX + 1]; /* "outage NAME" */
    double start, end;
    int hs, he;
} moutage;

typedef struct mset {
    char variant[LABEL_MAX + 1]; /* "" for a --set override */
    char key[KEYNAME_MAX + 1];   /* "outage NAME.start_s", "clients.spike_end_s", ... */
    double v;
} mset;

typedef struct manifest {
    int present;
    char name[NAME_MAX_LEN + 1];
    int columns[MAX_WANT], ncolumns;
    moutage out[MAX_OUTAGES];
    int nout;
    mset set[MAX_MSETS];
    int nset;
    double spike_start, spike_end, spike_rate;
} manifest;

/* The selection of plot_opts, checked against the data. */
typedef struct selection {
    char vname[LABEL_MAX + 1];            /* the variant (default: the first) */
    int vgiven;                           /* --variant */
    char pval[MAX_KEYS][LABEL_MAX + 1];   /* per swept key column: its value */
    unsigned long long rep;
    int metric[PLOT_MAX_SELECT], nmetric; /* metric_table indices (--metric) */
} selection;

/* input.csv: the input data of a run (the service time's CDF, the trace's
 * arrival rate), as series of (x, y) points. */
enum { IN_CDF, IN_RATE, IN_COUNT };
typedef struct inputs {
    int present;
    double *x[IN_COUNT], *y[IN_COUNT];
    size_t n[IN_COUNT], cap[IN_COUNT];
} inputs;

typedef struct folder {
    inputs in;
    keyset ks;
    int have_ks;
    ptable agg, cmp;
    tstable ts;
    repset sumreps;
    manifest man;
    selection sel;
    const plot_opts *o;
    char name[NAME_MAX_LEN + 1]; /* the scenario, for titles */
} folder;

static void folder_free(folder *fo)
{
    for (int k = 0; k < IN_COUNT; k++) {
        herd_free(fo->in.x[k]);
        herd_free(fo->in.y[k]);
    }
    ptable *t[2] = {&fo->agg, &fo->cmp};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < t[k]->n; i++)
            herd_free(t[k]->row[i].keys);
        herd_free(t[k]->row);
    }
    herd_free(fo->ts.r);
    herd_free(fo->ts.variant);
    herd_free(fo->ts.reps.seen);
    herd_free(fo->sumreps.seen);
    memset(fo, 0, sizeof *fo);
}

static int oom(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory reading the results");
    return -1;
}

/* Keeps a validated row of aggregate.csv or compare.csv. */
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
    size_t len = 0;
    for (int i = 0; i < ks->k; i++)
        len += strlen(r->field[i]) + 1;
    size_t vals = (len + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    p->keys = herd_malloc_array(vals + 2 * (size_t)(t->nw ? t->nw : 1) * sizeof(double), 1);
    if (!p->keys)
        return oom(err, errlen);
    p->v = (double *)(void *)(p->keys + vals);
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
    for (int w = 0; w < t->nw; w++) {
        p->v[2 * w] = t->cmean[w] >= 0 ? dbl_of(r->field[t->cmean[w]]) : NAN;
        p->v[2 * w + 1] = t->cci[w] >= 0 ? dbl_of(r->field[t->cci[w]]) : NAN;
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

/* Keeps a validated row of timeseries.csv if it is of the selected
 * replication at the selected point (every variant). */
static int keep_tsrow(folder *fo, csv_rd *r, int strategy, char *err, size_t errlen)
{
    tstable *ts = &fo->ts;
    const keyset *ks = &fo->ks;
    int k = ks->k;
    ts->rows++;
    if (repset_add(&ts->reps, r->field[k + 1]) < 0)
        return oom(err, errlen);
    if (strtoull(r->field[k + 1], NULL, 10) != fo->sel.rep)
        return 0;
    for (int i = ks->variant; i < k; i++)
        if (strcmp(r->field[i], fo->sel.pval[i]))
            return 0;
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

/* Opens dir/name for reading if it is a regular file: the stream, NULL
 * with *missing = 1 when there is no such file, else NULL with err
 * (PLOT_INVALID in *rc for a file that is not regular). */
static FILE *open_regular(const char *path, csv_rd *r, int *missing, int *rc)
{
    struct stat st;
    *missing = 0;
    *rc = -1;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) {
            *missing = 1;
            return NULL;
        }
        snprintf(r->err, r->errlen, "%s: %s", r->shown, strerror(errno));
        return NULL;
    }
    r->line = 1;
    if (!S_ISREG(st.st_mode)) {
        *rc = rd_fail(r, "not a regular file; expected a herd CSV");
        return NULL;
    }
    /* O_NONBLOCK: a FIFO swapped in after the stat must not hang us. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(r->err, r->errlen, "%s: %s", r->shown, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *rc = rd_fail(r, "not a regular file; expected a herd CSV");
        return NULL;
    }
    if (st.st_size > CSV_MAX_BYTES) {
        close(fd);
        *rc = rd_fail(r, "the file is %lld bytes; expected at most %lld", (long long)st.st_size, CSV_MAX_BYTES);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        snprintf(r->err, r->errlen, "out of memory reading the results");
    }
    return f;
}

/* Opens dir/name for reading into r (its line buffers allocated).  1 when
 * open (close with rd_close), 0 when the file does not exist, PLOT_INVALID
 * or -1 (nothing left open). */
static int rd_open(csv_rd *r, const char *dir, const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX];
    memset(r, 0, sizeof *r);
    r->err = err;
    r->errlen = errlen;
    if (path_fmt(path, err, errlen, "%s/%s", dir, name))
        return -1;
    esc(r->shown, sizeof r->shown, path, SHOWN_MAX);
    int missing, rc;
    r->f = open_regular(path, r, &missing, &rc);
    if (!r->f)
        return missing ? 0 : rc;
    r->line = 0;
    r->lbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    r->fbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    return 1;
}

static void rd_close(csv_rd *r)
{
    fclose(r->f);
    herd_free(r->lbuf);
    herd_free(r->fbuf);
}

/* Reads and validates dir/NAME of this kind, keeping what the figures use.
 * 0 (also when the file does not exist), PLOT_INVALID, or -1. */
static int load_csv(const char *dir, int kind, folder *fo, char *err, size_t errlen)
{
    csv_rd r;
    int rc = rd_open(&r, dir, kind_file[kind], err, errlen);
    if (rc <= 0)
        return rc;
    colspec *tail = herd_malloc_array(MAX_COLS, sizeof *tail);
    rc = -1;
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
        for (int w = 0; w < t->nw; w++)
            t->cmean[w] = t->cci[w] = -1;
        for (int j = 0; j < ntail; j++) {
            int col = fo->ks.k + 1 + j;
            const char *nm = tail[j].name;
            size_t len = strlen(nm);
            if (!strcmp(nm, "baseline")) {
                t->cbase = col;
                continue;
            }
            if (!strcmp(nm, "replications")) {
                t->creps = col;
                continue;
            }
            const char *suffix = kind == K_COMPARE ? "_change_pct_mean" : "_mean";
            const char *csuffix = kind == K_COMPARE ? "_change_pct_ci95" : "_ci95";
            size_t sl = strlen(suffix), cl = strlen(csuffix);
            int is_mean = len > sl && !strcmp(nm + len - sl, suffix);
            int is_ci = len > cl && !strcmp(nm + len - cl, csuffix);
            if (!is_mean && !is_ci)
                continue;
            char base[96];
            snprintf(base, sizeof base, "%.*s", (int)(len - (is_mean ? sl : cl)), nm);
            int w = kept(t, kind == K_COMPARE ? compared_index(base) : metric_index(base));
            if (w >= 0)
                *(is_mean ? &t->cmean[w] : &t->cci[w]) = col;
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
        if (kind == K_TIMESERIES && (rc = keep_tsrow(fo, &r, strategy, err, errlen)) != 0)
            break;
        if (kind == K_SUMMARY && repset_add(&fo->sumreps, r.field[fo->ks.k + 1]) < 0) {
            rc = oom(err, errlen);
            break;
        }
    }
done:
    rd_close(&r);
    herd_free(tail);
    return rc;
}

/* Reads and validates dir/input.csv ("series,x,y"; series service_cdf or
 * arrival_rate; x and y numbers).  0 (also when it does not exist),
 * PLOT_INVALID, or -1. */
static int load_input(const char *dir, folder *fo, char *err, size_t errlen)
{
    static const char *const series[IN_COUNT] = {"service_cdf", "arrival_rate"};
    csv_rd r;
    int rc = rd_open(&r, dir, "input.csv", err, errlen);
    if (rc <= 0)
        return rc;
    rc = -1;
    if (!r.lbuf || !r.fbuf) {
        oom(err, errlen);
        goto done;
    }
    if ((rc = rd_line(&r)) <= 0 || r.nf != 3 || strcmp(r.field[0], "series") || strcmp(r.field[1], "x") ||
        strcmp(r.field[2], "y")) {
        if (rc >= 0) {
            r.line = 1;
            rc = rd_fail(&r, "expected the header series,x,y of a herd input.csv");
        }
        goto done;
    }
    fo->in.present = 1;
    while ((rc = rd_line(&r)) > 0) {
        int k = 0;
        while (k < IN_COUNT && (r.nf != 3 || strcmp(r.field[0], series[k])))
            k++;
        if (r.nf != 3 || k == IN_COUNT || !valid_dbl(r.field[1]) || !valid_dbl(r.field[2]) ||
            !isfinite(dbl_of(r.field[1])) || !isfinite(dbl_of(r.field[2]))) {
            rc = rd_fail(&r, "expected service_cdf or arrival_rate and two finite numbers");
            break;
        }
        inputs *in = &fo->in;
        if (in->n[k] == in->cap[k]) {
            size_t c = in->cap[k] ? 2 * in->cap[k] : 64;
            double *nx = herd_realloc_array(in->x[k], c, sizeof *nx);
            if (nx)
                in->x[k] = nx;
            double *ny = nx ? herd_realloc_array(in->y[k], c, sizeof *ny) : NULL;
            if (!ny) {
                rc = oom(err, errlen);
                break;
            }
            in->y[k] = ny;
            in->cap[k] = c;
        }
        in->x[k][in->n[k]] = dbl_of(r.field[1]);
        in->y[k][in->n[k]++] = dbl_of(r.field[2]);
    }
done:
    rd_close(&r);
    return rc;
}

/* ------------------------------------------------------------------------
 * manifest.txt: the scenario's name, [run] columns, outages and spike
 * ------------------------------------------------------------------------ */

/* s trimmed, runs of blanks made one space, into out[n]. */
static void norm_blanks(char *out, size_t n, const char *s, size_t len)
{
    text_collapse_blanks(s, len, out, n);
}

/* A scenario name: 1-63 of [A-Za-z0-9._-]. */
static int valid_name(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= NAME_MAX_LEN && valid_variant(s);
}

/* A finite number, the whole of s. */
static int num_of(const char *s, double *v)
{
    if (!num_text(s))
        return 0;
    *v = strtod(s, NULL);
    return isfinite(*v);
}

/* "section.key" of an override: blanks normalised; 0 if it is not one of
 * the keys the figures use. */
static int interesting_key(const char *k)
{
    size_t n = strlen(k);
    if (!strncmp(k, "outage ", 7))
        return (n > 8 && !strcmp(k + n - 8, ".start_s")) || (n > 6 && !strcmp(k + n - 6, ".end_s"));
    return !strcmp(k, "clients.spike_start_s") || !strcmp(k, "clients.spike_end_s") ||
           !strcmp(k, "clients.spike_rate_per_s");
}

static void man_columns(manifest *m, const char *list)
{
    m->ncolumns = 0;
    while (*list) {
        const char *e = strchr(list, ',');
        size_t len = e ? (size_t)(e - list) : strlen(list);
        char name[96];
        norm_blanks(name, sizeof name, list, len);
        int k = metric_index(name);
        int dup = 0;
        for (int i = 0; i < m->ncolumns; i++)
            dup |= m->columns[i] == k;
        if (k >= 0 && !dup && m->ncolumns < MAX_WANT)
            m->columns[m->ncolumns++] = k;
        list += len;
        if (*list == ',')
            list++;
    }
}

static moutage *man_outage(manifest *m, const char *sect)
{
    for (int i = 0; i < m->nout; i++)
        if (!strcmp(m->out[i].sect, sect))
            return &m->out[i];
    if (m->nout == MAX_OUTAGES)
        return NULL;
    moutage *o = &m->out[m->nout++];
    memset(o, 0, sizeof *o);
    snprintf(o->sect, sizeof o->sect, "%s", sect);
    return o;
}

static void man_set(manifest *m, const char *variant, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || m->nset == MAX_MSETS)
        return;
    char key[KEYNAME_MAX + 1], val[64];
    norm_blanks(key, sizeof key, kv, (size_t)(eq - kv));
    norm_blanks(val, sizeof val, eq + 1, strlen(eq + 1));
    if (!strcmp(key, "run.columns") && !*variant) {
        man_columns(m, eq + 1);
        return;
    }
    double v;
    if (!interesting_key(key) || !num_of(val, &v))
        return;
    mset *s = &m->set[m->nset++];
    snprintf(s->variant, sizeof s->variant, "%s", variant);
    snprintf(s->key, sizeof s->key, "%s", key);
    s->v = v;
}

/* Reads dir/manifest.txt if there is one (a regular file): every line is
 * read as text, and what is not understood is ignored; nothing of it ever
 * reaches gnuplot but names of a restricted set and numbers. */
static void load_manifest(const char *dir, manifest *m)
{
    char path[PATH_MAX], e[8];
    memset(m, 0, sizeof *m);
    m->spike_start = m->spike_end = NAN;
    if (path_fmt(path, e, sizeof e, "%s/manifest.txt", dir))
        return;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > CSV_MAX_BYTES) {
        close(fd);
        return;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return;
    }
    char *line = herd_malloc_array(MANIFEST_LINE + 2, 1);
    if (!line) {
        fclose(f);
        return;
    }
    m->present = 1;
    char variant[LABEL_MAX + 1] = "", sect[KEYNAME_MAX + 1] = "", pathname[NAME_MAX_LEN + 1] = "";
    int in_ini = 0, skipping = 0;
    while (fgets(line, MANIFEST_LINE + 2, f)) {
        size_t n = strlen(line);
        int whole = n > 0 && line[n - 1] == '\n';
        if (skipping || (!whole && !feof(f))) { /* a long line: skipped */
            skipping = !whole;
            continue;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!in_ini) {
            if (!strncmp(line, "--- scenario file ", 18) && n > 13 && !strcmp(line + n - 13, " verbatim ---")) {
                in_ini = 1;
                sect[0] = '\0';
            } else if (!strncmp(line, "scenario: ", 10)) {
                const char *b = strrchr(line + 10, '/');
                b = b ? b + 1 : line + 10;
                size_t bl = strlen(b);
                if (bl > 4 && !strcmp(b + bl - 4, ".ini"))
                    bl -= 4;
                if (bl <= NAME_MAX_LEN) {
                    snprintf(pathname, sizeof pathname, "%.*s", (int)bl, b);
                    if (!valid_name(pathname))
                        pathname[0] = '\0';
                }
            } else if (!strncmp(line, "override: --set ", 16)) {
                man_set(m, "", line + 16);
            } else if (!strncmp(line, "variant ", 8) && valid_variant(line + 8)) {
                snprintf(variant, sizeof variant, "%s", line + 8);
            } else if (!strncmp(line, "  set ", 6) && variant[0]) {
                man_set(m, variant, line + 6);
            } else if (line[0] != ' ') {
                variant[0] = '\0';
            }
            continue;
        }
        if (!strcmp(line, "--- end of scenario file ---")) {
            in_ini = 0;
            continue;
        }
        const char *p = line + strspn(line, " \t");
        if (!strncmp(p, "\xef\xbb\xbf", 3))
            p += 3;
        if (*p == ';' || *p == '#' || *p == '\0')
            continue;
        if (*p == '[') {
            const char *q = strchr(p, ']');
            if (q)
                norm_blanks(sect, sizeof sect, p + 1, (size_t)(q - p - 1));
            continue;
        }
        const char *eq = strchr(p, '=');
        if (!eq)
            continue;
        char key[64], val[MANIFEST_LINE];
        norm_blanks(key, sizeof key, p, (size_t)(eq - p));
        const char *v = eq + 1;
        size_t vl = strlen(v);
        for (size_t i = 1; i < vl; i++)
            if (v[i] == ';' && (v[i - 1] == ' ' || v[i - 1] == '\t')) {
                vl = i;
                break;
            }
        norm_blanks(val, sizeof val, v, vl);
        double x;
        if (!strcmp(sect, "run") && !strcmp(key, "name") && valid_name(val))
            snprintf(m->name, sizeof m->name, "%s", val);
        else if (!strcmp(sect, "run") && !strcmp(key, "columns"))
            man_columns(m, val);
        else if (!strncmp(sect, "outage ", 7) && (!strcmp(key, "start_s") || !strcmp(key, "end_s")) &&
                 num_of(val, &x)) {
            moutage *o = man_outage(m, sect);
            if (o && !strcmp(key, "start_s"))
                o->start = x, o->hs = 1;
            else if (o)
                o->end = x, o->he = 1;
        } else if (!strcmp(sect, "clients") && num_of(val, &x)) {
            if (!strcmp(key, "spike_start_s"))
                m->spike_start = x;
            else if (!strcmp(key, "spike_end_s"))
                m->spike_end = x;
            else if (!strcmp(key, "spike_rate_per_s"))
                m->spike_rate = x;
        }
    }
    if (!m->name[0])
        snprintf(m->name, sizeof m->name, "%s", pathname);
    herd_free(line);
    fclose(f);
}

/* ------------------------------------------------------------------------
 * The selection (--variant, --point, --replication, --metric)
 * ------------------------------------------------------------------------ */

/* "FLAG 'VALUE': what; expected ..." with VALUE escaped; PLOT_INVALID. */
static int sel_fail(char *err, size_t errlen, const char *flag, const char *value, const char *what,
                    const char *expected)
{
    char v[VALUE_SHOWN * 4 + 8];
    esc(v, sizeof v, value, VALUE_SHOWN);
    snprintf(err, errlen, "%s '%s': %s; expected %s", flag, v, what, expected);
    return PLOT_INVALID;
}

/* The distinct values of key column i in aggregate.csv, in file order,
 * ", "-separated into out. */
static void key_values(const folder *fo, int i, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t r = 0; r < fo->agg.n; r++) {
        const char *v = fo->agg.row[r].key[i];
        int seen = 0;
        for (size_t q = 0; q < r && !seen; q++)
            seen = !strcmp(fo->agg.row[q].key[i], v);
        if (!seen)
            append(out, n, ", ", v, NULL);
        if (strlen(out) + 8 >= n)
            break;
    }
}

static int key_has(const folder *fo, int i, const char *v)
{
    for (size_t r = 0; r < fo->agg.n; r++)
        if (!strcmp(fo->agg.row[r].key[i], v))
            return 1;
    return 0;
}

/* The metrics the figures may use, as a list for a message. */
static void metric_names(char *out, size_t n)
{
    out[0] = '\0';
    for (size_t k = 0; k < metric_count; k++)
        append(out, n, ", ", metric_table[k].name, NULL);
}

/* --metric: before aggregate.csv is read (which metrics to keep). */
static int select_metrics(folder *fo, char *err, size_t errlen)
{
    const plot_opts *o = fo->o;
    for (int i = 0; i < o->nmetric; i++) {
        int k = metric_index(o->metric[i]);
        if (k < 0) {
            char list[1400];
            metric_names(list, sizeof list);
            return sel_fail(err, errlen, "--metric", o->metric[i], "no such metric in aggregate.csv", list);
        }
        int dup = 0;
        for (int j = 0; j < fo->sel.nmetric; j++)
            dup |= fo->sel.metric[j] == k;
        if (!dup)
            fo->sel.metric[fo->sel.nmetric++] = k;
    }
    return 0;
}

/* --variant and --point, after aggregate.csv is read. */
static int select_point(folder *fo, const char *dir, char *err, size_t errlen)
{
    const plot_opts *o = fo->o;
    const keyset *ks = &fo->ks;
    char list[1400], what[300];
    char shown[SHOWN_MAX + 8];
    esc(shown, sizeof shown, dir, SHOWN_MAX);
    if (fo->agg.n == 0) {
        snprintf(err, errlen, "%s/aggregate.csv: no rows; expected a row per strategy", shown);
        return PLOT_INVALID;
    }
    const prow *r0 = &fo->agg.row[0];
    if (ks->variant)
        snprintf(fo->sel.vname, sizeof fo->sel.vname, "%s", r0->key[0]);
    if (o->variant) {
        if (!ks->variant)
            return sel_fail(err, errlen, "--variant", o->variant, "this run has no [variant] sections",
                            "no --variant");
        if (!key_has(fo, 0, o->variant)) {
            key_values(fo, 0, list, sizeof list);
            return sel_fail(err, errlen, "--variant", o->variant, "no such variant", list);
        }
        snprintf(fo->sel.vname, sizeof fo->sel.vname, "%s", o->variant);
        fo->sel.vgiven = 1;
    }
    for (int i = ks->variant; i < ks->k; i++)
        snprintf(fo->sel.pval[i], sizeof fo->sel.pval[i], "%s", r0->key[i]);
    int given[MAX_KEYS] = {0};
    int nsw = ks->k - ks->variant;
    for (int j = 0; j < o->npoint; j++) {
        const char *p = o->point[j], *eq = strchr(p, '=');
        int i = -1;
        const char *v = p;
        if (nsw == 0)
            return sel_fail(err, errlen, "--point", p, "this run has no sweep", "no --point");
        list[0] = '\0';
        for (int q = ks->variant; q < ks->k; q++)
            append(list, sizeof list, ", ", ks->name[q], NULL);
        if (eq) {
            char key[KEYNAME_MAX + 1];
            norm_blanks(key, sizeof key, p, (size_t)(eq - p));
            for (int q = ks->variant; q < ks->k && i < 0; q++)
                if (!strcmp(ks->name[q], key))
                    i = q;
            if (i < 0) {
                char exp[1500];
                snprintf(exp, sizeof exp, "KEY=VALUE with KEY one of %s, or a VALUE", list);
                return sel_fail(err, errlen, "--point", p, "no such swept key", exp);
            }
            v = eq + 1;
        } else {
            for (int q = ks->variant; q < ks->k && i < 0; q++)
                if (!given[q])
                    i = q;
            if (i < 0) {
                snprintf(what, sizeof what, "more values than swept keys (%d)", nsw);
                return sel_fail(err, errlen, "--point", p, what, "KEY=VALUE, or one VALUE per swept key");
            }
        }
        if (given[i]) {
            snprintf(what, sizeof what, "%s is chosen twice", ks->name[i]);
            return sel_fail(err, errlen, "--point", p, what, "one value per swept key");
        }
        if (!key_has(fo, i, v)) {
            char exp[1500];
            key_values(fo, i, list, sizeof list);
            snprintf(what, sizeof what, "no such value of %s", ks->name[i]);
            snprintf(exp, sizeof exp, "one of %s", list);
            return sel_fail(err, errlen, "--point", v, what, exp);
        }
        snprintf(fo->sel.pval[i], sizeof fo->sel.pval[i], "%s", v);
        given[i] = 1;
    }
    if (o->npoint > 0) {
        /* the combination must exist (a grid always has it) */
        int found = 0;
        for (size_t r = 0; r < fo->agg.n && !found; r++) {
            found = 1;
            for (int i = ks->variant; i < ks->k && found; i++)
                found = !strcmp(fo->agg.row[r].key[i], fo->sel.pval[i]);
        }
        if (!found) {
            char pt[600] = "";
            for (int i = ks->variant; i < ks->k; i++)
                append(pt, sizeof pt, ", ", ks->name[i], fo->sel.pval[i]);
            snprintf(err, errlen, "--point: no sweep point with %s in aggregate.csv; expected a point of the run",
                     pt);
            return PLOT_INVALID;
        }
    }
    return 0;
}

/* --replication, against the series the figures over time draw. */
static int select_replication_text(folder *fo, char *err, size_t errlen)
{
    const char *r = fo->o->replication;
    if (!r)
        return 0;
    if (!valid_u64(r) || strtoull(r, NULL, 10) >= REP_MAX)
        return sel_fail(err, errlen, "--replication", r, "not a replication number", "0, 1, 2, ...");
    fo->sel.rep = strtoull(r, NULL, 10);
    return 0;
}

static int check_replication(folder *fo, char *err, size_t errlen)
{
    const char *r = fo->o->replication;
    char list[600];
    if (!r)
        return 0;
    const repset *s = fo->ts.rows > 0 ? &fo->ts.reps : &fo->sumreps;
    if (s->any && (fo->sel.rep >= s->n || !s->seen[fo->sel.rep])) {
        repset_text(s, list, sizeof list);
        return sel_fail(err, errlen, "--replication", r,
                        fo->ts.rows > 0 ? "not in timeseries.csv" : "not in summary.csv", list);
    }
    return 0;
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

/* The positions of l's values in numeric order (stable) into ord, when
 * every value is a number; file order otherwise.  1 if numeric. */
static int slist_order(const slist *l, size_t *ord)
{
    int num = 1;
    for (size_t i = 0; i < l->n; i++) {
        ord[i] = i;
        num &= num_text(l->v[i]);
    }
    if (num)
        for (size_t i = 1; i < l->n; i++) {
            size_t v = ord[i], j = i;
            for (; j > 0 && strtod(l->v[ord[j - 1]], NULL) > strtod(l->v[v], NULL); j--)
                ord[j] = ord[j - 1];
            ord[j] = v;
        }
    return num;
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
 * validated labels, strategy names, metric names or numbers). */
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

/* Colours: the Okabe-Ito palette (safe for the common colour-vision
 * deficiencies), one per strategy, the same in every figure; series that
 * are not strategies (variants) take them in order. */
static const char *const okabe_ito[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                        "#E69F00", "#56B4E9", "#000000", "#F0E442"};

static const char *scolor(int s)
{
    const char *n = sname(s);
    return !strcmp(n, "immediate")     ? "#000000"
           : !strcmp(n, "constant")    ? "#E69F00"
           : !strcmp(n, "exponential") ? "#D55E00"
           : !strcmp(n, "full_jitter") ? "#0072B2"
           : !strcmp(n, "equal_jitter") ? "#009E73"
                                        : "#CC79A7";
}

/* Human words for a metric: "completion time (s)". */
static void human_metric(char *out, size_t n, const char *m)
{
    static const char *const words[][2] = {
        {"completion_time_s", "completion time (s)"},
        {"calls", "calls (attempts at the server)"},
        {"refused", "refused attempts"},
        {"successes", "successful requests"},
        {"failures", "failed requests"},
        {"unfinished", "unfinished requests"},
        {"retries", "retries"},
        {"timeouts", "attempt timeouts"},
        {"late_replies", "late replies"},
        {"rejected", "503 rejections"},
        {"outage_errors", "errors during outages"},
        {"peak_inflight", "peak in flight (attempts)"},
        {"peak_arrivals_per_s", "peak arrivals (attempts/s)"},
        {"mean_latency_s", "mean latency (s)"},
        {"p50_latency_s", "median latency (s)"},
        {"p99_latency_s", "p99 latency (s)"},
        {"max_latency_s", "longest call (s)"},
        {"effects", "side effects executed"},
        {"duplicate_effects", "duplicate side effects"},
        {"lost_operations", "lost operations"},
        {"unknown_outcomes", "unknown outcomes"},
        {"status_429", "429 responses"},
        {"retries_after_honoured", "Retry-After honoured"},
        {"gave_up_budget", "gave up: budget spent"},
        {"gave_up_attempts", "gave up: attempts exhausted"},
        {"non_retryable_failures", "non-retryable failures"},
        {"non_retryable_replies", "non-retryable replies"},
        {"replies_lost", "replies lost"},
        {"wasted_work_s", "wasted server time (s)"},
        {"amplification", "amplification (calls per request)"},
        {"task_success_rate", "task success rate"},
        {"offered_per_s", "offered load (requests/s)"},
        {"goodput_per_s", "goodput (requests/s)"},
        {"recovery_time_s", "recovery time (s)"},
        {"recovered", "recovered (share of runs)"},
        {"retries_denied", "retries denied"},
        {"breaker_rejected", "rejected by the breaker"},
        {"throttled", "throttled locally"},
        {"intercepted", "repeats intercepted"},
        {"utilization", "server utilisation"},
    };
    for (size_t i = 0; i < COUNT(words); i++)
        if (!strcmp(words[i][0], m)) {
            snprintf(out, n, "%s", words[i][1]);
            return;
        }
    /* underscores become spaces; a unit suffix goes in parentheses */
    size_t len = strlen(m);
    const char *unit = "";
    if (len > 6 && !strcmp(m + len - 6, "_per_s"))
        len -= 6, unit = " (/s)";
    else if (len > 2 && !strcmp(m + len - 2, "_s"))
        len -= 2, unit = " (s)";
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < n; i++)
        out[o++] = m[i] == '_' ? ' ' : m[i];
    out[o] = '\0';
    append(out, n, "", unit, NULL);
}

/* The same without its unit: "completion time". */
static void human_metric_bare(char *out, size_t n, const char *m)
{
    human_metric(out, n, m);
    char *u = strstr(out, " (");
    if (u && out[strlen(out) - 1] == ')')
        *u = '\0';
}

/* Human words for a swept key: "outage end (s)" for "outage 1.end_s". */
static void human_key(char *out, size_t n, const char *k)
{
    static const char *const words[][2] = {
        {"clients.count", "clients"},
        {"clients.rate_per_s", "arrival rate (requests/s)"},
        {"clients.spread_s", "start spread (s)"},
        {"clients.requests_per_client", "requests per client"},
        {"clients.spike_rate_per_s", "spike rate (requests/s)"},
        {"server.workers", "server workers"},
        {"server.queue", "queue places"},
        {"server.service_time_s", "service time (s)"},
        {"server.rate_limit_rps", "rate limit (requests/s)"},
        {"server.load_slowdown", "slowdown under load"},
        {"server.reply_loss_rate", "reply loss rate"},
        {"retry.base_s", "backoff base (s)"},
        {"retry.cap_s", "backoff cap (s)"},
        {"retry.max_attempts", "attempts per request"},
        {"retry.attempt_timeout_s", "attempt timeout (s)"},
        {"retry.budget_s", "retry budget (s)"},
        {"retry.strategy", "strategy"},
        {"run.seed", "seed"},
        {"network.delay_s", "network delay (s)"},
    };
    for (size_t i = 0; i < COUNT(words); i++)
        if (!strcmp(words[i][0], k)) {
            snprintf(out, n, "%s", words[i][1]);
            return;
        }
    /* the section's kind (not its name) and the key in words */
    const char *dot = strrchr(k, '.');
    char sect[64] = "";
    if (dot) {
        size_t sl = (size_t)(dot - k);
        const char *sp = memchr(k, ' ', sl);
        snprintf(sect, sizeof sect, "%.*s ", (int)(sp ? (size_t)(sp - k) : sl), k);
        if (!strcmp(sect, "run ") || !strcmp(sect, "limits "))
            sect[0] = '\0';
    }
    char key[128];
    human_metric(key, sizeof key, dot ? dot + 1 : k);
    snprintf(out, n, "%s%s", sect, key);
}

/* A value written on a bar or in a heatmap cell: 3 significant digits at
 * most, k and M for thousands and millions above 99,999. */
static void value_text(char *out, size_t n, double v)
{
    double a = fabs(v);
    if (!isfinite(v))
        snprintf(out, n, "n/a");
    else if (a >= 1e7)
        snprintf(out, n, "%.0fM", v / 1e6);
    else if (a >= 1e6)
        snprintf(out, n, "%.1fM", v / 1e6);
    else if (a >= 1e5)
        snprintf(out, n, "%.0fk", v / 1e3);
    else if (a >= 100 || v == floor(v))
        snprintf(out, n, "%.0f", v);
    else if (a >= 10)
        snprintf(out, n, "%.1f", v);
    else if (a >= 0.01)
        snprintf(out, n, "%.3g", v);
    else
        snprintf(out, n, "%.1e", v);
}

/* The canvas and the panel grid of a figure. */
typedef struct layout {
    int W, H, rows, cols;
} layout;

/* n panels: wide ones (over time) in two columns from 4 panels, square
 * ones (bars, maps) filling a 16:9 screen.  talk: 1600x900; paper: panels
 * of paper_w x paper_h (over time: one column) plus paper_extra for the
 * titles; dumb: 110 characters wide, 17 lines per panel, one column. */
static layout lay(const folder *fo, int n, int wide, int paper_w, int paper_h, int paper_extra)
{
    layout L;
    if (n < 1)
        n = 1;
    if (fo->o->term == PLOT_TERM_DUMB) {
        L.cols = 1;
        L.rows = n;
        L.W = 110;
        L.H = 17 * n + 3;
        return L;
    }
    if (wide)
        L.cols = n <= 3 ? 1 : n <= 8 ? 2 : 3;
    else
        L.cols = n <= 3 ? n : n == 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n == 9 ? 3 : n <= 12 ? 4 : 5;
    L.rows = (n + L.cols - 1) / L.cols;
    if (fo->o->style == PLOT_STYLE_TALK) {
        L.W = 1600;
        L.H = 900;
    } else { /* paper: panels of paper_w x paper_h; over time, stacked */
        if (wide) {
            L.cols = 1;
            L.rows = n;
        }
        L.W = paper_w * L.cols + (wide ? 0 : 120);
        L.H = paper_h * L.rows + paper_extra;
    }
    return L;
}

static void lay_write(FILE *f, layout L)
{
    info_n(f, "W", L.W);
    info_n(f, "H", L.H);
    info_n(f, "rows", L.rows);
    info_n(f, "cols", L.cols);
}

/* style.tsv: the terminal and the sizes of text and lines, read by every
 * script. */
static int write_style(const folder *fo, const char *wd, char *err, size_t errlen)
{
    wfile s = {0};
    int talk = fo->o->style == PLOT_STYLE_TALK;
    if (w_open(&s, wd, "style", "tsv", err, errlen))
        return -1;
    info_s(s.f, "style", talk ? "talk" : "paper");
    info_s(s.f, "term", fo->o->term == PLOT_TERM_DUMB ? "dumb" : "png");
    info_n(s.f, "fs", talk ? 16 : 10);  /* text (pt) */
    info_n(s.f, "tfs", talk ? 22 : 12); /* titles */
    info_n(s.f, "sfs", talk ? 13 : 8);  /* small text: keys, values on bars */
    info_n(s.f, "lw", talk ? 3 : 1.5);  /* series */
    info_n(s.f, "blw", talk ? 1.5 : 1); /* borders, bars, error bars */
    return w_close(&s, err, errlen);
}

/* Whether row p is at the selected point, from key column `from` on (the
 * variant aside). */
static int at_point(const folder *fo, const prow *p, int from)
{
    for (int k = from < fo->ks.variant ? fo->ks.variant : from; k < fo->ks.k; k++)
        if (strcmp(p->key[k], fo->sel.pval[k]))
            return 0;
    return 1;
}

static int of_variant(const folder *fo, const prow *p)
{
    return !fo->ks.variant || !strcmp(p->key[0], fo->sel.vname);
}

/* "server.workers = 20, server.queue = 10": the selected point. */
static void point_text(const folder *fo, char *out, size_t n, int from)
{
    out[0] = '\0';
    for (int i = fo->ks.variant + from; i < fo->ks.k; i++)
        append(out, n, ", ", fo->ks.name[i], fo->sel.pval[i]);
}

/* A window shaded in a figure over time. */
typedef struct window {
    double a, b;
    const char *label;
} window;

static void set_outage(moutage *loc, int *n, const char *key, double v)
{
    const char *dot = strrchr(key, '.');
    if (!dot)
        return;
    char sect[KEYNAME_MAX + 1];
    snprintf(sect, sizeof sect, "%.*s", (int)(dot - key), key);
    int i = 0;
    while (i < *n && strcmp(loc[i].sect, sect))
        i++;
    if (i == *n) {
        if (*n == MAX_OUTAGES)
            return;
        memset(&loc[i], 0, sizeof loc[i]);
        snprintf(loc[i].sect, sizeof loc[i].sect, "%s", sect);
        (*n)++;
    }
    if (!strcmp(dot + 1, "start_s"))
        loc[i].start = v, loc[i].hs = 1;
    else
        loc[i].end = v, loc[i].he = 1;
}

/* The outages (from the scenario in manifest.txt, with the overrides of
 * --set, of the variant and of the sweep point) and the trigger
 * (aggregate.csv's trigger_start_s, trigger_end_s) of a variant at the
 * selected point, in time order, clipped to [0, tmax]; their number. */
static int windows(const folder *fo, const char *variant, double tmax, window *w, int max)
{
    const manifest *m = &fo->man;
    moutage loc[MAX_OUTAGES];
    int n = m->nout, nw = 0;
    memcpy(loc, m->out, sizeof loc[0] * (size_t)n);
    double ss = m->spike_start, se = m->spike_end, sr = m->spike_rate;
    for (int pass = 0; pass < 2; pass++) {
        const char *v = pass ? variant : "";
        if (pass && (!v || !*v))
            break;
        for (int i = 0; i < m->nset; i++) {
            const mset *s = &m->set[i];
            if (strcmp(s->variant, v))
                continue;
            if (!strncmp(s->key, "outage ", 7))
                set_outage(loc, &n, s->key, s->v);
            else if (!strcmp(s->key, "clients.spike_start_s"))
                ss = s->v;
            else if (!strcmp(s->key, "clients.spike_end_s"))
                se = s->v;
            else if (!strcmp(s->key, "clients.spike_rate_per_s"))
                sr = s->v;
        }
    }
    for (int i = fo->ks.variant; i < fo->ks.k; i++) {
        double v;
        if (interesting_key(fo->ks.name[i]) && num_of(fo->sel.pval[i], &v)) {
            if (!strncmp(fo->ks.name[i], "outage ", 7))
                set_outage(loc, &n, fo->ks.name[i], v);
            else if (!strcmp(fo->ks.name[i], "clients.spike_start_s"))
                ss = v;
            else if (!strcmp(fo->ks.name[i], "clients.spike_end_s"))
                se = v;
            else
                sr = v;
        }
    }
    for (int i = 0; i < n && nw < max; i++)
        if (loc[i].hs && loc[i].he && loc[i].end > loc[i].start)
            w[nw++] = (window){loc[i].start, loc[i].end, "outage"};
    /* the trigger, unless it is one of the outages */
    int ws = kept(&fo->agg, metric_index("trigger_start_s")), we = kept(&fo->agg, metric_index("trigger_end_s"));
    for (size_t r = 0; r < fo->agg.n && ws >= 0 && we >= 0; r++) {
        const prow *p = &fo->agg.row[r];
        if (!at_point(fo, p, 0) || (fo->ks.variant && variant && strcmp(p->key[0], variant)))
            continue;
        double a = p->v[2 * ws], b = p->v[2 * we];
        int dup = 0;
        for (int i = 0; i < nw; i++)
            dup |= fabs(w[i].a - a) < 1e-9 && fabs(w[i].b - b) < 1e-9;
        if (isfinite(a) && isfinite(b) && b > a && !dup && nw < max) {
            int spike = sr > 0 && fabs(ss - a) < 1e-9 && fabs(se - b) < 1e-9;
            w[nw++] = (window){a, b, spike ? "load spike" : "trigger"};
        }
        break;
    }
    /* time order, clipped */
    for (int i = 1; i < nw; i++)
        for (int j = i; j > 0 && w[j - 1].a > w[j].a; j--) {
            window t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < nw; i++) {
        if (w[i].b <= 0 || w[i].a >= tmax)
            continue;
        w[k] = w[i];
        if (w[k].a < 0)
            w[k].a = 0;
        if (w[k].b > tmax)
            w[k].b = tmax;
        k++;
    }
    return k;
}

static void write_windows(FILE *f, const window *w, int n, int panel)
{
    for (int i = 0; i < n; i++) {
        fprintf(f, "win\t%d\t", panel);
        put_num(f, w[i].a);
        fputc('\t', f);
        put_num(f, w[i].b);
        fprintf(f, "\t%s\n", w[i].label);
    }
}

/* The scenario's name for titles. */
static const char *title_name(const folder *fo)
{
    return fo->name[0] ? fo->name : "results";
}

/* timeseries.csv/.tsv (and load.csv/.tsv for the animation): per strategy
 * of the selected variant, point and replication, a block
 * "time_s,arrivals,refused", each closed by an empty bucket. */
static int prep_timeseries(const folder *fo, const char *dir, const char *wd, const char *name, int gif,
                           char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, ns = 0, last = -1, vsel = -1;
    int strat[HP_STRATEGY_COUNT * 8], hasa[HP_STRATEGY_COUNT * 8] = {0}, hasr[HP_STRATEGY_COUNT * 8] = {0};
    double bucket = 0, tmax = 0, amax = 0, fmax = 0, lt = 0;
    char text[600], pt[400];
    if (fo->ks.variant)
        for (size_t i = 0; i < ts->nvariant; i++)
            if (!strcmp(ts->variant[i], fo->sel.vname))
                vsel = (int)i;
    /* pass 1: the strategies, the bucket width (the smallest step of time
     * within a strategy), the ranges, the series that are not all zero */
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != vsel)
            continue;
        if (p->strategy != last) {
            if (ns == (int)COUNT(strat))
                break;
            strat[ns++] = p->strategy;
            last = p->strategy;
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
        hasa[ns - 1] |= p->arrivals > 0;
        hasr[ns - 1] |= p->refused > 0;
    }
    if (ns == 0)
        return data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
    if (bucket <= 0)
        bucket = 1;
    /* pass 2: the blocks */
    if (w_open(&d, wd, name, "csv", err, errlen) || w_open(&in, wd, name, "tsv", err, errlen))
        goto done;
    last = -1;
    int nb = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != vsel)
            continue;
        if (p->strategy != last) {
            if (nb == ns)
                break;
            if (last >= 0)
                fprintf(d.f, "%.17g,0,0\n\n\n", lt + bucket);
            fprintf(d.f, "time_s,arrivals,refused\n");
            last = p->strategy;
            nb++;
        }
        lt = p->t;
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->arrivals, p->refused);
    }
    fprintf(d.f, "%.17g,0,0\n", lt + bucket);
    info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "panel\t%s\t%s\t%d\t%d\n", sname(strat[s]), scolor(strat[s]), hasa[s], hasr[s]);
    info_n(in.f, "bucket", bucket);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "amax", amax);
    info_n(in.f, "fmax", fmax);
    snprintf(text, sizeof text, "%s: load on the server, attempts per second by strategy", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "replication %llu, %g s buckets%s%s%s%s", fo->sel.rep, bucket,
             fo->ks.variant ? "; variant " : "", fo->ks.variant ? fo->sel.vname : "", pt[0] ? "; " : "", pt);
    info_s(in.f, "subtitle", text);
    info_s(in.f, "label", pt);
    window w[MAX_WIN];
    int nw = windows(fo, fo->ks.variant ? fo->sel.vname : NULL, tmax + 2 * bucket, w, MAX_WIN);
    info_n(in.f, "nwin", nw);
    write_windows(in.f, w, nw, 0);
    if (gif) {
        plot_opts o = *fo->o;
        folder f2 = *fo;
        o.term = PLOT_TERM_PNG;
        f2.o = &o;
        lay_write(in.f, lay(&f2, ns, 1, 1000, 150, 90));
    } else {
        lay_write(in.f, lay(fo, ns, 1, 1000, 150, 90));
    }
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

static int count_strategies(const ptable *t);

/* goodput.csv/.tsv: per variant (all, or the selected one) and strategy
 * at the selected point and replication, the blocks
 * "time_s,offered,goodput". */
static int prep_goodput(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const tstable *ts = &fo->ts;
    wfile d = {0}, in = {0};
    int rc = -1, np = 0, lastv = -2, lasts = -1, vsel = -1;
    double bw = 0, t0 = 0, tmax = 0, ymax = 0;
    char text[600], pt[400];
    slist panels = {0};
    int *hasoff = NULL, *hasgood = NULL, *pvar = NULL;
    if (fo->sel.vgiven)
        for (size_t i = 0; i < ts->nvariant; i++)
            if (!strcmp(ts->variant[i], fo->sel.vname))
                vsel = (int)i;
    /* one strategy: panels are named after their variant, the strategy
     * goes under the title */
    int one = fo->ks.variant && count_strategies(&fo->agg) == 1 && !fo->sel.vgiven;
    size_t cap = ts->n + 1;
    hasoff = herd_calloc(cap, sizeof *hasoff);
    hasgood = herd_calloc(cap, sizeof *hasgood);
    pvar = herd_calloc(cap, sizeof *pvar);
    if (!hasoff || !hasgood || !pvar) {
        oom(err, errlen);
        goto done;
    }
    if (w_open(&d, wd, "goodput", "csv", err, errlen) || w_open(&in, wd, "goodput", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (fo->sel.vgiven && p->variant != vsel)
            continue;
        if (p->variant != lastv || p->strategy != lasts) {
            char name[LABEL_MAX + 64];
            if (p->variant >= 0 && one)
                snprintf(name, sizeof name, "%s", ts->variant[p->variant]);
            else if (p->variant >= 0 && fo->sel.vgiven)
                snprintf(name, sizeof name, "%s", sname(p->strategy));
            else if (p->variant >= 0)
                snprintf(name, sizeof name, "%s / %s", ts->variant[p->variant], sname(p->strategy));
            else
                snprintf(name, sizeof name, "%s", sname(p->strategy));
            if (slist_find(&panels, name) >= 0) /* rows of a panel are contiguous */
                continue;
            if (slist_add(&panels, name) < 0) {
                oom(err, errlen);
                goto done;
            }
            fprintf(d.f, "%stime_s,offered,goodput\n", np ? "\n\n" : "");
            lastv = p->variant;
            lasts = p->strategy;
            pvar[np] = p->variant;
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
        hasoff[np - 1] |= p->offered > 0;
        hasgood[np - 1] |= p->goodput > 0;
        put_num(d.f, p->t);
        fprintf(d.f, ",%.17g,%.17g\n", p->offered, p->goodput);
    }
    if (np == 0) {
        data_fail(err, errlen, dir, "timeseries.csv", "no data at the selected point and replication");
        goto done;
    }
    if (bw == 0)
        bw = 1;
    info_n(in.f, "np", np);
    for (int i = 0; i < np; i++)
        fprintf(in.f, "panel\t%s\t%d\t%d\n", panels.v[i], hasoff[i], hasgood[i]);
    info_n(in.f, "bw", bw);
    info_n(in.f, "tmax", tmax);
    info_n(in.f, "ymax", ymax);
    snprintf(text, sizeof text, "%s: offered load and goodput (requests/s)", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    snprintf(text, sizeof text, "logical requests started and succeeded per second; replication %llu, %g s buckets%s%s%s%s",
             fo->sel.rep, bw, one && np ? "; strategy " : "", one && np ? sname(ts->r[0].strategy) : "",
             pt[0] ? "; " : "", pt);
    if (fo->sel.vgiven) {
        size_t o = strlen(text);
        snprintf(text + o, sizeof text - o, "; variant %s", fo->sel.vname);
    }
    info_s(in.f, "subtitle", text);
    int nwin = 0;
    for (int i = 0; i < np; i++) {
        window w[MAX_WIN];
        int nw = windows(fo, pvar[i] >= 0 ? ts->variant[pvar[i]] : NULL, tmax + bw, w, MAX_WIN);
        write_windows(in.f, w, nw, i + 1);
        nwin += nw;
    }
    info_n(in.f, "nwin", nwin);
    lay_write(in.f, lay(fo, np, 1, 1000, 170, 90));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&panels);
    herd_free(hasoff);
    herd_free(hasgood);
    herd_free(pvar);
    return rc;
}

/* The series of a figure drawn from aggregate.csv or compare.csv: the
 * strategies of the selected variant, or, when the run compares variants
 * of one strategy (and no --variant is given), the variants. */
typedef struct series {
    int by_variant;
    slist name;
    int strategy[64];
} series;

static int count_strategies(const ptable *t)
{
    int seen[HP_STRATEGY_COUNT] = {0}, n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!seen[t->row[i].strategy]++)
            n++;
    return n;
}

/* Row p's series (its index in s, added if new; -1 out of memory), or -2
 * when the row is not drawn (another variant). */
static long series_of(const folder *fo, series *s, const prow *p)
{
    if (s->by_variant)
        return slist_add(&s->name, p->key[0]);
    if (!of_variant(fo, p))
        return -2;
    long i = slist_add(&s->name, sname(p->strategy));
    if (i >= 0 && i < 64)
        s->strategy[i] = p->strategy;
    return i;
}

static const char *series_color(const series *s, size_t i)
{
    return s->by_variant ? okabe_ito[i % COUNT(okabe_ito)] : scolor(s->strategy[i < 64 ? i : 0]);
}

/* NAME.csv/.tsv for sweep.gp: metric w of t (aggregate.csv; compare.csv
 * when compare) against the first swept key.
 *
 * lines (one swept key, or a second with at most 4 values: one panel per
 * value): per (panel, series), panels outermost, a block "x,mean,ci95" in
 * x order (x: the value, or its position when the values are not
 * numbers).
 * heat (a second swept key with more than 4 values): per series, a block
 * "col,row,value,label": col the position of the second key's value, row
 * the first key's, both in numeric order.
 * Further swept keys are held at the selected point; compare leaves out the
 * baseline strategy. */
static int prep_sweep(const folder *fo, const ptable *t, int w, int compare, const char *metric, const char *dir,
                      const char *wd, const char *name, char *err, size_t errlen)
{
    const keyset *ks = &fo->ks;
    int x0 = ks->variant, nsw = ks->k - x0;
    const char *file = compare ? "compare.csv" : "aggregate.csv";
    char what[160], fixed[MAX_KEYS * (KEYNAME_MAX + LABEL_MAX + 8)] = "", text[800], hm[128], hx[128], hg[128];
    slist xs = {0}, gs = {0};
    series S;
    memset(&S, 0, sizeof S);
    double *Y = NULL, *E = NULL;
    char *has = NULL;
    size_t *ord = NULL, *gord = NULL;
    wfile d = {0}, in = {0};
    int rc = -1;
    snprintf(what, sizeof what, "no values of %s%s", metric, compare ? "_change_pct_mean" : "_mean");
    if (t->n == 0 || w < 0) {
        rc = data_fail(err, errlen, dir, file, what);
        goto done;
    }
    S.by_variant = ks->variant && !fo->sel.vgiven && count_strategies(t) == 1;
    for (int i = x0 + 2; i < ks->k; i++)
        append(fixed, sizeof fixed, ", ", ks->name[i], fo->sel.pval[i]);
    /* pass 1: series, panels and x values, in file order */
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
            continue;
        long s = series_of(fo, &S, p);
        if (s == -2)
            continue;
        if (s < 0 || slist_add(&gs, nsw >= 2 ? p->key[x0 + 1] : "") < 0 || slist_add(&xs, p->key[x0]) < 0) {
            rc = oom(err, errlen);
            goto done;
        }
    }
    size_t nx = xs.n, ng = gs.n, ns = S.name.n;
    if (ns == 0 || ns > 64) {
        rc = data_fail(err, errlen, dir, file, ns ? "more than 64 series; expected --variant" : what);
        goto done;
    }
    int heat = nsw >= 2 && ng > 4;
    size_t cells = ng * ns * (nx ? nx : 1);
    Y = herd_malloc_array(cells, sizeof *Y);
    E = herd_malloc_array(cells, sizeof *E);
    has = herd_calloc(cells, 1);
    ord = herd_malloc_array(nx ? nx : 1, sizeof *ord);
    gord = herd_malloc_array(ng ? ng : 1, sizeof *gord);
    if (!Y || !E || !has || !ord || !gord) {
        rc = oom(err, errlen);
        goto done;
    }
    /* pass 2: the values and the ranges */
    int ny = 0, allpos = 0, noci = 0;
    double lo = 0, hi = 0, ymin = 0, ymax = 0, minpos = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_point(fo, p, x0 + 2) || (compare && p->strategy == p->baseline))
            continue;
        long s = series_of(fo, &S, p);
        if (s < 0)
            continue;
        double y = p->v[2 * w], e = p->v[2 * w + 1];
        if (!isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        size_t g = (size_t)slist_find(&gs, nsw >= 2 ? p->key[x0 + 1] : ""), x = (size_t)slist_find(&xs, p->key[x0]);
        size_t c = (g * ns + (size_t)s) * nx + x;
        Y[c] = y;
        E[c] = e;
        has[c] = 1;
        if (heat)
            e = 0;
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
    int xnum = slist_order(&xs, ord), gnum = slist_order(&gs, gord);
    (void)gnum;
    /* how evenly a linear or a log axis spreads the x values: the smallest
     * gap between neighbours, as a share of the axis */
    double gaplin = 1, gaplog = 1;
    if (xnum && nx > 1) {
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
    if (!heat) {
        for (size_t g = 0; g < ng; g++)
            for (size_t s = 0; s < ns; s++) {
                int any = 0;
                fprintf(d.f, "%sx,mean,ci95\n", g || s ? "\n\n" : "");
                for (size_t i = 0; i < nx; i++) {
                    size_t c = (gord[g] * ns + s) * nx + ord[i];
                    if (!has[c])
                        continue;
                    if (!xnum)
                        fprintf(d.f, "%zu", i + 1);
                    else
                        fputs(xs.v[ord[i]], d.f);
                    fprintf(d.f, ",%.17g,%.17g\n", Y[c], E[c]);
                    any = 1;
                }
                if (!any)
                    fputs("NaN,NaN,0\n", d.f);
            }
    } else {
        /* each cell's text in black or white, whichever stands out on its
         * colour (dark low end of the sequential palette, dark ends of the
         * diverging one) */
        int logcb = !compare && allpos && ymax >= 100 * ymin;
        double vmax = fmax(fabs(ymin), fabs(ymax));
        for (size_t s = 0; s < ns; s++) {
            fprintf(d.f, "%scol,row,value,label,tc\n", s ? "\n\n" : "");
            for (size_t i = 0; i < nx; i++)
                for (size_t g = 0; g < ng; g++) {
                    size_t c = (gord[g] * ns + s) * nx + ord[i];
                    char v[32];
                    value_text(v, sizeof v, has[c] ? Y[c] : NAN);
                    double y = has[c] ? Y[c] : NAN, pos;
                    if (compare)
                        pos = vmax > 0 ? fabs(y) / vmax : 0;
                    else if (logcb)
                        pos = y > 0 ? log(y / minpos) / log(ymax / minpos) : 0;
                    else
                        pos = ymax > ymin ? (y - ymin) / (ymax - ymin) : 0;
                    int white = compare ? pos > 0.6 : pos < 0.55;
                    fprintf(d.f, "%zu,%zu,", g, i);
                    put_num(d.f, y);
                    fprintf(d.f, ",%s,%d\n", v, white ? 0xFFFFFF : 0);
                }
        }
    }
    if (compare)
        human_metric_bare(hm, sizeof hm, metric);
    else
        human_metric(hm, sizeof hm, metric);
    human_key(hx, sizeof hx, ks->name[x0]);
    human_key(hg, sizeof hg, nsw >= 2 ? ks->name[x0 + 1] : "");
    const char *base = compare && t->row[0].baseline >= 0 ? sname(t->row[0].baseline) : "";
    info_s(in.f, "format", "sweep");
    info_s(in.f, "mode", heat ? "heat" : "lines");
    /* a series that is zero throughout gets no key entry; the subtitle
     * names it */
    char zeros[400] = "";
    info_n(in.f, "ns", (double)ns);
    for (size_t s = 0; s < ns; s++) {
        int zero = 1;
        for (size_t g = 0; g < ng && zero; g++)
            for (size_t i = 0; i < nx && zero; i++) {
                size_t c = (g * ns + s) * nx + i;
                zero = !has[c] || Y[c] == 0;
            }
        if (zero && !heat)
            append(zeros, sizeof zeros, ", ", S.name.v[s], NULL);
        fprintf(in.f, "series\t%s\t%s\t%d\n", S.name.v[s], series_color(&S, s), zero && !heat);
    }
    info_n(in.f, "ng", (double)ng);
    info_n(in.f, "nx", (double)nx);
    info_n(in.f, "xnum", xnum);
    info_n(in.f, "noci", noci);
    info_s(in.f, "xkey", ks->name[x0]);
    info_s(in.f, "gkey", nsw >= 2 ? ks->name[x0 + 1] : "");
    info_s(in.f, "xlabel", hx);
    info_s(in.f, "glabel", nsw >= 2 ? hg : "");
    info_s(in.f, "fixed", fixed);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    info_s(in.f, "reps", reps);
    info_s(in.f, "baseline", base);
    if (compare)
        snprintf(text, sizeof text, "change in %s vs %s (%%)", hm, base);
    else
        snprintf(text, sizeof text, "%s", hm);
    info_s(in.f, "ylabel", text);
    if (heat && compare)
        snprintf(text, sizeof text, "%s: change in %s vs %s (%%)", title_name(fo), hm, base);
    else if (heat)
        snprintf(text, sizeof text, "%s: %s by %s and %s", title_name(fo), hm, hx, hg);
    else
        snprintf(text, sizeof text, "%s: %s%s%s%s by %s", title_name(fo), compare ? "change in " : "", hm,
                 compare ? " vs " : "", compare ? base : "", hx);
    info_s(in.f, "title", text);
    char keys[400] = "";
    for (int i = x0; i < ks->k && i < x0 + 2; i++)
        append(keys, sizeof keys, ", ", ks->name[i], NULL);
    snprintf(text, sizeof text, "%s%s%s%s%s%s%s%s%s", noci ? "no CI (1 replication)" : "mean and 95% CI",
             !noci && reps[0] ? " over " : "", !noci ? reps : "", !noci && reps[0] ? " replications" : "",
             compare ? ", paired per replication (below 0: lower)" : "", fixed[0] ? "; at " : "", fixed,
             S.by_variant || !ks->variant ? "" : "; variant ", S.by_variant || !ks->variant ? "" : fo->sel.vname);
    if (zeros[0]) {
        size_t o = strlen(text);
        snprintf(text + o, sizeof text - o, "; 0 throughout: %s", zeros);
    }
    if (heat)
        snprintf(text, sizeof text, "mean over %s replications%s%s%s%s", reps[0] ? reps : "the",
                 compare ? ", paired; below 0: lower than the baseline" : "", fixed[0] ? "; at " : "", fixed,
                 S.by_variant || !ks->variant ? "" : "; one variant");
    info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "swept: %s", keys);
    info_s(in.f, "keys", text);
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    info_n(in.f, "ymin", ymin);
    info_n(in.f, "ymax", ymax);
    info_n(in.f, "allpos", allpos);
    info_n(in.f, "minpos", isnan(minpos) ? 0 : minpos);
    info_n(in.f, "xmin", !xnum ? 1 : strtod(xs.v[ord[0]], NULL));
    info_n(in.f, "xmax", !xnum ? (double)nx : strtod(xs.v[ord[nx - 1]], NULL));
    info_n(in.f, "gaplin", gaplin);
    info_n(in.f, "gaplog", gaplog);
    info_n(in.f, "diverging", compare);
    info_n(in.f, "logcb", !compare && allpos && ymax >= 100 * ymin);
    info_n(in.f, "cells", heat && nx * ng * ns <= 160 && fo->o->term != PLOT_TERM_DUMB);
    for (size_t g = 0; g < ng; g++)
        info_s(in.f, "glab", gs.v[gord[g]]);
    for (size_t i = 0; i < nx; i++)
        info_s(in.f, "xlab", xs.v[ord[i]]);
    lay_write(in.f, heat ? lay(fo, (int)ns, 0, 420, 360, 120)
                         : lay(fo, (int)ng, 0, ng == 1 ? 860 : 380, ng == 1 ? 440 : 300, 130));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&xs);
    slist_free(&gs);
    slist_free(&S.name);
    herd_free(Y);
    herd_free(E);
    herd_free(has);
    herd_free(ord);
    herd_free(gord);
    return rc;
}

/* compare.csv/.tsv for compare.gp (no sweep): per strategy of the selected
 * variant but the baseline, a block "pos,mean,ci95,label" of the change of
 * metric w. */
static int prep_compare_bars(const folder *fo, int w, const char *metric, const char *dir, const char *wd,
                             char *err, size_t errlen)
{
    const ptable *t = &fo->cmp;
    wfile d = {0}, in = {0};
    int rc = -1, ns = 0, noci = 0;
    double lo = 0, hi = 0;
    const prow *first = NULL;
    char text[600], hm[128];
    if (w < 0 || t->n == 0)
        return data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
    if (w_open(&d, wd, "compare", "csv", err, errlen) || w_open(&in, wd, "compare", "tsv", err, errlen))
        goto done;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        double y = p->v[2 * w], e = p->v[2 * w + 1];
        if (p->strategy == p->baseline || !of_variant(fo, p) || !isfinite(y))
            continue;
        if (!isfinite(e)) {
            e = 0;
            noci = 1;
        }
        e = fabs(e);
        if (!ns) {
            lo = y - e;
            hi = y + e;
            first = p;
        }
        if (y - e < lo)
            lo = y - e;
        if (y + e > hi)
            hi = y + e;
        fprintf(in.f, "series\t%s\t%s\n", sname(p->strategy), scolor(p->strategy));
        ns++;
        fprintf(d.f, "%spos,mean,ci95,label\n%d,%.17g,%.17g,%+.1f%%\n", ns > 1 ? "\n\n" : "", ns, y, e, y);
    }
    if (!ns) {
        data_fail(err, errlen, dir, "compare.csv", "no strategy besides the baseline");
        goto done;
    }
    const char *base = first->baseline >= 0 ? sname(first->baseline) : "";
    human_metric_bare(hm, sizeof hm, metric);
    info_s(in.f, "format", "bars");
    info_n(in.f, "ns", ns);
    info_s(in.f, "baseline", base);
    char reps[32] = "";
    if (first->reps)
        snprintf(reps, sizeof reps, "%llu", first->reps);
    info_s(in.f, "reps", reps);
    info_n(in.f, "noci", noci);
    info_n(in.f, "lo", lo);
    info_n(in.f, "hi", hi);
    snprintf(text, sizeof text, "%s: change in %s vs %s", title_name(fo), hm, base);
    info_s(in.f, "title", text);
    snprintf(text, sizeof text, "%s%s%s%s, paired per replication; below 0: lower than %s%s%s",
             noci ? "no CI (1 replication)" : "mean and 95% CI", !noci && reps[0] ? " over " : "", !noci ? reps : "",
             !noci && reps[0] ? " replications" : "", base, fo->ks.variant ? "; variant " : "",
             fo->ks.variant ? fo->sel.vname : "");
    info_s(in.f, "subtitle", text);
    snprintf(text, sizeof text, "change in %s (%%)", hm);
    info_s(in.f, "ylabel", text);
    layout L = lay(fo, 1, 0, 0, 520, 0);
    if (fo->o->style == PLOT_STYLE_PAPER && fo->o->term != PLOT_TERM_DUMB)
        L.W = 160 + 120 * (ns > 6 ? ns : 6);
    lay_write(in.f, L);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    return rc;
}

/* The metrics of the variants figure: --metric, else the scenario's [run]
 * columns, else herd run's default columns; metric_table indices. */
static int variant_metric_list(const folder *fo, int *out)
{
    int n = 0;
    if (fo->sel.nmetric) {
        for (int i = 0; i < fo->sel.nmetric; i++)
            out[n++] = fo->sel.metric[i];
    } else if (fo->man.ncolumns) {
        for (int i = 0; i < fo->man.ncolumns; i++)
            out[n++] = fo->man.columns[i];
    } else {
        for (size_t i = 0; i < COUNT(columns_default); i++)
            if (metric_index(columns_default[i]) >= 0)
                out[n++] = metric_index(columns_default[i]);
    }
    return n;
}

/* variants-M.csv per metric M of the figure: per strategy, a block
 * "x,mean,ci95,ytext,label" (one row per variant, x its bar's centre, the
 * value written above the bar); variants.tsv. */
static int prep_variants(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    const ptable *t = &fo->agg;
    slist vs = {0};
    int si[HP_STRATEGY_COUNT], sorder[HP_STRATEGY_COUNT], ns = 0, rc = -1, ml[MAX_WANT];
    char pt[400], text[800];
    const prow **cell = NULL;
    wfile d = {0}, in = {0};
    int nm = variant_metric_list(fo, ml);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++)
        si[s] = -1;
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (!at_point(fo, p, 0))
            continue;
        if (si[p->strategy] < 0) {
            si[p->strategy] = ns;
            sorder[ns++] = p->strategy;
        }
        if (slist_add(&vs, p->key[0]) < 0) {
            rc = oom(err, errlen);
            goto done;
        }
    }
    if (ns == 0 || vs.n == 0) {
        rc = data_fail(err, errlen, dir, "aggregate.csv", "no rows at the selected point");
        goto done;
    }
    cell = herd_calloc(vs.n * (size_t)ns + 1, sizeof *cell);
    if (!cell) {
        rc = oom(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) {
        const prow *p = &t->row[i];
        if (at_point(fo, p, 0))
            cell[(size_t)slist_find(&vs, p->key[0]) * (size_t)ns + (size_t)si[p->strategy]] = p;
    }
    if (w_open(&in, wd, "variants", "tsv", err, errlen))
        goto done;
    double bw = 0.8 / ns;
    int written = 0;
    for (int k = 0; k < nm; k++) {
        int w = kept(t, ml[k]);
        const char *mn = metric_table[ml[k]].name;
        char name[96], hm[128];
        if (w < 0)
            continue;
        double top = 0;
        for (size_t c = 0; c < vs.n * (size_t)ns; c++)
            if (cell[c] && isfinite(cell[c]->v[2 * w])) {
                double e = isfinite(cell[c]->v[2 * w + 1]) ? fabs(cell[c]->v[2 * w + 1]) : 0;
                if (cell[c]->v[2 * w] + e > top)
                    top = cell[c]->v[2 * w] + e;
            }
        if (top <= 0)
            top = 1;
        snprintf(name, sizeof name, "variants-%s", mn);
        if (w_open(&d, wd, name, "csv", err, errlen))
            goto done;
        for (int s = 0; s < ns; s++) {
            fprintf(d.f, "%sx,mean,ci95,ytext,label\n", s ? "\n\n" : "");
            for (size_t v = 0; v < vs.n; v++) {
                const prow *p = cell[v * (size_t)ns + (size_t)s];
                double y = p ? p->v[2 * w] : NAN, e = p && isfinite(p->v[2 * w + 1]) ? fabs(p->v[2 * w + 1]) : 0;
                char lab[32];
                value_text(lab, sizeof lab, y);
                fprintf(d.f, "%.6f,", (double)v + 1 + bw * (s - (ns - 1) / 2.0));
                put_num(d.f, y);
                fprintf(d.f, ",%.17g,", e);
                put_num(d.f, isfinite(y) ? (y > 0 ? y : 0) + e + 0.02 * top : 0.02 * top);
                fprintf(d.f, ",%s\n", lab);
            }
        }
        if (w_close(&d, err, errlen))
            goto done;
        human_metric(hm, sizeof hm, mn);
        fprintf(in.f, "metric\t%s\t%s\t", mn, hm);
        put_num(in.f, top * 1.16);
        fputc('\n', in.f);
        written++;
    }
    size_t vlen = 0;
    for (size_t v = 0; v < vs.n; v++) {
        info_s(in.f, "vlab", vs.v[v]);
        if (strlen(vs.v[v]) > vlen)
            vlen = strlen(vs.v[v]);
    }
    info_n(in.f, "nm", written);
    info_n(in.f, "ns", ns);
    for (int s = 0; s < ns; s++)
        fprintf(in.f, "series\t%s\t%s\n", sname(sorder[s]), scolor(sorder[s]));
    info_n(in.f, "nv", (double)vs.n);
    info_n(in.f, "boxw", bw * 0.92);
    snprintf(text, sizeof text, "%s: the variants side by side", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, 0);
    char reps[32] = "";
    if (t->row[0].reps)
        snprintf(reps, sizeof reps, "%llu", t->row[0].reps);
    snprintf(text, sizeof text, "mean and 95%% CI%s%s%s%s%s%s%s", reps[0] ? " over " : "", reps,
             reps[0] ? " replications" : "", ns == 1 ? "; strategy " : "", ns == 1 ? sname(sorder[0]) : "",
             pt[0] ? "; at " : "", pt);
    info_s(in.f, "subtitle", text);
    layout L = lay(fo, written, 0, 420, 300, 70);
    /* the variant names across, or slanted when they do not fit */
    double room = (double)L.W / L.cols / (double)vs.n, per = fo->o->style == PLOT_STYLE_TALK ? 12 : 7;
    info_n(in.f, "rot", fo->o->term != PLOT_TERM_DUMB && (double)vlen * per > room * 0.9);
    lay_write(in.f, L);
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
    size_t *order = NULL, norder = 0, *aord = NULL, *bord = NULL, *arank = NULL, *brank = NULL;
    wfile d = {0}, in = {0};
    int rc = -1;
    char text[600], h1[128], h2[128];
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
    aord = herd_malloc_array(na, sizeof *aord);
    bord = herd_malloc_array(nb, sizeof *bord);
    arank = herd_malloc_array(na, sizeof *arank);
    brank = herd_malloc_array(nb, sizeof *brank);
    if (!red || !seen || !order || !aord || !bord || !arank || !brank) {
        rc = oom(err, errlen);
        goto done;
    }
    slist_order(&as, aord);
    slist_order(&bs, bord);
    for (size_t i = 0; i < na; i++)
        arank[aord[i]] = i;
    for (size_t i = 0; i < nb; i++)
        brank[bord[i]] = i;
    for (size_t i = 0; i < cells * HP_STRATEGY_COUNT; i++)
        red[i] = NAN;
    int w = kept(t, 0);
    for (size_t i = 0; i < t->n && w >= 0; i++) {
        const prow *p = &t->row[i];
        size_t c = (size_t)slist_find(&as, p->key[0]) * nb + (size_t)slist_find(&bs, p->key[1]);
        if (!seen[c]) {
            seen[c] = 1;
            order[norder++] = c;
        }
        red[c * HP_STRATEGY_COUNT + (size_t)p->strategy] = -p->v[2 * w];
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
        fprintf(d.f, "%zu,%zu,%d", brank[c % nb], arank[c / nb], ok);
        for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
            fputc(',', d.f);
            put_num(d.f, red[c * HP_STRATEGY_COUNT + (size_t)s]);
        }
        fputc('\n', d.f);
    }
    info_s(in.f, "k1", fo->ks.name[0]);
    info_s(in.f, "k2", fo->ks.name[1]);
    human_key(h1, sizeof h1, fo->ks.name[0]);
    human_key(h2, sizeof h2, fo->ks.name[1]);
    info_s(in.f, "l1", h1);
    info_s(in.f, "l2", h2);
    info_n(in.f, "na", (double)na);
    info_n(in.f, "nb", (double)nb);
    for (size_t i = 0; i < na; i++)
        info_s(in.f, "alab", as.v[aord[i]]);
    for (size_t i = 0; i < nb; i++)
        info_s(in.f, "blab", bs.v[bord[i]]);
    snprintf(text, sizeof text, "%s: completion-time reduction vs %s (%%)", title_name(fo),
             t->row[0].baseline >= 0 ? sname(t->row[0].baseline) : "the baseline");
    info_s(in.f, "title", text);
    info_s(in.f, "subtitle", "dots: the 62/65 claim holds (full jitter 62 +/- 3 %, decorrelated 65 +/- 3 % and ahead)");
    snprintf(text, sizeof text, "swept: %s, %s", fo->ks.name[0], fo->ks.name[1]);
    info_s(in.f, "keys", text);
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    slist_free(&as);
    slist_free(&bs);
    herd_free(red);
    herd_free(seen);
    herd_free(order);
    herd_free(aord);
    herd_free(bord);
    herd_free(arank);
    herd_free(brank);
    return rc;
}

/* ------------------------------------------------------------------------
 * The scripts and their figures
 * ------------------------------------------------------------------------ */

/* replay: the run laid over its input data.  Left, the service time's CDF
 * from input.csv and each series' latency quantiles (p50, p90, p99,
 * p99.9: means over replications, aggregate.csv) as points; right, the
 * trace's arrival rate and the logical requests started per second in the
 * selected replication (timeseries.csv; the same in every series, since
 * arrivals come from their own stream). */
static int prep_replay(const folder *fo, const char *dir, const char *wd, char *err, size_t errlen)
{
    static const char *const qname[] = {"p50_latency_s", "p90_latency_s", "p99_latency_s", "p999_latency_s"};
    static const double qp[] = {0.5, 0.9, 0.99, 0.999};
    wfile d = {0}, in = {0};
    int rc = -1, nq = 0, block = 0;
    char text[600], pt[400];
    if (w_open(&d, wd, "replay", "csv", err, errlen) || w_open(&in, wd, "replay", "tsv", err, errlen))
        goto done;
    /* block 0: the input CDF; block 1: the input rate (a dummy point when absent) */
    for (int k = 0; k < IN_COUNT; k++) {
        fprintf(d.f, "%sx,y\n", block++ ? "\n\n" : "");
        for (size_t i = 0; i < fo->in.n[k]; i++) {
            put_num(d.f, fo->in.x[k][i]);
            fputc(',', d.f);
            put_num(d.f, fo->in.y[k][i]);
            fputc('\n', d.f);
        }
        if (!fo->in.n[k])
            fprintf(d.f, "0,nan\n");
    }
    info_n(in.f, "hascdf", fo->in.n[IN_CDF] > 0);
    info_n(in.f, "hasrate", fo->in.n[IN_RATE] > 0);
    /* block 2: simulated arrivals per second (first series of the selected replication) */
    const tstable *ts = &fo->ts;
    double bw = 0;
    fprintf(d.f, "\n\nx,y\n");
    size_t first = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != ts->r[0].variant || p->strategy != ts->r[0].strategy)
            break;
        if (i > first && bw == 0)
            bw = p->t - ts->r[first].t;
    }
    if (bw <= 0)
        bw = 1;
    int hassim = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const tsrow *p = &ts->r[i];
        if (p->variant != ts->r[0].variant || p->strategy != ts->r[0].strategy)
            break;
        put_num(d.f, p->t);
        fputc(',', d.f);
        put_num(d.f, p->offered / bw);
        fputc('\n', d.f);
        hassim = 1;
    }
    if (!hassim)
        fprintf(d.f, "0,nan\n");
    info_n(in.f, "hassim", hassim);
    info_n(in.f, "bw", bw);
    /* blocks 3..: the quantiles of each series at the selected point */
    int col[4];
    for (int q = 0; q < 4; q++)
        col[q] = kept(&fo->agg, metric_index(qname[q]));
    for (size_t i = 0; i < fo->agg.n && nq < 16; i++) {
        const prow *p = &fo->agg.row[i];
        if (!at_point(fo, p, fo->ks.variant))
            continue;
        char name[LABEL_MAX + 64];
        if (fo->ks.variant)
            snprintf(name, sizeof name, "%s / %s", p->key[0], sname(p->strategy));
        else
            snprintf(name, sizeof name, "%s", sname(p->strategy));
        fprintf(d.f, "\n\nx,y\n");
        for (int q = 0; q < 4; q++) {
            double v = col[q] >= 0 ? p->v[2 * col[q]] : NAN;
            put_num(d.f, v);
            fprintf(d.f, ",%.17g\n", qp[q]);
        }
        fprintf(in.f, "q\t%s\t%s\n", name, okabe_ito[nq % COUNT(okabe_ito)]);
        nq++;
    }
    info_n(in.f, "nq", nq);
    snprintf(text, sizeof text, "%s: the run laid over its input data", title_name(fo));
    info_s(in.f, "title", text);
    point_text(fo, pt, sizeof pt, fo->ks.variant);
    snprintf(text, sizeof text, "points: simulated latency p50, p90, p99, p99.9 (means over replications); "
                                "steps: requests started per second, replication %llu%s%s", fo->sel.rep,
             pt[0] ? "; " : "", pt);
    info_s(in.f, "subtitle", text);
    lay_write(in.f, lay(fo, 2, 1, 1000, 170, 90));
    rc = 0;
done:
    if (w_close(&d, err, errlen) || w_close(&in, err, errlen))
        rc = -1;
    (void)dir;
    return rc;
}

static const char *const script_names[] = {"timeseries.gp", "goodput.gp", "sweep.gp",  "compare.gp",
                                           "sensitivity.gp", "variants.gp", "animate.gp", "replay.gp"};

/* A gnuplot run and the figures it writes (base names). */
#define MAX_FIGS (PLOT_MAX_SELECT + 8)
typedef struct job {
    const char *script;
    const char *a1, *a2;
    char fig[MAX_FIGS][96];
    int nfig;
    int gif; /* writes fig[0].gif, whatever the terminal */
} job;

static void add_fig(job *j, const char *prefix, const char *name)
{
    if (j->nfig < MAX_FIGS)
        snprintf(j->fig[j->nfig++], sizeof j->fig[0], "%s%s", prefix, name);
}

/* The metrics of the sweep figures: --metric, else sweep_default. */
static int sweep_metric_list(const folder *fo, int *out)
{
    int n = 0;
    if (fo->sel.nmetric)
        for (int i = 0; i < fo->sel.nmetric; i++)
            out[n++] = fo->sel.metric[i];
    else
        for (size_t i = 0; i < COUNT(sweep_default); i++)
            if (metric_index(sweep_default[i]) >= 0)
                out[n++] = metric_index(sweep_default[i]);
    return n;
}

/* The compared metric of the compare figure: the first --metric that
 * compare.csv has, else completion_time_s (compared[] index). */
static int compare_metric(const folder *fo)
{
    for (int i = 0; i < fo->sel.nmetric; i++) {
        int c = compared_index(metric_table[fo->sel.metric[i]].name);
        if (c >= 0)
            return c;
    }
    return 0;
}

/* Writes the data of every job into wd. */
static int prepare(const folder *fo, const job *jobs, int njobs, const char *dir, const char *wd, char *err,
                   size_t errlen)
{
    if (write_style(fo, wd, err, errlen))
        return -1;
    for (int i = 0; i < njobs; i++) {
        const job *j = &jobs[i];
        if (!strcmp(j->script, "timeseries.gp") && prep_timeseries(fo, dir, wd, "timeseries", 0, err, errlen))
            return -1;
        if (!strcmp(j->script, "animate.gp") && prep_timeseries(fo, dir, wd, "load", 1, err, errlen))
            return -1;
        if (!strcmp(j->script, "goodput.gp") && prep_goodput(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "sweep.gp") && !j->a2) {
            int ml[MAX_WANT], nm = sweep_metric_list(fo, ml);
            char list[MAX_WANT * 40] = "";
            for (int k = 0; k < nm; k++) {
                char name[96];
                snprintf(name, sizeof name, "sweep_%s", metric_table[ml[k]].name);
                if (prep_sweep(fo, &fo->agg, kept(&fo->agg, ml[k]), 0, metric_table[ml[k]].name, dir, wd, name,
                               err, errlen))
                    return -1;
                append(list, sizeof list, " ", metric_table[ml[k]].name, NULL);
            }
            wfile s = {0};
            if (w_open(&s, wd, "sweep", "tsv", err, errlen))
                return -1;
            info_s(s.f, "metrics", list);
            if (w_close(&s, err, errlen))
                return -1;
        }
        if (j->a2 || !strcmp(j->script, "compare.gp")) {
            int c = compare_metric(fo);
            if (fo->ks.k > fo->ks.variant ? prep_sweep(fo, &fo->cmp, kept(&fo->cmp, c), 1, compared[c], dir, wd,
                                                        "compare", err, errlen)
                                          : prep_compare_bars(fo, kept(&fo->cmp, c), compared[c], dir, wd, err,
                                                              errlen))
                return -1;
        }
        if (!strcmp(j->script, "sensitivity.gp") && prep_sensitivity(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "variants.gp") && prep_variants(fo, dir, wd, err, errlen))
            return -1;
        if (!strcmp(j->script, "replay.gp") && prep_replay(fo, dir, wd, err, errlen))
            return -1;
    }
    return 0;
}

/* 1 if every script is readable in d. */
static int has_scripts(const char *d)
{
    char p[PATH_MAX], e[8];
    for (size_t i = 0; i < COUNT(script_names); i++)
        if (path_fmt(p, e, sizeof e, "%s/%s", d, script_names[i]) || access(p, R_OK) != 0)
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

/* The file kinds a job writes: png and svg, txt (dumb), or gif. */
static int job_formats(const folder *fo, const job *j, const char **fmt)
{
    if (j->gif) {
        fmt[0] = "gif";
        return 1;
    }
    if (fo->o->term == PLOT_TERM_DUMB) {
        fmt[0] = "txt";
        return 1;
    }
    fmt[0] = "png";
    fmt[1] = "svg";
    return 2;
}

/* Runs job j on wd and checks that it wrote each figure there. */
static int render_one(const folder *fo, const job *j, const char *plots, const char *wd, char *err, size_t errlen)
{
    char script[PATH_MAX], fig[PATH_MAX], shown[SHOWN_MAX + 8];
    const char *fmt[2];
    int nf = job_formats(fo, j, fmt);
    if (path_fmt(script, err, errlen, "%s%s/%s", plots[0] == '/' ? "" : "./", plots, j->script))
        return -1;
    if (run_gnuplot(script, wd, j->a1, j->a2, err, errlen))
        return -1;
    for (int f = 0; f < j->nfig; f++)
        for (int k = 0; k < nf; k++) {
            struct stat st;
            if (path_fmt(fig, err, errlen, "%s/%s.%s", wd, j->fig[f], fmt[k]))
                return -1;
            if (stat(fig, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
                esc(shown, sizeof shown, script, SHOWN_MAX);
                snprintf(err, errlen, "%s did not write %s.%s", shown, j->fig[f], fmt[k]);
                return -1;
            }
        }
    return 0;
}

/* Copies the text figure wd/NAME.txt to stdout: printable ASCII and
 * newlines only (a form feed between pages dropped). */
static int print_text(const char *wd, const char *name, char *err, size_t errlen)
{
    char p[PATH_MAX];
    if (path_fmt(p, err, errlen, "%s/%s.txt", wd, name))
        return -1;
    FILE *f = fopen(p, "r");
    if (!f) {
        snprintf(err, errlen, "%s.txt: %s", name, strerror(errno));
        return -1;
    }
    int c, col = 0;
    while ((c = getc(f)) != EOF) {
        if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
            putchar(c);
            col = c == '\n' ? 0 : col + 1;
        }
    }
    if (col)
        putchar('\n');
    fclose(f);
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

void plot_opts_init(plot_opts *o)
{
    memset(o, 0, sizeof *o);
    o->style = PLOT_STYLE_TALK;
    o->term = PLOT_TERM_PNG;
}

/* The name of the results directory d, when it is a valid scenario name
 * (titles fall back to it without a manifest). */
static void dir_name(const char *d, char *out, size_t n)
{
    const char *b = strrchr(d, '/');
    b = b ? b + 1 : d;
    out[0] = '\0';
    if (strlen(b) < n && valid_name(b))
        snprintf(out, n, "%s", b);
}

int plot_render_opts(const char *dir, const plot_opts *o, char *err, size_t errlen)
{
    char d[PATH_MAX], wd[PATH_MAX], plots[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
    char shown[SHOWN_MAX + 8];
    int rc = -1, made = 0, njobs = 0;
    job *jobs = NULL;
    folder fo;
    memset(&fo, 0, sizeof fo);
    fo.o = o;

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
    if ((rc = select_metrics(&fo, err, errlen)) != 0 || (rc = select_replication_text(&fo, err, errlen)) != 0)
        goto done;
    rc = -1;

    /* what the scenario says (optional), then the metrics to keep */
    load_manifest(d, &fo.man);
    snprintf(fo.name, sizeof fo.name, "%s", fo.man.name);
    if (!fo.name[0])
        dir_name(d, fo.name, sizeof fo.name);
    int ml[MAX_WANT], nm;
    want_metric(&fo.agg, metric_index("trigger_start_s"));
    want_metric(&fo.agg, metric_index("trigger_end_s"));
    nm = sweep_metric_list(&fo, ml);
    for (int i = 0; i < nm; i++)
        want_metric(&fo.agg, ml[i]);
    nm = variant_metric_list(&fo, ml);
    for (int i = 0; i < nm; i++)
        want_metric(&fo.agg, ml[i]);
    for (size_t i = 0; i < COUNT(compared); i++)
        want_metric(&fo.cmp, (int)i);
    want_metric(&fo.agg, metric_index("p50_latency_s")); /* the replay figure's quantiles */
    want_metric(&fo.agg, metric_index("p90_latency_s"));
    want_metric(&fo.agg, metric_index("p99_latency_s"));
    want_metric(&fo.agg, metric_index("p999_latency_s"));

    /* 1. every CSV, validated; aggregate.csv first: its key columns are
     * every file's, its rows what --variant and --point choose from */
    if ((rc = load_csv(d, K_AGGREGATE, &fo, err, errlen)) != 0 || (rc = select_point(&fo, dir, err, errlen)) != 0)
        goto done;
    static const int order[] = {K_SUMMARY, K_TIMESERIES, K_COMPARE, K_TOOLS};
    for (size_t i = 0; i < COUNT(order); i++)
        if ((rc = load_csv(d, order[i], &fo, err, errlen)) != 0)
            goto done;
    if ((rc = load_input(d, &fo, err, errlen)) != 0 || (rc = check_replication(&fo, err, errlen)) != 0)
        goto done;
    if (o->gif && fo.ts.rows == 0) {
        snprintf(err, errlen, "--gif: %s/timeseries.csv has no rows; expected a run with a timeseries ([run] "
                 "timeseries = all or first)", shown);
        rc = PLOT_INVALID;
        goto done;
    }
    rc = -1;

    /* the figures */
    int nsweeps = fo.ks.k - fo.ks.variant;
    jobs = herd_calloc(9, sizeof *jobs);
    if (!jobs) {
        oom(err, errlen);
        goto done;
    }
    if (fo.ts.rows > 0) {
        jobs[njobs].script = "timeseries.gp";
        add_fig(&jobs[njobs++], "", "timeseries");
    }
    if (nsweeps > 0) {
        jobs[njobs].script = "sweep.gp";
        jobs[njobs].a1 = "auto";
        nm = sweep_metric_list(&fo, ml);
        for (int i = 0; i < nm; i++)
            add_fig(&jobs[njobs], "sweep_", metric_table[ml[i]].name);
        njobs++;
    }
    if (fo.cmp.present) {
        if (nsweeps > 0) { /* swept: drawn like the sweep figures */
            jobs[njobs].script = "sweep.gp";
            jobs[njobs].a1 = "linear";
            jobs[njobs].a2 = "compare";
        } else {
            jobs[njobs].script = "compare.gp";
        }
        add_fig(&jobs[njobs++], "", "compare");
    }
    if (fo.cmp.present && nsweeps == 2 && !fo.ks.variant) {
        jobs[njobs].script = "sensitivity.gp";
        add_fig(&jobs[njobs++], "", "sensitivity");
    }
    if (fo.ks.variant) {
        jobs[njobs].script = "variants.gp";
        add_fig(&jobs[njobs++], "", "variants");
    }
    if (fo.ts.rows > 0) {
        jobs[njobs].script = "goodput.gp";
        add_fig(&jobs[njobs++], "", "goodput");
    }
    if (fo.in.present) {
        jobs[njobs].script = "replay.gp";
        add_fig(&jobs[njobs++], "", "replay");
    }
    if (o->gif) {
        jobs[njobs].script = "animate.gp";
        jobs[njobs].gif = 1;
        add_fig(&jobs[njobs++], "", "load");
    }
    if (njobs && find_scripts(plots, err, errlen))
        goto done;

    /* 2. the figures' data, in a private directory beside the figures (so
     * that they can be renamed into place) */
    if (njobs) {
        if (path_fmt(wd, err, errlen, "%s%s/.herd-plot.XXXXXX", d[0] == '/' ? "" : "./", d))
            goto done;
        if (!mkdtemp(wd)) {
            snprintf(err, errlen, "%s: cannot write figures there: %s", shown, strerror(errno));
            goto done;
        }
        made = 1;
        if (prepare(&fo, jobs, njobs, dir, wd, err, errlen))
            goto done;
        const char *keep = getenv("HERD_PLOT_DATA");
        if (keep && *keep && (csv_mkdirs(keep, err, errlen) || prepare(&fo, jobs, njobs, dir, keep, err, errlen)))
            goto done;
    }

    /* 3. draw, then move every figure into place (or print it) */
    for (int i = 0; i < njobs; i++)
        if (render_one(&fo, &jobs[i], plots, wd, err, errlen))
            goto done;
    for (int i = 0; i < njobs; i++) {
        const char *fmt[2];
        int nf = job_formats(&fo, &jobs[i], fmt);
        for (int f = 0; f < jobs[i].nfig; f++)
            for (int k = 0; k < nf; k++) {
                if (!strcmp(fmt[k], "txt")) {
                    if (print_text(wd, jobs[i].fig[f], err, errlen))
                        goto done;
                    continue;
                }
                if (path_fmt(from, err, errlen, "%s/%s.%s", wd, jobs[i].fig[f], fmt[k]) ||
                    path_fmt(to, err, errlen, "%s/%s.%s", d, jobs[i].fig[f], fmt[k]))
                    goto done;
                if (rename(from, to) != 0) {
                    char t[SHOWN_MAX + 8];
                    esc(t, sizeof t, to, SHOWN_MAX);
                    snprintf(err, errlen, "%s: cannot write the figure: %s", t, strerror(errno));
                    goto done;
                }
            }
    }
    if (fflush(stdout) != 0) {
        snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
        goto done;
    }

    if (!o->quiet) {
        const char *sep = "wrote ";
        int drawn = 0;
        for (int i = 0; i < njobs; i++) {
            const char *fmt[2];
            int nf = job_formats(&fo, &jobs[i], fmt);
            for (int f = 0; f < jobs[i].nfig; f++)
                for (int k = 0; k < nf; k++) {
                    char fig[PATH_MAX + 64];
                    drawn = 1;
                    if (!strcmp(fmt[k], "txt"))
                        continue;
                    snprintf(fig, sizeof fig, "%s/%s.%s", d, jobs[i].fig[f], fmt[k]);
                    esc(shown, sizeof shown, fig, SHOWN_MAX);
                    printf("%s%s", sep, shown);
                    sep = ", ";
                }
        }
        if (*sep == ',') {
            printf("\n");
        } else if (!drawn) {
            esc(shown, sizeof shown, d, SHOWN_MAX);
            printf("%s: nothing to plot (timeseries.csv is empty, no sweep, no compare.csv)\n", shown);
        }
    }
    rc = 0;
done:
    if (made)
        remove_workdir(wd);
    herd_free(jobs);
    folder_free(&fo);
    return rc;
}

int plot_render(const char *dir, int quiet, char *err, size_t errlen)
{
    plot_opts o;
    plot_opts_init(&o);
    o.quiet = quiet;
    return plot_render_opts(dir, &o, err, errlen);
}

int plot_dir(const char *dir, char *err, size_t errlen)
{
    return plot_render(dir, 0, err, errlen);
}
