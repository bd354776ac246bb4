/*
 * recovery.h - did goodput recover after a trigger, and when (the
 * `recovered` and `recovery_time_s` metrics).
 *
 * Definition.  The measured window is the buckets [b0, b1) (warm-up to the
 * last start, as for offered_per_s).  A window of W = ceil(window_s /
 * bucket_s) consecutive buckets is *good* when the logical successes in it
 * are at least `fraction` times the logical requests started in it (sums
 * over the W buckets: one noisy bucket does not decide).  The run has
 * recovered when every W-bucket window from some bucket k up to the last
 * one that fits, [b1 - W, b1), is good: goodput holds from k until the end
 * of the measured window, not merely for one stretch.  A circuit breaker
 * that keeps opening is therefore not recovered until it stops; a run
 * whose measured window is shorter than W is not recovered.  The recovery
 * time is k * bucket_s - trigger_s, the start of the first window of that
 * final good stretch, counted from the trigger's START (0 when the stretch
 * began before the trigger: the trigger never pushed goodput below the
 * fraction).  Not recovered: the time is NaN.
 *
 * The series must still hold every bucket of the measured window: the
 * model calls this at the end of a run, before a dropped series is freed.
 */
#ifndef HERD_RECOVERY_H
#define HERD_RECOVERY_H

#include <stddef.h>

#include "results.h"

/* Returns 1 (recovered, *time_s set) or 0 (*time_s = NaN).  Buckets past
 * len count as empty (no starts, no successes). */
int recovery_measure(const ts_bucket *b, size_t len, size_t b0, size_t b1, double bucket_s, double trigger_s,
                     double window_s, double fraction, double *time_s);

#endif
