/*
 * plot_manifest.c - herd plot's reading of manifest.txt (stage 1, beside
 * plot_load.c's CSVs): the scenario's name, its [run] columns, outages and
 * spike, for titles and shading.
 *
 * The manifest is optional and never trusted: every line is read as text
 * (longer than MANIFEST_LINE: skipped), what is not understood is ignored,
 * and nothing of it reaches gnuplot but names of a restricted set
 * ([A-Za-z0-9._-], at most NAME_MAX_LEN), metric names of metric_table and
 * finite numbers.
 */
#include "plot_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../base/text.h"

#define MANIFEST_LINE 4096 /* longer lines of manifest.txt are skipped */

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
    return n > 0 && n <= NAME_MAX_LEN && plot_valid_variant(s);
}

/* A finite number, the whole of s. */
int plot_num_of(const char *s, double *v)
{
    if (!plot_num_text(s))
        return 0;
    *v = strtod(s, NULL);
    return isfinite(*v);
}

/* "section.key" of an override: blanks normalised; 0 if it is not one of
 * the keys the figures use. */
int plot_interesting_key(const char *k)
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
        int k = plot_metric_index(name);
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
    if (!plot_interesting_key(key) || !plot_num_of(val, &v))
        return;
    mset *s = &m->set[m->nset++];
    snprintf(s->variant, sizeof s->variant, "%s", variant);
    snprintf(s->key, sizeof s->key, "%s", key);
    s->v = v;
}

/* Reads dir/manifest.txt if there is one (a regular file): every line is
 * read as text, and what is not understood is ignored; nothing of it ever
 * reaches gnuplot but names of a restricted set and numbers. */
void plot_read_manifest(const char *dir, manifest *m)
{
    char path[PATH_MAX], e[8];
    memset(m, 0, sizeof *m);
    m->spike_start = m->spike_end = NAN;
    if (plot_path_fmt(path, e, sizeof e, "%s/manifest.txt", dir))
        return;
    FILE *f;
    if (herd_file_open(path, CSV_MAX_BYTES, HERD_FILE_TEXT | HERD_FILE_NOFOLLOW, &f, NULL, NULL) != HERD_FILE_OK)
        return;
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
            } else if (!strncmp(line, "variant ", 8) && plot_valid_variant(line + 8)) {
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
                 plot_num_of(val, &x)) {
            moutage *o = man_outage(m, sect);
            if (o && !strcmp(key, "start_s"))
                o->start = x, o->hs = 1;
            else if (o)
                o->end = x, o->he = 1;
        } else if (!strcmp(sect, "clients") && plot_num_of(val, &x)) {
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

/* The name of the results directory d, when it is a valid scenario name
 * (titles fall back to it without a manifest). */
void plot_dir_name(const char *d, char *out, size_t n)
{
    const char *b = strrchr(d, '/');
    b = b ? b + 1 : d;
    out[0] = '\0';
    if (strlen(b) < n && valid_name(b))
        snprintf(out, n, "%s", b);
}
