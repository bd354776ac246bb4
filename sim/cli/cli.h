/*
 * cli.h - what the commands of the herd command line share (sim/cli):
 * messages, flag parsing, the scenario operand.  main.c holds usage,
 * help and the dispatch; rare_cmd.c and real_cmd.c the commands that
 * stand beside herd run.
 */
#ifndef HERD_CLI_H
#define HERD_CLI_H

#include <stddef.h>

#include "../scenario/scenario.h"

#define MAX_SETS 256

#ifdef HERD_MPI
extern int cli_mpi_on, cli_mpi_rank; /* started with --mpi under mpirun; rank 0 speaks */
#endif

/* Prints "herd: MESSAGE" on stderr as one line: control characters in the
 * message (a value with a newline, say) are escaped as \n, \r, \t or \xHH. */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The help of one subcommand on stdout (main.c); 0, or 1 if it could not
 * be written. */
int help_for(const char *cmd);

/* The end of a command's getopt_long loop (optstring starting with ':'):
 * a missing value (c == ':') or an option the command does not know;
 * prints the message and returns 2, the exit status. */
int cli_option_error(const char *cmd, int c, char **args);

/* A copy of argv for getopt_long to permute (one command per process),
 * or NULL with the error printed. */
char **copy_args(int argc, char **argv);

/* The one operand after the options (args[optind + 1 ..]) into *out:
 * 0, or -1 with "MANY; got 'A' and 'B'" printed when there are two, or
 * with MISSING printed when there is none. */
int cli_one_operand(int argc, char **args, const char *many, const char *missing, const char **out);

/* A scenario configuration to load (malloc'ed: it is large) and the
 * scenario's path as messages show it; NULL (said on stderr) when out of
 * memory. */
scn_config *new_config(const char *scenario, char *shown, size_t n);

/* An integer flag value in [lo, hi] (digits only) into *out; 0, or -1
 * with the error printed. */
int int_flag(const char *flag, const char *v, unsigned long long lo, unsigned long long hi,
             unsigned long long *out);

/* A number flag in the scenario files' one number syntax
 * (spec_parse_number), in [lo, hi], a whole number if integer; 0, else -1
 * with the message printed. */
int number_flag(const char *flag, const char *v, double lo, double hi, int integer, double *out);

/* herd's version (main.c), for manifests. */
extern const char cli_version[];

/* herd plugin check (plugin_cmd.c). */
int cmd_plugin(int argc, char **argv);

/* herd tune (tune_cmd.c). */
extern const char cli_tune_help[];
int cmd_tune(int argc, char **argv);

/* The size of the text that --term dumb and --live draw: COLUMNS and
 * LINES when set, else the terminal's (TIOCGWINSZ) when standard output is
 * one, else 0 (the drawing's default: 80 x 24); each dimension on its own.
 * 0, or -1 with the error printed (COLUMNS or LINES not a whole number in
 * [1, 100000]). */
int cli_term_size(int *cols, int *lines);

/* herd rare (rare_cmd.c), herd serve / herd drive (real_cmd.c), herd
 * report (report_cmd.c). */
extern const char cli_rare_help[], cli_report_help[];
int cmd_report(int argc, char **argv);
int cmd_rare(int argc, char **argv);
int cmd_real(int argc, char **argv, int serve);

#endif
