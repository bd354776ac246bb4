/*
 * test_fileio.c - the one checked open (sim/base/fileio.c): a regular
 * file is read whole, a FIFO is refused without blocking, a directory
 * and a file past the bound are refused, a BOM is skipped for text and a
 * NUL byte refused, an empty file is a file of 0 bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/base/fileio.h"
#include "testutil.h"

static char dir[64];

static void put(const char *name, const char *bytes, size_t n)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static herd_file_status rd(const char *name, long long max, unsigned flags, char **buf, size_t *len)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int e = 0;
    return herd_file_read(p, max, flags, buf, len, &e);
}

TEST(test_read_regular_bom_nul_empty)
{
    char *b;
    size_t n;
    put("a.csv", "\xef\xbb\xbfvalue_s\n1\n", 13);
    assert_int_equal(rd("a.csv", 100, HERD_FILE_TEXT, &b, &n), HERD_FILE_OK);
    assert_int_equal(n, 10);
    assert_string_equal(b, "value_s\n1\n");
    herd_free(b);
    assert_int_equal(rd("a.csv", 100, 0, &b, &n), HERD_FILE_OK); /* binary: the bytes as they are */
    assert_int_equal(n, 13);
    herd_free(b);
    assert_int_equal(rd("a.csv", 12, 0, &b, &n), HERD_FILE_TOO_LARGE);
    assert_null(b);
    put("nul.csv", "a\0b\n", 4);
    assert_int_equal(rd("nul.csv", 100, HERD_FILE_TEXT, &b, &n), HERD_FILE_EMBEDDED_NUL);
    put("empty.csv", "", 0);
    assert_int_equal(rd("empty.csv", 100, HERD_FILE_TEXT, &b, &n), HERD_FILE_OK);
    assert_int_equal(n, 0);
    assert_string_equal(b, "");
    herd_free(b);
    put("bomonly.csv", "\xef\xbb\xbf", 3);
    assert_int_equal(rd("bomonly.csv", 100, HERD_FILE_TEXT, &b, &n), HERD_FILE_OK);
    assert_int_equal(n, 0);
    herd_free(b);
    assert_int_equal(rd("none.csv", 100, 0, &b, &n), HERD_FILE_MISSING);
}

TEST(test_fifo_and_directory_refused)
{
    char p[128], *b;
    size_t n;
    snprintf(p, sizeof p, "%s/fifo", dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    /* would block forever in a plain open or read (no writer) */
    assert_int_equal(rd("fifo", 100, 0, &b, &n), HERD_FILE_NOT_REGULAR);
    FILE *f;
    assert_int_equal(herd_file_open(p, 100, HERD_FILE_TEXT, &f, NULL, NULL), HERD_FILE_NOT_REGULAR);
    assert_null(f);
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(rd("sub", 100, 0, &b, &n), HERD_FILE_DIRECTORY);
    char why[160];
    assert_non_null(strstr(herd_file_why(HERD_FILE_NOT_REGULAR, 100, 0, why, sizeof why), "not a regular file"));
}

TEST(test_open_stream_skips_bom)
{
    char p[128];
    put("s.csv", "\xef\xbb\xbfx\n", 5);
    snprintf(p, sizeof p, "%s/s.csv", dir);
    FILE *f;
    long long size = -1;
    assert_int_equal(herd_file_open(p, 100, HERD_FILE_TEXT, &f, &size, NULL), HERD_FILE_OK);
    assert_int_equal(size, 5);
    assert_int_equal(fgetc(f), 'x');
    fclose(f);
    put("t.csv", "ab", 2); /* shorter than a BOM: nothing skipped */
    snprintf(p, sizeof p, "%s/t.csv", dir);
    assert_int_equal(herd_file_open(p, 100, HERD_FILE_TEXT, &f, NULL, NULL), HERD_FILE_OK);
    assert_int_equal(fgetc(f), 'a');
    fclose(f);
    assert_int_equal(herd_file_open(p, 1, HERD_FILE_TEXT, &f, &size, NULL), HERD_FILE_TOO_LARGE);
    assert_int_equal(size, 2);
}

/* HERD_FILE_NOFOLLOW: a symbolic link is refused (HERD_FILE_SYMLINK, its
 * target never read), a link loop too; without the flag a link is
 * followed; a regular file reads as before. */
static void test_nofollow_refuses_links(void **state)
{
    (void)state;
    char p[128], q[128];
    char *b = NULL;
    size_t n = 0;
    put("target.txt", "secret", 6);
    snprintf(p, sizeof p, "%s/target.txt", dir);
    snprintf(q, sizeof q, "%s/link.txt", dir);
    assert_int_equal(symlink(p, q), 0);
    assert_int_equal(rd("link.txt", 100, HERD_FILE_NOFOLLOW, &b, &n), HERD_FILE_SYMLINK);
    assert_null(b);
    assert_int_equal(rd("link.txt", 100, 0, &b, &n), HERD_FILE_OK);
    assert_int_equal(n, 6);
    herd_free(b);
    assert_int_equal(rd("target.txt", 100, HERD_FILE_NOFOLLOW | HERD_FILE_TEXT, &b, &n), HERD_FILE_OK);
    herd_free(b);
    snprintf(q, sizeof q, "%s/loop.txt", dir);
    assert_int_equal(symlink(q, q), 0);
    assert_int_equal(rd("loop.txt", 100, HERD_FILE_NOFOLLOW, &b, &n), HERD_FILE_SYMLINK);
    int e = 0;
    assert_int_equal(herd_file_read(q, 100, 0, &b, &n, &e), HERD_FILE_ERROR);
    assert_int_equal(e, ELOOP);
    FILE *f = NULL;
    snprintf(q, sizeof q, "%s/link.txt", dir);
    assert_int_equal(herd_file_open(q, 100, HERD_FILE_NOFOLLOW, &f, NULL, NULL), HERD_FILE_SYMLINK);
    assert_null(f);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/herd-fileio-%d", (int)getpid());
    if (mkdir(dir, 0700) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_regular_bom_nul_empty),
        cmocka_unit_test(test_fifo_and_directory_refused),
        cmocka_unit_test(test_open_stream_skips_bom),
        cmocka_unit_test(test_nofollow_refuses_links),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
