/*
 * text.h - small text helpers every layer may use.
 */
#ifndef HERD_TEXT_H
#define HERD_TEXT_H

#include <stddef.h>

/* in[0..len) (stopping early at a NUL) with leading and trailing blanks
 * (space, tab) dropped and every inner run of blanks made one space, into
 * out[0..n) (n >= 1), always NUL-terminated: "[ outage \t 1 ]" -> the name
 * "outage 1".  Returns the length written. */
size_t text_collapse_blanks(const char *in, size_t len, char *out, size_t n);

#endif
