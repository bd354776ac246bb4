/*
 * fuzz_scenario.c - libFuzzer harness over everything that reads untrusted
 * input: scenario parsing and validation, the experiment plan (variants,
 * sweeps), the command-line flags, the whole run path on small plans, and
 * the Retry-After parser.
 *
 *   make fuzz FUZZ_SECONDS=600     seed corpus: scenarios/ and tests/bad/
 *
 * An input is a scenario, optionally followed by a line "--" and then one
 * command-line argument per line (at most 24):
 *
 *   [clients]
 *   count = 5
 *   --
 *   --set
 *   retry.max_attempts=3
 *
 * The scenario goes to a scratch file; then
 *   1. the file is loaded and its plan built (every point checked);
 *   2. `herd check FILE ARGS...` runs through the real command line
 *      (sim/cli/main.c, built in with main renamed);
 *   3. when the plan is small (few clients, bounded attempts, a short
 *      horizon), it runs: simulations, reports, manifest, into a scratch
 *      directory that is removed afterwards.
 * Any crash, sanitizer report, leak or timeout is a bug: its input becomes
 * a case under tests/bad/ (or a unit test) once fixed.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>

#include "../sim/base/alloc.h"
#include "../sim/experiment/experiment.h"
#include "../sim/experiment/plan.h"
#include "../sim/policy/herdpolicy.h"
#include "../sim/scenario/scenario.h"

int herd_main(int argc, char **argv);
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24

/* A plan small enough to simulate inside a fuzzing budget. */
static int small(const exp_plan *plan)
{
    double events = 0;
    for (size_t i = 0; i < plan->npoints; i++) {
        const exp_point *p = &plan->points[i];
        double lo, hi;
        exp_point_events(p, &lo, &hi);
        if (p->spec.clients > 200 || p->spec.requests_per_client > 20 || p->spec.horizon_s > 1000 ||
            p->spec.horizon_s / p->spec.bucket_s > 1e5 || !isfinite(hi))
            return 0;
        events += hi * p->nstrategies * p->replications;
    }
    return events < 2e5;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], outdir[64];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/herd-fuzz-%d.ini", (int)getpid());
        snprintf(outdir, sizeof outdir, "/tmp/herd-fuzz-%d.out", (int)getpid());
    }
    /* split: scenario, then "\n--\n", then one argument per line */
    size_t cut = size;
    for (size_t i = 0; i + 3 < size; i++)
        if (data[i] == '\n' && data[i + 1] == '-' && data[i + 2] == '-' && data[i + 3] == '\n') {
            cut = i + 1;
            break;
        }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (cut && fwrite(data, 1, cut, f) != cut)
        abort();
    fclose(f);

    /* the same bytes as an HTTP Retry-After value */
    char ra[512];
    size_t n = size < sizeof ra - 1 ? size : sizeof ra - 1;
    memcpy(ra, data, n);
    ra[n] = '\0';
    double d = -1;
    if (hp_parse_retry_after(ra, 1.7e9, 120, &d) == 0 && !(d >= 0 && d <= 120))
        abort(); /* a parsed delay must be in [0, max] */

    /* 1. load and plan */
    static scn_config c;
    char err[SCN_ERR_MAX];
    int loaded = scn_load(&c, path, NULL, 0, err) == 0;
    exp_plan plan;
    int planned = loaded && exp_plan_build(&plan, &c, path, err, sizeof err) == 0;
    if (loaded)
        (void)scn_set(&c, "clients.count=7", "fuzz", err);

    /* 2. herd check FILE ARGS... through the real command line */
    char *args[MAX_ARGS + 4];
    char argbuf[4096];
    int argc = 0;
    args[argc++] = "herd";
    args[argc++] = "check";
    args[argc++] = path;
    if (cut < size) {
        size_t len = size - (cut + 3) < sizeof argbuf - 1 ? size - (cut + 3) : sizeof argbuf - 1;
        memcpy(argbuf, data + cut + 3, len);
        argbuf[len] = '\0';
        for (char *s = argbuf; *s && argc < MAX_ARGS + 3;) {
            args[argc++] = s;
            s += strcspn(s, "\n");
            if (*s)
                *s++ = '\0';
        }
    }
    args[argc] = NULL;
    (void)herd_main(argc, args);

    /* 3. the whole run path on a small plan */
    if (planned) {
        if (small(&plan)) {
            exp_options opt = {.outdir = outdir, .quiet = 1, .jobs = 1, .version = "fuzz"};
            (void)exp_run(&c, path, &opt, err, sizeof err);
            fuzz_clean_dir(outdir, 0);
        }
        exp_plan_free(&plan);
    }
    return 0;
}
