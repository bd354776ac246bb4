/*
 * fuzz_scenario.c - libFuzzer harness over scenario parsing, validation,
 * sweep and variant expansion, and the Retry-After parser (the code that
 * reads untrusted input).
 *
 *   make fuzz FUZZ_SECONDS=600     seed corpus: scenarios/ and tests/bad/
 *
 * Each input is written to one scratch file and loaded as a scenario; a
 * success is then expanded into its sweep points.  Any crash, sanitizer
 * report or leak is a bug: its input becomes a file under tests/bad/ (or a
 * test in tests/test_scenario.c) once fixed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <math.h>
#include <string.h>

#include "../sim/base/alloc.h"
#include "../sim/policy/herdpolicy.h"
#include "../sim/experiment/plan.h"
#include "../sim/scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/herd-fuzz-%d.ini", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
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

    static scn_config c;
    char err[SCN_ERR_MAX];
    if (scn_load(&c, path, NULL, 0, err) == 0) {
        exp_plan plan;
        if (exp_plan_build(&plan, &c, path, err, sizeof err) == 0)
            exp_plan_free(&plan);
        /* the reference and a --set on top must not crash either */
        (void)scn_set(&c, "clients.count=7", "fuzz", err);
    }
    return 0;
}
