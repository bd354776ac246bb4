/*
 * fuzz_report.c - libFuzzer harness over the readers of herd report: a
 * results folder (manifest.txt, aggregate.csv, compare.csv,
 * compare_variants.csv, summary.csv, timeseries.csv) read, checked and
 * laid out as the page (html_report_ex without figures: no gnuplot), the
 * page written to a scratch file.
 *
 *   make fuzz (build/fuzz_report)   seeds: results folders of small runs
 *
 * An input is the folder's files one after the other, each opened by a
 * line "==> NAME <==" (the format of fuzz_plot's inputs, and of
 * `head -n 1000 DIR/*`).  Any crash, sanitizer report, leak, timeout, or a
 * refusal that is not one line, is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/report/html.h"

#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"manifest.txt", "aggregate.csv", "compare.csv", "compare_variants.csv",
                                    "summary.csv",  "timeseries.csv", "tools.csv",  "mechanisms.csv"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[192], out[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/herd-fuzz-report-%d", fuzz_tmpdir(), (int)getpid());
        snprintf(out, sizeof out, "%s/herd-fuzz-report-%d.html", fuzz_tmpdir(), (int)getpid());
    }
    mkdir(dir, 0700);
    size_t at = 0;
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
                    char p[256];
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
    int rc = html_report_ex(dir, out, 0, err, sizeof err);
    if (rc != 0 && (!err[0] || strchr(err, '\n')))
        abort(); /* a refusal says why, in one line */
    fuzz_clean_dir(dir, 0);
    unlink(out);
    return 0;
}
