/*
 * recovery.h - did the system return to its own healthy behaviour after a
 * trigger, and when (the `recovered` and `recovery_time_s` metrics).
 *
 * Definition (band and dwell).  The state of a timeseries bucket i is the
 * pair (x_i, d_i): x_i the peak number of attempts in the server (in
 * service + queued, `in_flight`), d_i the goodput deficit, the logical
 * requests started in the bucket minus the logical successes in it
 * (`offered - goodput`).
 *
 *  - Healthy band.  The baseline is the buckets that lie wholly in
 *    [warmup_s, the start of the first trigger) (the first outage or
 *    spike, or [run] trigger_start_s if earlier): the system at its
 *    operating point before anything happened, less its start-up
 *    transient (a run starts empty), cut by the MSER rule (White 1997:
 *    the leading d buckets, d at most half, that minimise var / (n - d) of
 *    the rest; the larger cut of the two states).  The band is
 *    x <= max baseline x and d <= max baseline d.  For a stationary healthy
 *    system the chance that a later bucket exceeds the maximum of n
 *    exchangeable baseline buckets is 1 / (n + 1), whatever the
 *    distribution (the rank of one draw among n + 1): that is the band's
 *    false-alarm rate, and it does not depend on the horizon or on the
 *    arrival rate.  Buckets of a queue near saturation are correlated over
 *    many buckets, so n counts independent buckets: the baseline's
 *    effective size n_b (1 - r) / (1 + r) (n_b buckets, r the lag-1
 *    autocorrelation of the state; the smaller of the two states').  At
 *    least RECOVERY_MIN_BASELINE are needed (a false-alarm rate of at most
 *    1/21 per independent bucket and state); a shorter baseline leaves
 *    the band, and so recovery, undefined rather than wrong.
 *  - Dwell.  The run has recovered once, after the trigger's end, D =
 *    ceil(dwell_s / bucket_s) consecutive buckets are in the band.  A
 *    stable system gets such a stretch soon after it drains (each bucket
 *    misses with chance about 2 / (n + 1), so a stretch of D is broken
 *    with chance at most 2D / (n + 1) and the next one starts at once); a
 *    collapsed one, whose queue stays full or whose goodput stays low, never
 *    does.  Because the test looks for the first such stretch and never at
 *    "every window until the end", a longer horizon cannot undo it.
 *  - Time.  recovery_time_s is the start of that stretch, extended back
 *    through the in-band buckets before it as far as the trigger's start,
 *    counted from trigger_start_s: 0 when the trigger never pushed the
 *    state out of the band.
 *
 *  - Healthy baseline.  The band is only a reference if the baseline is
 *    the system serving its load: a system that collapsed before the
 *    trigger has a collapsed baseline, and "back in the band" would then
 *    call the same collapse recovered.  Collapsed, by the definition of a
 *    metastable failure (Bronson et al. 2021; Huang et al. 2022: work that
 *    keeps the system overloaded while its goodput stays low), is both:
 *     - the server does not keep up with what it is offered: of the
 *       attempts arriving in the baseline it turns away (a full queue, a
 *       limiter, shedding, CoDel, expired work: the buckets' turned_away)
 *       or lets pile up (the growth of the number in it) more than
 *       1 - RECOVERY_HEALTHY_SHARE.  A stable queue (rho < 1) takes in its
 *       arrivals bar a blocking probability that is tiny below saturation
 *       (M/M/1/100 at rho = 0.98: 0.3%); a collapsed one is offered more
 *       attempts than it can serve (arrivals times the retries'
 *       amplification, above capacity);
 *     - and the clients' goodput is below RECOVERY_HEALTHY_SHARE of their
 *       offered load.
 *    Either alone is not collapse: a stable queue whose clients give up
 *    before their answer (timeouts shorter than the waits, no retries)
 *    keeps up at the server and returns to that state after a spike
 *    (Metafor's Example 1 without retries: recovered); a server that drops
 *    by design (CoDel at 95% load, 4-6% dropped) whose clients' retries
 *    get through serves its offered load.  Each test is on a 95%
 *    confidence bound (the turned-away count's and the backlog slope's
 *    lower, the goodput share's upper, each on its residuals' effective
 *    size), so noise never makes a healthy system collapsed.  Calibration
 *    (tests/calibrate.sh): healthy baselines of Metafor's Example 1 turn
 *    away at most 1.1%, the collapsed ones 75% to 80% with goodput 0.
 *    Not healthy: recovered undefined, collapsed_before_trigger 1.
 *
 * Undefined (recovered and recovery_time_s NaN, the status says why): no
 * trigger; a baseline that does not serve its load (above); a trigger that does not end before the horizon; no logical
 * request started after the trigger's end (a closed population that has
 * finished); fewer than D buckets observed between the trigger's end and
 * the end of the measured window (the last start, or the horizon); fewer
 * than RECOVERY_MIN_BASELINE independent baseline buckets, or none with a
 * request; arrivals that follow a trace (the band before the trigger is
 * for another load than the one after it).
 * A defined run that finds no stretch is `recovered` = 0 with a NaN time:
 * not recovered within its observation.
 *
 * The series must still hold every bucket of the measured window: the
 * model calls this at the end of a run, before a dropped series is freed.
 */
#ifndef HERD_RECOVERY_H
#define HERD_RECOVERY_H

#include <stddef.h>

#include "results.h"

/* Independent baseline buckets needed for a band. */
#define RECOVERY_MIN_BASELINE 20

/* The share of the attempts offered to it that the server of a healthy
 * baseline takes in (see above). */
#define RECOVERY_HEALTHY_SHARE 0.95

/* Whether recovery is defined for a run, and if not, why (the metrics'
 * recovery_status; recovery_status_reason gives the text). */
typedef enum recovery_status {
    RECOVERY_DEFINED = 0,
    RECOVERY_NO_TRIGGER,        /* no outage, no spike, no [run] trigger_start_s */
    RECOVERY_TRIGGER_NOT_ENDED, /* the trigger ends at or after the horizon */
    RECOVERY_NO_ARRIVALS_AFTER, /* no logical request starts after the trigger's end */
    RECOVERY_SHORT_AFTER,       /* fewer than the dwell's buckets after the trigger */
    RECOVERY_SHORT_BASELINE,    /* fewer than RECOVERY_MIN_BASELINE buckets before it */
    RECOVERY_EMPTY_BASELINE,    /* no logical request started in the baseline */
    RECOVERY_VARYING_LOAD,      /* the arrivals follow a trace: the load after the trigger is
                                 * not the baseline's */
    RECOVERY_NOT_HEALTHY,       /* the baseline does not serve its offered load: the system had
                                 * collapsed (or was overloaded) before the trigger */
    RECOVERY_STATUS_COUNT
} recovery_status;

/* A short English reason for a status (for the manifest and herd check),
 * NULL for RECOVERY_DEFINED or an unknown value. */
const char *recovery_status_reason(int status);

/* What the measure reads: the series and the times that cut it. */
typedef struct recovery_input {
    const ts_bucket *b;
    size_t len;             /* buckets past len count as empty */
    double bucket_s;
    double warmup_s;        /* the baseline starts here */
    double baseline_end_s;  /* ... and ends here (the first trigger's start) */
    double trigger_start_s; /* NaN: no trigger */
    double trigger_end_s;
    double end_s;           /* end of the measured window (last start, capped at the horizon) */
    double horizon_s;
    double dwell_s;
    int varying_load;       /* the arrival rate changes over the run by design (a trace) */
} recovery_input;

typedef struct recovery_result {
    int status;             /* a recovery_status */
    double recovered;       /* 1, 0, or NaN unless status is RECOVERY_DEFINED */
    double time_s;          /* from trigger_start_s; NaN unless recovered */
    double band_in_flight;  /* the band (NaN when there is none) */
    double band_deficit;
    size_t baseline;        /* baseline buckets */
    double effective;       /* ... as independent buckets (NaN unless computed) */
    /* The baseline's health, judged whenever there is a trigger and a
     * baseline of RECOVERY_MIN_BASELINE buckets with a request in it
     * (whatever happens after the trigger); NaN otherwise. */
    double collapsed;       /* 1: not healthy before the trigger, 0: healthy */
    double overload_share;  /* the attempts turned away or piled up, per attempt arriving */
    double offered_per_s;   /* the baseline's offered load (logical requests started /s) */
    double goodput_per_s;   /* ... and its goodput (logical requests that succeeded /s) */
    int baseline_status;    /* RECOVERY_DEFINED when the health was judged, else why not
                             * (RECOVERY_NO_TRIGGER, _SHORT_BASELINE or _EMPTY_BASELINE) */
} recovery_result;

/* Measures recovery of one run (definition above) into *out.  O(buckets),
 * no allocation. */
void recovery_measure(const recovery_input *in, recovery_result *out);

#endif
