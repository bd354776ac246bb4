/*
 * main.c - the herd command line.
 *
 *   herd run SCENARIO [-o DIR] [--seed N] [--replications N]
 *                     [--set section.key=value ...] [--jobs N] [--quiet] [--stats] [--plot]
 *   herd plot DIR [--quiet]   the figures of a results directory (gnuplot)
 *   herd keys          the scenario key reference (Markdown)
 *   herd --help | --version
 *
 * Exit status: 0 success; 1 the run failed (I/O, memory); 2 bad input (a
 * flag or the scenario), reported before any output file is created.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "../experiment/experiment.h"
#include "../report/csv.h"
#include "../base/alloc.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "../policy/herdpolicy.h"
#include "../report/plot.h"
#include "../scenario/scenario.h"

#define HERD_VERSION "0.2.0"
#define MAX_SETS 256

static void usage(FILE *f)
{
    fprintf(f,
            "usage: herd run SCENARIO [options]   simulate every strategy of a scenario\n"
            "       herd plot DIR [--quiet]       draw the figures of a results directory (gnuplot)\n"
            "       herd keys [--list]            print the scenario key reference (--list: one\n"
            "                                     tab-separated line per key, for scripts)\n"
            "       herd --help | --version\n"
            "\n"
            "run options:\n"
            "  -o, --output DIR        write CSVs into DIR (default out/<scenario name>/)\n"
            "  --seed N                master seed (overrides [run] seed)\n"
            "  --replications N        replications per strategy (overrides [run] replications)\n"
            "  --set SECTION.KEY=VALUE override any scenario key; repeatable\n"
            "                          e.g. --set clients.count=500 --set 'outage 1.end_s=20'\n"
            "  --sweep SECTION.KEY=FROM:TO:STEP | SECTION.KEY=A,B,C\n"
            "                          run once per value (adds a column to every CSV);\n"
            "                          repeatable: several sweeps make a grid\n"
            "  --jobs N                simulate on N threads (default: CPUs, at most 8);\n"
            "                          results do not depend on N\n"
            "  -q, --quiet             print nothing on success\n"
            "  --stats                 print events/s and peak memory on stderr\n"
            "  --queue NAME            pending-event set: ladder (default) or heap (the\n"
            "                          reference 4-ary heap); results do not depend on it\n"
            "  --plot                  then draw the figures, as herd plot DIR does\n"
            "\n"
            "outputs: DIR/summary.csv (one row per variant, sweep point, strategy and replication),\n"
            "         DIR/manifest.txt (version, command, seed, the expanded plan, the scenario verbatim),\n"
            "         DIR/aggregate.csv (mean and 95%% CI of every metric per variant, point, strategy),\n"
            "         DIR/timeseries.csv (per time bucket), DIR/compare.csv (with [run] baseline)\n"
            "figures: timeseries, goodput, sweep_<metric> (sweeps), compare (baseline),\n"
            "         sensitivity (baseline and two sweeps), variants ([variant] sections),\n"
            "         each as .png and .svg\n"
            "exit status: 0 ok, 1 run failed (I/O, memory), 2 bad flags or scenario\n");
}

static int need_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "herd: %s needs a value (see herd --help)\n", argv[i]);
        return 0;
    }
    return 1;
}

static int cmd_run(int argc, char **argv)
{
    const char *scenario = NULL, *outdir = NULL;
    static char setbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 128];
    int nsweep = 0;
    const char *sets[MAX_SETS];
    static char flagbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 160];
    const char *flags[MAX_SETS]; /* every override as given, for the manifest */
    int nsets = 0, nflags = 0, quiet = 0, stats = 0, plot = 0, queue = SIM_QUEUE_LADDER;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu;

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (!need_value(argc, argv, i))
                return 2;
            outdir = argv[++i];
        } else if (!strcmp(a, "--seed") || !strcmp(a, "--replications")) {
            if (!need_value(argc, argv, i))
                return 2;
            if (nsets == MAX_SETS || strlen(argv[i + 1]) > 40) {
                fprintf(stderr, "herd: %s: value too long or too many overrides\n", a);
                return 2;
            }
            snprintf(setbuf[nsets], sizeof setbuf[0], "run.%s=%s", a + 2, argv[i + 1]);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "%s %s", a, argv[i + 1]);
            flags[nflags] = flagbuf[nflags];
            nflags++;
            i++;
        } else if (!strcmp(a, "--sweep")) {
            if (!need_value(argc, argv, i))
                return 2;
            const char *spec = argv[++i], *eq = strchr(spec, '=');
            if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= SCN_SWEEP_KEY_MAX ||
                strlen(eq + 1) >= SCN_SWEEP_VALUES_MAX) {
                fprintf(stderr, "herd: --sweep %s: expected section.key=FROM:TO:STEP or section.key=A,B,C\n", spec);
                return 2;
            }
            if (nsets + 2 > MAX_SETS) {
                fprintf(stderr, "herd: too many --set / --sweep\n");
                return 2;
            }
            nsweep++;
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.key=%.*s", nsweep, (int)(eq - spec), spec);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.values=%s", nsweep, eq + 1);
            sets[nsets] = setbuf[nsets];
            nsets++;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--sweep %s", spec);
            flags[nflags] = flagbuf[nflags];
            nflags++;
        } else if (!strcmp(a, "--set")) {
            if (!need_value(argc, argv, i))
                return 2;
            if (nsets == MAX_SETS) {
                fprintf(stderr, "herd: too many --set (at most %d)\n", MAX_SETS);
                return 2;
            }
            sets[nsets++] = argv[++i];
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--set %s", argv[i]);
            flags[nflags] = flagbuf[nflags];
            nflags++;
        } else if (!strcmp(a, "--jobs")) {
            if (!need_value(argc, argv, i))
                return 2;
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 1 || v > 64) {
                fprintf(stderr, "herd: --jobs: expected an integer in [1, 64], got '%s'\n", argv[i]);
                return 2;
            }
            jobs = (int)v;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "--queue")) {
            if (!need_value(argc, argv, i))
                return 2;
            queue = sim_queue_parse(argv[++i]);
            if (queue < 0) {
                fprintf(stderr, "herd: --queue: expected ladder or heap, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--stats")) {
            stats = 1;
        } else if (!strcmp(a, "--plot")) {
            plot = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "herd: unknown option '%s' (see herd --help)\n", a);
            return 2;
        } else if (!scenario) {
            scenario = a;
        } else {
            fprintf(stderr, "herd: one scenario per run; got '%s' and '%s'\n", scenario, a);
            return 2;
        }
    }
    if (!scenario) {
        fprintf(stderr, "herd: run needs a scenario file, e.g. herd run scenarios/thundering-herd.ini\n");
        return 2;
    }
    scn_config *cfg = malloc(sizeof *cfg);
    if (!cfg) {
        fprintf(stderr, "herd: out of memory\n");
        return 1;
    }
    char err[SCN_ERR_MAX];
    char *text = NULL;
    size_t textlen = 0;
    if (scn_load_text(cfg, scenario, sets, nsets, err, &text, &textlen) != 0) {
        fprintf(stderr, "herd: %s\n", err);
        free(cfg);
        return 2;
    }
    char defdir[256];
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "out/%s", cfg->name);
        outdir = defdir;
    }
    exp_options opt = {.outdir = outdir, .quiet = quiet, .jobs = jobs, .stats = stats, .queue = queue,
                       .version = HERD_VERSION, .argc = argc, .argv = argv,
                       .text = text, .textlen = textlen, .sets = flags, .nsets = nflags};
    char rerr[1024];
    int rc = exp_run(cfg, scenario, &opt, rerr, sizeof rerr);
    free(cfg);
    herd_free(text);
    if (rc != 0) {
        fprintf(stderr, "herd: %s\n", rerr);
        return rc == -2 ? 2 : 1;
    }
    if (plot) {
        char perr[PLOT_ERR_MAX];
        if (plot_render(outdir, quiet, perr, sizeof perr) != 0) {
            fprintf(stderr, "herd: %s\n", perr);
            return 1;
        }
    }
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    const char *dir = NULL;
    int quiet = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "herd: unknown option '%s' (see herd --help)\n", a);
            return 2;
        } else if (!dir) {
            dir = a;
        } else {
            fprintf(stderr, "herd: plot takes one directory; got '%s' and '%s'\n", dir, a);
            return 2;
        }
    }
    if (!dir) {
        fprintf(stderr, "herd: plot needs a results directory, e.g. herd plot out/thundering-herd\n");
        return 2;
    }
    char err[PLOT_ERR_MAX];
    if (plot_render(dir, quiet, err, sizeof err) != 0) {
        fprintf(stderr, "herd: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* GSL must never abort the process; every GSL call site checks its
     * result instead. */
    gsl_set_error_handler_off();
    /* Ctrl-C leaves the previous complete outputs, or none: never a
     * truncated CSV, never a temporary. */
    csv_cleanup_on_signals();
    /* A file-size limit makes write() fail with EFBIG, reported like a full
     * disk, instead of killing the process mid-file. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("herd %s (libherdpolicy %s; state per client: %zu bytes, + %zu per outer retry layer, "
               "+ 1 per logical request, + %zu while latencies are kept exactly)\n",
               HERD_VERSION, HP_VERSION, sizeof(client), sizeof(hp_state), sizeof(double));
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc, argv);
    if (!strcmp(cmd, "plot"))
        return cmd_plot(argc, argv);
    if (!strcmp(cmd, "keys")) {
        if (argc > 3 || (argc == 3 && strcmp(argv[2], "--list"))) {
            fprintf(stderr, "herd: keys takes no argument but --list\n");
            return 2;
        }
        if (argc == 3)
            scn_print_key_list(stdout);
        else
            scn_print_reference(stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "herd: keys: cannot write to standard output\n");
            return 1;
        }
        return 0;
    }
    fprintf(stderr, "herd: unknown command '%s' (see herd --help)\n", cmd);
    return 2;
}
