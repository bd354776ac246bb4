/*
 * report_cmd.c - herd report DIR [-o FILE]: a results directory as one
 * self-contained HTML page (report/html.h).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../base/text.h"
#include "../report/html.h"
#include "cli.h"

const char cli_report_help[] =
    "usage: herd report DIR [-o FILE] [--title TEXT] [--lead FILE.md] [--variant V ...] [--quiet]\n"
    "one self-contained HTML page of a results directory, to share a run: a title and your lead, the\n"
    "headline table with 95% CIs, the recovery and window results, every figure (inline SVG, drawn by\n"
    "herd plot's scripts in a private temporary directory), the paired comparisons, then the run, the\n"
    "scenario and the resolved model (manifest.txt); every table fits a page 1280 pixels wide; no\n"
    "script, no external font or image: the page makes no request\n\n"
    "  -o, --output FILE       write the page to FILE (default DIR/report.html); replaced whole or not at all\n"
    "      --title TEXT        the page's title (default: herd report: SCENARIO)\n"
    "      --lead FILE.md      a lead under the title: paragraphs, lists, `code`, **bold**, *emphasis*,\n"
    "                          [links](https://...) of a Markdown file (at most 64 KiB)\n"
    "      --variant V         draw the time-series figure of variant V (repeat for several, in that\n"
    "                          order; default: one per variant of the run)\n"
    "  -q, --quiet             print nothing on success\n\n"
    "A directory that is not herd's (no manifest.txt or aggregate.csv) or a malformed CSV is refused\n"
    "(exit status 2).\n";

int cmd_report(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL, *lead = NULL;
    int quiet = 0, c;
    html_opts ho = {0};
    enum { O_TITLE = 256, O_LEAD, O_VARIANT };
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                             {"title", required_argument, NULL, O_TITLE},
                                             {"lead", required_argument, NULL, O_LEAD},
                                             {"variant", required_argument, NULL, O_VARIANT},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    char **args = copy_args(argc, argv);
    if (!args)
        return 2;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, args + 1, ":o:qh", longopts, NULL)) != -1) {
        if (c == 'o') {
            out = optarg;
            if (!*out) {
                errorf("report -o: expected a file name, got an empty path");
                return 2;
            }
        } else if (c == 'q') {
            quiet = 1;
        } else if (c == O_TITLE) {
            int ctl = 0;
            for (const char *t = optarg; *t; t++)
                ctl |= (unsigned char)*t < 0x20 || *t == 0x7f;
            if (!*optarg || strlen(optarg) > 200 || ctl) {
                errorf("report --title: expected a title of 1 to 200 characters on one line");
                return 2;
            }
            ho.title = optarg;
        } else if (c == O_LEAD) {
            lead = optarg;
        } else if (c == O_VARIANT) {
            if (ho.nvariant == HTML_MAX_VARIANTS) {
                errorf("report --variant: at most %d variants", HTML_MAX_VARIANTS);
                return 2;
            }
            ho.variant[ho.nvariant++] = optarg;
        } else if (c == 'h') {
            return help_for("report");
        } else {
            return cli_option_error("report", c, args);
        }
    }
    if (cli_one_operand(argc, args, "report takes one directory",
                        "report needs a results directory, e.g. herd report out/thundering-herd", &dir) != 0)
        return 2;
    char *leadtext = NULL;
    if (lead) {
        size_t len = 0;
        int en = 0;
        herd_file_status s = herd_file_read(lead, 64 << 10, HERD_FILE_TEXT, &leadtext, &len, &en);
        if (s != HERD_FILE_OK) {
            char shown[320], why[160];
            text_visible(lead, shown, sizeof shown);
            errorf("report --lead %s: %s; expected a Markdown file of at most 64 KiB", shown,
                   herd_file_why(s, 64 << 10, en, why, sizeof why));
            return 2;
        }
        ho.lead = leadtext;
        ho.leadlen = len;
    }
    char err[4096];
    int rc = html_report_opts(dir, out, &ho, err, sizeof err);
    herd_free(leadtext);
    if (rc != 0) {
        errorf("%s", err);
        return rc == HTML_INVALID ? 2 : 1;
    }
    if (!quiet) {
        char shown[4 * 4096]; /* control bytes escaped, as in every message */
        text_visible(out ? out : dir, shown, sizeof shown);
        printf(out ? "wrote %s\n" : "wrote %s/report.html\n", shown);
        if (fflush(stdout) != 0) {
            errorf("report: cannot write to standard output");
            return 1;
        }
    }
    return 0;
}
