/*
 * live.c - herd run --live: the first point's replication 0, every
 * strategy side by side, drawn as text while the simulation runs, with
 * simulated time paced to wall time (see experiment.h).
 *
 * Each strategy is its own simulation, advanced in lockstep one frame at a
 * time (sim_run up to the frame's simulated time), so the view shows the
 * same runs, event for event, as replication 0 of the full plan.  The view
 * reads the models' timeseries and counters; it never changes them.  Plain
 * text and ANSI cursor movement only: it works over ssh, without a GUI.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../base/alloc.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "experiment.h"

#define LIVE_COLS 60   /* buckets shown: the last minute at bucket_s = 1 */
#define LIVE_FPS 8.0   /* frames per wall second */

static double now_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The outage covering simulated time t, or NULL. */
static const spec_outage *outage_at(const model_spec *s, double t)
{
    for (uint32_t i = 0; i < s->noutages; i++)
        if (t >= s->outages[i].start_s && t < s->outages[i].end_s)
            return &s->outages[i];
    return NULL;
}

/* One frame: a header, then per strategy a strip of the last LIVE_COLS
 * buckets' arrivals (one character each, scaled to the busiest bucket of
 * any strategy so far) and its counters. */
static int frame(FILE *f, const char *name, const model_spec *spec, model *mds, const hp_strategy *strat,
                 uint32_t n, double t, double speed, uint32_t peak, int first)
{
    static const char *const ramp[] = {" ", ".", ":", "-", "=", "+", "*", "#", "@"};
    const int levels = (int)(sizeof ramp / sizeof ramp[0]) - 1;
    if (!first)
        fprintf(f, "\033[%uA", n + 4); /* back to the top of the previous frame */
    const spec_outage *o = outage_at(spec, t);
    fprintf(f, "\033[2Kherd live: %s, replication 0, t = %7.1f s (x%g)%s\n", name, t, speed,
            o ? "   SERVER DOWN (outage)" : "");
    fprintf(f, "\033[2Karrivals at the server per %g s, last %d buckets, scale 0..%u (@ = busiest so far)\n",
            spec->bucket_s, LIVE_COLS, peak);
    fprintf(f, "\033[2K%-20s |%-*s| %9s %9s %9s\n", "strategy", LIVE_COLS, "", "now/s", "ok", "failed");
    size_t cur = (size_t)floor(t / spec->bucket_s);
    for (uint32_t s = 0; s < n; s++) {
        const timeseries *ts = &mds[s].ts;
        char strip[LIVE_COLS * 2 + 1];
        size_t o2 = 0;
        for (int c = 0; c < LIVE_COLS; c++) {
            long b = (long)cur - (LIVE_COLS - 1) + c;
            uint32_t v = b >= 0 && (size_t)b < ts->len ? ts->b[b].arrivals : 0;
            int lvl = v == 0 || peak == 0 ? 0 : 1 + (int)((double)(levels - 1) * v / peak + 0.5);
            if (lvl > levels)
                lvl = levels;
            o2 += (size_t)snprintf(strip + o2, sizeof strip - o2, "%s", ramp[lvl]);
        }
        uint32_t nowv = cur < ts->len ? ts->b[cur].arrivals : 0;
        fprintf(f, "\033[2K%-20s |%s| %9.0f %9llu %9llu\n", hp_strategy_name(strat[s]), strip, nowv / spec->bucket_s,
                (unsigned long long)mds[s].m.successes, (unsigned long long)mds[s].m.failures);
    }
    fprintf(f, "\033[2K\n");
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

int exp_live(const exp_plan *plan, const char *name, double speed, FILE *f, char *err, size_t errlen)
{
    const exp_point *pt = &plan->points[0];
    uint32_t n = pt->nstrategies;
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
            alive[s] = mds[s].open > 0 && t < pt->spec.horizon_s;
            any |= alive[s];
            for (size_t b = 0; b < mds[s].ts.len; b++)
                if (mds[s].ts.b[b].arrivals > peak)
                    peak = mds[s].ts.b[b].arrivals;
        }
        if (frame(f, name, &pt->spec, mds, pt->strategies, n, t, speed, peak, first) != 0) {
            snprintf(err, errlen, "cannot write the live view to standard output");
            goto done;
        }
        first = 0;
        if (!any)
            break;
        t += step;
        double wait = t0 + t / speed - now_wall(); /* pace: simulated time = speed x wall time */
        if (wait > 0) {
            struct timespec d = {(time_t)wait, (long)((wait - floor(wait)) * 1e9)};
            nanosleep(&d, NULL);
        }
    }
    fprintf(f, "live view done at t = %.1f s; now the whole plan\n", t);
    rc = fflush(f) != 0 ? -1 : 0;
done:
    for (uint32_t s = 0; s < ready; s++) {
        model_free(&mds[s]);
        sim_free(&sims[s]);
    }
    herd_free(sims);
    herd_free(mds);
    herd_free(alive);
    return rc;
}
