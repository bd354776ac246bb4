/*
 * common.c - messages and flag parsing shared by the commands (cli.h).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../spec/dist.h"

#ifdef HERD_MPI
int cli_mpi_on, cli_mpi_rank;
#endif

void errorf(const char *fmt, ...)
{
    char msg[2048], out[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)msg; *p && o + 5 < sizeof out; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            out[o++] = '\\';
            out[o++] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
        } else if (*p < 0x20 || *p == 0x7f) {
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", *p);
        } else {
            out[o++] = (char)*p;
        }
    }
    out[o] = '\0';
#ifdef HERD_MPI
    if (cli_mpi_on && cli_mpi_rank != 0)
        return; /* every rank fails alike: rank 0 says it once */
#endif
    fprintf(stderr, "herd: %s\n", out);
}

/* The message for an option getopt_long did not accept (args[ind - 1] is
 * the culprit, or optopt for a short one). */
static void bad_option(const char *cmd, char **args, int ind)
{
    const char *a = ind > 0 ? args[ind - 1] : "";
    if (a[0] == '-' && a[1] == '-' && strchr(a, '=') && optopt)
        errorf("%.*s takes no value, got '%s' (see herd %s --help)", (int)(strchr(a, '=') - a), a, a, cmd);
    else if (a[0] == '-' && a[1] == '-')
        errorf("unknown option '%s' (see herd %s --help)", a, cmd);
    else
        errorf("unknown option '-%c' (see herd %s --help; a path that starts with '-' needs ./ or --)",
               optopt ? optopt : '?', cmd);
}

char **copy_args(int argc, char **argv)
{
    static char *args[4096];
    if (argc > (int)(sizeof args / sizeof args[0])) {
        errorf("too many arguments (at most %zu)", sizeof args / sizeof args[0]);
        return NULL;
    }
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    return args;
}

int cli_one_operand(int argc, char **args, const char *many, const char *missing, const char **out)
{
    for (int i = optind + 1; i < argc; i++) {
        if (*out) {
            errorf("%s; got '%s' and '%s'", many, *out, args[i]);
            return -1;
        }
        *out = args[i];
    }
    if (!*out) {
        errorf("%s", missing);
        return -1;
    }
    return 0;
}

scn_config *new_config(const char *scenario, char *shown, size_t n)
{
    scn_display_path(scenario, shown, n);
    scn_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        errorf("out of memory");
    return cfg;
}

int int_flag(const char *flag, const char *v, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || v[0] == '-' || n < lo || n > hi) {
        errorf("%s: expected an integer in [%llu, %llu], got '%s'", flag, lo, hi, v);
        return -1;
    }
    *out = n;
    return 0;
}

int number_flag(const char *flag, const char *v, double lo, double hi, int integer, double *out)
{
    double x;
    if (spec_parse_number(v, &x) != 0 || !(x >= lo && x <= hi) || (integer && x != floor(x))) {
        errorf("--%s: expected %s in [%g, %g], got '%s'", flag, integer ? "an integer" : "a number", lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cli_option_error(const char *cmd, int c, char **args)
{
    if (c == ':')
        errorf("%s needs a value (see herd %s --help)", args[optind], cmd);
    else
        bad_option(cmd, args + 1, optind);
    return 2;
}

/* The environment variable name as a size: 1 and *out, 0 when unset or
 * empty, -1 (printed) when not a whole number in [1, 100000]. */
static int env_size(const char *name, int *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || n < 1 || n > 100000) {
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s", v);
        errorf("%s='%s': expected the terminal's size, a whole number in [1, 100000] (or unset it)", name, shown);
        return -1;
    }
    *out = (int)n;
    return 1;
}

int cli_term_size(int *cols, int *lines)
{
    *cols = *lines = 0;
    int hc = env_size("COLUMNS", cols), hl = env_size("LINES", lines);
    if (hc < 0 || hl < 0)
        return -1;
    struct winsize ws;
    if ((!hc || !hl) && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
        if (!hc)
            *cols = ws.ws_col;
        if (!hl)
            *lines = ws.ws_row;
    }
    return 0;
}
