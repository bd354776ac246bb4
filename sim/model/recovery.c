/*
 * recovery.c - the recovery metric (see recovery.h): one backward pass
 * over the measured window with running W-bucket sums, O(buckets).
 */
#include "recovery.h"

#include <math.h>

/* good >= fraction x offered, "at or above" even where fraction x offered
 * rounds up (0.9 x 1000 is 900.0000000000001 in binary) */
static int holds(double good, double offered, double fraction)
{
    return good >= fraction * offered * (1 - 1e-12);
}

static void bucket_counts(const ts_bucket *b, size_t len, size_t i, double *offered, double *good)
{
    *offered = i < len ? b[i].offered : 0;
    *good = i < len ? b[i].goodput : 0;
}

int recovery_measure(const ts_bucket *b, size_t len, size_t b0, size_t b1, double bucket_s, double trigger_s,
                     double window_s, double fraction, double *time_s)
{
    *time_s = NAN;
    size_t w = (size_t)ceil(window_s / bucket_s - 1e-9);
    if (w == 0)
        w = 1;
    if (b1 < b0 || b1 - b0 < w)
        return 0;
    /* the last window [b1 - w, b1), then slide back one bucket at a time
     * while the window stays good */
    double off = 0, good = 0, o, g;
    for (size_t i = b1 - w; i < b1; i++) {
        bucket_counts(b, len, i, &o, &g);
        off += o;
        good += g;
    }
    if (!holds(good, off, fraction))
        return 0;
    size_t k = b1 - w;
    while (k > b0) {
        double ro, rg;
        bucket_counts(b, len, k - 1, &o, &g);
        bucket_counts(b, len, k - 1 + w, &ro, &rg);
        double noff = off + o - ro, ngood = good + g - rg;
        if (!holds(ngood, noff, fraction))
            break;
        off = noff;
        good = ngood;
        k--;
    }
    *time_s = fmax(0, (double)k * bucket_s - trigger_s);
    return 1;
}
