/*
 * fuzz_data.c - libFuzzer harness over the data-file readers
 * (sim/scenario/data.c through sim/base/fileio.c): the same bytes as an
 * empirical distribution (observed values or a histogram), an arrival
 * trace and a capacity timeline, each loaded by a small scenario and its
 * plan built; a file that loads must give a distribution whose support
 * holds its draws.
 *
 *   make fuzz (build/fuzz_data)   seeds: scenarios/data/, tests/bad/data/
 *
 * Any crash, sanitizer report, leak, timeout or broken invariant is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "../sim/experiment/plan.h"
#include "../sim/model/sample.h"
#include "../sim/scenario/scenario.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const scenarios[] = {
    "[server]\nservice_time_s = empirical(d.csv)\n[network]\ndelay_s = mixture(0.5: empirical(d.csv), 0.5: 0.001)\n",
    "[clients]\nstart = trace\ntrace_file = d.csv\n[run]\nhorizon_s = 1e9\n",
    "[server]\ncapacity_file = d.csv\nerror_rate_503 = 0.1\n",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[192], csv[224], ini[224];
    static gsl_rng *r;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/herd-fuzz-data-%d", fuzz_tmpdir(), (int)getpid());
        snprintf(csv, sizeof csv, "%s/d.csv", dir);
        snprintf(ini, sizeof ini, "%s/s.ini", dir);
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            abort();
        r = gsl_rng_alloc(gsl_rng_mt19937);
    }
    FILE *f = fopen(csv, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size))
        abort();
    fclose(f);
    for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
        f = fopen(ini, "wb");
        if (!f || fputs(scenarios[k], f) == EOF)
            abort();
        fclose(f);
        static scn_config c;
        char err[SCN_ERR_MAX];
        if (scn_load(&c, ini, NULL, 0, err) != 0) {
            if (!err[0] || strchr(err, '\n'))
                abort(); /* a refusal is one line */
            continue;
        }
        if (k == 0) { /* every draw within the support */
            double lo, hi;
            dist_support(&c.service, scn_data(), &lo, &hi);
            if (!(lo >= 0 && lo <= hi))
                abort();
            gsl_rng_set(r, (unsigned long)size + 1);
            for (int i = 0; i < 64; i++) {
                double x = dist_sample(&c.service, scn_data(), r);
                if (!(x >= lo && x <= hi))
                    abort();
            }
        }
        exp_plan plan;
        if (exp_plan_build(&plan, &c, ini, err, sizeof err) == 0)
            exp_plan_free(&plan);
    }
    return 0;
}
