/*
 * plot_csv.c - herd plot's strict reader of a results directory's CSVs
 * (see plot_internal.h): messages that echo input escaped, a CSV read one
 * line at a time with every byte checked, the columns each file of a
 * results directory must have and the checks of its header and rows.
 * A malformed file is refused with "FILE:LINE: what is wrong; expected
 * ..." (PLOT_INVALID).  What is kept of the rows is plot_load.c's.
 */
#include "plot_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../model/results.h"
#include "../policy/herdpolicy.h"

#define LINE_MAX_BYTES 65536
#define NUMBER_MAX 40

/* ------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------ */

/* s (at most max bytes of it) with every byte outside printable ASCII, and
 * the backslash, escaped (\n, \t, \r, \\, \xHH), so a message stays on one
 * line and cannot drive a terminal; "..." marks a cut. */
void plot_esc(char *out, size_t outlen, const char *s, size_t max)
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
int plot_path_fmt(char *out, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, PATH_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= PATH_MAX) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, out, 200);
        snprintf(err, errlen, "%s...: path too long", shown);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Reading a CSV: one line at a time, every byte checked
 * ------------------------------------------------------------------------ */

/* "FILE:LINE: message"; returns PLOT_INVALID. */
int plot_csv_fail(csv_rd *r, const char *fmt, ...)
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
            return plot_csv_fail(r, "more than %d fields; expected a herd CSV", MAX_COLS);
        r->field[r->nf] = o;
        if (*p == '"') {
            for (p++;; p++) {
                if (*p == '\0')
                    return plot_csv_fail(r, "field %d: a quote that is never closed; expected \"...\" within the line",
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
                return plot_csv_fail(r, "field %d: text after a closing quote; expected a comma or the end of the line",
                                     r->nf + 1);
        } else {
            for (; *p != ',' && *p != '\0'; p++) {
                if (*p == '"')
                    return plot_csv_fail(r, "field %d: a quote inside an unquoted field; expected a field quoted whole",
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
int plot_csv_line(csv_rd *r)
{
    size_t n = 0;
    int c;
    r->line++;
    while ((c = getc(r->f)) != EOF) {
        if (++r->bytes > CSV_MAX_BYTES)
            return plot_csv_fail(r, "the file is larger than %lld bytes; expected at most that", CSV_MAX_BYTES);
        if (c == '\n') {
            if (n == 0)
                return plot_csv_fail(r, "an empty line; expected a row of comma-separated fields");
            r->lbuf[n] = '\0';
            int rc = rd_split(r);
            return rc ? rc : 1;
        }
        if (c == '\0')
            return plot_csv_fail(r, "a NUL byte; expected text");
        if (c < 0x20 || c == 0x7f)
            return plot_csv_fail(r, "control character \\x%02x; expected printable text", c);
        if (n == LINE_MAX_BYTES)
            return plot_csv_fail(r, "a line longer than %d bytes; expected a herd CSV", LINE_MAX_BYTES);
        r->lbuf[n++] = (char)c;
    }
    if (ferror(r->f)) {
        snprintf(r->err, r->errlen, "%s: read error: %s", r->shown, strerror(errno));
        return -1;
    }
    if (n > 0)
        return plot_csv_fail(r, "the last line has no newline (a truncated file?); expected complete lines");
    r->line--;
    return 0;
}

/* Opens dir/name for reading if it is a regular file: the stream, NULL
 * with *missing = 1 when there is no such file, else NULL with err
 * (PLOT_INVALID in *rc for a file that is not regular). */
static FILE *open_regular(const char *path, csv_rd *r, int *missing, int *rc)
{
    FILE *f;
    long long size;
    int e = 0;
    *missing = 0;
    *rc = -1;
    herd_file_status s = herd_file_open(path, CSV_MAX_BYTES, HERD_FILE_TEXT | HERD_FILE_NOFOLLOW, &f, &size, &e);
    r->line = 1;
    switch (s) {
    case HERD_FILE_OK:
        return f;
    case HERD_FILE_MISSING:
        *missing = 1;
        return NULL;
    case HERD_FILE_DIRECTORY:
    case HERD_FILE_NOT_REGULAR:
        *rc = plot_csv_fail(r, "not a regular file; expected a herd CSV");
        return NULL;
    case HERD_FILE_SYMLINK:
        *rc = plot_csv_fail(r, "a symbolic link; expected a herd CSV in the results folder (links are not followed)");
        return NULL;
    case HERD_FILE_TOO_LARGE:
        *rc = plot_csv_fail(r, "the file is %lld bytes; expected at most %lld", size, CSV_MAX_BYTES);
        return NULL;
    default:
        if (e == ENOMEM)
            snprintf(r->err, r->errlen, "out of memory reading the results");
        else
            snprintf(r->err, r->errlen, "%s: %s", r->shown, strerror(e ? e : EIO));
        return NULL;
    }
}

/* Opens dir/name for reading into r (its line buffers allocated).  1 when
 * open (close with plot_csv_close), 0 when the file does not exist, PLOT_INVALID
 * or -1 (nothing left open). */
int plot_csv_open(csv_rd *r, const char *dir, const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX];
    memset(r, 0, sizeof *r);
    r->err = err;
    r->errlen = errlen;
    if (plot_path_fmt(path, err, errlen, "%s/%s", dir, name))
        return -1;
    plot_esc(r->shown, sizeof r->shown, path, SHOWN_MAX);
    int missing, rc;
    r->f = open_regular(path, r, &missing, &rc);
    if (!r->f)
        return missing ? 0 : rc;
    r->line = 0;
    r->lbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    r->fbuf = herd_malloc_array(LINE_MAX_BYTES + 1, 1);
    return 1;
}

void plot_csv_close(csv_rd *r)
{
    fclose(r->f);
    herd_free(r->lbuf);
    herd_free(r->fbuf);
}

/* Reads and validates dir/NAME of this kind, keeping what the figures use.
 * 0 (also when the file does not exist), PLOT_INVALID, or -1. */
/* ------------------------------------------------------------------------
 * What a results CSV must look like
 * ------------------------------------------------------------------------ */

const char *const plot_csv_file[NKINDS] = {"summary.csv", "aggregate.csv", "timeseries.csv", "compare.csv",
                                                 "tools.csv"};

/* These three lists must match report.c (a fresh run's figures, drawn by
 * tests/plot.sh, fail if they drift). */
static const char *const ts_cols[] = {"replication", "time_s", "arrivals",          "refused", "in_flight",
                                      "successes",   "errors", "retries_scheduled", "offered", "goodput",
                                      "turned_away"};
const char *const plot_compared[] = {"completion_time_s", "calls",         "retries",
                                       "successes",         "failures",      "peak_inflight",
                                       "peak_arrivals_per_s", "mean_latency_s", "p99_latency_s"};
static const char *const tool_cols[] = {"requests", "successes", "failures", "unknown_outcomes",
                                        "calls",    "effects",   "duplicate_effects", "lost_operations"};

/* The columns after `strategy` of a file of this kind; their number. */
int plot_csv_columns(int kind, colspec *c, int max)
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
            ADD(metric_table[k].type == METRIC_U64 ? T_COUNT : T_DBL, "%s", metric_table[k].name);
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
        for (size_t k = 0; k < PLOT_NCOMPARED; k++) {
            ADD(T_DBL, "%s_change_pct_mean", plot_compared[k]);
            ADD(T_DBL, "%s_change_pct_ci95", plot_compared[k]);
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
int plot_valid_variant(const char *s)
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

/* A sweep value: 1-63 bytes herd run may write in one (scn_label_byte:
 * numbers, names, distributions such as normal(0.1, 0.02), data file
 * paths such as empirical(o'brien.csv)); commas only within balanced
 * parentheses, as a sweep list is split at the others. */
static int valid_keyval(const char *s)
{
    size_t n = strlen(s);
    int depth = 0;
    if (n == 0 || n > LABEL_MAX || s[0] == ' ' || s[n - 1] == ' ')
        return 0;
    for (; *s; s++) {
        if (!scn_label_byte((unsigned char)*s) || (*s == ',' && depth == 0))
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
int plot_num_text(const char *s)
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

/* Undefined, as herd writes it: "nan" (older folders) or "n/a". */
static int undefined_text(const char *s)
{
    return !strcmp(s, "nan") || !strcmp(s, "n/a");
}

int plot_valid_dbl(const char *s)
{
    if (plot_num_text(s))
        return fabs(strtod(s, NULL)) <= PLOT_VALUE_MAX;
    return undefined_text(s) || !strcmp(s, "inf") || !strcmp(s, "-inf");
}

int plot_valid_u64(const char *s)
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

double plot_dbl_of(const char *s)
{
    if (undefined_text(s))
        return NAN;
    if (!strcmp(s, "inf"))
        return INFINITY;
    if (!strcmp(s, "-inf"))
        return -INFINITY;
    return strtod(s, NULL);
}

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
        plot_esc(v, sizeof v, r->field[i], VALUE_SHOWN);
        if (!valid_keyname(r->field[i]))
            return plot_csv_fail(r, "column %d is '%s'; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...",
                                 i + 1, v, plot_csv_file[kind], tail[0].name);
        if (i >= MAX_KEYS)
            return plot_csv_fail(r, "more than %d key columns before strategy; expected " EXPECT_KEYS, MAX_KEYS);
        snprintf(got.name[i], sizeof got.name[i], "%s", r->field[i]);
    }
    if (i == r->nf)
        return plot_csv_fail(r, "no strategy column; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...",
                             plot_csv_file[kind], tail[0].name);
    got.k = i;
    if (have_ks) {
        int same = got.k == ks->k;
        for (int j = 0; same && j < got.k; j++)
            same = !strcmp(got.name[j], ks->name[j]);
        if (!same) {
            char a[MAX_KEYS * (KEYNAME_MAX + 1) + 16], b[sizeof a];
            keys_text(&got, a, sizeof a);
            keys_text(ks, b, sizeof b);
            return plot_csv_fail(r, "key columns %s; expected %s, as in aggregate.csv", a, b);
        }
    } else {
        *ks = got;
    }
    int have = r->nf - got.k - 1;
    for (int j = 0; j < have || j < ntail; j++) {
        int col = got.k + 2 + j;
        if (j >= ntail) {
            plot_esc(v, sizeof v, r->field[col - 1], VALUE_SHOWN);
            return plot_csv_fail(r, "column %d is '%s'; expected the header to end after '%s' (%d columns)", col, v,
                                 tail[ntail - 1].name, got.k + 1 + ntail);
        }
        if (j >= have)
            return plot_csv_fail(r, "the header ends after %d columns; expected '%s' next (%d columns)", r->nf,
                                 tail[j].name, got.k + 1 + ntail);
        if (strcmp(r->field[col - 1], tail[j].name)) {
            plot_esc(v, sizeof v, r->field[col - 1], VALUE_SHOWN);
            return plot_csv_fail(r, "column %d is '%s'; expected '%s'", col, v, tail[j].name);
        }
    }
    return 0;
}

/* Reads the header of a file of this kind and checks it (check_header). */
int plot_csv_header(csv_rd *r, int kind, keyset *ks, int have_ks, const colspec *tail, int ntail)
{
    int rc = plot_csv_line(r);
    if (rc == 0) {
        r->line = 1;
        return plot_csv_fail(r, "an empty file; expected the header of a herd %s: " EXPECT_KEYS ", %s, ...",
                             plot_csv_file[kind], tail[0].name);
    }
    return rc < 0 ? rc : check_header(r, kind, ks, have_ks, tail, ntail);
}

/* Checks a data row against the header; *strategy is its strategy. */
int plot_csv_row(csv_rd *r, const keyset *ks, const colspec *tail, int ntail, int *strategy)
{
    char v[VALUE_SHOWN * 4 + 8];
    int want = ks->k + 1 + ntail;
    if (r->nf != want)
        return plot_csv_fail(r, "%d fields; expected %d, as in the header", r->nf, want);
    for (int i = 0; i < want; i++) {
        const char *f = r->field[i];
        ftype t = i < ks->k ? (i == 0 && ks->variant ? T_VARIANT : T_KEYVAL)
                            : i == ks->k ? T_STRATEGY : tail[i - ks->k - 1].t;
        const char *name = i < ks->k ? ks->name[i] : i == ks->k ? "strategy" : tail[i - ks->k - 1].name;
        plot_esc(v, sizeof v, f, VALUE_SHOWN);
        switch (t) {
        case T_VARIANT:
            if (!plot_valid_variant(f))
                return plot_csv_fail(r, "column %d (variant) is '%s'; expected a variant name of 1-%d letters, digits, "
                                        "'-', '_', '.'",
                                     i + 1, v, LABEL_MAX);
            break;
        case T_KEYVAL:
            if (!valid_keyval(f))
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected a sweep value of 1-%d characters, none "
                                        "a control character, '\"', '\\', '`' or '@' (commas only within parentheses)",
                                     i + 1, name, v, LABEL_MAX);
            break;
        case T_STRATEGY: {
            hp_strategy s;
            if (hp_strategy_parse(f, &s) != 0)
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected immediate, constant, exponential, "
                                        "full_jitter, equal_jitter, decorrelated_jitter or random",
                                     i + 1, name, v);
            if (i == ks->k)
                *strategy = (int)s;
            break;
        }
        case T_U64:
            if (!plot_valid_u64(f))
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected an unsigned integer", i + 1, name, v);
            break;
        case T_DBL:
            if (!plot_valid_dbl(f))
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected a number (or nan or n/a: undefined) of "
                                        "magnitude at most %g (a figure cannot show more)", i + 1, name, v,
                                     PLOT_VALUE_MAX);
            break;
        case T_COUNT:
            if (!plot_valid_u64(f) && strcmp(f, "n/a"))
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected an unsigned integer (or n/a)", i + 1, name,
                                     v);
            break;
        case T_TOOL:
            if (!valid_tool(f))
                return plot_csv_fail(r, "column %d (%s) is '%s'; expected a tool name of 1-%d characters", i + 1,
                                     name, v, LABEL_MAX);
            break;
        }
    }
    return 0;
}

