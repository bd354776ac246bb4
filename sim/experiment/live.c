/*
 * live.c - herd run --live: the first point's replication 0, every
 * strategy side by side, drawn as text while the simulation runs, with
 * simulated time paced to wall time (see experiment.h).
 *
 * The view is as wide as the terminal (at least 80 columns) and n + 4
 * lines tall for n strategies (as many as a screen of at least 24 lines
 * holds); no line reaches the last column.  While
 * it runs, a column is one bucket (the last ones shown); the last frame
 * compresses the whole run, each column its busiest bucket, so that
 * synchronised waves stay visible beside a jittered spread.
 *
 * Each strategy is its own simulation, advanced in lockstep one frame at a
 * time (sim_run up to the frame's simulated time), so the view shows the
 * same runs, event for event, as replication 0 of the full plan.  The view
 * reads the models' timeseries and counters; it never changes them.  Plain
 * text and ANSI cursor movement only: it works over ssh, without a GUI.
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "experiment.h"

#define LIVE_FPS 8.0   /* frames per wall second */
#define LIVE_MIN_COLS 80 /* the view is drawn at least this wide */
#define LIVE_MIN_LINES 24 /* and for a screen at least this tall */
#define LIVE_MAX_COLS 400
#define LIVE_NAME_MAX 19 /* characters of a strategy's name shown */
#define LIVE_COUNTERS 23 /* "| " and the counters after the strip */

static double now_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Set by SIGWINCH: the terminal's size changed. */
static volatile sig_atomic_t live_resized;
static void on_winch(int sig)
{
    (void)sig;
    live_resized = 1;
}

/* Whether f is a terminal: cursor movement and pacing only then. */
static int live_tty;

/* One line of the view: cleared (on a terminal), then fmt cut at width - 1
 * characters (the last column stays free, so that no terminal wraps the
 * line). */
static void put_line(FILE *f, int width, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put_line(FILE *f, int width, const char *fmt, ...)
{
    char buf[LIVE_MAX_COLS + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (width - 1 < (int)sizeof buf)
        buf[width - 1] = '\0';
    fprintf(f, "%s%s\n", live_tty ? "\033[2K" : "", buf);
}

/* The density characters, from none to the busiest. */
static const char live_ramp[] = " .:-=+*#@";
#define LIVE_LEVELS ((int)sizeof live_ramp - 2) /* 8: '@' */

/* The character of v against the scale's top. */
static char level_char(double v, double top)
{
    if (!(v > 0) || !(top > 0))
        return ' ';
    int lvl = 1 + (int)((double)(LIVE_LEVELS - 1) * v / top + 0.5);
    return live_ramp[lvl > LIVE_LEVELS ? LIVE_LEVELS : lvl];
}

/* The busiest bucket's arrivals among buckets [from, from + k) of ts. */
static uint32_t col_max(const timeseries *ts, long from, long k)
{
    uint32_t m = 0;
    for (long b = from < 0 ? 0 : from; b < from + k && (size_t)b < ts->len; b++)
        if (ts->b[b].arrivals > m)
            m = ts->b[b].arrivals;
    return m;
}

/* One frame of `width` columns: a header, the legend of the density
 * characters, then per strategy a strip of arrivals at the server (one
 * character per column, scaled to the busiest bucket) and its counters.
 * While running (whole = 0), a column is a bucket and the strip the last
 * buckets; the final frame (whole = 1) compresses the whole run, each
 * column the busiest of its k buckets, so that the waves stay visible. */
static int frame(FILE *f, int width, const char *name, const model_spec *spec, model *mds, const hp_strategy *strat,
                 uint32_t n, double t, double speed, uint32_t peak, int first, int whole)
{
    int nw = 8; /* "strategy" */
    for (uint32_t s = 0; s < n; s++) {
        int l = (int)strlen(hp_strategy_name(strat[s]));
        nw = l > nw ? l : nw;
    }
    nw = nw > LIVE_NAME_MAX ? LIVE_NAME_MAX : nw;
    int sw = width - 1 - nw - 2 - LIVE_COUNTERS; /* the strip's columns */
    size_t cur = (size_t)floor(t / spec->bucket_s), len = 0;
    for (uint32_t s = 0; s < n; s++)
        len = mds[s].ts.len > len ? mds[s].ts.len : len;
    long k = 1, from = (long)cur - (sw - 1); /* buckets per column, the first bucket shown */
    if (whole) {
        k = len > (size_t)sw ? (long)((len + (size_t)sw - 1) / (size_t)sw) : 1;
        from = 0;
        peak = 0;
        for (uint32_t s = 0; s < n; s++)
            peak = col_max(&mds[s].ts, 0, (long)len) > peak ? col_max(&mds[s].ts, 0, (long)len) : peak;
    }
    if (!first && live_tty)
        fprintf(f, "\033[%uA", n + 4); /* back to the top of the previous frame */
    const spec_outage *o = spec_outage_at(spec, 0, t);
    put_line(f, width, "herd live: %s, replication 0, t = %.1f s (x%g)%s", name, t, speed,
             whole ? ", done" : o ? "   SERVER DOWN (outage)" : "");
    double top = peak / spec->bucket_s;
    if (whole)
        put_line(f, width, "whole run, %g s a column (its busiest %g s): . : - = + * # @ = %.0f arrivals/s",
                 (double)k * spec->bucket_s, spec->bucket_s, top);
    else
        put_line(f, width, "last %g s, %g s a column: . : - = + * # @ = %.0f arrivals/s (busiest so far)",
                 (double)sw * spec->bucket_s, spec->bucket_s, top);
    put_line(f, width, "%-*.*s |%-*s| %6s %7s %6s", nw, nw, "strategy", sw, "", "now/s", "ok", "failed");
    for (uint32_t s = 0; s < n; s++) {
        const timeseries *ts = &mds[s].ts;
        char strip[LIVE_MAX_COLS + 1];
        for (int c = 0; c < sw; c++)
            strip[c] = level_char(col_max(ts, from + c * k, k), peak);
        strip[sw] = '\0';
        uint32_t nowv = !whole && cur < ts->len ? ts->b[cur].arrivals : 0;
        put_line(f, width, "%-*.*s |%s| %6.0f %7llu %6llu", nw, nw, hp_strategy_name(strat[s]), strip,
                 nowv / spec->bucket_s, (unsigned long long)mds[s].m.successes,
                 (unsigned long long)mds[s].m.failures);
    }
    fprintf(f, "%s\n", live_tty ? "\033[2K" : "");
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* The view's width and strategies shown on a screen of cols x lines. */
static void live_size(int cols, int lines, uint32_t n, int *width, uint32_t *shown)
{
    *width = cols < LIVE_MIN_COLS ? LIVE_MIN_COLS : cols > LIVE_MAX_COLS ? LIVE_MAX_COLS : cols;
    /* n + 5 lines (the frame and the line after it) must fit the screen */
    *shown = lines < LIVE_MIN_LINES ? LIVE_MIN_LINES - 5 : (uint32_t)lines - 5;
    *shown = *shown < n ? *shown : n;
}

int exp_live(const exp_plan *plan, const char *name, double speed, int cols, int lines, int follow, FILE *f,
             char *err, size_t errlen)
{
    const exp_point *pt = &plan->points[0];
    uint32_t n = pt->nstrategies, shown;
    int width;
    live_size(cols, lines, n, &width, &shown);
    live_tty = isatty(fileno(f));
    struct sigaction sa, old_winch;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sigemptyset(&sa.sa_mask);
    live_resized = 0;
    int winch = live_tty && follow && sigaction(SIGWINCH, &sa, &old_winch) == 0;
    sim_t *sims = herd_calloc(n, sizeof *sims);
    model *mds = herd_calloc(n, sizeof *mds);
    int *alive = herd_calloc(n, sizeof *alive);
    int rc = -1;
    uint32_t ready = 0;
    if (!sims || !mds || !alive) {
        snprintf(err, errlen, "out of memory for the live view");
        goto done;
    }
    for (; ready < n; ready++) {
        if (sim_init(&sims[ready], exp_plan_seed(plan, pt, 0), (size_t)pt->spec.clients * 2 + 64) != 0) {
            snprintf(err, errlen, "out of memory for the live view");
            goto done;
        }
        if (model_init(&mds[ready], &pt->spec, scn_data(), pt->strategies[ready], &sims[ready]) != 0) {
            ready++;
            snprintf(err, errlen, "out of memory for the live view");
            goto done;
        }
        alive[ready] = 1;
    }
    double t0 = now_wall(), t = 0, step = speed / LIVE_FPS;
    uint32_t peak = 1;
    int first = 1;
    for (;;) {
        int any = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (!alive[s])
                continue;
            if (sim_run(&sims[s], t) != 0) {
                snprintf(err, errlen, "the live view's %s run failed (memory)", hp_strategy_name(pt->strategies[s]));
                goto done;
            }
            model_settle_series(&mds[s]);
            alive[s] = mds[s].open > 0 && t < pt->spec.horizon_s;
            any |= alive[s];
            for (size_t b = 0; b < mds[s].ts.len; b++)
                if (mds[s].ts.b[b].arrivals > peak)
                    peak = mds[s].ts.b[b].arrivals;
        }
        if (winch && live_resized) { /* the terminal's new size: the screen cleared, the frame drawn anew */
            struct winsize ws;
            live_resized = 0;
            if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
                live_size(ws.ws_col, ws.ws_row, n, &width, &shown);
                fprintf(f, "\033[H\033[2J");
                first = 1;
            }
        }
        if ((live_tty || !any) &&
            frame(f, width, name, &pt->spec, mds, pt->strategies, shown, t, speed, peak, first, !any) != 0) {
            snprintf(err, errlen, "cannot write the live view to standard output");
            goto done;
        }
        first = 0;
        if (!any)
            break;
        t += step;
        double wait = t0 + t / speed - now_wall(); /* pace: simulated time = speed x wall time */
        if (wait > 0 && live_tty) {
            struct timespec d = {(time_t)wait, (long)((wait - floor(wait)) * 1e9)};
            nanosleep(&d, NULL);
        }
    }
    fprintf(f, "live view done at t = %.1f s; now the whole plan\n", t);
    rc = fflush(f) != 0 ? -1 : 0;
done:
    if (winch)
        sigaction(SIGWINCH, &old_winch, NULL);
    for (uint32_t s = 0; s < ready; s++) {
        model_free(&mds[s]);
        sim_free(&sims[s]);
    }
    herd_free(sims);
    herd_free(mds);
    herd_free(alive);
    return rc;
}
