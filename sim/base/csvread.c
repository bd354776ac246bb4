/*
 * csvread.c - the strict CSV input reader (see csvread.h).
 */
#include "csvread.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"

const char *csvr_open(csvr *c, const char *path, const char *shown, long max_bytes, char *buf, size_t n)
{
    memset(c, 0, sizeof *c);
    snprintf(c->shown, sizeof c->shown, "%s", shown);
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(buf, n, "%s: cannot open the data file: %s", c->shown, strerror(errno));
        return buf;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(buf, n, "%s: is not a regular file; expected a CSV data file", c->shown);
        return buf;
    }
    if (st.st_size > max_bytes) {
        snprintf(buf, n, "%s: larger than %ld MiB; expected a smaller CSV data file", c->shown,
                 max_bytes >> 20);
        return buf;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(buf, n, "%s: cannot open the data file: %s", c->shown, strerror(errno));
        return buf;
    }
    c->buf = herd_malloc_array((size_t)st.st_size + 1, 1);
    if (!c->buf) {
        fclose(f);
        snprintf(buf, n, "%s: out of memory", c->shown);
        return buf;
    }
    c->len = fread(c->buf, 1, (size_t)st.st_size + 1, f);
    int bad = ferror(f) || c->len > (size_t)st.st_size;
    fclose(f);
    if (bad) {
        snprintf(buf, n, "%s: cannot read the data file (it changed while read?)", c->shown);
        return buf;
    }
    c->buf[c->len] = '\0';
    if (memchr(c->buf, '\0', c->len)) {
        snprintf(buf, n, "%s: contains a NUL byte; expected a text CSV file", c->shown);
        return buf;
    }
    if (c->len == 0) {
        snprintf(buf, n, "%s: the file is empty; expected a header line and data rows", c->shown);
        return buf;
    }
    return NULL;
}

char *csvr_line(csvr *c, const char **msg)
{
    *msg = NULL;
    while (c->pos < c->len) {
        char *s = c->buf + c->pos, *nl = memchr(s, '\n', c->len - c->pos);
        size_t l = nl ? (size_t)(nl - s) : c->len - c->pos;
        c->pos += l + (nl != NULL);
        c->line++;
        s[l] = '\0';
        if (l && s[l - 1] == '\r')
            s[--l] = '\0';
        if (strchr(s, '\r')) {
            *msg = "a carriage return inside a line; expected LF or CRLF line ends";
            return s;
        }
        if (s[0] == '#')
            continue;
        if (s[strspn(s, " \t")] == '\0') {
            *msg = "blank line; expected a data row (comments start with '#')";
            return s;
        }
        return s;
    }
    return NULL;
}

int csvr_split(char *line, char **field, int max)
{
    int nf = 0;
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (nf < max)
            field[nf] = p;
        nf++;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return nf;
}

void csvr_close(csvr *c)
{
    herd_free(c->buf);
    c->buf = NULL;
}
