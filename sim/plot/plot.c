/*
 * plot.c - herd plot's driver: validates a results directory
 * (plot_load.c), prepares each figure's data (plot_data.c) and draws the
 * figures with the gnuplot scripts of plots/ (see plot.h,
 * plot_internal.h).
 *
 * Draw: `gnuplot -c SCRIPT WORKDIR [OPTION ...]` per script; the figures
 * land in WORKDIR and are renamed into the results directory when every
 * script succeeded (with the dumb terminal, printed on stdout instead).
 * The WORKDIR path given to gnuplot starts with '/' or "./", so gnuplot
 * never reads it as a pipe ("<cmd", "|cmd").
 *
 * gnuplot's stdout and stderr go to an unnamed temporary file rather than a
 * pipe, so a chatty gnuplot can never block on a full pipe while we wait for
 * it; its first lines are quoted when it fails.
 *
 * Signals: from the private directory's creation to its removal, SIGINT,
 * SIGTERM and SIGHUP are only recorded (plot_hold); while gnuplot runs
 * they are blocked and taken by sigtimedwait.  gnuplot runs in a process
 * group of its own; a signal kills that group (SIGTERM, SIGKILL after
 * KILL_GRACE_S), waits for it, then the private directory is removed and
 * the signal raised again with the handlers of before (herd's removes its
 * temporaries and exits 128 + signal).  No gnuplot outlives herd plot, and
 * no .herd-plot.XXXXXX directory stays behind.
 */
#include "plot_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "../model/results.h"
#include "../report/csv.h"

extern char **environ;

#define GNUPLOT_MISSING "gnuplot not found in PATH; install gnuplot-nox (make deps does)"
#define QUOTED_LINES 6   /* lines of gnuplot's output quoted in an error */
#define QUOTED_WIDTH 200 /* characters kept of each */
#define KILL_GRACE_S 2.0 /* SIGTERM to gnuplot's group, then SIGKILL after this long */

/* ------------------------------------------------------------------------
 * Signals while the private directory exists (see the top of the file)
 * ------------------------------------------------------------------------ */

static const int held_signals[] = {SIGINT, SIGTERM, SIGHUP};
static volatile sig_atomic_t plot_caught; /* the signal recorded, 0: none */

static void on_held_signal(int sig)
{
    if (!plot_caught)
        plot_caught = sig;
}

static void held_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < COUNT(held_signals); i++)
        sigaddset(set, held_signals[i]);
}

void plot_hold_signals(plot_hold *h)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_held_signal; /* no SA_RESTART: a blocking call returns EINTR */
    sigfillset(&sa.sa_mask);
    if (h->on)
        return;
    for (size_t i = 0; i < COUNT(held_signals); i++)
        sigaction(held_signals[i], &sa, &h->old[i]);
    h->on = 1;
}

void plot_release_signals(plot_hold *h)
{
    if (!h->on)
        return;
    for (size_t i = 0; i < COUNT(held_signals); i++)
        sigaction(held_signals[i], &h->old[i], NULL);
    h->on = 0;
    int sig = plot_caught;
    plot_caught = 0;
    if (sig)
        raise(sig); /* an outer hold's handler records it again */
}

int plot_held_signal(void) { return (int)plot_caught; }

/* 0, or -1 with err if a held signal was recorded. */
static int interrupted(char *err, size_t errlen)
{
    if (!plot_caught)
        return 0;
    snprintf(err, errlen, "interrupted by signal %d", (int)plot_caught);
    return -1;
}

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Waits for gnuplot (pid, leader of its own process group) with the held
 * signals blocked: a signal kills the group (SIGTERM, then SIGKILL after
 * KILL_GRACE_S) and is recorded.  0 with *status, or -1 with errno. */
static int wait_child(pid_t pid, int *status)
{
    sigset_t set, old;
    held_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    double killed = -1;
    int rc = 0;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            rc = -1;
            break;
        }
        if (plot_caught && killed < 0) {
            kill(-pid, SIGTERM);
            killed = mono_now();
        } else if (killed >= 0 && mono_now() - killed > KILL_GRACE_S) {
            kill(-pid, SIGKILL);
        }
        struct timespec slice = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000};
        int sig = sigtimedwait(&set, NULL, &slice);
        if (sig > 0 && !plot_caught)
            plot_caught = sig;
    }
    if (killed >= 0)
        kill(-pid, SIGKILL); /* whatever gnuplot started in its group */
    int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return rc;
}

/* ------------------------------------------------------------------------
 * The scripts and their figures
 * ------------------------------------------------------------------------ */

static const char *const script_names[] = {"timeseries.gp", "goodput.gp", "sweep.gp",  "compare.gp",
                                           "sensitivity.gp", "variants.gp", "animate.gp", "replay.gp"};

static void add_fig(job *j, const char *prefix, const char *name)
{
    if (j->nfig < MAX_FIGS)
        snprintf(j->fig[j->nfig++], sizeof j->fig[0], "%s%s", prefix, name);
}

/* 1 if every script is readable in d. */
static int has_scripts(const char *d)
{
    char p[PATH_MAX], e[8];
    for (size_t i = 0; i < COUNT(script_names); i++)
        if (plot_path_fmt(p, e, sizeof e, "%s/%s", d, script_names[i]) || access(p, R_OK) != 0)
            return 0;
    return 1;
}

/* The plots directory into out[PATH_MAX]: $HERD_PLOTS, <exe dir>/plots or
 * <exe dir>/../share/herd/plots.  0, or -1 with err. */
static int find_scripts(char *out, char *err, size_t errlen)
{
    const char *env = getenv("HERD_PLOTS");
    char shown[SHOWN_MAX + 8];
    if (env && *env) {
        if (plot_path_fmt(out, err, errlen, "%s", env))
            return -1;
        if (!has_scripts(out)) {
            plot_esc(shown, sizeof shown, env, SHOWN_MAX);
            snprintf(err, errlen, "HERD_PLOTS=%s: no timeseries.gp, sweep.gp and compare.gp there", shown);
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
    if (plot_path_fmt(out, err, errlen, "%s/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    if (plot_path_fmt(out, err, errlen, "%s/../share/herd/plots", exe))
        return -1;
    if (has_scripts(out))
        return 0;
    plot_esc(shown, sizeof shown, exe, SHOWN_MAX);
    snprintf(err, errlen,
             "cannot find the plot scripts in %s/plots or %s/../share/herd/plots; set HERD_PLOTS to the plots directory",
             shown, shown);
    return -1;
}

/* Appends to err the first non-blank lines of log, each indented and
 * escaped. */
static void quote_log(FILE *log, char *err, size_t errlen)
{
    char line[QUOTED_WIDTH + 2], shown[4 * QUOTED_WIDTH + 8];
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
        plot_esc(shown, sizeof shown, line, QUOTED_WIDTH);
        size_t used = strlen(err);
        if (used + 1 < errlen)
            snprintf(err + used, errlen - used, "\n  %s%s", shown, cut ? "..." : "");
        quoted++;
    }
}

/* Runs `gnuplot -c script wd [a1 [a2]]`.  0 when gnuplot exits with status
 * 0, else -1 with err (gnuplot missing, or its status and first lines). */
static int run_gnuplot(const char *script, const char *wd, const char *a1, const char *a2, char *err, size_t errlen)
{
    char shown[SHOWN_MAX + 8];
    plot_esc(shown, sizeof shown, script, SHOWN_MAX);
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
    /* its own process group (so that a signal can end it and all it
     * started), the held signals at their defaults */
    posix_spawnattr_t at;
    sigset_t defs;
    held_set(&defs);
    if ((e = posix_spawnattr_init(&at))) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        posix_spawn_file_actions_destroy(&fa);
        goto done;
    }
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setsigdefault(&at, &defs);
    char *argv[] = {"gnuplot", "-c", (char *)script, (char *)wd, (char *)a1, (char *)a2, NULL};
    pid_t pid;
    e = posix_spawnp(&pid, "gnuplot", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (e == ENOENT) {
        snprintf(err, errlen, GNUPLOT_MISSING);
        goto done;
    }
    if (e) {
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    int status;
    if (wait_child(pid, &status) != 0) {
        snprintf(err, errlen, "gnuplot -c %s: waitpid: %s", shown, strerror(errno));
        goto done;
    }
    if (interrupted(err, errlen))
        goto done;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rc = 0;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(err, errlen, GNUPLOT_MISSING); /* a spawn that reports exec failure as 127 */
    } else {
        if (WIFEXITED(status))
            snprintf(err, errlen, "gnuplot -c %s failed (exit status %d):", shown, WEXITSTATUS(status));
        else
            snprintf(err, errlen, "gnuplot -c %s was killed by signal %d:", shown,
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        quote_log(log, err, errlen);
    }
done:
    fclose(log);
    return rc;
}

/* The file kinds a job writes: png and svg, txt (dumb), or gif. */
static int job_formats(const folder *fo, const job *j, const char **fmt)
{
    if (j->gif) {
        fmt[0] = "gif";
        return 1;
    }
    if (fo->o->term == PLOT_TERM_DUMB) {
        fmt[0] = "txt";
        return 1;
    }
    if (fo->o->term == PLOT_TERM_SVG) {
        fmt[0] = "svg";
        return 1;
    }
    fmt[0] = "png";
    fmt[1] = "svg";
    return 2;
}

/* Whether figure f of job j is drawn (--figure). */
static int fig_wanted(const folder *fo, const job *j, int f)
{
    return !fo->o->figure || !strcmp(fo->o->figure, j->fig[f]);
}

/* --figure: keeps only the jobs that draw it; PLOT_INVALID with the
 * figures of this directory when none does. */
static int select_figure(const folder *fo, job *jobs, int *njobs, char *err, size_t errlen)
{
    if (!fo->o->figure)
        return 0;
    int kept = 0;
    char names[1024] = "";
    for (int i = 0; i < *njobs; i++) {
        int has = 0;
        for (int f = 0; f < jobs[i].nfig; f++) {
            has |= fig_wanted(fo, &jobs[i], f);
            if (!jobs[i].gif)
                plot_append(names, sizeof names, ", ", jobs[i].fig[f], NULL);
        }
        if (has)
            jobs[kept++] = jobs[i];
    }
    if (kept == 0) {
        char v[VALUE_SHOWN * 4 + 8];
        plot_esc(v, sizeof v, fo->o->figure, VALUE_SHOWN);
        snprintf(err, errlen, "--figure '%s': this directory has no such figure; expected one of: %s", v,
                 names[0] ? names : "(none: nothing to plot)");
        return PLOT_INVALID;
    }
    *njobs = kept;
    return 0;
}

int plot_check_figure(const char *path, char *err, size_t errlen)
{
    static const unsigned char png_head[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char png_tail[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    char shown[SHOWN_MAX + 8];
    const char *ext = strrchr(path, '.');
    ext = ext ? ext + 1 : "";
    plot_esc(shown, sizeof shown, path, SHOWN_MAX);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        snprintf(err, errlen, "%s: %s (a full disk?); no figure published", shown,
                 fd < 0 ? strerror(errno) : "gnuplot wrote an empty file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    unsigned char head[16], tail[64];
    size_t nt = st.st_size < (off_t)sizeof tail ? (size_t)st.st_size : sizeof tail;
    ssize_t h = pread(fd, head, sizeof head, 0), t = pread(fd, tail, nt, st.st_size - (off_t)nt);
    close(fd);
    int ok = h > 0 && t == (ssize_t)nt;
    const char *kind = ext;
    if (ok && !strcmp(ext, "png")) {
        kind = "PNG (its IEND chunk)";
        ok = h >= 8 && !memcmp(head, png_head, 8) && nt >= 12 && !memcmp(tail + nt - 12, png_tail, 12);
    } else if (ok && !strcmp(ext, "svg")) {
        kind = "SVG (</svg>)";
        while (nt > 0 && strchr(" \t\r\n", tail[nt - 1]))
            nt--;
        ok = nt >= 6 && !memcmp(tail + nt - 6, "</svg>", 6);
    } else if (ok && !strcmp(ext, "gif")) {
        kind = "GIF (its trailer byte)";
        ok = h >= 6 && !memcmp(head, "GIF8", 4) && tail[nt - 1] == 0x3b;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: gnuplot wrote %lld bytes that do not end as a whole %s does (a full disk?); "
                 "no figure published", shown, (long long)st.st_size, kind);
        return -1;
    }
    return 0;
}

/* Runs job j on wd and checks that it wrote each figure there. */
static int render_one(const folder *fo, const job *j, const char *plots, const char *wd, char *err, size_t errlen)
{
    char script[PATH_MAX], fig[PATH_MAX], shown[SHOWN_MAX + 8];
    const char *fmt[2];
    int nf = job_formats(fo, j, fmt);
    if (j->nskip == j->nfig) /* nothing defined to draw (plot_prepare said so) */
        return 0;
    if (plot_path_fmt(script, err, errlen, "%s%s/%s", plots[0] == '/' ? "" : "./", plots, j->script))
        return -1;
    if (run_gnuplot(script, wd, j->a1, j->a2, err, errlen))
        return -1;
    for (int f = 0; f < j->nfig; f++)
        for (int k = 0; k < nf && !j->skip[f]; k++) {
            struct stat st;
            if (plot_path_fmt(fig, err, errlen, "%s/%s.%s", wd, j->fig[f], fmt[k]))
                return -1;
            if (stat(fig, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
                plot_esc(shown, sizeof shown, script, SHOWN_MAX);
                snprintf(err, errlen, "%s did not write %s.%s", shown, j->fig[f], fmt[k]);
                return -1;
            }
            if (plot_check_figure(fig, err, errlen)) /* gnuplot exits 0 on a failed write */
                return -1;
        }
    return 0;
}

/* Copies the text figure wd/NAME.txt to stdout: printable ASCII and
 * newlines only (a form feed between pages dropped). */
static int print_text(const char *wd, const char *name, char *err, size_t errlen)
{
    char p[PATH_MAX];
    if (plot_path_fmt(p, err, errlen, "%s/%s.txt", wd, name))
        return -1;
    FILE *f;
    int e = 0;
    herd_file_status s = herd_file_open(p, 1LL << 30, 0, &f, NULL, &e);
    if (s != HERD_FILE_OK) {
        char why[160];
        snprintf(err, errlen, "%s.txt: %s", name, herd_file_why(s, 1LL << 30, e, why, sizeof why));
        return -1;
    }
    int c, col = 0;
    while ((c = getc(f)) != EOF) {
        if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
            putchar(c);
            col = c == '\n' ? 0 : col + 1;
        }
    }
    if (col)
        putchar('\n');
    fclose(f);
    return 0;
}

/* Removes the private directory wd and whatever is in it. */
static void remove_workdir(const char *wd)
{
    DIR *dp = opendir(wd);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL)
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(dirfd(dp), de->d_name, 0);
        closedir(dp);
    }
    rmdir(wd);
}

/* HERD_PLOT_DATA=keep is a directory of figure data of its own: not the
 * results directory d, not any folder that holds results (aggregate.csv,
 * summary.csv or manifest.txt), whose files the figure data would replace
 * (compare.csv, timeseries.csv).  0, or -1 with err. */
static int check_keep(const char *keep, const char *d, char *err, size_t errlen)
{
    static const char *const results[] = {"aggregate.csv", "summary.csv", "manifest.txt"};
    char shown[SHOWN_MAX + 8], p[PATH_MAX];
    struct stat a, b;
    plot_esc(shown, sizeof shown, keep, SHOWN_MAX);
    if (stat(keep, &a) != 0 || !S_ISDIR(a.st_mode)) {
        snprintf(err, errlen, "HERD_PLOT_DATA=%s: not a directory", shown);
        return -1;
    }
    int same = stat(d, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    for (size_t i = 0; !same && i < COUNT(results); i++)
        if (!plot_path_fmt(p, err, errlen, "%s/%s", keep, results[i]) && lstat(p, &b) == 0) {
            snprintf(err, errlen, "HERD_PLOT_DATA=%s: a results folder (it holds %s); expected a directory of "
                     "its own for the figure data", shown, results[i]);
            return -1;
        }
    if (same) {
        snprintf(err, errlen, "HERD_PLOT_DATA=%s: the results directory itself; expected a directory of its own "
                 "for the figure data", shown);
        return -1;
    }
    return 0;
}

void plot_remove_figures(const char *dir)
{
    static const char *const fixed[] = {"timeseries", "goodput", "compare", "sensitivity", "variants", "replay", "load"};
    static const char *const ext[] = {"png", "svg", "gif"};
    char p[PATH_MAX], e[8];
    for (size_t i = 0; i < COUNT(fixed) + metric_count; i++)
        for (size_t k = 0; k < COUNT(ext); k++) {
            int bad = i < COUNT(fixed) ? plot_path_fmt(p, e, sizeof e, "%s/%s.%s", dir, fixed[i], ext[k])
                                       : plot_path_fmt(p, e, sizeof e, "%s/sweep_%s.%s", dir,
                                                       metric_table[i - COUNT(fixed)].name, ext[k]);
            if (!bad)
                unlink(p); /* ENOENT for most: nothing to do */
        }
}

void plot_opts_init(plot_opts *o)
{
    memset(o, 0, sizeof *o);
    o->style = PLOT_STYLE_TALK;
    o->term = PLOT_TERM_PNG;
}

/* The figures of the loaded folder fo, into jobs[0..9): their number. */
static int plan_jobs(const folder *fo, const plot_opts *o, job *jobs)
{
    int nsweeps = fo->ks.k - fo->ks.variant, njobs = 0;
    int ml[MAX_WANT], nm;
    if (fo->ts.rows > 0) {
        jobs[njobs].script = "timeseries.gp";
        add_fig(&jobs[njobs++], "", "timeseries");
    }
    if (nsweeps > 0) {
        jobs[njobs].script = "sweep.gp";
        jobs[njobs].a1 = "auto";
        nm = plot_sweep_metric_list(fo, ml);
        for (int i = 0; i < nm; i++)
            add_fig(&jobs[njobs], "sweep_", metric_table[ml[i]].name);
        njobs++;
    }
    if (fo->cmp.present) {
        if (nsweeps > 0) { /* swept: drawn like the sweep figures */
            jobs[njobs].script = "sweep.gp";
            jobs[njobs].a1 = "linear";
            jobs[njobs].a2 = "compare";
        } else {
            jobs[njobs].script = "compare.gp";
        }
        add_fig(&jobs[njobs++], "", "compare");
    }
    if (fo->cmp.present && nsweeps == 2 && !fo->ks.variant) {
        jobs[njobs].script = "sensitivity.gp";
        add_fig(&jobs[njobs++], "", "sensitivity");
    }
    if (fo->ks.variant) {
        jobs[njobs].script = "variants.gp";
        add_fig(&jobs[njobs++], "", "variants");
    }
    if (fo->ts.rows > 0) {
        jobs[njobs].script = "goodput.gp";
        add_fig(&jobs[njobs++], "", "goodput");
    }
    if (fo->in.present) {
        jobs[njobs].script = "replay.gp";
        add_fig(&jobs[njobs++], "", "replay");
    }
    if (o->gif) {
        jobs[njobs].script = "animate.gp";
        jobs[njobs].gif = 1;
        add_fig(&jobs[njobs++], "", "load");
    }
    return njobs;
}

/* Stage 1 of herd plot: dir's manifest (optional) and CSVs, loaded and
 * validated into *fo (its path, without trailing slashes, into d; escaped
 * for messages into shown), and the figures to draw, *njobs of them in
 * *jobs (herd_calloc'd: the caller frees it and fo, whatever the result).
 * 0, PLOT_INVALID or -1 with err. */
static int load_folder(const char *dir, const plot_opts *o, folder *fo, char d[PATH_MAX], char shown[SHOWN_MAX + 8],
                       job **jobs, int *njobs, char *err, size_t errlen)
{
    char from[PATH_MAX];
    int rc;
    memset(fo, 0, sizeof *fo);
    fo->o = o;
    *jobs = NULL;
    *njobs = 0;
    if (plot_path_fmt(d, err, errlen, "%s", dir))
        return -1;
    for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
        d[n - 1] = '\0';
    plot_esc(shown, SHOWN_MAX + 8, dir, SHOWN_MAX);
    if (plot_path_fmt(from, err, errlen, "%s/aggregate.csv", d))
        return -1;
    struct stat st;
    if (stat(from, &st) != 0) {
        snprintf(err, errlen, "%s: not a herd results directory (no aggregate.csv)", shown);
        return -1;
    }
    /* what the scenario says (optional), the metrics the figures keep,
     * then every CSV, validated */
    if ((rc = plot_load_manifest(fo, d, err, errlen)) != 0)
        return rc;
    plot_want_metrics(fo);
    if ((rc = plot_load_csvs(fo, d, dir, err, errlen)) != 0)
        return rc;
    if (!(*jobs = herd_calloc(9, sizeof **jobs))) {
        plot_oom(err, errlen);
        return -1;
    }
    *njobs = plan_jobs(fo, o, *jobs);
    return select_figure(fo, *jobs, njobs, err, errlen);
}

int plot_render_opts(const char *dir, const plot_opts *o, char *err, size_t errlen)
{
    char d[PATH_MAX], wd[PATH_MAX], plots[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
    char shown[SHOWN_MAX + 8];
    int rc = -1, made = 0, njobs = 0;
    job *jobs = NULL;
    folder fo;
    plot_hold hold = {.on = 0};
    csv_pub pub = {.on = 0, .lockfd = -1};
    if ((rc = load_folder(dir, o, &fo, d, shown, &jobs, &njobs, err, errlen)) != 0)
        goto done;
    rc = -1;
    if (njobs && find_scripts(plots, err, errlen))
        goto done;
    const char *dest = o->figdir ? o->figdir : d; /* where the figures land */

    /* 2. the figures' data, in a private directory beside the figures (so
     * that they can be renamed into place) */
    if (njobs) {
        if (plot_path_fmt(wd, err, errlen, "%s%s/.herd-plot.XXXXXX", dest[0] == '/' ? "" : "./", dest))
            goto done;
        plot_hold_signals(&hold);
        if (!mkdtemp(wd)) {
            snprintf(err, errlen, "%s: cannot write figures there: %s", shown, strerror(errno));
            goto done;
        }
        made = 1;
        if (plot_prepare(&fo, jobs, njobs, dir, wd, 1, err, errlen))
            goto done;
        const char *keep = getenv("HERD_PLOT_DATA");
        if (keep && *keep &&
            (csv_mkdirs(keep, err, errlen) || check_keep(keep, d, err, errlen) ||
             plot_prepare(&fo, jobs, njobs, dir, keep, 0, err, errlen)))
            goto done;
    }

    /* 3. draw, then move every figure into place (or print it) */
    for (int i = 0; i < njobs; i++)
        if (interrupted(err, errlen) || render_one(&fo, &jobs[i], plots, wd, err, errlen))
            goto done;
    if (interrupted(err, errlen))
        goto done;
    if (njobs && csv_publish_begin(&pub, dest, err, errlen))
        goto done; /* every figure renamed as one step (csv.h) */
    for (int i = 0; i < njobs; i++) {
        const char *fmt[2];
        int nf = job_formats(&fo, &jobs[i], fmt);
        for (int f = 0; f < jobs[i].nfig; f++)
            for (int k = 0; k < nf && fig_wanted(&fo, &jobs[i], f); k++) {
                if (jobs[i].skip[f]) { /* not drawn: an earlier drawing of it is not this data's */
                    if (strcmp(fmt[k], "txt") && !plot_path_fmt(to, err, errlen, "%s/%s.%s", dest, jobs[i].fig[f], fmt[k]))
                        unlink(to);
                    continue;
                }
                if (!strcmp(fmt[k], "txt")) {
                    if (print_text(wd, jobs[i].fig[f], err, errlen))
                        goto done;
                    continue;
                }
                if (plot_path_fmt(from, err, errlen, "%s/%s.%s", wd, jobs[i].fig[f], fmt[k]) ||
                    plot_path_fmt(to, err, errlen, "%s/%s.%s", dest, jobs[i].fig[f], fmt[k]))
                    goto done;
                if (rename(from, to) != 0) {
                    char t[SHOWN_MAX + 8];
                    plot_esc(t, sizeof t, to, SHOWN_MAX);
                    snprintf(err, errlen, "%s: cannot write the figure: %s", t, strerror(errno));
                    goto done;
                }
            }
    }
    if (fflush(stdout) != 0) {
        snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
        goto done;
    }

    if (!o->quiet) {
        const char *sep = "wrote ";
        int drawn = 0;
        for (int i = 0; i < njobs; i++) {
            const char *fmt[2];
            int nf = job_formats(&fo, &jobs[i], fmt);
            for (int f = 0; f < jobs[i].nfig; f++)
                for (int k = 0; k < nf && fig_wanted(&fo, &jobs[i], f) && !jobs[i].skip[f]; k++) {
                    char fig[PATH_MAX + 64];
                    drawn = 1;
                    if (!strcmp(fmt[k], "txt"))
                        continue;
                    snprintf(fig, sizeof fig, "%s/%s.%s", dest, jobs[i].fig[f], fmt[k]);
                    plot_esc(shown, sizeof shown, fig, SHOWN_MAX);
                    printf("%s%s", sep, shown);
                    sep = ", ";
                }
        }
        if (*sep == ',') {
            printf("\n");
        } else if (!drawn) {
            plot_esc(shown, sizeof shown, d, SHOWN_MAX);
            printf("%s: nothing to plot (timeseries.csv is empty, no sweep, no compare.csv)\n", shown);
        }
    }
    rc = 0;
done:
    csv_publish_end(&pub);
    if (made)
        remove_workdir(wd);
    herd_free(jobs);
    plot_folder_free(&fo);
    plot_release_signals(&hold); /* a signal recorded meanwhile: raised now */
    return rc;
}

int plot_render(const char *dir, int quiet, char *err, size_t errlen)
{
    plot_opts o;
    plot_opts_init(&o);
    o.quiet = quiet;
    return plot_render_opts(dir, &o, err, errlen);
}

int plot_dir(const char *dir, char *err, size_t errlen)
{
    return plot_render(dir, 0, err, errlen);
}

int plot_prepare_dir(const char *dir, const plot_opts *o, const char *wd, char *err, size_t errlen)
{
    char d[PATH_MAX], shown[SHOWN_MAX + 8];
    job *jobs;
    int njobs;
    folder fo;
    int rc = load_folder(dir, o, &fo, d, shown, &jobs, &njobs, err, errlen);
    if (rc == 0 && njobs && plot_prepare(&fo, jobs, njobs, dir, wd, 0, err, errlen))
        rc = -1;
    herd_free(jobs);
    plot_folder_free(&fo);
    return rc;
}

int plot_script(const char *name, const char *wd, const char *arg, char *err, size_t errlen)
{
    char plots[PATH_MAX], script[PATH_MAX];
    if (find_scripts(plots, err, errlen))
        return -1;
    if (plot_path_fmt(script, err, errlen, "%s%s/%s", plots[0] == '/' ? "" : "./", plots, name))
        return -1;
    if (access(script, R_OK) != 0) {
        char shown[SHOWN_MAX + 8];
        plot_esc(shown, sizeof shown, script, SHOWN_MAX);
        snprintf(err, errlen, "cannot read the plot script %s", shown);
        return -1;
    }
    return run_gnuplot(script, wd, arg, NULL, err, errlen);
}
