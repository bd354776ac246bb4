/*
 * plot.c - runs the gnuplot scripts of plots/ on a results directory (see
 * plot.h).
 *
 * gnuplot's stdout and stderr go to an unnamed temporary file rather than a
 * pipe, so a chatty gnuplot can never block on a full pipe while we wait for
 * it; its first lines are quoted when it fails.  A figure counts as written
 * when, after gnuplot exits with status 0, the file exists, is not empty and
 * is not the one that was there before (inode, size or modification time
 * changed).  Nothing is allocated: paths live in fixed PATH_MAX buffers and
 * too long a path is an error.
 */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define GNUPLOT_MISSING "gnuplot not found in PATH; install gnuplot-nox (make deps does)"
#define QUOTED_LINES 6   /* lines of gnuplot's output quoted in an error */
#define QUOTED_WIDTH 200 /* characters kept of each */

/* A script and the figures (base names) it writes, each as .png and .svg. */
typedef struct plot_script {
    const char *name;
    const char *const *figures;
    size_t nfigures;
} plot_script;

static const char *const timeseries_figs[] = {"timeseries"};
static const char *const sweep_figs[] = {"sweep_completion_time_s", "sweep_calls", "sweep_peak_arrivals_per_s",
                                         "sweep_p99_latency_s", "sweep_failures"};
static const char *const compare_figs[] = {"compare"};
static const char *const sensitivity_figs[] = {"sensitivity"};
static const char *const variants_figs[] = {"variants"};
static const char *const goodput_figs[] = {"goodput"};
enum { SCRIPT_TIMESERIES, SCRIPT_SWEEP, SCRIPT_COMPARE, SCRIPT_SENSITIVITY, SCRIPT_VARIANTS, SCRIPT_GOODPUT, NSCRIPTS };
static const plot_script scripts[NSCRIPTS] = {
    {"timeseries.gp", timeseries_figs, 1},
    {"sweep.gp", sweep_figs, sizeof sweep_figs / sizeof sweep_figs[0]},
    {"compare.gp", compare_figs, 1},
    {"sensitivity.gp", sensitivity_figs, 1},
    {"variants.gp", variants_figs, 1},
    {"goodput.gp", goodput_figs, 1},
};
static const char *const formats[] = {"png", "svg"};
#define MAX_FIGURES 7 /* 1 + 5 + 1 */

/* snprintf into out[PATH_MAX]; -1 with err when the path does not fit. */
static int path_fmt(char *out, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, PATH_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= PATH_MAX) {
        snprintf(err, errlen, "%.200s...: path too long", out);
        return -1;
    }
    return 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* 1 if the CSV at path has a line after its header, 0 if not, -1 with err. */
static int has_data_row(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int c;
    while ((c = getc(f)) != EOF && c != '\n')
        ;
    int rows = c == '\n' && getc(f) != EOF;
    fclose(f);
    return rows;
}

/* The number of sweep columns of the CSV at path (the columns before
 * `strategy` in its header), or -1 with err; *variant is set if the first
 * of them is `variant`. */
static int sweep_columns(const char *path, int *variant, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char head[4096];
    if (!fgets(head, sizeof head, f))
        head[0] = '\0';
    fclose(f);
    *variant = !strncmp(head, "variant,", 8);
    int n = 0;
    for (char *p = head;; n++) {
        size_t len = strcspn(p, ",\r\n");
        if (len == 8 && !memcmp(p, "strategy", 8))
            return n;
        if (p[len] != ',')
            break;
        p += len + 1;
    }
    snprintf(err, errlen, "%s: no strategy column in the header", path);
    return -1;
}

/* 1 if every script is readable in d. */
static int has_scripts(const char *d)
{
    char p[PATH_MAX], e[8];
    for (size_t i = 0; i < NSCRIPTS; i++)
        if (path_fmt(p, e, sizeof e, "%s/%s", d, scripts[i].name) || access(p, R_OK) != 0)
            return 0;
    return 1;
}

/* The plots directory into out[PATH_MAX]: $HERD_PLOTS, <exe dir>/plots or
 * <exe dir>/../share/herd/plots.  0, or -1 with err. */
static int find_scripts(char *out, char *err, size_t errlen)
{
    const char *env = getenv("HERD_PLOTS");
    if (env && *env) {
        if (path_fmt(out, err, errlen, "%s", env))
            return -1;
        if (!has_scripts(out)) {
            snprintf(err, errlen, "HERD_PLOTS=%s: no timeseries.gp, sweep.gp and compare.gp there", env);
            return -1;
        }
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0) {
        snprintf(err, errlen, "cannot find the plot scripts: /proc/self/exe: %s; set HERD_PLOTS to the plots directory",
                 strerror(errno));
        return -1;
    }
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    if (path_fmt(out, err, errlen, "%s/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    if (path_fmt(out, err, errlen, "%s/../share/herd/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    snprintf(err, errlen,
             "cannot find the plot scripts in %s/plots or %s/../share/herd/plots; set HERD_PLOTS to the plots directory",
             exe, exe);
    return -1;
}

/* Appends to err the first non-blank lines of log, each indented. */
static void quote_log(FILE *log, char *err, size_t errlen)
{
    char line[QUOTED_WIDTH + 2];
    int quoted = 0;
    rewind(log);
    while (quoted < QUOTED_LINES && fgets(line, sizeof line, log)) {
        size_t n = strlen(line);
        int cut = n > 0 && line[n - 1] != '\n' && !feof(log);
        if (cut) { /* skip the rest of a long line */
            int c;
            while ((c = getc(log)) != EOF && c != '\n')
                ;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (strspn(line, " \t") == n)
            continue;
        size_t used = strlen(err);
        if (used + 1 < errlen)
            snprintf(err + used, errlen - used, "\n  %s%s", line, cut ? "..." : "");
        quoted++;
    }
}

/* Runs `gnuplot -c script dir`.  0 when gnuplot exits with status 0, else
 * -1 with err (gnuplot missing, or its status and first lines). */
static int run_gnuplot(const char *script, const char *dir, char *err, size_t errlen)
{
    FILE *log = tmpfile();
    if (!log) {
        snprintf(err, errlen, "cannot create a temporary file for gnuplot's messages: %s", strerror(errno));
        return -1;
    }
    int rc = -1;
    posix_spawn_file_actions_t fa;
    int e = posix_spawn_file_actions_init(&fa);
    if (e) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    if ((e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, fileno(log), 1)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, fileno(log), 2))) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        posix_spawn_file_actions_destroy(&fa);
        goto done;
    }
    char *argv[] = {"gnuplot", "-c", (char *)script, (char *)dir, NULL};
    pid_t pid;
    e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT) {
        snprintf(err, errlen, GNUPLOT_MISSING);
        goto done;
    }
    if (e) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "gnuplot -c %s %s: waitpid: %s", script, dir, strerror(errno));
            goto done;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rc = 0;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(err, errlen, GNUPLOT_MISSING); /* a spawn that reports exec failure as 127 */
    } else {
        if (WIFEXITED(status))
            snprintf(err, errlen, "gnuplot -c %s %s failed (exit status %d):", script, dir, WEXITSTATUS(status));
        else
            snprintf(err, errlen, "gnuplot -c %s %s was killed by signal %d:", script, dir,
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        quote_log(log, err, errlen);
    }
done:
    fclose(log);
    return rc;
}

/* What a figure file looked like before gnuplot ran (exists == 0: absent). */
typedef struct figure_state {
    int exists;
    struct stat st;
} figure_state;

static void figure_before(const char *path, figure_state *fs)
{
    fs->exists = stat(path, &fs->st) == 0;
}

/* 0 if path is a non-empty file that gnuplot (re)wrote, else -1 with err. */
static int figure_check(const char *path, const figure_state *before, const char *script, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s did not write %s", script, path);
        return -1;
    }
    if (st.st_size == 0) {
        snprintf(err, errlen, "%s wrote an empty %s", script, path);
        return -1;
    }
    if (before->exists && st.st_ino == before->st.st_ino && st.st_size == before->st.st_size &&
        st.st_mtim.tv_sec == before->st.st_mtim.tv_sec && st.st_mtim.tv_nsec == before->st.st_mtim.tv_nsec) {
        snprintf(err, errlen, "%s did not rewrite %s", script, path);
        return -1;
    }
    return 0;
}

/* Runs one script and checks its figures. */
static int render_one(const plot_script *s, const char *plots, const char *dir, char *err, size_t errlen)
{
    char script[PATH_MAX], fig[PATH_MAX];
    figure_state before[MAX_FIGURES][2];
    if (path_fmt(script, err, errlen, "%s/%s", plots, s->name))
        return -1;
    for (size_t i = 0; i < s->nfigures; i++)
        for (size_t k = 0; k < 2; k++) {
            if (path_fmt(fig, err, errlen, "%s/%s.%s", dir, s->figures[i], formats[k]))
                return -1;
            figure_before(fig, &before[i][k]);
        }
    if (run_gnuplot(script, dir, err, errlen))
        return -1;
    for (size_t i = 0; i < s->nfigures; i++)
        for (size_t k = 0; k < 2; k++) {
            path_fmt(fig, err, errlen, "%s/%s.%s", dir, s->figures[i], formats[k]);
            if (figure_check(fig, &before[i][k], script, err, errlen))
                return -1;
        }
    return 0;
}

int plot_render(const char *dir, int quiet, char *err, size_t errlen)
{
    char d[PATH_MAX], csv[PATH_MAX], plots[PATH_MAX];
    int use[NSCRIPTS] = {0};

    if (path_fmt(d, err, errlen, "%s", dir))
        return -1;
    for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
        d[n - 1] = '\0';
    if (path_fmt(csv, err, errlen, "%s/aggregate.csv", d))
        return -1;
    if (!is_file(csv)) {
        snprintf(err, errlen, "%s: not a herd results directory (no aggregate.csv)", dir);
        return -1;
    }
    int variant, nsweeps = sweep_columns(csv, &variant, err, errlen), r;
    if (nsweeps < 0)
        return -1;
    nsweeps -= variant;
    use[SCRIPT_SWEEP] = nsweeps > 0;
    use[SCRIPT_VARIANTS] = variant;
    if (path_fmt(csv, err, errlen, "%s/timeseries.csv", d))
        return -1;
    if (is_file(csv)) {
        if ((r = has_data_row(csv, err, errlen)) < 0)
            return -1;
        use[SCRIPT_TIMESERIES] = r;
        use[SCRIPT_GOODPUT] = r;
    }
    if (path_fmt(csv, err, errlen, "%s/compare.csv", d))
        return -1;
    use[SCRIPT_COMPARE] = is_file(csv);
    use[SCRIPT_SENSITIVITY] = use[SCRIPT_COMPARE] && nsweeps == 2 && !variant;
    if (find_scripts(plots, err, errlen))
        return -1;

    for (size_t i = 0; i < NSCRIPTS; i++)
        if (use[i] && render_one(&scripts[i], plots, d, err, errlen))
            return -1;

    if (!quiet) {
        const char *sep = "wrote ";
        for (size_t i = 0; i < NSCRIPTS; i++)
            for (size_t j = 0; use[i] && j < scripts[i].nfigures; j++)
                for (size_t k = 0; k < 2; k++) {
                    printf("%s%s/%s.%s", sep, d, scripts[i].figures[j], formats[k]);
                    sep = ", ";
                }
        if (*sep == ',')
            printf("\n");
        else
            printf("%s: nothing to plot (timeseries.csv is empty, no sweep, no compare.csv)\n", d);
    }
    return 0;
}

int plot_dir(const char *dir, char *err, size_t errlen)
{
    return plot_render(dir, 0, err, errlen);
}
