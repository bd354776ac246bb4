/*
 * html_figs.c - herd report's figures (html_internal.h): herd plot's
 * scripts draw the directory's figures as SVG into a private temporary
 * directory, which is read and removed at once.  An SVG is written inline
 * only when it holds no script, no event handler and no reference outside
 * itself, its ids prefixed per figure so that two figures never share one.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "html_internal.h"
#include "../plot/plot.h"

/* ------------------------------------------------------------------------
 * Figures
 * ------------------------------------------------------------------------ */

/* The order figures appear in: over time first, then the comparisons. */
static int fig_rank(const char *name)
{
    static const char *const order[] = {"timeseries", "goodput", "compare", "variants", "sensitivity", "replay"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (!strcmp(name, order[i]))
            return (int)i;
    return 100;
}

static int fig_cmp(const void *a, const void *b)
{
    const hfig *x = a, *y = b;
    int d = fig_rank(x->name) - fig_rank(y->name);
    return d ? d : strcmp(x->name, y->name);
}

/* Whether an SVG of gnuplot's holds something a page must not run or
 * fetch: a script, an event handler, an embedded document or image, a
 * reference to anything but itself. */
int html_svg_unsafe(const char *s)
{
    static const char *const bad[] = {"<script", "<foreignObject", "<iframe", "<image", "javascript:", "@import",
                                      "href=\"h", "href='h", "href=\"/", "href='/", "url(h", "url(/", "url('", "url(\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (strcasestr(s, bad[i]))
            return 1;
    for (const char *p = s; (p = strpbrk(p, " \t\n")) != NULL; p++) /* on...= attributes */
        if ((p[1] == 'o' || p[1] == 'O') && (p[2] == 'n' || p[2] == 'N')) {
            const char *q = p + 3;
            while (isalpha((unsigned char)*q))
                q++;
            while (*q == ' ')
                q++;
            if (q > p + 3 && *q == '=')
                return 1;
        }
    return 0;
}

/* Writes the SVG of figure k inline: from its <svg element on, without
 * the namespace declarations, every id and reference to one prefixed with
 * "fK-". */
void html_write_svg(FILE *f, const char *svg, int k)
{
    static const char *const drop[] = {" xmlns=\"http://www.w3.org/2000/svg\"",
                                       " xmlns:xlink=\"http://www.w3.org/1999/xlink\""};
    static const char *const ref[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    const char *p = strstr(svg, "<svg");
    if (!p)
        return;
    while (*p) {
        size_t skip = 0;
        for (size_t i = 0; i < 2 && !skip; i++)
            if (!strncmp(p, drop[i], strlen(drop[i])))
                skip = strlen(drop[i]);
        if (skip) {
            p += skip;
            continue;
        }
        size_t pre = 0;
        for (size_t i = 0; i < sizeof ref / sizeof ref[0] && !pre; i++)
            if (!strncmp(p, ref[i], strlen(ref[i])) && (p == svg || !isalnum((unsigned char)p[-1]) || p[-1] == ':'))
                pre = strlen(ref[i]);
        if (pre) {
            fwrite(p, 1, pre, f);
            fprintf(f, "f%d-", k);
            p += pre;
            continue;
        }
        fputc(*p++, f);
    }
}

void html_figs_free(hfig *fig, int n)
{
    for (int i = 0; i < n; i++)
        herd_free(fig[i].svg.p);
}

/* Removes the private directory wd and the files in it. */
static void remove_dir(const char *wd)
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

/* Draws the figures of dir that o selects as SVG into a new private
 * directory wd[PATH_MAX] (under TMPDIR), with signals held in *hold: the
 * directory is outside herd's signal clean-up, so signals stay held until
 * the caller has removed it (remove_dir, then plot_release_signals).
 * 0; HTML_INVALID (a malformed CSV) or -1 with err, the directory removed
 * where it was made and the signals released. */
static int draw_private(const char *dir, plot_opts *o, char *wd, plot_hold *hold, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    if (snprintf(wd, PATH_MAX, "%s/herd-report.XXXXXX", tmp && *tmp ? tmp : "/tmp") >= PATH_MAX) {
        snprintf(err, errlen, "TMPDIR: path too long");
        return -1;
    }
    *hold = (plot_hold){.on = 0};
    plot_hold_signals(hold);
    if (!mkdtemp(wd)) {
        plot_release_signals(hold);
        char shown[SHOWN + 8];
        html_shown_path(shown, sizeof shown, wd);
        snprintf(err, errlen, "%s: cannot create a temporary directory for the figures: %s", shown, strerror(errno));
        return -1;
    }
    o->term = PLOT_TERM_SVG;
    o->quiet = 1;
    o->figdir = wd;
    char perr[PLOT_ERR_MAX];
    int rc = plot_render_opts(dir, o, perr, sizeof perr);
    if (rc != 0) {
        if (o->variant)
            snprintf(err, errlen, "--variant %s: %s", o->variant, perr);
        else
            snprintf(err, errlen, "%s", perr);
        remove_dir(wd);
        plot_release_signals(hold);
        return rc == PLOT_INVALID ? HTML_INVALID : -1;
    }
    return 0;
}

int html_draw_series(const char *dir, const char *variant, hfig *g, char *err, size_t errlen)
{
    char wd[PATH_MAX];
    plot_hold hold;
    memset(g, 0, sizeof *g);
    plot_opts o;
    plot_opts_init(&o);
    o.figure = "timeseries";
    o.variant = variant;
    int rc = draw_private(dir, &o, wd, &hold, err, errlen);
    if (rc != 0)
        return rc;
    if (html_read_file(wd, "timeseries.svg", &g->svg, err, errlen) != 1) {
        rc = -1;
    } else if (html_svg_unsafe(g->svg.p)) {
        snprintf(err, errlen, "figure timeseries of %s: its SVG holds a script or an outside reference; nothing "
                 "written", variant);
        rc = -1;
    }
    snprintf(g->name, sizeof g->name, "timeseries-%s", variant);
    remove_dir(wd);
    if (rc != 0) {
        herd_free(g->svg.p);
        memset(g, 0, sizeof *g);
    }
    plot_release_signals(&hold); /* a signal recorded meanwhile: raised now */
    return rc;
}

/* Draws the figures of dir as SVG into a private directory and reads them
 * into fig[HTML_MAX_FIGS] (*n of them); the directory is removed.  0,
 * HTML_INVALID (a malformed CSV) or -1, with err. */
int html_draw_figures(const char *dir, hfig *fig, int *n, char *err, size_t errlen)
{
    char wd[PATH_MAX];
    plot_hold hold;
    *n = 0;
    plot_opts o;
    plot_opts_init(&o);
    int rc = draw_private(dir, &o, wd, &hold, err, errlen);
    if (rc != 0)
        return rc;
    DIR *dp = opendir(wd);
    if (!dp) {
        snprintf(err, errlen, "the figures' temporary directory: %s", strerror(errno));
        rc = -1;
        goto done;
    }
    struct dirent *de;
    while ((de = readdir(dp)) != NULL && rc == 0) {
        size_t l = strlen(de->d_name);
        if (l <= 4 || strcmp(de->d_name + l - 4, ".svg") || l - 4 >= sizeof fig[0].name || de->d_name[0] == '.')
            continue;
        if (*n == HTML_MAX_FIGS)
            break;
        hfig *g = &fig[*n];
        snprintf(g->name, sizeof g->name, "%.*s", (int)(l - 4), de->d_name);
        if (html_read_file(wd, de->d_name, &g->svg, err, errlen) != 1) {
            rc = -1;
            break;
        }
        (*n)++;
        if (html_svg_unsafe(g->svg.p)) {
            snprintf(err, errlen, "figure %s: its SVG holds a script or an outside reference; nothing written",
                     g->name);
            rc = -1;
        }
    }
    closedir(dp);
    qsort(fig, (size_t)*n, sizeof *fig, fig_cmp);
done:
    remove_dir(wd);
    if (rc != 0) {
        html_figs_free(fig, *n);
        *n = 0;
    }
    plot_release_signals(&hold); /* a signal recorded meanwhile: raised now */
    return rc;
}

