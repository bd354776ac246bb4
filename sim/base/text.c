/*
 * text.c - small text helpers (see text.h).
 */
#include "text.h"

size_t text_collapse_blanks(const char *in, size_t len, char *out, size_t n)
{
    size_t o = 0;
    int blank = 0;
    for (size_t i = 0; i < len && in[i] && o + 1 < n; i++) {
        if (in[i] == ' ' || in[i] == '\t') {
            blank = o > 0;
            continue;
        }
        if (blank && o + 2 < n)
            out[o++] = ' ';
        blank = 0;
        out[o++] = in[i];
    }
    out[o] = '\0';
    return o;
}
