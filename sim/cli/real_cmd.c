/*
 * real_cmd.c - herd serve and herd drive: the flags, then the real server
 * or the real clients (sim/real).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../real/drive.h"
#include "../real/real.h"
#include "cli.h"

/* The command line as one string, for manifest.txt. */
static void join_args(int argc, char **argv, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < argc && o + 2 < n; i++)
        o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", argv[i]);
}

/* herd serve and herd drive: the same parsing (serve != 0: --port; else
 * --target and the output options). */
int cmd_real(int argc, char **argv, int serve)
{
    const char *cmd = argv[1], *scenario = NULL, *target = NULL, *outdir = NULL;
    char setbuf[2][64] = {"", ""}; /* --seed, --replications as --set entries */
    const char *sets[MAX_SETS];
    int nsets = 0, quiet = 0, have_port = 0;
    double port = 0, max_s = -1, max_req = -1, connect_s = -1, x;
    enum { R_PORT = 256, R_TARGET, R_SET, R_SEED, R_REPS, R_MAXS, R_MAXR, R_CONNECT };
    static const struct option longopts[] = {
        {"port", required_argument, NULL, R_PORT},         {"target", required_argument, NULL, R_TARGET},
        {"set", required_argument, NULL, R_SET},           {"seed", required_argument, NULL, R_SEED},
        {"replications", required_argument, NULL, R_REPS}, {"max-seconds", required_argument, NULL, R_MAXS},
        {"max-requests", required_argument, NULL, R_MAXR}, {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},                 {"help", no_argument, NULL, 'h'},
        {"connect-timeout", required_argument, NULL, R_CONNECT},
        {NULL, 0, NULL, 0}};
    char **args = copy_args(argc, argv);
    if (!args)
        return 2;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc - 1, args + 1, serve ? ":qh" : ":o:qh", longopts, NULL)) != -1) {
        const char *v = optarg;
        if ((serve && (c == R_TARGET || c == R_SEED || c == R_REPS || c == R_CONNECT || c == 'o')) ||
            (!serve && c == R_PORT)) {
            const struct option *lo = longopts;
            while (lo->name && lo->val != c)
                lo++;
            errorf("%s does not take --%s (see herd %s --help)", cmd, lo->name ? lo->name : "?", cmd);
            return 2;
        }
        switch (c) {
        case R_PORT:
            if (number_flag("port", v, 0, 65535, 1, &port) != 0)
                return 2;
            have_port = 1;
            break;
        case R_TARGET: {
            char err[REAL_ERR_MAX];
            if (real_check_target(v, err, sizeof err) != 0) {
                errorf("%s", err);
                return 2;
            }
            target = v;
            break;
        }
        case 'o':
            if (!*v) {
                errorf("-o: expected a directory, got an empty path");
                return 2;
            }
            outdir = v;
            break;
        case R_SET:
            if (nsets >= MAX_SETS - 2) {
                errorf("too many --set (at most %d)", MAX_SETS - 2);
                return 2;
            }
            sets[nsets++] = v;
            break;
        case R_SEED:
        case R_REPS: {
            if (number_flag(c == R_SEED ? "seed" : "replications", v, 1,
                            c == R_SEED ? 9007199254740992.0 : 1000, 1, &x) != 0)
                return 2;
            /* one slot each (the two kept free above): given again, the last wins */
            char *slot = setbuf[c == R_REPS];
            int given = slot[0] != '\0';
            snprintf(slot, sizeof setbuf[0], "run.%s=%s", c == R_SEED ? "seed" : "replications", v);
            if (!given)
                sets[nsets++] = slot;
            break;
        }
        case R_MAXS:
            if (number_flag("max-seconds", v, 0.001, serve ? 86400 : 3600, 0, &max_s) != 0)
                return 2;
            break;
        case R_MAXR:
            if (number_flag("max-requests", v, 1, 1e12, 1, &max_req) != 0)
                return 2;
            break;
        case R_CONNECT:
            if (number_flag("connect-timeout", v, 0, 3600, 0, &connect_s) != 0)
                return 2;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            return help_for(cmd);
        default:
            return cli_option_error(cmd, c, args);
        }
    }
    char missing[160];
    snprintf(missing, sizeof missing, "%s needs a scenario file, e.g. herd %s scenarios/realcheck.ini %s", cmd, cmd,
             serve ? "--port 8080" : "--target http://127.0.0.1:8080/");
    if (cli_one_operand(argc, args, "one scenario per run", missing, &scenario) != 0)
        return 2;
    if (serve && !have_port) {
        errorf("serve needs --port P (0: any free port on 127.0.0.1)");
        return 2;
    }
    if (!serve && !target) {
        errorf("drive needs --target http://127.0.0.1:PORT/ (real traffic stays on loopback)");
        return 2;
    }
    char shown[128];
    scn_config *cfg = new_config(scenario, shown, sizeof shown);
    if (!cfg)
        return 1;
    char err[SCN_ERR_MAX + REAL_ERR_MAX];
    if (scn_load(cfg, scenario, sets, nsets, err) != 0) {
        errorf("%s", err);
        free(cfg);
        return 2;
    }
    int rc;
    if (serve) {
        model_spec *spec = malloc(sizeof *spec);
        if (!spec) {
            free(cfg);
            errorf("out of memory");
            return 1;
        }
        scn_compile(cfg, spec);
        serve_options o = {.port = (uint16_t)port, .max_seconds = max_s > 0 ? max_s : 3600,
                           .max_requests = max_req > 0 ? (uint64_t)max_req : 10000000u, .quiet = quiet};
        rc = real_serve(spec, &o, err, sizeof err);
        free(spec);
    } else {
        char defdir[256], command[4096];
        if (!outdir) {
            snprintf(defdir, sizeof defdir, "out/%s-real", cfg->name);
            outdir = defdir;
        }
        join_args(argc, argv, command, sizeof command);
        drive_options o = {.target = target, .max_seconds = max_s > 0 ? max_s : fmin(cfg->horizon_s, 600),
                           .max_requests = max_req > 0 ? (uint64_t)max_req : 1000000u,
                           .connect_timeout_s = connect_s, .quiet = quiet};
        rc = real_drive(cfg, shown, &o, outdir, command, err, sizeof err);
    }
    free(cfg);
    if (rc != 0) {
        errorf("%s", err);
        return rc == -2 ? 2 : 1;
    }
    return 0;
}
