/*
 * plot.h - the figures of a results directory, drawn by gnuplot.
 *
 * A results directory is untrusted input (it may come from a shared
 * archive): before any gnuplot runs, every CSV herd wrote there
 * (summary.csv, aggregate.csv, timeseries.csv, compare.csv, tools.csv) is
 * read and validated in full: header, row lengths, column types, strategy
 * names, the character set of variant names and sweep values, no NUL or
 * control bytes, a size bound.  A malformed file is refused with
 * "FILE:LINE: what is wrong; expected ..." and nothing is drawn.
 *
 * From the validated rows this module computes each figure's data (the
 * series, the lists of strategies, variants and sweep points, the axis
 * ranges) and writes it into a private directory (mkdtemp,
 * DIR/.herd-plot.XXXXXX): NAME.csv holds numbers (comma-separated, a header
 * naming the columns), NAME.tsv holds the labels and settings ("key<TAB>
 * value" lines).  The gnuplot scripts of plots/ read those files as data
 * only and draw; they run as `gnuplot -c SCRIPT WORKDIR [OPTION ...]`
 * (posix_spawnp, never a shell), write their figures into WORKDIR, and the
 * figures are renamed into DIR once every script succeeded; the private
 * directory is then removed.  No path or value is ever part of a command
 * string: they reach gnuplot only as arguments and data.
 *
 * With HERD_PLOT_DATA=PATH in the environment, the figures' data is also
 * written into PATH (created if needed), so that a script can be run by
 * hand on it: gnuplot -c plots/sweep.gp PATH log.
 *
 * The scripts are looked for in $HERD_PLOTS if set, else beside the running
 * executable (<exe dir>/plots, the source tree), else in
 * <exe dir>/../share/herd/plots (make install).
 */
#ifndef HERD_PLOT_H
#define HERD_PLOT_H

#include <signal.h>
#include <stddef.h>

/* Room for any message of this module, gnuplot's first lines included. */
#define PLOT_ERR_MAX 2048

/* Signals held: from plot_hold_signals to plot_release_signals, SIGINT,
 * SIGTERM and SIGHUP are only recorded (a blocking call returns EINTR),
 * and a gnuplot that runs meanwhile is killed with its process group when
 * one arrives.  plot_release_signals puts the handlers of before back and
 * raises the signal recorded, if any (herd's handlers remove their
 * temporaries and exit 128 + signal; an outer hold records it again).
 * Every step that has temporaries outside herd's signal clean-up (a private
 * directory of figures) runs held.  Holds nest; a zeroed plot_hold is
 * released. */
typedef struct plot_hold {
    struct sigaction old[3];
    int on;
} plot_hold;
void plot_hold_signals(plot_hold *h);
void plot_release_signals(plot_hold *h);
/* The signal recorded since the outermost hold began, 0: none. */
int plot_held_signal(void);

/* plot_render's result for a malformed results directory (exit status 2). */
#define PLOT_INVALID (-2)

/* What herd plot draws and how (herd plot's options). */
enum { PLOT_STYLE_TALK, PLOT_STYLE_PAPER };
enum { PLOT_TERM_PNG, PLOT_TERM_DUMB, PLOT_TERM_SVG };
#define PLOT_DUMB_MIN_COLS 80 /* --term dumb draws at least this wide and tall */
#define PLOT_DUMB_MIN_LINES 24
#define PLOT_MAX_SELECT 8 /* --point and --metric options at most */

typedef struct plot_opts {
    int style;   /* PLOT_STYLE_TALK (default: 1600x900, 16 pt) or PLOT_STYLE_PAPER */
    int term;    /* PLOT_TERM_PNG (PNG and SVG files), PLOT_TERM_SVG (SVG files only) or
                  * PLOT_TERM_DUMB (text on stdout) */
    int cols, lines; /* PLOT_TERM_DUMB: the text's size (0: 80 x 24; raised to 80 x 24 at least) */
    const char *figure; /* draw only this figure (a base name: timeseries, sweep_calls, ...); NULL: all */
    const char *figdir; /* where the figures land (an existing directory); NULL: beside the CSVs */
    int gif;     /* also write load.gif: load over time per strategy, animated */
    int quiet;   /* print nothing on success (the text of --term dumb excepted) */
    const char *variant;     /* the variant drawn (NULL: the first; goodput: all) */
    const char *point[PLOT_MAX_SELECT]; /* KEY=VALUE or VALUE (the swept keys in order) */
    int npoint;
    const char *replication; /* the replication drawn over time (NULL: 0) */
    const char *metric[PLOT_MAX_SELECT]; /* metrics of the sweep and variants figures */
    int nmetric;
} plot_opts;

/* The defaults: talk style, PNG and SVG, no selection. */
void plot_opts_init(plot_opts *o);

/* Draws the figures of the results directory dir (PNG and SVG beside its
 * CSVs, or in o->figdir; SVG only with PLOT_TERM_SVG; text on stdout with
 * PLOT_TERM_DUMB, o->cols x o->lines: a figure of one panel fills a screen
 * of o->lines - 1 lines, panels side by side when o->cols allows, each
 * panel at least 10 lines): timeseries.* and goodput.*
 * when timeseries.csv has data (outage and trigger windows shaded),
 * sweep_<metric>.* when the CSVs have sweep columns (lines; a heatmap per
 * strategy when a second swept key has more than 4 values), compare.* when
 * compare.csv exists, sensitivity.* with a baseline and two sweeps,
 * variants.* with [variant] sections ([run] columns, read from the
 * scenario copied into manifest.txt), load.gif with gif.  The selection of
 * o (variant, point, replication, metrics, figure) is checked against the data: an
 * unknown value is refused with the valid ones (PLOT_INVALID).  Prints the
 * files written on one line of stdout.  Returns 0; PLOT_INVALID with
 * "FILE:LINE: ..." in err when a CSV is malformed (nothing is drawn); or -1
 * with a message in err: dir has no aggregate.csv, the scripts or gnuplot
 * cannot be found, gnuplot failed (its first lines of output are quoted), a
 * figure is missing or cannot be written.  A figure file is replaced whole
 * or not at all. */
int plot_render_opts(const char *dir, const plot_opts *o, char *err, size_t errlen);

/* Runs `gnuplot -c PLOTS/name wd [arg]` for a figure another layer
 * prepared in the directory wd (herd tune): the plots directory found as
 * for every figure ($HERD_PLOTS, beside the executable, the installed
 * share).  0, or -1 with err (no script, gnuplot missing or failed: its
 * first lines quoted). */
int plot_script(const char *name, const char *wd, const char *arg, char *err, size_t errlen);

/* Whether the figure file path (by its extension: .png, .svg, .gif; any
 * other: non-empty) is whole: a regular file, not a link, that starts and
 * ends as its format does (PNG: the signature and the IEND chunk; SVG:
 * "</svg>" at the end; GIF: "GIF8" and the trailer byte).  gnuplot exits 0
 * when it cannot write, so every figure is checked so before it is
 * published.  0, or -1 with err. */
int plot_check_figure(const char *path, char *err, size_t errlen);

/* Removes from dir every figure herd plot writes (its known names:
 * timeseries, goodput, sweep_METRIC, compare, sensitivity, variants,
 * replay, load, as .png, .svg, .gif); any other file is left alone.  The
 * publishing of a run's results calls it: figures drawn from an earlier
 * run's CSVs would show results that are no longer there. */
void plot_remove_figures(const char *dir);

/* Stages 1 and 2 of plot_render_opts without gnuplot: loads and checks
 * the results directory dir (as plot_render_opts: 0, PLOT_INVALID or -1
 * with err) and writes the figures' data into the existing directory wd
 * (what HERD_PLOT_DATA keeps).  For tests and the fuzzer (tests/fuzz_plot.c). */
int plot_prepare_dir(const char *dir, const plot_opts *o, const char *wd, char *err, size_t errlen);

/* plot_render_opts with the defaults. */
int plot_dir(const char *dir, char *err, size_t errlen);

/* plot_dir, printing nothing on success when quiet is nonzero. */
int plot_render(const char *dir, int quiet, char *err, size_t errlen);

#endif
