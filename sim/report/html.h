/*
 * html.h - herd report: a results directory as one self-contained HTML
 * page, to share a run (an incident review, a design discussion).
 *
 * The page holds the scenario and the resolved model (manifest.txt), the
 * headline table with its confidence intervals (aggregate.csv), the
 * recovery and window results, every figure herd plot draws for the
 * directory (inline SVG), and the paired comparisons (compare.csv,
 * compare_variants.csv).  It makes no request of its own: no script, no
 * external font, image or style sheet, and a Content-Security-Policy that
 * forbids every fetch.
 *
 * The directory is untrusted input: its CSVs are validated in full by the
 * plotting layer before anything is written (plot.h), and every string
 * taken from a file is escaped for HTML, so no name or comment of a
 * scenario can become markup.  manifest.txt is rendered generically: its
 * "key: value" lines as a table, each "--- TITLE ---" section as its own
 * block (the ones herd knows, the scenario file and the resolved model,
 * laid out), its "n/a: ..." lines as the list of undefined metrics, so
 * that sections added later appear without a change here.
 */
#ifndef HERD_HTML_H
#define HERD_HTML_H

#include <stddef.h>

/* html_report's result for a directory that is not a herd results
 * directory, or whose files are malformed (exit status 2). */
#define HTML_INVALID (-2)

/* Writes the report of the results directory dir into the file out (NULL:
 * dir/report.html), through a temporary renamed into place: the file is
 * replaced whole or not at all.  The figures are drawn (gnuplot, SVG) in a
 * private temporary directory ($TMPDIR or /tmp) that is removed before
 * returning; nothing is written into dir but out.  Returns 0; HTML_INVALID
 * with a message in err when dir has no manifest.txt or aggregate.csv of
 * herd's, or a CSV is malformed ("FILE:LINE: ..."); -1 with err on an I/O
 * or memory failure or when gnuplot fails. */
int html_report(const char *dir, const char *out, char *err, size_t errlen);

#define HTML_MAX_VARIANTS 16

/* What the reader chooses of the page (herd report's options). */
typedef struct html_opts {
    const char *title;        /* the page's title (NULL: "herd report: SCENARIO") */
    const char *lead;         /* Markdown text shown under the title (NULL: none; html_md.c's subset) */
    size_t leadlen;
    const char *variant[HTML_MAX_VARIANTS]; /* the variants the time-series figure is drawn for, in */
    int nvariant;                           /* this order (0: every variant of the run) */
} html_opts;

/* html_report with the reader's choices (o may be NULL: the defaults).
 * A --variant the run does not have is HTML_INVALID. */
int html_report_opts(const char *dir, const char *out, const html_opts *o, char *err, size_t errlen);

/* html_report, with figures = 0 without any figure (no gnuplot): every
 * file of dir read, checked and laid out as the page does.  For the fuzzer
 * (tests/fuzz_report.c). */
int html_report_ex(const char *dir, const char *out, int figures, char *err, size_t errlen);

#endif
