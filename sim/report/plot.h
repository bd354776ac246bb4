/*
 * plot.h - the figures of a results directory, drawn by gnuplot.
 *
 * The drawing lives in the gnuplot scripts of plots/ (timeseries.gp,
 * sweep.gp, compare.gp), which also run by hand (gnuplot -c plots/X.gp DIR).
 * This module decides which scripts apply to a directory, runs
 * `gnuplot -c SCRIPT DIR` for each as a child process (posix_spawnp, never a
 * shell), and checks that every figure it expects was written.
 *
 * The scripts are looked for in $HERD_PLOTS if set, else beside the running
 * executable (<exe dir>/plots, the source tree), else in
 * <exe dir>/../share/herd/plots (make install).
 */
#ifndef HERD_PLOT_H
#define HERD_PLOT_H

#include <stddef.h>

/* Room for any message of this module, gnuplot's first lines included. */
#define PLOT_ERR_MAX 2048

/* Draws the figures of the results directory dir (PNG and SVG beside its
 * CSVs): timeseries.* when timeseries.csv has data, sweep_<metric>.* when
 * the CSVs have sweep columns, compare.* when compare.csv exists.  Prints
 * the files written on one line of stdout.  Returns 0, or -1 with a message
 * in err: dir has no aggregate.csv, the scripts or gnuplot cannot be found,
 * gnuplot failed (its first lines of output are quoted), or a figure is
 * missing or empty.  Figures written before a failure are left in place. */
int plot_dir(const char *dir, char *err, size_t errlen);

/* plot_dir, printing nothing on success when quiet is nonzero. */
int plot_render(const char *dir, int quiet, char *err, size_t errlen);

#endif
