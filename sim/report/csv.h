/*
 * csv.h - output files that appear whole or not at all.
 *
 * A csv_out writes to a temporary file beside its destination
 * (".NAME.tmp.XXXXXX") and csv_publish() renames it into place only after
 * every byte was written and the file closed without error; csv_abort()
 * removes the temporary.  An interrupted or failed run leaves the previous
 * complete file, or none: never a truncated one.
 */
#ifndef HERD_CSV_H
#define HERD_CSV_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

typedef struct csv_out {
    FILE *f;
    char *tmp;   /* temporary path */
    char *dest;  /* final path */
} csv_out;

/* Creates the temporary for dir/name.  Returns 0, or -1 with a message
 * naming the path in err. */
int csv_open(csv_out *o, const char *dir, const char *name, char *err, size_t errlen);

/* Writes a field: text (quoted only if needed), or numbers.  A leading
 * comma is written unless first is nonzero.  Doubles use %.9g; NaN is
 * written as "nan" (never "-nan"), so output is byte-stable. */
void csv_str(csv_out *o, const char *s, int first);
void csv_u64(csv_out *o, uint64_t v, int first);
/* An undefined value's cell in every CSV herd writes (a NaN is written
 * so); every reader of herd's CSVs takes it as undefined. */
#define CSV_NA "n/a"

/* A double, %.9g; NaN (undefined) as CSV_NA. */
void csv_dbl(csv_out *o, double v, int first);
/* A float's value to its own precision (6 significant digits), so that
 * 0.3f prints 0.3, not 0.300000012. */
void csv_flt(csv_out *o, float v, int first);
void csv_end(csv_out *o);

/* Flushes, syncs and closes the temporary.  Returns 0, or -1 with err (the
 * temporary is removed).  Finish every file of a run before publishing
 * any, so a failure (a full disk) publishes none. */
int csv_finish(csv_out *o, char *err, size_t errlen);

/* Renames a finished temporary into place.  Returns 0, or -1 with err. */
int csv_publish(csv_out *o, char *err, size_t errlen);

/* One publishing step for every command that writes.  Between
 * csv_publish_begin and csv_publish_end the caller renames its finished
 * temporaries into dir (csv_publish, or rename for figures) and removes
 * the stale outputs of an earlier run.  Meanwhile dir is locked (flock on
 * the directory: a second herd publishing into it waits, so the folder
 * holds one run's outputs, never a mix of two), and SIGINT, SIGTERM and
 * SIGHUP are held: they act once the last rename is done, so an
 * interrupted run leaves the previous complete outputs or the new ones.
 * Begin returns 0 (a folder that cannot be locked is published into
 * unlocked); the -1 with err is kept for callers' sake. */
typedef struct csv_pub {
    int on;     /* between begin and end */
    int lockfd; /* the folder, locked (-1: not lockable here) */
    sigset_t old;
} csv_pub;
int csv_publish_begin(csv_pub *p, const char *dir, char *err, size_t errlen);
/* Unlocks dir; a signal that arrived meanwhile acts now.  Safe on a
 * zeroed csv_pub (nothing begun). */
void csv_publish_end(csv_pub *p);

/* Closes and removes the temporary.  Safe on a zeroed or finished csv_out. */
void csv_abort(csv_out *o);

/* Installs SIGINT, SIGTERM and SIGHUP handlers that remove every open
 * temporary and exit with 128 + the signal: an interrupted run leaves the
 * previous complete outputs or none, and no temporaries.  For programs, not
 * for libraries: call once from main. */
void csv_cleanup_on_signals(void);

/* Creates dir and its parents (like mkdir -p).  Returns 0 or -1 with err. */
int csv_mkdirs(const char *dir, char *err, size_t errlen);

#endif
