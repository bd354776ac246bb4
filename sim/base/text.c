/*
 * text.c - small text helpers (see text.h).
 */
#include "text.h"

#include <stdio.h>
#include <string.h>

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

/* 1 for a code point that shows as nothing or as a plain space. */
static int invisible(unsigned long cp)
{
    return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F || cp == 0x1160 ||
           cp == 0x17B4 || cp == 0x17B5 || cp == 0x180E || (cp >= 0x2000 && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0x3164 ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF0 && cp <= 0xFFFB) ||
           (cp >= 0xE0000 && cp <= 0xE0FFF);
}

/* The length (2..4) of the well-formed UTF-8 sequence at p, with its code
 * point in *cp, or 0. */
static size_t utf8_seq(const unsigned char *p, unsigned long *cp)
{
    size_t len;
    unsigned long c, min;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) {
        len = 2, c = p[0] & 0x1F, min = 0x80;
    } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        len = 3, c = p[0] & 0x0F, min = 0x800;
    } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        len = 4, c = p[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) /* also stops at the NUL */
            return 0;
        c = c << 6 | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

size_t text_visible(const char *in, char *out, size_t n)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)in;
    while (*p) {
        char esc[16];
        size_t len = 1, el;
        unsigned long cp;
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            el = (size_t)snprintf(esc, sizeof esc, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
        } else if (*p < 0x20 || *p == 0x7F) {
            el = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
        } else if (*p < 0x80) {
            esc[0] = (char)*p;
            el = 1;
        } else if ((len = utf8_seq(p, &cp)) == 0) {
            len = 1;
            el = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
        } else if (invisible(cp)) {
            el = (size_t)snprintf(esc, sizeof esc, "\\u{%04lX}", cp);
        } else {
            memcpy(esc, p, len);
            el = len;
        }
        if (o + el + 1 > n)
            break;
        memcpy(out + o, esc, el);
        o += el;
        p += len;
    }
    out[o] = '\0';
    return o;
}

void text_shell_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}
