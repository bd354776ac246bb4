/*
 * text.h - small text helpers every layer may use.
 */
#ifndef HERD_TEXT_H
#define HERD_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* in[0..len) (stopping early at a NUL) with leading and trailing blanks
 * (space, tab) dropped and every inner run of blanks made one space, into
 * out[0..n) (n >= 1), always NUL-terminated: "[ outage \t 1 ]" -> the name
 * "outage 1".  Returns the length written. */
size_t text_collapse_blanks(const char *in, size_t len, char *out, size_t n);

/* The NUL-terminated in, made safe to show in a one-line message, into
 * out[0..n) (n >= 1; always NUL-terminated, cut at a whole escape): a
 * tab, CR or LF as \t, \r, \n; other control bytes and bytes that are not
 * UTF-8 as \xHH; invisible or blank-looking code points (the byte-order
 * mark U+FEFF, no-break and other odd spaces, zero-width and direction
 * marks, C1 controls) as \u{XXXX}.  Printable ASCII and visible UTF-8
 * pass as they are.  Returns the length written. */
size_t text_visible(const char *in, char *out, size_t n);

/* Writes s to f as one shell word: bare when every byte is harmless
 * (letters, digits, -_./=:,+@%), else single-quoted with each ' as '\''. */
void text_shell_word(FILE *f, const char *s);

#endif
