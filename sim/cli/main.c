/*
 * main.c - the herd command line.
 *
 *   herd run SCENARIO [-o DIR] [--seed N] [--replications N]
 *                     [--set section.key=value ...] [--jobs N] [--quiet] [--stats] [--plot]
 *   herd plot DIR [options]   the figures of a results directory (gnuplot)
 *   herd report DIR [-o FILE] one self-contained HTML page of a results directory
 *   herd rare SCENARIO --levels L1,...,K [--effort N] [--repeats R] [--brute N]
 *                     a rare collapse's probability (multilevel splitting, brute force)
 *   herd tune SCENARIO --search KEY=SPEC ... --minimize METRIC [--subject-to 'M<=X' ...]
 *                     the setting to use, raced across operating points (sim/tune)
 *   herd keys          the scenario key reference (Markdown)
 *   herd serve SCENARIO --port P       a real HTTP server that behaves like the scenario's server
 *   herd drive SCENARIO --target URL   the scenario's clients in real time against a server
 *   herd --help | --version
 *
 * Exit status: 0 success; 1 the run failed (I/O, memory); 2 bad input (a
 * flag or the scenario), reported before any output file is created.
 *
 * Built with HERD_REAL_EXEC (./herd), serve and drive run herd-real, the
 * same program linked with libcurl and libmicrohttpd (this file without
 * HERD_REAL_EXEC), found beside the executable or in ../libexec/herd/: so
 * every other command starts without loading those libraries and theirs
 * (about 30 shared objects, 14 M instructions of dynamic linking).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
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
#include "../report/partial.h"
#include "../plot/plot.h"
#include "../report/report.h"
#include "../scenario/scenario.h"
#include "cli.h"

#define HERD_VERSION "0.2.0"

const char cli_version[] = HERD_VERSION;

#ifdef HERD_MPI
#include <mpi.h>
#endif

#ifdef HERD_REAL_EXEC
#include <errno.h>

/* herd serve / herd drive: replaces this process with herd-real (same
 * arguments), looked for beside the executable, then in
 * ../libexec/herd/.  Returns 1 (said on stderr) only when neither runs. */
static int exec_real(char **argv)
{
    char self[PATH_MAX], path[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        errorf("%s: cannot find the herd executable (/proc/self/exe): %s", argv[1], strerror(errno));
        return 1;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    *slash = 0;
    static const char *const where[] = {"%s/herd-real", "%s/../libexec/herd/herd-real"};
    int err = 0;
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        snprintf(path, sizeof path, where[i], self);
        execv(path, argv);
        if (errno != ENOENT || !err)
            err = errno;
    }
    snprintf(path, sizeof path, "%s/herd-real", self);
    errorf("%s: cannot run %s (or ../libexec/herd/herd-real beside it), the real-socket commands: %s", argv[1], path,
           strerror(err));
    return 1;
}
#endif


/* The options of herd run and herd check (--opt VALUE or --opt=VALUE). */
#define RUN_OPTIONS \
    "  -o, --output DIR        write CSVs into DIR (default out/<scenario name>/)\n" \
    "  --seed N                master seed (overrides [run] seed)\n" \
    "  --replications N        replications per strategy (overrides [run] replications)\n" \
    "  --set SECTION.KEY=VALUE override any scenario key; repeatable\n" \
    "                          e.g. --set clients.count=500 --set 'outage 1.end_s=20'\n" \
    "  --sweep SECTION.KEY=FROM:TO:STEP | SECTION.KEY=A,B,C\n" \
    "                          run once per value (adds a column to every CSV);\n" \
    "                          repeatable: several sweeps make a grid\n" \
    "  --jobs N                simulate on N threads (default: CPUs, at most 8);\n" \
    "                          results do not depend on N\n" \
    "  -q, --quiet             print nothing on success\n" \
    "  --stats                 print events/s and peak memory on stderr\n" \
    "  --explain               (check) print the model of every point: each retry loop's whole policy,\n" \
    "                          the clients, the server, its outages and limits, each value's origin\n" \
    "  --queue NAME            pending-event set: ladder (default) or heap (the reference\n" \
    "                          4-ary heap); results do not depend on it\n" \
    "  --plot                  then draw the figures, as herd plot DIR does\n" \
    "  --shard K/N             run shard K of N of the plan's jobs (balanced by cost) and\n" \
    "                          write DIR/partial.herd; herd merge makes the outputs\n" \
    "  --mpi                   (herd-mpi, under mpirun) hand jobs out to the MPI ranks;\n" \
    "                          rank 0 writes the outputs\n" \
    "  --live[=SPEED]          first watch replication 0 of every strategy as text, simulated\n" \
    "                          time paced at SPEED x wall time (default 1), then run the plan;\n" \
    "                          as wide as COLUMNS and at most LINES tall (else the terminal's\n" \
    "                          size; at least 80x24)\n"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: herd run SCENARIO [options]   simulate every strategy of a scenario\n"
            "       herd check SCENARIO [options] validate and print the plan (points, jobs, memory,\n"
            "                                     events) without running anything\n"
            "       herd plot DIR [options]       draw the figures of a results directory (gnuplot;\n"
            "                                     herd plot --help for styles and selection)\n"
            "       herd tune SCENARIO --search KEY=SPEC ... --minimize METRIC [--subject-to 'M<=X' ...]\n"
            "                                     the setting to use: a search raced on common random\n"
            "                                     numbers across operating points (herd tune --help)\n"
            "       herd report DIR [-o FILE]     one self-contained HTML page of a results directory, to\n"
            "                                     share a run (default DIR/report.html; herd report --help)\n"
            "       herd merge OUT DIR... [--plot] combine the shards of one run (--shard) into OUT\n"
            "       herd rare SCENARIO --levels ...  the probability of a rare collapse: multilevel\n"
            "                                     splitting and brute force (herd rare --help)\n"
            "       herd columns                  print the columns of summary.csv and their meaning\n"
            "       herd keys [--list]            print the scenario key reference (--list: one\n"
            "                                     tab-separated line per key, for scripts)\n"
            "       herd presets                  print the client-library retry presets, their\n"
            "                                     formulas and their sources\n"
            "       herd plugin check PATH.so [KEY=VALUE ...]  a retry plugin against its contract:\n"
            "                                     handshake, imported symbols, determinism (doc/plugins.md)\n"
            "       herd serve SCENARIO --port P  a real HTTP server on 127.0.0.1 that behaves like the\n"
            "                                     scenario's server (herd serve --help)\n"
            "       herd drive SCENARIO --target URL  the scenario's clients in real time against an HTTP\n"
            "                                     server on loopback; the CSVs of herd run (herd drive --help)\n"
            "       herd --help | --version\n"
            "\n"
            "run and check options:\n"
            "%s"
            "\n"
            "outputs: DIR/summary.csv (one row per variant, sweep point, strategy and replication),\n"
            "         DIR/manifest.txt (version, command, seed, the expanded plan, the scenario verbatim),\n"
            "         DIR/aggregate.csv (mean and 95%% CI of every metric per variant, point, strategy),\n"
            "         DIR/timeseries.csv (per time bucket), DIR/compare.csv (with [run] baseline)\n"
            "figures: timeseries, goodput, sweep_<metric> (sweeps), compare (baseline),\n"
            "         sensitivity (baseline and two sweeps), variants ([variant] sections),\n"
            "         each as .png and .svg\n"
            "exit status: 0 ok, 1 run failed (I/O, memory), 2 bad flags or scenario\n",
            RUN_OPTIONS);
}

/* "K/N" with 1 <= K <= N <= 4096, digits only: 0, else -1. */
static int sscanf_shard(const char *v, unsigned *k, unsigned *n, char *tail)
{
    (void)tail;
    char *end;
    if (*v < '0' || *v > '9')
        return -1;
    unsigned long a = strtoul(v, &end, 10);
    if (*end != '/' || end[1] < '0' || end[1] > '9')
        return -1;
    unsigned long b = strtoul(end + 1, &end, 10);
    if (*end || a < 1 || b < 1 || a > b || b > 4096)
        return -1;
    *k = (unsigned)a;
    *n = (unsigned)b;
    return 0;
}


/* Prints the help of one subcommand on stdout; exit status 0, or 1 if it
 * could not be written. */
int help_for(const char *cmd)
{
    if (!strcmp(cmd, "run") || !strcmp(cmd, "check"))
        printf("usage: herd %s SCENARIO [options]\n%s", cmd,
               !strcmp(cmd, "run") ? "simulate every variant, sweep point, strategy and replication of a scenario\n\n"
                                   : "validate a scenario and print its plan, memory and events; run nothing\n\n");
    if (!strcmp(cmd, "run") || !strcmp(cmd, "check"))
        fputs(RUN_OPTIONS, stdout);
    else if (!strcmp(cmd, "plot"))
        printf("usage: herd plot DIR [options]\ndraw the figures of a results directory (gnuplot), after "
               "checking every CSV in it\n\n"
               "  --style talk|paper      talk (default): 1600x900, 16 pt text, thick lines; paper: smaller\n"
               "  --term png|dumb         png (default): PNG and SVG files beside the CSVs;\n"
               "                          dumb: the figures as text on stdout (for ssh sessions), as wide\n"
               "                          as COLUMNS and a screen of LINES per figure (else the terminal's\n"
               "                          size; at least 80x24)\n"
               "  --figure NAME           draw only this figure (timeseries, goodput, compare, variants,\n"
               "                          sensitivity, replay, sweep_METRIC: those the directory has)\n"
               "  --gif                   also write DIR/load.gif: load over time per strategy, animated\n"
               "  --variant V             the variant drawn over time and in the sweep figures\n"
               "                          (default: the first; goodput draws every variant)\n"
               "  --point P               the sweep point drawn over time and in the variants figure:\n"
               "                          KEY=VALUE, or VALUE for the swept keys in order; repeatable\n"
               "                          (default: the first point)\n"
               "  --replication R         the replication drawn over time (default: 0)\n"
               "  --metric M              a metric (a column of summary.csv) for the sweep, variants\n"
               "                          and compare figures; repeatable (default: the sweep five,\n"
               "                          the scenario's [run] columns)\n"
               "  -q, --quiet             print nothing on success\n\n"
               "A value that is not in the data is refused with the valid ones (exit status 2).\n");
    else if (!strcmp(cmd, "merge"))
        printf("usage: herd merge OUT DIR... [--plot] [--quiet]\ncombine the partial results of the shards of "
               "one run (herd run --shard K/N -o DIR) into OUT, byte for byte the outputs of a single run\n");
    else if (!strcmp(cmd, "rare"))
        printf("%s", cli_rare_help);
    else if (!strcmp(cmd, "tune"))
        printf("%s", cli_tune_help);
    else if (!strcmp(cmd, "report"))
        printf("%s", cli_report_help);
    else if (!strcmp(cmd, "serve"))
        printf("usage: herd serve SCENARIO --port P [options]\n"
               "a real HTTP server on 127.0.0.1 that behaves like the scenario's server model: workers, queue,\n"
               "service times, outages (refused connections, a status, a black hole), error rates, 429 with\n"
               "Retry-After, lost replies; herd drive resets it before each replication (/_herd/reset)\n\n"
               "  --port P                the TCP port on 127.0.0.1 (0: any free port; the line printed\n"
               "                          on start names it)\n"
               "  --set SECTION.KEY=VALUE override any scenario key; repeatable\n"
               "  --max-seconds S         stop by itself after S seconds (default 3600, at most 86400)\n"
               "  --max-requests N        stop by itself after N requests (default 10000000)\n"
               "  -q, --quiet             print only the URL on start\n\n"
               "It stops on SIGINT or SIGTERM (exit status 0).\n");
    else if (!strcmp(cmd, "drive"))
        printf("usage: herd drive SCENARIO --target URL [options]\n"
               "run the scenario's clients in real time against an HTTP server on loopback, every retry\n"
               "decision through libherdpolicy's client API; writes the CSVs of herd run\n\n"
               "  --target URL            http://127.0.0.1:PORT/PATH or http://localhost:PORT/PATH (nothing\n"
               "                          else: real traffic stays on loopback); against herd serve, each\n"
               "                          replication starts with a reset and ends with its counters\n"
               "  -o, --output DIR        write CSVs into DIR (default out/<scenario name>-real/)\n"
               "  --seed N                master seed (overrides [run] seed)\n"
               "  --replications N        replications per strategy (overrides [run] replications)\n"
               "  --set SECTION.KEY=VALUE override any scenario key; repeatable\n"
               "  --max-seconds S         per replication: stop after S seconds and count what is open as\n"
               "                          unfinished (default: [run] horizon_s, at most 600; at most 3600)\n"
               "  --max-requests N        per replication: the same after N attempts (default 1000000)\n"
               "  --connect-timeout S     how long a target that refuses connections is waited for before\n"
               "                          the run fails (exit 1, nothing written); default 5 s plus the end\n"
               "                          of the scenario's last connection_refused outage, which herd serve\n"
               "                          refuses from its start and from each reset (--max-seconds does\n"
               "                          not bound this wait)\n"
               "  -q, --quiet             print nothing on success\n\n"
               "Any HTTP server is a target: unless GET /_herd/info answers 200 \"herd serve\" (any other\n"
               "status, an empty body or a closed connection), drive says once that it is not herd serve and\n"
               "runs without control requests; the server-side metrics are then the client's view.\n");
    else if (!strcmp(cmd, "columns"))
        printf("usage: herd columns\nprint the columns of summary.csv and what each means (Markdown)\n");
    else if (!strcmp(cmd, "keys"))
        printf("usage: herd keys [--list]\nprint the scenario key reference (Markdown), or with --list one "
               "tab-separated line per key\n");
    else if (!strcmp(cmd, "presets"))
        printf("usage: herd presets\nprint the client-library retry presets (preset = NAME in [retry], [tool] "
               "or [layer]): attempts, sleep formula, what they retry, Retry-After, deadline, and the source "
               "each was read from (Markdown)\n");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        errorf("%s --help: cannot write to standard output", cmd);
        return 1;
    }
    return 0;
}

/* herd check --explain: the resolved model of every point on stdout
 * (scn_explain_points, the function manifest.txt uses too). */
static int cli_explain(const scn_config *cfg, const char *shown, const char *const *sets, int nsets, int canonical,
                       char *err, size_t errlen)
{
    if (!canonical)
        printf("resolved model (each value's origin after #; unused: values the model never reads)\n");
    if (scn_explain_points(stdout, cfg, shown, sets, nsets, !canonical) != 0 || fflush(stdout) != 0) {
        snprintf(err, errlen, "%s: cannot write the resolved model", shown);
        return -1;
    }
    return 0;
}

/* herd run, or with check, herd check: the same flags, the same
 * validation; check prints the plan and runs nothing. */
static int cmd_run(int argc, char **argv, int check)
{
    const char *scenario = NULL, *outdir = NULL;
    static char setbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 128];
    int nsweep = 0;
    const char *sets[MAX_SETS];
    const char *set_shown[MAX_SETS]; /* how sets[i] was written, for messages (NULL: --set sets[i]) */
    static char flagbuf[MAX_SETS][SCN_SWEEP_VALUES_MAX + 160];
    const char *flags[MAX_SETS]; /* every override as given, for the manifest */
    int nsets = 0, nflags = 0, quiet = 0, stats = 0, plot = 0, mpi = 0, queue = SIM_QUEUE_LADDER;
    unsigned shard_k = 0, shard_n = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu;

    enum { O_SEED = 256, O_REPS, O_SET, O_SWEEP, O_JOBS, O_STATS, O_PLOT, O_MPI, O_SHARD, O_LIVE, O_QUEUE, O_EXPLAIN,
           O_CANONICAL };
    int explain = 0, canonical = 0;
    double live = 0;
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},     {"seed", required_argument, NULL, O_SEED},
        {"replications", required_argument, NULL, O_REPS}, {"set", required_argument, NULL, O_SET},
        {"sweep", required_argument, NULL, O_SWEEP},  {"jobs", required_argument, NULL, O_JOBS},
        {"quiet", no_argument, NULL, 'q'},            {"stats", no_argument, NULL, O_STATS},
        {"plot", no_argument, NULL, O_PLOT},          {"mpi", no_argument, NULL, O_MPI},
        {"shard", required_argument, NULL, O_SHARD},  {"help", no_argument, NULL, 'h'},
        {"live", optional_argument, NULL, O_LIVE},    {"queue", required_argument, NULL, O_QUEUE},
        {"explain", no_argument, NULL, O_EXPLAIN},    {"canonical", no_argument, NULL, O_CANONICAL},
        {NULL, 0, NULL, 0}};
    /* getopt_long permutes its vector: parse a copy, keep argv as given
     * for the manifest */
    char **args = copy_args(argc, argv);
    if (!args)
        return 2;
    int c, idx;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, args + 1, ":o:qh", longopts, &idx)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'o':
            outdir = v;
            if (!*outdir) {
                errorf("-o: expected a directory, got an empty path");
                return 2;
            }
            if (strlen(outdir) >= PATH_MAX - 64) {
                errorf("-o: the output path is longer than %d bytes", PATH_MAX - 64);
                return 2;
            }
            break;
        case O_SEED:
        case O_REPS: {
            const char *name = c == O_SEED ? "seed" : "replications";
            if (nsets == MAX_SETS || strlen(v) > 40) {
                errorf("--%s: value too long or too many overrides", name);
                return 2;
            }
            snprintf(setbuf[nsets], sizeof setbuf[0], "run.%s=%s", name, v);
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--%s %s", name, v);
            sets[nsets] = setbuf[nsets];
            set_shown[nsets] = flagbuf[nflags];
            nsets++;
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        }
        case O_SWEEP: {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1] || (size_t)(eq - v) >= SCN_SWEEP_KEY_MAX ||
                strlen(eq + 1) >= SCN_SWEEP_VALUES_MAX) {
                errorf("--sweep %s: expected section.key=FROM:TO:STEP or section.key=A,B,C", v);
                return 2;
            }
            if (nsets + 2 > MAX_SETS) {
                errorf("too many --set / --sweep");
                return 2;
            }
            nsweep++;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--sweep %s", v);
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.key=%.*s", nsweep, (int)(eq - v), v);
            sets[nsets] = setbuf[nsets];
            set_shown[nsets] = flagbuf[nflags];
            nsets++;
            snprintf(setbuf[nsets], sizeof setbuf[0], "sweep cli-%d.values=%s", nsweep, eq + 1);
            sets[nsets] = setbuf[nsets];
            set_shown[nsets] = flagbuf[nflags];
            nsets++;
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        }
        case O_SET:
            if (nsets == MAX_SETS) {
                errorf("too many --set (at most %d)", MAX_SETS);
                return 2;
            }
            set_shown[nsets] = NULL;
            sets[nsets++] = v;
            snprintf(flagbuf[nflags], sizeof flagbuf[0], "--set %s", v);
            flags[nflags] = flagbuf[nflags];
            nflags++;
            break;
        case O_JOBS: {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 64) {
                errorf("--jobs: expected an integer in [1, 64], got '%s'", v);
                return 2;
            }
            jobs = (int)n;
            break;
        }
        case 'q':
            quiet = 1;
            break;
        case O_QUEUE:
            queue = sim_queue_parse(v);
            if (queue < 0) {
                errorf("--queue: expected ladder or heap, got '%s'", v);
                return 2;
            }
            break;
        case O_STATS:
            stats = 1;
            break;
        case O_EXPLAIN:
            if (!check) {
                errorf("--explain: only herd check prints the resolved model (herd run writes it to manifest.txt)");
                return 2;
            }
            explain = 1;
            break;
        case O_CANONICAL: /* hidden, for tests/noop.sh: only the canonical model of every point */
            if (!check) {
                errorf("--canonical: a herd check option");
                return 2;
            }
            canonical = 1;
            break;
        case O_PLOT:
            plot = 1;
            break;
        case O_MPI:
            mpi = 1;
            break;
        case O_SHARD: {
            char tail;
            if (sscanf_shard(v, &shard_k, &shard_n, &tail) != 0) {
                errorf("--shard %s: expected K/N with 1 <= K <= N <= 4096 (e.g. --shard 2/8)", v);
                return 2;
            }
            break;
        }
        case O_LIVE: {
            live = 1;
            if (v) {
                char *end;
                live = strtod(v, &end);
                if (end == v || *end || !(live > 0) || live > 1e6) {
                    errorf("--live=%s: expected a speed in (0, 1e6] simulated seconds per second (e.g. --live=5)", v);
                    return 2;
                }
            }
            break;
        }
        case 'h':
            return help_for(argv[1]);
        default:
            return cli_option_error(argv[1], c, args);
        }
    }
    char missing[128];
    snprintf(missing, sizeof missing, "%s needs a scenario file, e.g. herd %s scenarios/thundering-herd.ini", argv[1],
             argv[1]);
    if (cli_one_operand(argc, args, "one scenario per run", missing, &scenario) != 0)
        return 2;
    char shown[128];
    scn_config *cfg = new_config(scenario, shown, sizeof shown);
    if (!cfg)
        return 1;
    char err[SCN_ERR_MAX];
    char *text = NULL;
    size_t textlen = 0;
    if (scn_load_text(cfg, scenario, sets, set_shown, nsets, err, &text, &textlen) != 0) {
        errorf("%s", err);
        free(cfg);
        return 2;
    }
    char defdir[256];
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "out/%s", cfg->name);
        outdir = defdir;
    }
    if (plot && shard_n) {
        errorf("--plot with --shard: a shard has no figures; plot the merged directory (herd merge OUT DIR... --plot)");
        free(cfg);
        herd_free(text);
        return 2;
    }
    int live_cols = 0, live_lines = 0;
    if (!check && (live > 0 || !quiet) && cli_term_size(&live_cols, &live_lines) != 0) {
        free(cfg);
        herd_free(text);
        return 2;
    }
    const char *ec = getenv("COLUMNS"), *el = getenv("LINES");
    exp_options opt = {.live_cols = live > 0 ? live_cols : 0, .live_lines = live > 0 ? live_lines : 0,
                       .live_follow = !(ec && *ec) && !(el && *el), .table_cols = quiet ? 0 : live_cols,
                       .outdir = outdir, .quiet = quiet, .jobs = jobs, .stats = stats, .queue = queue,
                       .shard_k = shard_k, .shard_n = shard_n, .mpi = mpi, .live = check ? 0 : live,
                       .version = HERD_VERSION, .argc = argc, .argv = argv,
                       .text = text, .textlen = textlen, .sets = flags, .nsets = nflags,
                       .scn_sets = sets, .scn_nsets = nsets};
    char rerr[SCN_ERR_MAX + 512];
    int rc = canonical ? 0
             : check   ? exp_check(cfg, shown, &opt, stdout, rerr, sizeof rerr)
                       : exp_run(cfg, shown, &opt, rerr, sizeof rerr);
    if (rc == 0 && (explain || canonical))
        rc = cli_explain(cfg, shown, sets, nsets, canonical, rerr, sizeof rerr);
    free(cfg);
    herd_free(text);
    if (rc != 0) {
        errorf("%s", rerr);
        return rc == -2 ? 2 : 1;
    }
    if (plot && !check) {
        char perr[PLOT_ERR_MAX];
        int prc = plot_render(outdir, quiet, perr, sizeof perr);
        if (prc != 0) {
            errorf("%s", perr);
            return prc == PLOT_INVALID ? 2 : 1;
        }
    }
    return 0;
}

/* herd merge OUT DIR...: the shards' partial results into OUT. */
static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const char *dirs[4096];
    int ndirs = 0, quiet = 0, plot = 0;
    static const struct option longopts[] = {{"quiet", no_argument, NULL, 'q'},
                                             {"plot", no_argument, NULL, 'p'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, argv + 1, ":qh", longopts, NULL)) != -1) {
        if (c == 'q') {
            quiet = 1;
        } else if (c == 'p') {
            plot = 1;
        } else if (c == 'h') {
            return help_for("merge");
        } else {
            return cli_option_error("merge", c, argv);
        }
    }
    for (int i = optind + 1; i < argc; i++) {
        const char *a = argv[i];
        if (!out) {
            if (!*a) {
                errorf("merge: expected an output directory, got an empty path");
                return 2;
            }
            out = a;
        } else if (ndirs == (int)(sizeof dirs / sizeof dirs[0])) {
            errorf("merge: at most 4096 shard directories");
            return 2;
        } else {
            dirs[ndirs++] = a;
        }
    }
    if (!out || !ndirs) {
        errorf("merge needs an output directory and the shards' directories, e.g. herd merge out/all out/s1 out/s2");
        return 2;
    }
    char err[4096];
    int rc = rep_merge(out, dirs, ndirs, err, sizeof err);
    if (rc != 0) {
        errorf("%s", err);
        return rc == -2 ? 2 : 1;
    }
    if (!quiet && (printf("herd: merged %d shard(s) into %s\n", ndirs, out) < 0 || fflush(stdout) != 0)) {
        errorf("merge: cannot write to standard output");
        return 1;
    }
    if (plot) {
        char perr[PLOT_ERR_MAX];
        int prc = plot_render(out, quiet, perr, sizeof perr);
        if (prc != 0) {
            errorf("%s", perr);
            return prc == PLOT_INVALID ? 2 : 1;
        }
    }
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    const char *dir = NULL;
    int c;
    plot_opts o;
    plot_opts_init(&o);
    enum { P_STYLE = 256, P_TERM, P_GIF, P_VARIANT, P_POINT, P_REPLICATION, P_METRIC, P_FIGURE };
    static const struct option longopts[] = {
        {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
        {"style", required_argument, NULL, P_STYLE}, {"term", required_argument, NULL, P_TERM},
        {"gif", no_argument, NULL, P_GIF},          {"variant", required_argument, NULL, P_VARIANT},
        {"point", required_argument, NULL, P_POINT}, {"replication", required_argument, NULL, P_REPLICATION},
        {"metric", required_argument, NULL, P_METRIC}, {"figure", required_argument, NULL, P_FIGURE},
        {NULL, 0, NULL, 0}};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, argv + 1, ":qh", longopts, NULL)) != -1) {
        if (c == 'q') {
            o.quiet = 1;
        } else if (c == 'h') {
            return help_for("plot");
        } else if (c == P_STYLE) {
            if (!strcmp(optarg, "talk") || !strcmp(optarg, "paper")) {
                o.style = !strcmp(optarg, "talk") ? PLOT_STYLE_TALK : PLOT_STYLE_PAPER;
            } else {
                errorf("--style '%s': no such style; expected talk (1600x900, large text) or paper", optarg);
                return 2;
            }
        } else if (c == P_TERM) {
            if (!strcmp(optarg, "png") || !strcmp(optarg, "dumb")) {
                o.term = !strcmp(optarg, "png") ? PLOT_TERM_PNG : PLOT_TERM_DUMB;
            } else {
                errorf("--term '%s': no such terminal; expected png (PNG and SVG files) or dumb (text on stdout)",
                       optarg);
                return 2;
            }
        } else if (c == P_GIF) {
            o.gif = 1;
        } else if (c == P_VARIANT) {
            o.variant = optarg;
        } else if (c == P_REPLICATION) {
            o.replication = optarg;
        } else if (c == P_FIGURE) {
            o.figure = optarg;
        } else if (c == P_POINT || c == P_METRIC) {
            int *n = c == P_POINT ? &o.npoint : &o.nmetric;
            if (*n == PLOT_MAX_SELECT) {
                errorf("--%s given more than %d times", c == P_POINT ? "point" : "metric", PLOT_MAX_SELECT);
                return 2;
            }
            (c == P_POINT ? o.point : o.metric)[(*n)++] = optarg;
        } else {
            return cli_option_error("plot", c, argv);
        }
    }
    if (cli_one_operand(argc, argv, "plot takes one directory",
                        "plot needs a results directory, e.g. herd plot out/thundering-herd", &dir) != 0)
        return 2;
    if (o.term == PLOT_TERM_DUMB && cli_term_size(&o.cols, &o.lines) != 0)
        return 2;
    char err[PLOT_ERR_MAX];
    int rc = plot_render_opts(dir, &o, err, sizeof err);
    if (rc != 0) {
        errorf("%s", err);
        return rc == PLOT_INVALID ? 2 : 1;
    }
    return 0;
}


/* herd columns, herd presets: a reference printed to stdout, no argument
 * but --help. */
static int cmd_print(int argc, char **argv, int (*print)(FILE *))
{
    const char *cmd = argv[1];
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
        return help_for(cmd);
    if (argc > 2) {
        errorf("%s takes no argument (see herd %s --help)", cmd, cmd);
        return 2;
    }
    if (print(stdout) != 0) {
        errorf("%s: cannot write to standard output", cmd);
        return 1;
    }
    return 0;
}

static int herd(int argc, char **argv);

int main(int argc, char **argv)
{
#ifdef HERD_MPI
    for (int i = 2; i < argc && argc > 1 && !strcmp(argv[1], "run"); i++)
        if (!strcmp(argv[i], "--mpi")) {
            MPI_Init(&argc, &argv);
            MPI_Comm_rank(MPI_COMM_WORLD, &cli_mpi_rank);
            cli_mpi_on = 1;
            break;
        }
    int rc = herd(argc, argv);
    if (cli_mpi_on) {
        fflush(stdout);
        if (rc != 0)
            MPI_Abort(MPI_COMM_WORLD, rc);
        MPI_Finalize();
    }
    return rc;
#else
    return herd(argc, argv);
#endif
}

/* The command line, once MPI (if any) is up. */
static int herd(int argc, char **argv)
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
        if (fflush(stdout) != 0 || ferror(stdout)) {
            errorf("--help: cannot write to standard output");
            return 1;
        }
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("herd %s (libherdpolicy %s; state per client: %zu bytes, + %zu per outer retry layer, "
               "+ 1 per logical request, + %zu while latencies are kept exactly)\n",
               HERD_VERSION, HP_VERSION, sizeof(client), sizeof(hp_state), sizeof(double));
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc, argv, 0);
    if (!strcmp(cmd, "check"))
        return cmd_run(argc, argv, 1);
    if (!strcmp(cmd, "plot"))
        return cmd_plot(argc, argv);
    if (!strcmp(cmd, "merge"))
        return cmd_merge(argc, argv);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc, argv);
    if (!strcmp(cmd, "rare"))
        return cmd_rare(argc, argv);
    if (!strcmp(cmd, "tune"))
        return cmd_tune(argc, argv);
#ifdef HERD_REAL_EXEC
    if (!strcmp(cmd, "serve") || !strcmp(cmd, "drive"))
        return exec_real(argv);
#else
    if (!strcmp(cmd, "serve") || !strcmp(cmd, "drive"))
        return cmd_real(argc, argv, !strcmp(cmd, "serve"));
#endif
    if (!strcmp(cmd, "columns"))
        return cmd_print(argc, argv, rep_print_columns);
    if (!strcmp(cmd, "keys")) {
        if (argc > 3 || (argc == 3 && strcmp(argv[2], "--list"))) {
            errorf("keys takes no argument but --list");
            return 2;
        }
        if (argc == 3)
            scn_print_key_list(stdout);
        else
            scn_print_reference(stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            errorf("keys: cannot write to standard output");
            return 1;
        }
        return 0;
    }
    if (!strcmp(cmd, "presets"))
        return cmd_print(argc, argv, rep_print_presets);
    if (!strcmp(cmd, "plugin"))
        return cmd_plugin(argc, argv);
    errorf("unknown command '%s' (see herd --help)", cmd);
    return 2;
}
