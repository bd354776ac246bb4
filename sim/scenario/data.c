/*
 * data.c - data files and the distributions that live in the data store
 * (see data.h).  CSV files are read strictly (base/csvread.h): a header
 * line that must match exactly, then rows of numbers in the one number
 * syntax of scenario files (spec_parse_number); lines starting with '#' are
 * comments; LF or CRLF line ends; no blank lines, no NUL bytes.  Every
 * error names FILE:LINE, the column and what was expected.
 */
#include "data.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/alloc.h"
#include "../base/csvread.h"
#include "scenario.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef struct data_file {
    char path[PATH_MAX];        /* as opened (resolved) */
    spec_data_kind kind;        /* the form asked for (SAMPLES stands for "empirical") */
    uint32_t idx;
    uint64_t hash;              /* FNV-1a 64 of the file's bytes as read */
    int *lines;                 /* capacity timelines: the file line of each row (herd_malloc), else NULL */
    uint32_t nlines;
} data_file;

static spec_table store;
static data_file files[SCN_DATA_MAX_FILES];
static uint32_t nfiles;
static char base_dir[PATH_MAX] = ".";
static int atexit_done;
static int *kept_lines;         /* the row lines of the timeline just read, for its data_file */
static uint32_t kept_nlines;

static void data_end(void)
{
    spec_table_free(&store);
    for (uint32_t i = 0; i < nfiles; i++)
        herd_free(files[i].lines);
    nfiles = 0;
}

void scn_data_begin(const char *scenario_path)
{
    data_end();
    if (!atexit_done) {
        atexit(data_end); /* the last store lives until exit */
        atexit_done = 1;
    }
    const char *slash = scenario_path ? strrchr(scenario_path, '/') : NULL;
    if (!slash)
        snprintf(base_dir, sizeof base_dir, ".");
    else if (slash == scenario_path)
        snprintf(base_dir, sizeof base_dir, "/");
    else
        snprintf(base_dir, sizeof base_dir, "%.*s", (int)(slash - scenario_path), scenario_path);
}

const char *scn_data_dir(void)
{
    return base_dir[0] ? base_dir : ".";
}

const spec_table *scn_data(void)
{
    return &store;
}

void scn_data_print_files(FILE *f)
{
    static const char *const what[] = {[SPEC_DATA_SAMPLES] = "empirical", [SPEC_DATA_TRACE] = "trace",
                                       [SPEC_DATA_CAPACITY] = "capacity"};
    for (uint32_t i = 0; i < nfiles; i++) {
        const spec_entry *e = spec_table_entry(&store, files[i].idx);
        uint32_t n = e ? e->n : 0;
        /* the hash of the bytes: the manifest, hence the plan's fingerprint
         * (herd merge), changes when a file is rewritten, whatever it holds */
        fprintf(f, "data file %s: %s, %u %s%s, fnv1a64 %016llx\n", files[i].path, what[files[i].kind], n,
                e && e->kind == SPEC_DATA_HISTOGRAM ? "bin" : "row", n == 1 ? "" : "s",
                (unsigned long long)files[i].hash);
    }
}

/* Trims blanks of s in place. */
static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t l = strlen(s);
    while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
        s[--l] = '\0';
    return s;
}

/* Echoes a field (control characters escaped, shortened) into out, always
 * terminated: an empty field is ''.  (It wrote nothing for one, and the
 * message then echoed whatever the caller's buffer held: fuzz_data found a
 * capacity row ending in an empty column whose message had stack bytes and
 * a newline in it.) */
static void echo(const char *s, char *out, size_t n)
{
    size_t u = 0;
    out[0] = '\0';
    for (; *s && u + 5 < n && u < 40; s++)
        u += (size_t)snprintf(out + u, n - u, (unsigned char)*s < 0x20 || *s == 0x7f ? "\\x%02x" : "%c",
                              (unsigned char)*s);
    if (*s)
        snprintf(out + u, n - u, "...");
}

/* Reads the rows of c under header cols[0..ncols) into a fresh array of
 * rows x ncols doubles (*rows_out), each checked against [lo[j], hi[j]],
 * and the file line of each row (*lines_out; free both with herd_free).
 * NULL, or a message in buf. */
static const char *csv_rows(csvr *c, const char *const *cols, int ncols, const double *lo, const double *hi,
                            double **out, uint32_t *rows_out, int **lines_out, char *buf, size_t n)
{
    const char *msg;
    char *line = csvr_line(c, &msg), *field[8];
    char expect[256];
    size_t u = 0;
    for (int j = 0; j < ncols; j++)
        u += (size_t)snprintf(expect + u, sizeof expect - u, "%s%s", j ? "," : "", cols[j]);
    if (!line) {
        snprintf(buf, n, "%s: only comments; expected the header line '%s' and data rows", c->shown, expect);
        return buf;
    }
    if (msg) {
        snprintf(buf, n, "%s:%d: %s", c->shown, c->line, msg);
        return buf;
    }
    char got[64];
    echo(line, got, sizeof got);
    int nf = csvr_split(line, field, 8);
    int ok = nf == ncols;
    for (int j = 0; ok && j < ncols; j++)
        ok = strcmp(trim(field[j]), cols[j]) == 0;
    if (!ok) {
        snprintf(buf, n, "%s:%d: header: expected the header line '%s', got '%s'", c->shown, c->line, expect, got);
        return buf;
    }
    size_t cap = 0, rows = 0;
    double *v = NULL;
    int *lines = NULL;
    while ((line = csvr_line(c, &msg))) {
        if (msg) {
            snprintf(buf, n, "%s:%d: %s", c->shown, c->line, msg);
            goto fail;
        }
        if (rows >= SCN_DATA_MAX_ROWS) {
            snprintf(buf, n, "%s:%d: more than %d data rows; expected at most that many", c->shown, c->line,
                     SCN_DATA_MAX_ROWS);
            goto fail;
        }
        nf = csvr_split(line, field, 8);
        if (nf != ncols) {
            snprintf(buf, n, "%s:%d: %d field%s; expected %d (%s)", c->shown, c->line, nf, nf == 1 ? "" : "s", ncols,
                     expect);
            goto fail;
        }
        if (rows == cap) {
            cap = cap ? cap * 2 : 256;
            double *w = herd_realloc_array(v, cap, (size_t)ncols * sizeof *v);
            if (w)
                v = w;
            int *l = w ? herd_realloc_array(lines, cap, sizeof *lines) : NULL;
            if (!l) {
                snprintf(buf, n, "%s: out of memory", c->shown);
                goto fail;
            }
            lines = l;
        }
        for (int j = 0; j < ncols; j++) {
            double x;
            if (spec_parse_number(field[j], &x) != 0 || x < lo[j] || x > hi[j]) {
                char e[64];
                echo(trim(field[j]), e, sizeof e);
                snprintf(buf, n, "%s:%d: column %d (%s): expected a number in [%g, %g], got '%s'", c->shown, c->line,
                         j + 1, cols[j], lo[j], hi[j], e);
                goto fail;
            }
            v[rows * (size_t)ncols + (size_t)j] = x;
        }
        lines[rows++] = c->line;
    }
    if (!rows) {
        snprintf(buf, n, "%s: no data rows after the header; expected at least one row of '%s'", c->shown, expect);
        goto fail;
    }
    *out = v;
    *rows_out = (uint32_t)rows;
    *lines_out = lines;
    return NULL;
fail:
    herd_free(v);
    herd_free(lines);
    return buf;
}

/* Times of column 0 strictly increasing: NULL, or a message naming the
 * data line (lines[] maps a row to its line). */
static const char *check_times(const csvr *c, const double *v, int ncols, uint32_t rows, const int *lines, char *buf,
                               size_t n)
{
    for (uint32_t i = 1; i < rows; i++)
        if (!(v[(size_t)i * (size_t)ncols] > v[(size_t)(i - 1) * (size_t)ncols])) {
            snprintf(buf, n, "%s:%d: column 1 (time_s): %g is not after the previous row's %g; expected times in "
                             "increasing order, each once", c->shown, lines[i], v[(size_t)i * (size_t)ncols],
                     v[(size_t)(i - 1) * (size_t)ncols]);
            return buf;
        }
    return NULL;
}

/* ---- the forms of data ------------------------------------------------ */

/* Whether the first line that is not a comment holds a comma (without
 * changing the buffer). */
static int header_has_comma(const csvr *c)
{
    for (size_t p = 0; p < c->len;) {
        const char *s = c->buf + p, *nl = memchr(s, '\n', c->len - p);
        size_t l = nl ? (size_t)(nl - s) : c->len - p;
        if (s[0] != '#')
            return memchr(s, ',', l) != NULL;
        p += l + 1;
    }
    return 0;
}

/* empirical: one column of observed values, or a histogram. */
static const char *load_empirical(csvr *c, uint32_t *idx, char *buf, size_t n)
{
    int hist = header_has_comma(c);
    double *v = NULL;
    uint32_t rows = 0;
    if (!hist) {
        static const char *const cols[] = {"value_s"};
        static const double lo[] = {0}, hi[] = {1e9};
        int *lines;
        if (csv_rows(c, cols, 1, lo, hi, &v, &rows, &lines, buf, n))
            return buf;
        herd_free(lines);
        double *dst;
        uint32_t i = spec_table_add(&store, SPEC_DATA_SAMPLES, rows, rows, &dst, 0, NULL);
        if (!i) {
            herd_free(v);
            snprintf(buf, n, "%s: out of memory", c->shown);
            return buf;
        }
        double sum = 0;
        for (uint32_t r = 0; r < rows; r++)
            sum += dst[r] = v[r];
        store.e[i].mean = sum / rows;
        herd_free(v);
        *idx = i;
        return NULL;
    }
    static const char *const cols[] = {"lower_s", "upper_s", "count"};
    static const double lo[] = {0, 0, 0}, hi[] = {1e9, 1e9, 1e15};
    int *lines = NULL;
    if (csv_rows(c, cols, 3, lo, hi, &v, &rows, &lines, buf, n))
        return buf;
    double total = 0;
    uint32_t bins = 0;
    const char *err = NULL;
    for (uint32_t r = 0; !err && r < rows; r++) {
        double l = v[3 * r], u = v[3 * r + 1], k = v[3 * r + 2];
        if (!(u > l)) {
            snprintf(buf, n, "%s:%d: column 2 (upper_s): %g is not above lower_s %g; expected a bucket [lower_s, "
                             "upper_s) of positive width", c->shown, lines[r], u, l);
            err = buf;
        } else if (r && l < v[3 * (r - 1) + 1]) {
            snprintf(buf, n, "%s:%d: column 1 (lower_s): %g is below the previous bucket's upper_s %g; expected "
                             "buckets in increasing order, not overlapping", c->shown, lines[r], l, v[3 * (r - 1) + 1]);
            err = buf;
        }
        total += k;
        bins += 1 + (r && l > v[3 * (r - 1) + 1]); /* a gap is a bin of count 0 */
    }
    if (!err && !(total > 0)) {
        snprintf(buf, n, "%s: every count is 0; expected at least one bucket with a positive count", c->shown);
        err = buf;
    }
    uint32_t i = 0;
    double *dst = NULL;
    if (!err && !(i = spec_table_add(&store, SPEC_DATA_HISTOGRAM, bins, 2 * ((size_t)bins + 1), &dst, 0, NULL))) {
        snprintf(buf, n, "%s: out of memory", c->shown);
        err = buf;
    }
    if (!err) {
        double *range = dst, *cum = dst + bins + 1, acc = 0, mean = 0;
        uint32_t b = 0;
        for (uint32_t r = 0; r < rows; r++) {
            double l = v[3 * r], u = v[3 * r + 1], k = v[3 * r + 2];
            if (r && l > v[3 * (r - 1) + 1]) { /* the gap before this bucket */
                range[b] = v[3 * (r - 1) + 1];
                cum[b++] = acc / total;
            }
            range[b] = l;
            cum[b++] = acc / total;
            acc += k;
            mean += k / total * 0.5 * (l + u);
        }
        range[b] = v[3 * (rows - 1) + 1];
        cum[b] = 1; /* exactly: a uniform draw in [0, 1) always finds a bin */
        store.e[i].mean = mean;
        *idx = i;
    }
    herd_free(lines);
    herd_free(v);
    return err;
}

/* A timeline (trace or capacity): rows of ncols numbers in [lo, hi] whose
 * times (column 1) increase, at least min_rows of them, and a new entry of
 * kind with 4 values per row (*dst, index *i).  *v holds the rows (free
 * with herd_free, also on error).  NULL, or a message in buf. */
static const char *read_timeline(csvr *c, const char *const *cols, int ncols, const double *lo, const double *hi,
                                 uint32_t min_rows, spec_data_kind kind, double **v, uint32_t *rows, double **dst,
                                 uint32_t *i, char *buf, size_t n)
{
    int *lines = NULL;
    *v = NULL;
    if (csv_rows(c, cols, ncols, lo, hi, v, rows, &lines, buf, n))
        return buf;
    const char *err = check_times(c, *v, ncols, *rows, lines, buf, n);
    if (!err && kind == SPEC_DATA_CAPACITY) { /* checks after reading name a row by its line */
        kept_lines = lines;
        kept_nlines = *rows;
    } else {
        herd_free(lines);
    }
    if (!err && *rows < min_rows) {
        snprintf(buf, n, "%s: one data row; expected at least two (the last row's time_s ends the trace)", c->shown);
        err = buf;
    }
    if (!err && !(*i = spec_table_add(&store, kind, *rows, 4 * (size_t)*rows, dst, 0, NULL))) {
        snprintf(buf, n, "%s: out of memory", c->shown);
        err = buf;
    }
    return err;
}

/* trace: time_s, rate_per_s; at least two rows (the last time ends it). */
static const char *load_trace(csvr *c, uint32_t *idx, char *buf, size_t n)
{
    static const char *const cols[] = {"time_s", "rate_per_s"};
    static const double lo[] = {0, 0}, hi[] = {1e9, 1e12};
    double *v = NULL, *dst = NULL;
    uint32_t rows = 0, i = 0;
    const char *err = read_timeline(c, cols, 2, lo, hi, 2, SPEC_DATA_TRACE, &v, &rows, &dst, &i, buf, n);
    if (!err) {
        double *t = dst, *rate = dst + rows, *step = dst + 2 * rows, *lin = dst + 3 * rows;
        for (uint32_t r = 0; r < rows; r++) {
            t[r] = v[2 * r];
            rate[r] = v[2 * r + 1];
            if (r) {
                double dt = t[r] - t[r - 1];
                step[r] = step[r - 1] + rate[r - 1] * dt;
                lin[r] = lin[r - 1] + 0.5 * (rate[r - 1] + rate[r]) * dt;
            }
        }
        if (!(step[rows - 1] > 0) && !(lin[rows - 1] > 0)) {
            snprintf(buf, n, "%s: every rate is 0; expected a trace with some arrivals", c->shown);
            err = buf;
        } else {
            *idx = i;
        }
    }
    herd_free(v);
    return err;
}

/* capacity: time_s, workers_factor, speed_factor, error_rate; steps. */
static const char *load_capacity(csvr *c, uint32_t *idx, char *buf, size_t n)
{
    static const char *const cols[] = {"time_s", "workers_factor", "speed_factor", "error_rate"};
    static const double lo[] = {0, 0, 1e-6, 0}, hi[] = {1e9, 1e6, 1e6, 1};
    double *v = NULL, *dst = NULL;
    uint32_t rows = 0, i = 0;
    const char *err = read_timeline(c, cols, 4, lo, hi, 1, SPEC_DATA_CAPACITY, &v, &rows, &dst, &i, buf, n);
    if (!err) {
        for (uint32_t r = 0; r < rows; r++)
            for (uint32_t j = 0; j < 4; j++)
                dst[(size_t)j * rows + r] = v[4 * (size_t)r + j];
        *idx = i;
    }
    herd_free(v);
    return err;
}

const char *scn_load_data(const char *file, spec_data_kind kind, uint32_t *idx, char *buf, size_t n)
{
    char path[PATH_MAX];
    if (!*file || strlen(file) >= PATH_MAX - strlen(base_dir) - 2) {
        snprintf(buf, n, "expected a file name (a CSV data file)");
        return buf;
    }
    if (file[0] == '/' || !strcmp(base_dir, "."))
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s%s%s", base_dir, strcmp(base_dir, "/") ? "/" : "", file);
    for (uint32_t i = 0; i < nfiles; i++)
        if (files[i].kind == kind && !strcmp(files[i].path, path)) {
            *idx = files[i].idx;
            return NULL;
        }
    if (nfiles == SCN_DATA_MAX_FILES) {
        snprintf(buf, n, "more than %d data files; expected at most that many per scenario", SCN_DATA_MAX_FILES);
        return buf;
    }
    csvr c;
    char shown[128];
    scn_display_path(path, shown, sizeof shown);
    const char *err = csvr_open(&c, path, shown, SCN_DATA_MAX_BYTES, buf, n);
    uint64_t hash = 14695981039346656037ULL;
    for (size_t i = 0; !err && i < c.len; i++) {
        hash ^= (unsigned char)c.buf[i];
        hash *= 1099511628211ULL;
    }
    if (!err)
        err = kind == SPEC_DATA_TRACE      ? load_trace(&c, idx, buf, n)
              : kind == SPEC_DATA_CAPACITY ? load_capacity(&c, idx, buf, n)
                                           : load_empirical(&c, idx, buf, n);
    csvr_close(&c);
    int *lines = kept_lines;
    uint32_t nlines = kept_nlines;
    kept_lines = NULL;
    kept_nlines = 0;
    if (err) {
        herd_free(lines);
        return err;
    }
    files[nfiles] = (data_file){.kind = kind, .idx = *idx, .hash = hash, .lines = lines, .nlines = nlines};
    snprintf(files[nfiles].path, sizeof files[nfiles].path, "%s", path);
    nfiles++;
    return NULL;
}

/* ---- distributions that need the store ---------------------------------- */

/* text starts with name followed by blanks and '(': the inside (up to the
 * matching last ')') into in; 1, 0 if not this form, -1 if malformed. */
static int call_form(const char *text, const char *name, char *in, size_t n)
{
    text += strspn(text, " \t");
    size_t l = strlen(name);
    if (strncmp(text, name, l) != 0)
        return 0;
    const char *p = text + l;
    p += strspn(p, " \t");
    if (*p != '(')
        return 0;
    p++;
    const char *end = p + strlen(p);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (end == p || end[-1] != ')' || (size_t)(end - 1 - p) >= n)
        return -1;
    memcpy(in, p, (size_t)(end - 1 - p));
    in[end - 1 - p] = '\0';
    return 1;
}

static const char *parse_mixture(char *in, dist *out, char *buf, size_t n)
{
    dist comp[SPEC_MIX_MAX];
    double w[SPEC_MIX_MAX], sum = 0;
    uint32_t k = 0;
    char part[1024];
    for (char *p = in; *p;) {
        /* the next component: up to a comma at depth 0 */
        int depth = 0;
        char *q = p;
        for (; *q && !(*q == ',' && depth == 0); q++)
            depth += (*q == '(') - (*q == ')');
        char save = *q;
        *q = '\0';
        if (k == SPEC_MIX_MAX) {
            snprintf(buf, n, "mixture: more than %d components; expected at most that many", SPEC_MIX_MAX);
            return buf;
        }
        char *colon = strchr(p, ':');
        if (!colon) {
            snprintf(buf, n, "mixture: component %u has no weight; expected mixture(P1: DIST1, P2: DIST2, ...)", k + 1);
            return buf;
        }
        *colon = '\0';
        if (spec_parse_number(p, &w[k]) != 0 || !(w[k] > 0) || w[k] > 1) {
            snprintf(buf, n, "mixture: weight %u is not a number in (0, 1]; expected mixture(P1: DIST1, P2: DIST2, "
                             "...) with weights that sum to 1", k + 1);
            return buf;
        }
        snprintf(part, sizeof part, "%s", colon + 1);
        char inner[8];
        if (call_form(part, "mixture", inner, 1) != 0) {
            snprintf(buf, n, "mixture: component %u is a mixture; nested mixtures are not supported: list the inner "
                             "components in the outer mixture with their weights multiplied", k + 1);
            return buf;
        }
        char sub[SCN_ERR_MAX];
        int from_file;
        if (scn_parse_dist(part, &comp[k], sub, sizeof sub, &from_file)) {
            snprintf(buf, n, "mixture: component %u: %s", k + 1, sub);
            return buf;
        }
        sum += w[k];
        k++;
        if (!save)
            break;
        p = q + 1;
    }
    if (k < 2) {
        snprintf(buf, n, "mixture: %u component; expected at least two (P1: DIST1, P2: DIST2, ...)", k);
        return buf;
    }
    /* weights as written must sum to 1 (up to the rounding of decimals):
     * anything else is ambiguous (percentages? forgotten component?) */
    if (fabs(sum - 1) > 1e-9) {
        snprintf(buf, n, "mixture: the weights sum to %.12g; expected them to sum to 1", sum);
        return buf;
    }
    double *cum;
    dist *d;
    uint32_t i = spec_table_add(&store, SPEC_DATA_MIXTURE, k, k, &cum, k, &d);
    if (!i) {
        snprintf(buf, n, "out of memory");
        return buf;
    }
    double acc = 0, mean = 0;
    for (uint32_t j = 0; j < k; j++) {
        acc += w[j] / sum;
        cum[j] = j + 1 == k ? 1 : acc;
        d[j] = comp[j];
        mean += w[j] / sum * dist_mean(&comp[j], &store);
    }
    store.e[i].mean = mean;
    *out = (dist){.kind = DIST_MIXTURE, .ref = i};
    return NULL;
}

const char *scn_parse_dist(const char *value, dist *out, char *buf, size_t n, int *from_file)
{
    *from_file = 0;
    char in[1024];
    int f = call_form(value, "empirical", in, sizeof in);
    if (f < 0) {
        snprintf(buf, n, "expected empirical(FILE.csv)");
        return buf;
    }
    if (f > 0) {
        uint32_t idx;
        char *name = in + strspn(in, " \t");
        size_t l = strlen(name);
        while (l && (name[l - 1] == ' ' || name[l - 1] == '\t'))
            name[--l] = '\0';
        if (scn_load_data(name, SPEC_DATA_SAMPLES, &idx, buf, n)) {
            *from_file = 1;
            return buf;
        }
        *out = (dist){.kind = DIST_EMPIRICAL, .ref = idx};
        return NULL;
    }
    f = call_form(value, "mixture", in, sizeof in);
    if (f < 0) {
        snprintf(buf, n, "expected mixture(P1: DIST1, P2: DIST2, ...)");
        return buf;
    }
    if (f > 0)
        return parse_mixture(in, out, buf, n);
    const char *m = dist_parse(value, out);
    if (m) {
        snprintf(buf, n, "%s", m);
        return buf;
    }
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The CDF of an empirical entry: a histogram's bin edges, or the sorted
 * samples (an empirical CDF). */
static int service_rows(FILE *f, const spec_entry *e)
{
    if (e->kind == SPEC_DATA_HISTOGRAM) {
        const double *range = store.v + e->off, *cum = range + e->n + 1;
        for (uint32_t i = 0; i <= e->n; i++)
            fprintf(f, "service_cdf,%.17g,%.17g\n", range[i], cum[i]);
        return 0;
    }
    double *x = herd_malloc_array(e->n, sizeof *x);
    if (!x)
        return -1;
    memcpy(x, store.v + e->off, e->n * sizeof *x);
    qsort(x, e->n, sizeof *x, by_value);
    for (uint32_t i = 0; i < e->n; i++)
        if (i + 1 == e->n || x[i + 1] != x[i])
            fprintf(f, "service_cdf,%.17g,%.17g\n", x[i], (double)(i + 1) / e->n);
    herd_free(x);
    return 0;
}

/* A trace's rate as drawn: its rows (linear), or two points a step. */
static void trace_rows(FILE *f, const spec_entry *e, int linear)
{
    const double *t = spec_trace_t(&store, e), *r = spec_trace_rate(&store, e);
    for (uint32_t i = 0; i < e->n; i++) {
        fprintf(f, "arrival_rate,%.17g,%.17g\n", t[i], r[i]);
        if (!linear && i + 1 < e->n)
            fprintf(f, "arrival_rate,%.17g,%.17g\n", t[i + 1], r[i]);
    }
}

int scn_data_input_csv(const scn_config *c, char **out)
{
    *out = NULL;
    const spec_entry *svc = c->service.kind == DIST_EMPIRICAL ? spec_table_entry(&store, c->service.ref) : NULL;
    const spec_entry *tr = c->start == SPEC_START_TRACE ? spec_table_entry(&store, c->trace) : NULL;
    if (!svc && !tr)
        return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    fprintf(f, "series,x,y\n");
    int rc = svc ? service_rows(f, svc) : 0;
    if (tr)
        trace_rows(f, tr, c->trace_linear);
    if (fclose(f) != 0 || rc != 0) {
        free(buf);
        return -1;
    }
    *out = herd_strdup(buf); /* through the allocation hook, like the rest */
    free(buf);
    return *out ? 0 : -1;
}

int scn_data_row_origin(uint32_t idx, uint32_t row, char *where, size_t n)
{
    for (uint32_t i = 0; i < nfiles; i++)
        if (files[i].idx == idx) {
            char shown[128];
            scn_display_path(files[i].path, shown, sizeof shown);
            if (files[i].lines && row < files[i].nlines) {
                snprintf(where, n, "%s:%d", shown, files[i].lines[row]);
                return 0;
            }
            snprintf(where, n, "%s", shown);
            return -1;
        }
    snprintf(where, n, "the data file");
    return -1;
}
