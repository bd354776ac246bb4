/*
 * test_html.c - cmocka tests for herd report's parts that need no gnuplot
 * (html_internal.h): HTML escaping, the CSV tables (quotes, row lengths,
 * the metrics' columns), the manifest's lines and sections (a section
 * added later is found like the known ones), and the SVG checks and id
 * prefixes.  The page itself, with its figures and in a browser, is
 * tests/report.sh's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/report/html_internal.h"

/* What f wrote, NUL-terminated (owned by the caller). */
static char *written(FILE *f)
{
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    return s;
}

TEST(test_escape)
{
    static const char in[] = "<script>a & \"b\" 'c'</script>\x01\x7f\n\t\0tail";
    FILE *f = tmpfile();
    assert_non_null(f);
    html_text(f, in, sizeof in - 1);
    char *s = written(f);
    assert_string_equal(s, "&lt;script&gt;a &amp; &quot;b&quot; &#39;c&#39;&lt;/script&gt;\n\ttail");
    assert_null(strchr(s, '<'));
    free(s);
    fclose(f);
}

/* Writes text into dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

TEST(test_ctab)
{
    char dir[] = "/tmp/herd-test-html.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char err[512];
    ctab t;
    /* quoted fields with commas, quotes and newlines; CRLF; n/a cells */
    put(dir, "a.csv",
        "variant,strategy,replications,calls_mean,calls_ci95,recovered_mean,recovered_ci95,recovered_lo,recovered_hi\r\n"
        "\"v,1\",exponential,3,12.5,0.25,nan,nan,n/a,n/a\r\n"
        "\"say \"\"hi\"\"\nthere\",full_jitter,3,1,0,1,0,0.4,1\n");
    assert_int_equal(html_ctab_load(&t, dir, "a.csv", err, sizeof err), 1);
    assert_int_equal(t.ncols, 9);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.nkeys, 2);
    assert_string_equal(html_cell(&t, 0, 0), "v,1");
    assert_string_equal(html_cell(&t, 1, 0), "say \"hi\"\nthere");
    assert_string_equal(html_cell(&t, 1, 8), "1");
    assert_string_equal(html_cell(&t, 0, -1), "");
    assert_int_equal(html_col_of(&t, "calls_ci95"), 4);
    assert_int_equal(html_col_of(&t, "nope"), -1);
    hmetric m[8];
    assert_int_equal(html_metrics_of(&t, m, 8), 2);
    assert_string_equal(m[0].name, "calls");
    assert_int_equal(m[0].ci, 4);
    assert_int_equal(m[0].lo, -1);
    assert_string_equal(m[1].name, "recovered");
    assert_int_equal(m[1].lo, 7);
    assert_int_equal(m[1].hi, 8);
    assert_ptr_equal(html_metric_named(m, 2, "recovered"), &m[1]);
    assert_null(html_metric_named(m, 2, "calls_mean"));
    html_ctab_free(&t);
    /* absent, a short row, no replications column */
    assert_int_equal(html_ctab_load(&t, dir, "none.csv", err, sizeof err), 0);
    put(dir, "b.csv", "strategy,replications,x_mean\nexponential,3\n");
    assert_int_equal(html_ctab_load(&t, dir, "b.csv", err, sizeof err), HTML_INVALID);
    assert_non_null(strstr(err, "b.csv:2: 2 fields; expected 3"));
    put(dir, "c.csv", "strategy,x_mean\nexponential,3\n");
    assert_int_equal(html_ctab_load(&t, dir, "c.csv", err, sizeof err), HTML_INVALID);
    assert_non_null(strstr(err, "no replications column"));
    put(dir, "d.csv", "");
    assert_int_equal(html_ctab_load(&t, dir, "d.csv", err, sizeof err), HTML_INVALID);
    for (const char *n = "a.csv\0b.csv\0c.csv\0d.csv\0"; *n; n += strlen(n) + 1) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, n);
        unlink(p);
    }
    rmdir(dir);
}

TEST(test_manifest)
{
    static const char text[] = "herd 0.2.0\n"
                               "command: herd run x.ini\n"
                               "scenario: scenarios/some-name.ini\n"
                               "override: --set run.columns=calls,failures\n"
                               "--- scenario file x.ini, 10 bytes, verbatim ---\n"
                               "[run]\n"
                               "name = from-file ; a comment\n"
                               "columns = refused , calls\n"
                               "--- end of scenario file ---\n"
                               "--- resolved model (herd check --explain) ---\n"
                               "== point 1: the scenario\n"
                               "[run]\n"
                               "  run.name = resolved-name                         # default\n"
                               "  run.columns = p99_latency_s # x.ini:3\n"
                               "--- end of resolved model ---\n"
                               "--- a section of tomorrow ---\n"
                               "anything: here\n"
                               "--- end of a section of tomorrow ---\n"
                               "n/a: goodput_per_s: every run: because no open stream\n"
                               "Not a key: line\n";
    hbuf b = {.p = (char *)text, .n = sizeof text - 1};
    hman m;
    assert_int_equal(html_man_parse(&m, &b), 0);
    assert_int_equal(m.nsect, 3);
    assert_true(html_starts(m.sect[0].title, "scenario file x.ini"));
    assert_true(html_starts(m.sect[1].title, "resolved model"));
    assert_true(html_starts(m.sect[2].title, "a section of tomorrow"));
    assert_true(html_ends(m.sect[2].title, "tomorrow"));
    /* lines of sections are marked, the others are not */
    size_t outside = 0;
    for (size_t i = 0; i < m.n; i++)
        outside += !m.in_sect[i];
    assert_int_equal(outside, 6);
    assert_int_equal(html_kv_key(m.line[1]), 7); /* command */
    assert_int_equal(html_kv_key(m.line[m.n - 1]), 0); /* "Not a key": upper case */
    assert_true(html_undefined_line(m.line[m.n - 2]));
    char v[256];
    assert_true(html_man_value(&m, "run.columns", v, sizeof v));
    assert_string_equal(v, "p99_latency_s"); /* the resolved model first */
    assert_true(html_man_value(&m, "run.name", v, sizeof v));
    assert_string_equal(v, "resolved-name");
    assert_false(html_man_value(&m, "run.nothing", v, sizeof v));
    assert_true(html_ini_run_value(&m, "columns", v, sizeof v));
    assert_string_equal(v, "refused , calls");
    assert_true(html_ini_run_value(&m, "name", v, sizeof v));
    assert_string_equal(v, "from-file");
    html_man_name(&m, v, sizeof v);
    assert_string_equal(v, "resolved-name");
    html_man_free(&m);
    /* without the resolved model: --set, then the file, then the path */
    static const char text2[] = "herd 0.2.0\nscenario: a/b/thundering-herd.ini\noverride: --set run.columns=calls\n";
    hbuf b2 = {.p = (char *)text2, .n = sizeof text2 - 1};
    assert_int_equal(html_man_parse(&m, &b2), 0);
    assert_int_equal(m.nsect, 0);
    assert_true(html_man_value(&m, "run.columns", v, sizeof v));
    assert_string_equal(v, "calls");
    html_man_name(&m, v, sizeof v);
    assert_string_equal(v, "thundering-herd");
    html_man_free(&m);
    /* a section never closed runs to the end */
    static const char text3[] = "herd 1\n--- open ---\na\nb\n";
    hbuf b3 = {.p = (char *)text3, .n = sizeof text3 - 1};
    assert_int_equal(html_man_parse(&m, &b3), 0);
    assert_int_equal(m.nsect, 1);
    assert_int_equal(m.sect[0].to, m.n);
    html_man_free(&m);
}

TEST(test_svg)
{
    static const char ok[] = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
                             "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
                             "<svg width=\"10\" xmlns=\"http://www.w3.org/2000/svg\" "
                             "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
                             "<defs><path id='gpPt0' d='M0'/><use xlink:href='#gpPt0' id=\"gpPt1\"/></defs>"
                             "<g clip-path=\"url(#c1)\"><text>done = 5, valid='x'</text></g></svg>\n";
    assert_false(html_svg_unsafe(ok));
    FILE *f = tmpfile();
    assert_non_null(f);
    html_write_svg(f, ok, 3);
    char *s = written(f);
    assert_string_equal(s, "<svg width=\"10\">\n<defs><path id='f3-gpPt0' d='M0'/><use xlink:href='#f3-gpPt0' "
                           "id=\"f3-gpPt1\"/></defs><g clip-path=\"url(#f3-c1)\"><text>done = 5, valid='x'</text></g>"
                           "</svg>\n");
    assert_null(strstr(s, "http"));
    free(s);
    fclose(f);
    static const char *const bad[] = {
        "<svg><script>alert(1)</script></svg>",      "<svg><SCRIPT>x</SCRIPT></svg>",
        "<svg onload=\"x()\"></svg>",                "<svg><g\tonclick = 'x'></g></svg>",
        "<svg><foreignObject/></svg>",               "<svg><image href='x.png'/></svg>",
        "<svg><a href=\"https://evil/\">x</a></svg>", "<svg><use xlink:href='/etc/x#y'/></svg>",
        "<svg><rect fill=\"url(http://e/x)\"/></svg>", "<svg><style>@import 'x.css';</style></svg>",
        "<svg><a href='javascript:x'>x</a></svg>",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!html_svg_unsafe(bad[i]))
            fail_msg("not refused: %s", bad[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_ctab),
        cmocka_unit_test(test_manifest),
        cmocka_unit_test(test_svg),
    };
    return cmocka_run_group_tests_name("html", tests, NULL, NULL);
}
