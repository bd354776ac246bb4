/*
 * fileio.c - the one checked open (see fileio.h).
 */
#include "fileio.h"

#include "alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};

/* The checked descriptor: HERD_FILE_OK with *fd blocking and *size set. */
static herd_file_status open_fd(const char *path, long long max_bytes, unsigned flags, int *fd, long long *size,
                                int *err_no)
{
    int e = 0;
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (flags & HERD_FILE_NOFOLLOW ? O_NOFOLLOW : 0));
    if (*fd < 0) {
        e = errno;
        if (err_no)
            *err_no = e;
        struct stat ls;
        if (e == ELOOP && (flags & HERD_FILE_NOFOLLOW) && lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
            return HERD_FILE_SYMLINK;
        if (e == ENOENT || e == ENOTDIR)
            return HERD_FILE_MISSING;
        if (e == EISDIR)
            return HERD_FILE_DIRECTORY;
        return HERD_FILE_ERROR;
    }
    struct stat st;
    herd_file_status s = HERD_FILE_OK;
    if (fstat(*fd, &st) != 0) {
        e = errno;
        s = HERD_FILE_ERROR;
    } else if (S_ISDIR(st.st_mode)) {
        s = HERD_FILE_DIRECTORY;
    } else if (!S_ISREG(st.st_mode)) {
        s = HERD_FILE_NOT_REGULAR;
    } else if ((long long)st.st_size > max_bytes) {
        *size = (long long)st.st_size;
        s = HERD_FILE_TOO_LARGE;
    } else {
        int fl = fcntl(*fd, F_GETFL);
        if (fl < 0 || fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            e = errno;
            s = HERD_FILE_ERROR;
        }
    }
    if (s != HERD_FILE_OK) {
        close(*fd);
        *fd = -1;
        if (err_no)
            *err_no = e;
        return s;
    }
    *size = (long long)st.st_size;
    return HERD_FILE_OK;
}

herd_file_status herd_file_open(const char *path, long long max_bytes, unsigned flags, FILE **out, long long *size,
                                int *err_no)
{
    int fd;
    long long sz = 0;
    *out = NULL;
    herd_file_status s = open_fd(path, max_bytes, flags, &fd, &sz, err_no);
    if (s == HERD_FILE_TOO_LARGE && size)
        *size = sz;
    if (s != HERD_FILE_OK)
        return s;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        if (err_no)
            *err_no = errno;
        close(fd);
        return HERD_FILE_ERROR;
    }
    if (flags & HERD_FILE_TEXT) {
        unsigned char head[3];
        size_t got = fread(head, 1, 3, f);
        if (ferror(f)) {
            if (err_no)
                *err_no = errno ? errno : EIO;
            fclose(f);
            return HERD_FILE_ERROR;
        }
        if (got != 3 || memcmp(head, bom, 3) != 0)
            rewind(f);
    }
    if (size)
        *size = sz;
    *out = f;
    return HERD_FILE_OK;
}

herd_file_status herd_file_read(const char *path, long long max_bytes, unsigned flags, char **buf, size_t *len,
                                int *err_no)
{
    int fd;
    long long sz = 0;
    *buf = NULL;
    *len = 0;
    herd_file_status s = open_fd(path, max_bytes, flags, &fd, &sz, err_no);
    if (s != HERD_FILE_OK)
        return s;
    /* room for the size seen plus one byte: a file that grew shows it */
    size_t cap = (size_t)sz + 1, n = 0;
    char *b = herd_malloc_array(cap + 1, 1);
    if (!b) {
        close(fd);
        if (err_no)
            *err_no = ENOMEM;
        return HERD_FILE_ERROR;
    }
    for (;;) {
        if (n == cap) {
            if ((long long)n > max_bytes) {
                s = HERD_FILE_TOO_LARGE;
                break;
            }
            size_t bigger = cap * 2 < (size_t)max_bytes + 1 ? cap * 2 : (size_t)max_bytes + 1;
            char *nb = herd_realloc_array(b, bigger + 1, 1);
            if (!nb) {
                if (err_no)
                    *err_no = ENOMEM;
                s = HERD_FILE_ERROR;
                break;
            }
            b = nb;
            cap = bigger;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (err_no)
                *err_no = errno;
            s = HERD_FILE_ERROR;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (s == HERD_FILE_OK && (long long)n > max_bytes)
        s = HERD_FILE_TOO_LARGE;
    if (s != HERD_FILE_OK) {
        herd_free(b);
        return s;
    }
    b[n] = '\0';
    size_t from = 0;
    if ((flags & HERD_FILE_TEXT) && n >= 3 && memcmp(b, bom, 3) == 0)
        from = 3;
    if ((flags & HERD_FILE_TEXT) && memchr(b + from, '\0', n - from)) {
        herd_free(b);
        return HERD_FILE_EMBEDDED_NUL;
    }
    if (from)
        memmove(b, b + from, n - from + 1);
    *buf = b;
    *len = n - from;
    return HERD_FILE_OK;
}

const char *herd_file_why(herd_file_status s, long long max_bytes, int err_no, char *buf, size_t n)
{
    switch (s) {
    case HERD_FILE_OK:
        snprintf(buf, n, "is readable");
        break;
    case HERD_FILE_MISSING:
        snprintf(buf, n, "%s", strerror(err_no ? err_no : ENOENT));
        break;
    case HERD_FILE_DIRECTORY:
        snprintf(buf, n, "is a directory");
        break;
    case HERD_FILE_NOT_REGULAR:
        snprintf(buf, n, "is not a regular file (a FIFO, a device or a socket)");
        break;
    case HERD_FILE_TOO_LARGE:
        snprintf(buf, n, "is larger than %lld bytes", max_bytes);
        break;
    case HERD_FILE_EMBEDDED_NUL:
        snprintf(buf, n, "contains a NUL byte");
        break;
    case HERD_FILE_SYMLINK:
        snprintf(buf, n, "is a symbolic link (not followed out of a results folder)");
        break;
    case HERD_FILE_ERROR:
    default:
        snprintf(buf, n, "cannot be read: %s", strerror(err_no ? err_no : EIO));
        break;
    }
    return buf;
}
