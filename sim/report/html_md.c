/*
 * html_md.c - herd report's lead (html_internal.h): a short Markdown text
 * of the user's (herd report --lead FILE.md) as HTML.
 *
 * A small subset, every byte escaped: paragraphs (separated by blank
 * lines), headings (# to ######, shown one level under the page's title),
 * list items (- or * at a line's start), `code`, **bold**, *emphasis*, and
 * links [text](URL) whose URL is http:// or https:// (any other is shown
 * as text: no javascript: or file: link reaches the page).  Anything else
 * is text.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "html_internal.h"

/* The inline spans of s[0..n): code, bold, emphasis, links. */
static void inline_md(FILE *f, const char *s, size_t n)
{
    size_t i = 0, plain = 0;
    while (i < n) {
        const char *close = NULL;
        const char *open = NULL, *shut = NULL;
        size_t skip = 0, end = 0;
        if (s[i] == '`') {
            close = memchr(s + i + 1, '`', n - i - 1);
            open = "<code>", shut = "</code>", skip = 1;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            close = i + 2 < n ? memmem(s + i + 2, n - i - 2, "**", 2) : NULL;
            open = "<strong>", shut = "</strong>", skip = 2;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] != ' ') {
            close = memchr(s + i + 1, '*', n - i - 1);
            open = "<em>", shut = "</em>", skip = 1;
        } else if (s[i] == '[') {
            const char *rb = memchr(s + i + 1, ']', n - i - 1);
            if (rb && (size_t)(rb - s) + 1 < n && rb[1] == '(') {
                const char *rp = memchr(rb + 2, ')', n - (size_t)(rb + 2 - s));
                size_t ul = rp ? (size_t)(rp - rb - 2) : 0;
                int web = rp && ((ul > 7 && !strncmp(rb + 2, "http://", 7)) || (ul > 8 && !strncmp(rb + 2, "https://", 8)));
                if (web && !memchr(rb + 2, '"', ul) && !memchr(rb + 2, ' ', ul)) {
                    html_text(f, s + plain, i - plain);
                    fputs("<a href=\"", f);
                    html_text(f, rb + 2, ul);
                    fputs("\">", f);
                    html_text(f, s + i + 1, (size_t)(rb - s - i - 1));
                    fputs("</a>", f);
                    i = plain = (size_t)(rp - s) + 1;
                    continue;
                }
            }
        }
        if (close && (size_t)(close - s) > i + skip) {
            end = (size_t)(close - s);
            html_text(f, s + plain, i - plain);
            fputs(open, f);
            html_text(f, s + i + skip, end - i - skip);
            fputs(shut, f);
            i = plain = end + skip;
            continue;
        }
        i++;
    }
    html_text(f, s + plain, n - plain);
}

void html_markdown(FILE *f, const char *s, size_t n)
{
    const char *e = s + n;
    int para = 0, list = 0;
    for (const char *l = s; l < e;) {
        const char *nl = memchr(l, '\n', (size_t)(e - l));
        const char *le = nl ? nl : e;
        size_t len = (size_t)(le - l);
        if (len && l[len - 1] == '\r')
            len--;
        const char *t = l;
        while (t < l + len && (*t == ' ' || *t == '\t'))
            t++;
        size_t tl = (size_t)(l + len - t);
        int heading = 0;
        while ((size_t)heading < tl && t[heading] == '#' && heading < 6)
            heading++;
        int item = tl >= 2 && (t[0] == '-' || t[0] == '*') && t[1] == ' ';
        if (!tl || (heading && (size_t)heading < tl && t[heading] == ' ') || item) {
            if (para)
                fputs("</p>\n", f);
            para = 0;
        }
        if (list && !item) {
            fputs("</ul>\n", f);
            list = 0;
        }
        if (!tl) {
        } else if (heading && (size_t)heading < tl && t[heading] == ' ') {
            int h = heading + 1 > 6 ? 6 : heading + 1;
            fprintf(f, "<h%d>", h);
            inline_md(f, t + heading + 1, tl - (size_t)heading - 1);
            fprintf(f, "</h%d>\n", h);
        } else if (item) {
            if (!list)
                fputs("<ul class=\"lead\">\n", f);
            list = 1;
            fputs("<li>", f);
            inline_md(f, t + 2, tl - 2);
            fputs("</li>\n", f);
        } else {
            fputs(para ? "\n" : "<p class=\"lead\">", f);
            para = 1;
            inline_md(f, t, tl);
        }
        l = nl ? nl + 1 : e;
    }
    if (para)
        fputs("</p>\n", f);
    if (list)
        fputs("</ul>\n", f);
}
