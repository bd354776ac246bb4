/*
 * csv.c - atomic CSV files (see csv.h).
 */
#include "csv.h"

#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"

#include <signal.h>

/* Open temporaries, for the signal handler: a fixed table of pointers to
 * strings owned by their csv_out (set before the file exists, cleared
 * before the string is freed).  Signals are blocked while it changes. */
#define MAX_OPEN 16
static char *volatile open_tmp[MAX_OPEN];

static void track(char *tmp, int add)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int i = 0; i < MAX_OPEN; i++)
        if (add ? open_tmp[i] == NULL : open_tmp[i] == tmp) {
            open_tmp[i] = add ? tmp : NULL;
            break;
        }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Set while a set of outputs is renamed into place (csv_publish_begin to
 * csv_publish_end): a signal then is recorded and acted on once the last
 * rename is done, whichever thread it reaches. */
static volatile sig_atomic_t publishing, deferred;

static void on_signal(int sig)
{
    if (publishing) {
        if (!deferred)
            deferred = sig;
        return;
    }
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmp[i])
            unlink(open_tmp[i]); /* async-signal-safe */
    _exit(128 + sig);
}

void csv_cleanup_on_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static char *join(const char *dir, const char *prefix, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(prefix) + strlen(name) + strlen(suffix) + 2;
    char *p = herd_malloc_array(n, 1);
    if (p)
        snprintf(p, n, "%s/%s%s%s", dir, prefix, name, suffix);
    return p;
}

int csv_open(csv_out *o, const char *dir, const char *name, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->dest = join(dir, "", name, "");
    o->tmp = join(dir, ".", name, ".tmp.XXXXXX");
    if (!o->dest || !o->tmp) {
        snprintf(err, errlen, "%s/%s: out of memory", dir, name);
        goto fail;
    }
    track(o->tmp, 1);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        track(o->tmp, 0);
        snprintf(err, errlen, "%s: cannot create output file: %s", o->dest, strerror(errno));
        goto fail;
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot open output file: %s", o->dest, strerror(errno));
        close(fd);
        unlink(o->tmp);
        track(o->tmp, 0);
        goto fail;
    }
    /* mkstemp creates 0600; results are meant to be shared like any file. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    return 0;
fail:
    herd_free(o->dest);
    herd_free(o->tmp);
    memset(o, 0, sizeof *o);
    return -1;
}

void csv_str(csv_out *o, const char *s, int first)
{
    if (!first)
        fputc(',', o->f);
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', o->f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', o->f);
            fputc(*s, o->f);
        }
        fputc('"', o->f);
    } else {
        fputs(s, o->f);
    }
}

void csv_u64(csv_out *o, uint64_t v, int first)
{
    fprintf(o->f, first ? "%llu" : ",%llu", (unsigned long long)v);
}

void csv_dbl(csv_out *o, double v, int first)
{
    if (!first)
        fputc(',', o->f);
    if (isnan(v))
        fputs(CSV_NA, o->f); /* undefined: never "nan", never a number */
    else
        fprintf(o->f, "%.9g", v == 0 ? 0.0 : v); /* no "-0" */
}

void csv_flt(csv_out *o, float v, int first)
{
    if (!first)
        fputc(',', o->f);
    if (isnan(v))
        fputs(CSV_NA, o->f);
    else
        fprintf(o->f, "%.6g", v == 0 ? 0.0 : (double)v);
}

void csv_end(csv_out *o) { fputc('\n', o->f); }

int csv_finish(csv_out *o, char *err, size_t errlen)
{
    int rc = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", o->dest, strerror(errno ? errno : EIO));
        rc = -1;
    }
    if (fclose(o->f) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: write failed: %s", o->dest, strerror(errno));
        rc = -1;
    }
    o->f = NULL;
    if (rc != 0)
        csv_abort(o);
    return rc;
}

int csv_publish(csv_out *o, char *err, size_t errlen)
{
    int rc = 0;
    if (rename(o->tmp, o->dest) != 0) {
        snprintf(err, errlen, "%s: cannot rename into place: %s", o->dest, strerror(errno));
        unlink(o->tmp);
        rc = -1;
    }
    track(o->tmp, 0);
    herd_free(o->tmp);
    herd_free(o->dest);
    o->tmp = o->dest = NULL;
    return rc;
}

int csv_publish_begin(csv_pub *p, const char *dir, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    /* a second herd publishing into dir waits for this one to finish: the
     * folder holds one run's outputs, whole.  A folder that cannot be
     * opened for reading (mode -wx) or locked (a file system without
     * locks) is published into unlocked, as before: the lock only orders
     * two herds */
    p->lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (p->lockfd >= 0 && flock(p->lockfd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(p->lockfd);
            p->lockfd = -1;
        }
    }
    pthread_sigmask(SIG_BLOCK, &set, &p->old);
    deferred = 0;
    publishing = 1;
    p->on = 1;
    return 0;
}

void csv_publish_end(csv_pub *p)
{
    if (!p->on)
        return;
    p->on = 0;
    publishing = 0;
    if (p->lockfd >= 0) {
        flock(p->lockfd, LOCK_UN);
        close(p->lockfd);
        p->lockfd = -1;
    }
    int sig = deferred;
    deferred = 0;
    pthread_sigmask(SIG_SETMASK, &p->old, NULL); /* a signal blocked meanwhile acts now */
    if (sig)
        raise(sig);
}

void csv_abort(csv_out *o)
{
    if (!o)
        return;
    if (o->f)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        track(o->tmp, 0);
    }
    herd_free(o->tmp);
    herd_free(o->dest);
    memset(o, 0, sizeof *o);
}

int csv_mkdirs(const char *dir, char *err, size_t errlen)
{
    char *p = herd_strdup(dir);
    if (!p) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create output directory: %s", p, strerror(errno));
                rc = -1;
                break;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    struct stat st;
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        snprintf(err, errlen, "%s: not a directory", dir);
        rc = -1;
    }
    herd_free(p);
    return rc;
}
