/*
 * fuzz_tune.c - libFuzzer harness over herd tune's flags: --search (the
 * candidates' grammar and checks), --minimize/--maximize, --subject-to,
 * --aggregate, the replication counts, --set/--sweep (the operating
 * points), -o; through the real command line (sim/cli/main.c, built in
 * with main renamed), on a tiny scenario.
 *
 *   make fuzz (build/fuzz_tune)   seeds: tests/fuzz-seeds.sh
 *
 * An input is one argument per line (at most 24).  A search that would
 * take long is not run but its flags still are parsed and checked: more
 * than 16 candidates or 4 operating points, a replication count above 8,
 * or a --set/--sweep/--search of the scenario's size keys (clients,
 * requests, horizon, bucket) make the harness stop after `herd tune
 * --help`-free parsing, by running `herd check` on the same --set and
 * --sweep flags instead.  gnuplot is kept out of PATH: the figure step
 * fails with its one-line message.  Any crash, sanitizer report, leak or
 * timeout is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/scenario/scenario.h"
#include "../sim/tune/space.h"

int herd_main(int argc, char **argv);
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24

static const char base[] = "[run]\nstrategies = full_jitter\nreplications = 2\nseed = 3\nhorizon_s = 5\n"
                           "[clients]\ncount = 4\nrequests_per_client = 1\nstart = spread\nspread_s = 1\n"
                           "[server]\nworkers = 2\nqueue = 4\nservice_time_s = 0.01\nerror_rate_503 = 0.3\n"
                           "[retry]\nbase_s = 0.01\ncap_s = 0.1\nmax_attempts = 3\n";

/* 1 if the flags ask for a search small enough to run in a fuzzing
 * budget. */
static int cheap(char **args, int argc)
{
    tune_space sp;
    memset(&sp, 0, sizeof sp);
    int ok = 1;
    for (int i = 0; i + 1 < argc && ok; i++) {
        const char *a = args[i], *v = args[i + 1];
        if (!strcmp(a, "--min-replications") || !strcmp(a, "--max-replications") ||
            !strcmp(a, "--validation-replications"))
            ok = atol(v) <= 8 && strlen(v) < 4;
        if ((!strcmp(a, "--set") || !strcmp(a, "--sweep") || !strcmp(a, "--search")) &&
            (strstr(v, "count") || strstr(v, "requests") || strstr(v, "horizon") || strstr(v, "bucket") ||
             strstr(v, "replications") || strstr(v, "rate") || strstr(v, "spread") || strstr(v, "window")))
            ok = 0;
        if (!strcmp(a, "--sweep")) {
            const char *eq = strchr(v, '=');
            scn_sweep sw;
            memset(&sw, 0, sizeof sw);
            static char (*labels)[SCN_VALUE_MAX];
            if (!labels && !(labels = malloc(SCN_SWEEP_POINTS_MAX * sizeof *labels)))
                abort();
            const char *msg;
            if (eq && strlen(eq + 1) < sizeof sw.values) {
                snprintf(sw.key, sizeof sw.key, "%.*s", (int)(eq - v) < 100 ? (int)(eq - v) : 100, v);
                snprintf(sw.values, sizeof sw.values, "%s", eq + 1);
                ok = scn_sweep_labels(&sw, labels, SCN_SWEEP_POINTS_MAX, &msg) <= 4;
            }
        }
        if (!strcmp(a, "--search")) {
            char err[512];
            if (tune_space_add(&sp, v, err, sizeof err) == 0 && sp.ncand > 16)
                ok = 0;
        }
    }
    tune_space_free(&sp);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[192], outdir[192];
    if (!path[0]) {
        snprintf(path, sizeof path, "%s/herd-fuzz-tune-%d.ini", fuzz_tmpdir(), (int)getpid());
        snprintf(outdir, sizeof outdir, "%s/herd-fuzz-tune-%d.out", fuzz_tmpdir(), (int)getpid());
        FILE *f = fopen(path, "wb");
        if (!f || fputs(base, f) < 0 || fclose(f) != 0)
            abort();
        setenv("PATH", "/nonexistent", 1); /* no gnuplot: the figure step fails fast */
    }
    char *args[MAX_ARGS + 8];
    char argbuf[4096];
    int argc = 0;
    args[argc++] = "herd";
    args[argc++] = "tune";
    args[argc++] = path;
    size_t len = size < sizeof argbuf - 1 ? size : sizeof argbuf - 1;
    memcpy(argbuf, data, len);
    argbuf[len] = '\0';
    for (char *s = argbuf; *s && argc < MAX_ARGS + 3;) {
        args[argc++] = s;
        s += strcspn(s, "\n");
        if (*s)
            *s++ = '\0';
    }
    int has_o = 0;
    for (int i = 3; i < argc; i++)
        has_o |= !strcmp(args[i], "-o") || !strncmp(args[i], "--output", 8);
    if (!has_o) {
        args[argc++] = "-o";
        args[argc++] = outdir;
    }
    args[argc++] = "--quiet";
    args[argc] = NULL;
    if (!cheap(args + 3, argc - 3)) { /* parse the operating points' flags only */
        args[1] = "check";
        int k = 3;
        for (int i = 3; i < argc; i++)
            if ((!strcmp(args[i], "--set") || !strcmp(args[i], "--sweep")) && i + 1 < argc) {
                args[k++] = args[i];
                args[k++] = args[++i];
            }
        args[k] = NULL;
        argc = k;
    }
    (void)herd_main(argc, args);
    fuzz_clean_dir(outdir, 0);
    return 0;
}
