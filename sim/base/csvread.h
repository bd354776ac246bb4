/*
 * csvread.h - a strict reader of CSV input files (data files of scenarios):
 * the whole file in memory, then one line at a time.  Lines starting with
 * '#' are comments; LF or CRLF line ends; no blank lines, no stray CR, no
 * NUL bytes; fields are split at commas, unquoted.  Every message names the
 * file as the caller shows it.  Reading inputs is a concern of its own:
 * the writers of result files are report/csv.h.
 */
#ifndef HERD_CSVREAD_H
#define HERD_CSVREAD_H

#include <stddef.h>

typedef struct csvr {
    char shown[128];            /* the path as messages show it */
    char *buf;                  /* the file, NUL-terminated (herd's allocator) */
    size_t len, pos;
    int line;                   /* of the line last returned */
} csvr;

/* Reads the regular file at path, at most max_bytes, into c (shown: the
 * path as messages show it).  NULL, or a message in buf naming shown.
 * Release c with csvr_close() either way. */
const char *csvr_open(csvr *c, const char *path, const char *shown, long max_bytes, char *buf, size_t n);

/* The next line that is not a comment (NUL-terminated in place, CR of a
 * CRLF removed), or NULL at the end.  *msg is set for a blank line or a
 * stray CR. */
char *csvr_line(csvr *c, const char **msg);

/* Splits line into at most max fields at commas (in place); the count
 * (which may exceed max: the fields past max are not stored). */
int csvr_split(char *line, char **field, int max);

/* Frees the file's bytes; safe on a csvr that csvr_open() refused. */
void csvr_close(csvr *c);

#endif
