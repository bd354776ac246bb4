/*
 * fuzz_plot.c - libFuzzer harness over the readers of herd plot: a
 * results folder (aggregate.csv, summary.csv, timeseries.csv, compare.csv,
 * tools.csv, input.csv, mechanisms.csv, manifest.txt) loaded, validated
 * and turned into the figures' data (plot_prepare_dir: everything herd
 * plot does but run gnuplot).
 *
 *   make fuzz (build/fuzz_plot)   seeds: results folders of small runs
 *
 * An input is the folder's files one after the other, each opened by a
 * line "==> NAME <==" (NAME one of the files above); the first line may
 * be "gif" (also prepare the animation's data).  Any crash, sanitizer
 * report, leak, timeout, or a refusal that is not one line, is a bug.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/plot/plot.h"

#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"aggregate.csv", "summary.csv", "timeseries.csv", "compare.csv",
                                    "tools.csv",     "input.csv",   "mechanisms.csv", "manifest.txt"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64], wd[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/herd-fuzz-plot-%d", (int)getpid());
        snprintf(wd, sizeof wd, "/tmp/herd-fuzz-plot-%d.data", (int)getpid());
    }
    mkdir(dir, 0700);
    mkdir(wd, 0700);
    plot_opts o;
    plot_opts_init(&o);
    o.quiet = 1;
    size_t at = 0;
    if (size >= 4 && !memcmp(data, "gif\n", 4)) {
        o.gif = 1;
        at = 4;
    }
    FILE *f = NULL;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (data + at)) + 1 : size - at;
        const char *line = (const char *)data + at;
        int opened = 0;
        if (len > 9 && !memcmp(line, "==> ", 4))
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                size_t n = strlen(names[i]);
                if (len >= n + 9 && !memcmp(line + 4, names[i], n) && !memcmp(line + 4 + n, " <==", 4)) {
                    char p[128];
                    if (f)
                        fclose(f);
                    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
                    f = fopen(p, "ab");
                    if (!f)
                        abort();
                    opened = 1;
                    break;
                }
            }
        if (!opened && f && fwrite(line, 1, len, f) != len)
            abort();
        at += len;
    }
    if (f)
        fclose(f);
    char err[4096];
    err[0] = '\0';
    int rc = plot_prepare_dir(dir, &o, wd, err, sizeof err);
    if (rc != 0 && (!err[0] || strchr(err, '\n')))
        abort(); /* a refusal says why, in one line */
    fuzz_clean_dir(dir, 0);
    fuzz_clean_dir(wd, 0);
    return 0;
}
