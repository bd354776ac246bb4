/*
 * rare_cmd.c - herd rare: the flags, then the splitting / brute-force run
 * (sim/experiment/rare.c).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../experiment/rare.h"
#include "cli.h"

const char cli_rare_help[] =
    "usage: herd rare SCENARIO --levels L1,L2,...,K [--effort N] [--repeats R] [--brute N] [options]\n"
    "the probability that the attempts in flight at the server (service + queue) reach K before\n"
    "the horizon: multilevel splitting on that count (by replay), and/or brute force\n\n"
    "  --levels L1,...,K       the splitting levels, integers, strictly increasing, K at most\n"
    "                          workers + queue (required)\n"
    "  --effort N              runs per level and repetition (fixed effort; 0: no splitting;\n"
    "                          default 1000)\n"
    "  --repeats R             independent repetitions of the splitting, for a Student-t 95%\n"
    "                          interval (2..10000, default 10)\n"
    "  --brute N               also N independent plain runs: hits of K with an exact\n"
    "                          (Clopper-Pearson) 95% interval (default 0)\n"
    "  -o, --output DIR        write rare.csv and rare-summary.csv into DIR (default out/<name>-rare/)\n"
    "  --seed N                master seed (overrides [run] seed)\n"
    "  --set SECTION.KEY=VALUE override a scenario key; repeatable\n"
    "  --jobs N                threads (default: CPUs, at most 8); results do not depend on N\n"
    "  -q, --quiet             print nothing on success\n"
    "The scenario must have one operating point: no sweeps, no variants, one strategy.\n";

/* --levels L1,L2,...: strictly increasing integers >= 1. */
static int parse_levels(const char *v, rare_options *o)
{
    const char *p = v;
    o->nlevels = 0;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9') {
            errorf("--levels %s: expected integers separated by commas (e.g. 50,100,150)", v);
            return -1;
        }
        unsigned long long n = strtoull(p, &end, 10);
        if (n < 1 || n > 1000000000ULL || (*end && *end != ',')) {
            errorf("--levels %s: expected integers in [1, 1e9] separated by commas (e.g. 50,100,150)", v);
            return -1;
        }
        if (o->nlevels == RARE_MAX_LEVELS) {
            errorf("--levels %s: at most %d levels", v, RARE_MAX_LEVELS);
            return -1;
        }
        if (o->nlevels && n <= o->levels[o->nlevels - 1]) {
            errorf("--levels %s: %llu does not exceed the level before it; expected strictly increasing levels", v, n);
            return -1;
        }
        o->levels[o->nlevels++] = (uint32_t)n;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* herd rare SCENARIO --levels ...: a rare collapse's probability. */
int cmd_rare(int argc, char **argv)
{
    const char *scenario = NULL;
    static char seedbuf[64], seedflag[64];
    const char *sets[MAX_SETS];
    const char *set_shown[MAX_SETS]; /* how sets[i] was written (NULL: --set sets[i]) */
    int nsets = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    rare_options o = {.effort = 1000, .repeats = 10, .jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu};
    enum { O_LEVELS = 256, O_EFFORT, O_REPEATS, O_BRUTE, O_SEED, O_SET, O_JOBS };
    static const struct option longopts[] = {
        {"levels", required_argument, NULL, O_LEVELS}, {"effort", required_argument, NULL, O_EFFORT},
        {"repeats", required_argument, NULL, O_REPEATS}, {"brute", required_argument, NULL, O_BRUTE},
        {"seed", required_argument, NULL, O_SEED},     {"set", required_argument, NULL, O_SET},
        {"jobs", required_argument, NULL, O_JOBS},     {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},             {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    char **args = copy_args(argc, argv);
    if (!args)
        return 2;
    int c, idx;
    unsigned long long n;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, args + 1, ":o:qh", longopts, &idx)) != -1) {
        const char *v = optarg;
        switch (c) {
        case O_LEVELS:
            if (parse_levels(v, &o) != 0)
                return 2;
            break;
        case O_EFFORT:
            if (int_flag("--effort", v, 0, 10000000, &n) != 0)
                return 2;
            o.effort = (uint32_t)n;
            break;
        case O_REPEATS:
            if (int_flag("--repeats", v, 2, 10000, &n) != 0)
                return 2;
            o.repeats = (uint32_t)n;
            break;
        case O_BRUTE:
            if (int_flag("--brute", v, 0, 1000000000, &n) != 0)
                return 2;
            o.brute = n;
            break;
        case O_JOBS:
            if (int_flag("--jobs", v, 1, 64, &n) != 0)
                return 2;
            o.jobs = (int)n;
            break;
        case O_SEED:
            if (nsets == MAX_SETS || strlen(v) > 40) {
                errorf("--seed: value too long");
                return 2;
            }
            snprintf(seedbuf, sizeof seedbuf, "run.seed=%s", v);
            snprintf(seedflag, sizeof seedflag, "--seed %s", v);
            set_shown[nsets] = seedflag;
            sets[nsets++] = seedbuf;
            break;
        case O_SET:
            if (nsets == MAX_SETS) {
                errorf("too many --set (at most %d)", MAX_SETS);
                return 2;
            }
            set_shown[nsets] = NULL;
            sets[nsets++] = v;
            break;
        case 'o':
            if (!*v || strlen(v) >= PATH_MAX - 64) {
                errorf("-o: expected a directory path (1 to %d bytes)", PATH_MAX - 64);
                return 2;
            }
            o.outdir = v;
            break;
        case 'q':
            o.quiet = 1;
            break;
        case 'h':
            return help_for("rare");
        default:
            return cli_option_error("rare", c, args);
        }
    }
    if (cli_one_operand(argc, args, "one scenario per run",
                        "rare needs a scenario file, e.g. herd rare scenarios/rare-collapse.ini --levels 50,100,150",
                        &scenario) != 0)
        return 2;
    if (!o.nlevels) {
        errorf("rare needs --levels L1,...,K (the last is the collapse level; see herd rare --help)");
        return 2;
    }
    scn_config *cfg = malloc(sizeof *cfg);
    if (!cfg) {
        errorf("out of memory");
        return 1;
    }
    char err[SCN_ERR_MAX + 512], shown[128];
    char *text = NULL;
    size_t textlen = 0;
    scn_display_path(scenario, shown, sizeof shown);
    if (scn_load_text(cfg, scenario, sets, set_shown, nsets, err, &text, &textlen) != 0) {
        errorf("%s", err);
        free(cfg);
        return 2;
    }
    herd_free(text);
    char defdir[256];
    if (!o.outdir) {
        snprintf(defdir, sizeof defdir, "out/%s-rare", cfg->name);
        o.outdir = defdir;
    }
    int rc = rare_run(cfg, shown, &o, err, sizeof err);
    free(cfg);
    if (rc != 0) {
        errorf("%s", err);
        return rc == -2 ? 2 : 1;
    }
    return 0;
}
