/*
 * report_cmd.c - herd report DIR [-o FILE]: a results directory as one
 * self-contained HTML page (report/html.h).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../base/text.h"
#include "../report/html.h"
#include "cli.h"

const char cli_report_help[] =
    "usage: herd report DIR [-o FILE] [--quiet]\n"
    "one self-contained HTML page of a results directory, to share a run: the scenario and the resolved\n"
    "model (manifest.txt), the headline table with 95% CIs, the recovery and window results, every\n"
    "figure (inline SVG, drawn by herd plot's scripts in a private temporary directory), the paired\n"
    "comparisons; no script, no external font or image: the page makes no request\n\n"
    "  -o, --output FILE       write the page to FILE (default DIR/report.html); replaced whole or not at all\n"
    "  -q, --quiet             print nothing on success\n\n"
    "A directory that is not herd's (no manifest.txt or aggregate.csv) or a malformed CSV is refused\n"
    "(exit status 2).\n";

int cmd_report(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    int quiet = 0, c;
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
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
        } else if (c == 'h') {
            return help_for("report");
        } else {
            return cli_option_error("report", c, args);
        }
    }
    if (cli_one_operand(argc, args, "report takes one directory",
                        "report needs a results directory, e.g. herd report out/thundering-herd", &dir) != 0)
        return 2;
    char err[4096];
    int rc = html_report(dir, out, err, sizeof err);
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
