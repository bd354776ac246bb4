/*
 * fuzzutil.h - what the libFuzzer harnesses (tests/fuzz_*.c) share.
 *
 * Header only (static functions): each harness is one translation unit
 * linked with build/libherdfuzz.a, and this is test code, not herd's.
 */
#ifndef HERD_TESTS_FUZZUTIL_H
#define HERD_TESTS_FUZZUTIL_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Removes dir's files (one level: herd writes no subfolders), and dir
 * itself unless keep. */
static inline void fuzz_clean_dir(const char *dir, int keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    if (!keep)
        rmdir(dir);
}

#endif
