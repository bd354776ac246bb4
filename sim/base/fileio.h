/*
 * fileio.h - the one checked open for every file herd reads (scenarios,
 * data files, shard files, results folders).
 *
 * Invariants: a path that is not a regular file (a directory, a FIFO, a
 * device, a socket) is refused without blocking: the open is O_NONBLOCK
 * and the type is judged on the descriptor (fstat), so a FIFO swapped in
 * after a stat cannot hang herd; the descriptor is made blocking again
 * before it is read.  A file larger than the caller's bound is refused
 * before anything is read.  Text readers may ask for a leading UTF-8
 * byte-order mark to be skipped.
 */
#ifndef HERD_FILEIO_H
#define HERD_FILEIO_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    HERD_FILE_OK = 0,
    HERD_FILE_MISSING,     /* no such file (ENOENT, or a missing directory on the way) */
    HERD_FILE_DIRECTORY,   /* a directory */
    HERD_FILE_NOT_REGULAR, /* a FIFO, a device, a socket */
    HERD_FILE_TOO_LARGE,   /* more than the bound */
    HERD_FILE_EMBEDDED_NUL,/* herd_file_read with HERD_FILE_TEXT: a NUL byte */
    HERD_FILE_SYMLINK,     /* with HERD_FILE_NOFOLLOW: a symbolic link */
    HERD_FILE_ERROR        /* open or read failed: see *err_no */
} herd_file_status;

/* Flags. */
#define HERD_FILE_TEXT 1u /* skip a UTF-8 byte-order mark at the start; herd_file_read also refuses a NUL byte */
#define HERD_FILE_NOFOLLOW 2u /* a symbolic link is refused, not followed (the files of a results folder,
                               * untrusted: a link may point out of it) */

/* Opens path for reading through the checks above: HERD_FILE_OK with *out
 * a blocking stream positioned at the first byte (after a BOM with
 * HERD_FILE_TEXT) and *size the file's size in bytes (size may be NULL);
 * otherwise *out is NULL, nothing is left open, *size is the file's size
 * for HERD_FILE_TOO_LARGE, and *err_no (may be NULL) holds errno for
 * HERD_FILE_ERROR and HERD_FILE_MISSING. */
herd_file_status herd_file_open(const char *path, long long max_bytes, unsigned flags, FILE **out, long long *size,
                                int *err_no);

/* The whole file, checked as herd_file_open, into a NUL-terminated buffer
 * of herd_malloc (the caller frees it with herd_free) of *len bytes (the
 * BOM not included with HERD_FILE_TEXT).  A file that grows past the bound
 * while read is HERD_FILE_TOO_LARGE.  On failure *buf is NULL; an
 * allocation failure is HERD_FILE_ERROR with *err_no = ENOMEM. */
herd_file_status herd_file_read(const char *path, long long max_bytes, unsigned flags, char **buf, size_t *len,
                                int *err_no);

/* A short phrase for a status, to follow "PATH: " in a message: "is a
 * directory", "is not a regular file (a FIFO, a device or a socket)",
 * "is larger than N bytes", "cannot be read: strerror(err_no)"... */
const char *herd_file_why(herd_file_status s, long long max_bytes, int err_no, char *buf, size_t n);

#endif
