/*
 * tune_cmd.c - herd tune: the flags, checked before anything runs, into
 * a tune_request (sim/tune/tune.h does the search).
 *
 *   herd tune SCENARIO [run options] --search KEY=SPEC ... --minimize M | --maximize M
 *             [--subject-to 'M<=X' ...] [--aggregate worst|mean] [-o DIR]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../engine/sim.h"
#include "../spec/dist.h"
#include "../tune/tune.h"
#include "cli.h"

const char cli_tune_help[] =
    "usage: herd tune SCENARIO --search KEY=SPEC ... --minimize METRIC | --maximize METRIC\n"
    "                 [--subject-to 'METRIC<=X' ...] [--aggregate worst|mean] [options]\n"
    "the setting to use: every candidate of the search (the cartesian product of the --search\n"
    "dimensions) raced on common random numbers across the scenario's operating points (its\n"
    "variants and [sweep] points), the finalists validated on fresh seeds\n\n"
    "  --search KEY=SPEC       a dimension, in the sweep syntax: A,B,C or FROM:TO:STEP\n"
    "                          (run.strategies=exponential,full_jitter, retry.max_attempts=1:8:1,\n"
    "                          'layer sdk.max_attempts=1:4:1'); repeatable\n"
    "  --minimize METRIC       the objective, a column of summary.csv (herd columns)\n"
    "  --maximize METRIC\n"
    "  --subject-to 'M<=X'     a constraint (or M>=X), at every operating point; repeatable\n"
    "  --aggregate worst|mean  the objective at a candidate's worst point (default) or its mean\n"
    "                          over the points\n"
    "  --min-replications N    the first round's replications (default 4)\n"
    "  --max-replications N    the most a candidate gets in the search (default 64); rounds double\n"
    "  --validation-replications N  the finalists' replications on fresh seeds (default 32)\n"
    "  -o, --output DIR        write into DIR (default out/<scenario name>-tune/)\n"
    "  --seed N                the search's master seed (overrides [run] seed)\n"
    "  --set SECTION.KEY=VALUE override a scenario key for every candidate; repeatable\n"
    "  --sweep SECTION.KEY=... an operating-point dimension, as herd run --sweep\n"
    "  --jobs N                simulate on N threads (default: CPUs, at most 8); results do not\n"
    "                          depend on N\n"
    "  --queue NAME            pending-event set: ladder (default) or heap\n"
    "  -q, --quiet             print nothing on success\n\n"
    "outputs: DIR/tune.csv (a row per candidate and operating point: search and validation means\n"
    "         and CIs, status dropped_round_K with reason dominated or infeasible, finalist,\n"
    "         recommended), DIR/recommendation.txt (--set lines, then the validated figures),\n"
    "         DIR/manifest.txt (the search, its seeds, the validation seeds), DIR/tune.png/.svg\n"
    "exit status: 0 ok (also when no candidate is feasible: the summary says so), 1 run failed,\n"
    "             2 bad flags or scenario\n";

/* "M<=X" or "M>=X" into c; 0, or -1 with the error printed. */
static int parse_constraint(const char *v, tune_constraint *c)
{
    const char *op = strstr(v, "<=");
    if (!op)
        op = strstr(v, ">=");
    if (!op || op == v) {
        errorf("--subject-to '%s': expected METRIC<=X or METRIC>=X (e.g. amplification<=2)", v);
        return -1;
    }
    char name[64];
    size_t n = (size_t)(op - v);
    while (n && v[n - 1] == ' ')
        n--;
    size_t s = strspn(v, " ");
    if (n <= s || n - s >= sizeof name) {
        errorf("--subject-to '%s': expected METRIC<=X or METRIC>=X", v);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(n - s), v + s);
    c->metric = NULL;
    for (size_t i = 0; i < metric_count; i++)
        if (!strcmp(metric_table[i].name, name))
            c->metric = &metric_table[i];
    if (!c->metric) {
        errorf("--subject-to '%s': no metric '%s' (the columns of summary.csv: herd columns)", v, name);
        return -1;
    }
    const char *x = op + 2;
    x += strspn(x, " ");
    if (spec_parse_number(x, &c->bound) != 0 || !isfinite(c->bound)) {
        errorf("--subject-to '%s': expected a finite number after %.2s, got '%s'", v, op, x);
        return -1;
    }
    c->upper = op[0] == '<';
    snprintf(c->text, sizeof c->text, "%s%.2s%g", name, op, c->bound);
    return 0;
}

static const metric_desc *find_metric(const char *flag, const char *name)
{
    for (size_t i = 0; i < metric_count; i++)
        if (!strcmp(metric_table[i].name, name))
            return &metric_table[i];
    errorf("--%s %s: no such metric; expected a column of summary.csv (herd columns), e.g. failures", flag, name);
    return NULL;
}

int cmd_tune(int argc, char **argv)
{
    static char setbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 128];
    static char flagbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 160];
    const char *sets[MAX_SETS], *flags[MAX_SETS];
    int nsets = 0, nflags = 0, nsweep = 0, quiet = 0, queue = SIM_QUEUE_LADDER, rc = 2;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu;
    const char *scenario = NULL, *outdir = NULL;
    tune_space space;
    memset(&space, 0, sizeof space);
    tune_request rq;
    memset(&rq, 0, sizeof rq);
    rq.min_reps = 4;
    rq.max_reps = 64;
    rq.val_reps = 32;
    rq.alpha = 0.05;
    enum { O_SEED = 256, O_SET, O_SWEEP, O_JOBS, O_QUEUE, O_SEARCH, O_MIN, O_MAX, O_SUBJ, O_AGG, O_MINR, O_MAXR,
           O_VALR };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},     {"seed", required_argument, NULL, O_SEED},
        {"set", required_argument, NULL, O_SET},      {"sweep", required_argument, NULL, O_SWEEP},
        {"jobs", required_argument, NULL, O_JOBS},    {"queue", required_argument, NULL, O_QUEUE},
        {"quiet", no_argument, NULL, 'q'},            {"help", no_argument, NULL, 'h'},
        {"search", required_argument, NULL, O_SEARCH}, {"minimize", required_argument, NULL, O_MIN},
        {"maximize", required_argument, NULL, O_MAX}, {"subject-to", required_argument, NULL, O_SUBJ},
        {"aggregate", required_argument, NULL, O_AGG}, {"min-replications", required_argument, NULL, O_MINR},
        {"max-replications", required_argument, NULL, O_MAXR},
        {"validation-replications", required_argument, NULL, O_VALR}, {NULL, 0, NULL, 0}};
    char **args = copy_args(argc, argv);
    if (!args)
        return 2;
    int c;
    char serr[512];
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, args + 1, ":o:qh", longopts, NULL)) != -1) {
        const char *v = optarg;
        unsigned long long u;
        switch (c) {
        case 'o':
            if (!*v || strlen(v) >= PATH_MAX - 64) {
                errorf("-o: expected a directory path (shorter than %d bytes)", PATH_MAX - 64);
                goto out;
            }
            outdir = v;
            break;
        case O_SEED:
            if (nsets == MAX_SETS || strlen(v) > 40) {
                errorf("--seed: value too long or too many overrides");
                goto out;
            }
            snprintf(setbuf[nsets], sizeof setbuf[0], "run.seed=%s", v);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--seed %s", v);
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        case O_SET:
            if (nsets == MAX_SETS || strlen(v) >= sizeof flagbuf[0] - 8) {
                errorf("too many --set (at most %d)", MAX_SETS);
                goto out;
            }
            sets[nsets++] = v;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--set %s", v);
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        case O_SWEEP: {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1] || (size_t)(eq - v) >= SCN_SWEEP_KEY_MAX ||
                strlen(eq + 1) >= SCN_SWEEP_VALUES_MAX || nsets + 2 > MAX_SETS) {
                errorf("--sweep %s: expected section.key=FROM:TO:STEP or section.key=A,B,C", v);
                goto out;
            }
            nsweep++;
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.key=%.*s", nsweep, (int)(eq - v), v);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.values=%s", nsweep, eq + 1);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--sweep %s", v);
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        }
        case O_JOBS:
            if (int_flag("jobs", v, 1, 64, &u) != 0)
                goto out;
            jobs = (int)u;
            break;
        case O_QUEUE:
            queue = sim_queue_parse(v);
            if (queue < 0) {
                errorf("--queue: expected ladder or heap, got '%s'", v);
                goto out;
            }
            break;
        case 'q':
            quiet = 1;
            break;
        case O_SEARCH:
            if (tune_space_add(&space, v, serr, sizeof serr) != 0) {
                errorf("%s", serr);
                goto out;
            }
            break;
        case O_MIN:
        case O_MAX:
            if (rq.objective) {
                errorf("--%s %s: one objective per search (already %s %s)", c == O_MIN ? "minimize" : "maximize", v,
                       rq.maximize ? "maximize" : "minimize", rq.objective->name);
                goto out;
            }
            if (!(rq.objective = find_metric(c == O_MIN ? "minimize" : "maximize", v)))
                goto out;
            rq.maximize = c == O_MAX;
            break;
        case O_SUBJ:
            if (rq.ncons == TUNE_MAX_CONSTRAINTS) {
                errorf("--subject-to: at most %d constraints", TUNE_MAX_CONSTRAINTS);
                goto out;
            }
            if (parse_constraint(v, &rq.cons[rq.ncons]) != 0)
                goto out;
            rq.ncons++;
            break;
        case O_AGG:
            if (strcmp(v, "worst") && strcmp(v, "mean")) {
                errorf("--aggregate %s: expected worst (a candidate's worst operating point) or mean", v);
                goto out;
            }
            rq.aggregate_mean = !strcmp(v, "mean");
            break;
        case O_MINR:
        case O_MAXR:
        case O_VALR:
            if (int_flag(c == O_MINR ? "min-replications" : c == O_MAXR ? "max-replications" : "validation-replications",
                         v, 2, 4096, &u) != 0)
                goto out;
            *(c == O_MINR ? &rq.min_reps : c == O_MAXR ? &rq.max_reps : &rq.val_reps) = (uint32_t)u;
            break;
        case 'h':
            rc = help_for("tune");
            goto out;
        default:
            rc = cli_option_error("tune", c, args);
            goto out;
        }
    }
    if (cli_one_operand(argc, args, "one scenario per search",
                        "tune needs a scenario file, e.g. herd tune scenarios/tune-brownout.ini --search "
                        "retry.max_attempts=1:6:1 --minimize failures --subject-to 'amplification<=2'",
                        &scenario) != 0)
        goto out;
    if (!space.ndims) {
        errorf("tune needs at least one --search KEY=SPEC (e.g. --search retry.max_attempts=1:8:1)");
        goto out;
    }
    if (!rq.objective) {
        errorf("tune needs an objective: --minimize METRIC or --maximize METRIC");
        goto out;
    }
    if (rq.min_reps > rq.max_reps) {
        errorf("--min-replications %u is more than --max-replications %u", rq.min_reps, rq.max_reps);
        goto out;
    }
    for (int d = 0; d < space.ndims; d++) {
        const char *k = space.dims[d].key;
        if (!strcmp(k, "run.seed") || !strcmp(k, "run.replications")) {
            errorf("--search %s: tune chooses the seeds and replications itself (--seed, --max-replications)", k);
            goto out;
        }
    }
    for (int i = 0; i < nsets; i++) {
        char k[SCN_SWEEP_KEY_MAX];
        scn_key_canonical(sets[i], k, sizeof k);
        if (tune_space_has(&space, k)) {
            errorf("--set %s: %s is also searched (--search); a key is either set or searched", sets[i], k);
            goto out;
        }
        if (!strcmp(k, "run.replications")) {
            errorf("--set %s: tune chooses the replications itself (--min-replications, --max-replications, "
                   "--validation-replications)", sets[i]);
            goto out;
        }
    }
    char shown[128];
    scn_config *cfg = new_config(scenario, shown, sizeof shown);
    if (!cfg) {
        rc = 1;
        goto out;
    }
    char err[SCN_ERR_MAX + 1024];
    if (scn_load(cfg, scenario, sets, nsets, err) != 0) {
        errorf("%s", err);
        free(cfg);
        goto out;
    }
    char defdir[SCN_NAME_MAX + 16];
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "out/%s-tune", cfg->name);
        outdir = defdir;
    }
    rq.file = scenario;
    rq.path = shown;
    rq.sets = sets;
    rq.nsets = nsets;
    rq.flags = flags;
    rq.nflags = nflags;
    rq.space = &space;
    rq.jobs = jobs;
    rq.queue = queue;
    rq.quiet = quiet;
    rq.outdir = outdir;
    rq.version = cli_version;
    rq.argc = argc;
    rq.argv = argv;
    int r = tune_run(&rq, err, sizeof err);
    free(cfg);
    if (r != 0) {
        errorf("%s", err);
        rc = r == -2 ? 2 : 1;
        goto out;
    }
    rc = 0;
out:
    tune_space_free(&space);
    return rc;
}
