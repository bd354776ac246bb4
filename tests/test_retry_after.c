/*
 * test_retry_after.c - cmocka tests for hp_parse_retry_after() (herdpolicy.h).
 *
 * Exact delays against fixed "now" values for delay-seconds and the three
 * HTTP-date formats, the rfc850 century rule, leap years and month lengths,
 * saturation of huge numbers, a catalogue of garbage (each checked to leave
 * *delay_s untouched), and a round trip over random dates against a plain
 * day-counting oracle.
 *
 * Epoch values were derived by hand (days since 1970-01-01 by counting
 * years, leap years and month lengths) and cross-checked with Python's
 * calendar.timegm; the anchor is RFC 9110's example,
 * 1994-11-06T08:49:37Z = 9075 days * 86400 + 31777 s = 784111777.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "herdpolicy.h"


#define EXAMPLE_S 784111777.0     /* Sun, 06 Nov 1994 08:49:37 GMT */
#define NOW_1994 (EXAMPLE_S - 60) /* one minute before it */
#define LEAP_2024_S 1709208000.0  /* Thu, 29 Feb 2024 12:00:00 GMT */
#define SENTINEL 12345.5

/* Parses v and checks that it gives exactly want. */
#define assert_delay(v, now, max, want)                                        \
    check_delay((v), (now), (max), (want), __FILE__, __LINE__)
/* Checks that v is rejected and *delay_s is left alone. */
#define assert_rejected(v, now, max)                                           \
    check_rejected((v), (now), (max), __FILE__, __LINE__)

static void check_delay(const char *v, double now, double max, double want,
                        const char *file, int line)
{
    double d = SENTINEL;
    int rc = hp_parse_retry_after(v, now, max, &d);

    if (rc != 0 || d != want) {
        print_error("\"%s\" (now %.17g, max %g): rc %d, delay %.17g, want "
                    "%.17g\n", v, now, max, rc, d, want);
        _fail(file, line);
    }
}

static void check_rejected(const char *v, double now, double max,
                           const char *file, int line)
{
    double d = SENTINEL;
    int rc = hp_parse_retry_after(v, now, max, &d);

    if (rc != -1 || d != SENTINEL) {
        print_error("\"%s\" (now %.17g, max %g): rc %d, delay %.17g, want "
                    "rejected\n", v ? v : "(null)", now, max, rc, d);
        _fail(file, line);
    }
}

/* ---------------------------------------------------------- delay-seconds */

TEST(test_delta_seconds)
{
    char big[402];

    assert_delay("0", 0, 120, 0);
    assert_delay("120", 0, 120, 120);
    assert_delay("121", 0, 120, 120);
    assert_delay("119", 0, 120, 119);
    assert_delay("60", NOW_1994, 120, 60); /* now does not matter */
    assert_delay("007", 0, 120, 7);
    assert_delay("000", 0, 120, 0);
    assert_delay(" 42", 0, 120, 42);
    assert_delay("42 ", 0, 120, 42);
    assert_delay(" \t 42\t\t ", 0, 120, 42);
    assert_delay("5", 0, 2.5, 2.5); /* a fractional max is fine */
    assert_delay("1", -1e12, 120, 1);

    /* huge numbers saturate */
    assert_delay("9999999999", 0, 120, 120);
    assert_delay("9999999999", 0, 1e12, 9999999999.0);
    assert_delay("18446744073709551616", 0, 120, 120); /* 2^64 */
    assert_delay("9007199254740992", 0, 1e300, 9007199254740992.0); /* 2^53 */
    memset(big, '9', 400);
    big[400] = '\0';
    assert_delay(big, 0, 120, 120);
    assert_delay(big, 0, 1e300, 1e300);
    big[0] = '1';
    memset(big + 1, '0', 399);
    assert_delay(big, 0, 120, 120);
    /* 399 leading zeros are not a big number */
    memset(big, '0', 399);
    big[399] = '7';
    assert_delay(big, 0, 120, 7);
}

/* ------------------------------------------------------------ HTTP-dates */

TEST(test_three_formats)
{
    /* RFC 9110's example instant, in its three formats */
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Sunday, 06-Nov-94 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Sun Nov  6 08:49:37 1994", NOW_1994, 120, 60);
    assert_delay("Sun Nov 06 08:49:37 1994", NOW_1994, 120, 60); /* 2DIGIT */
    assert_delay("  Sun, 06 Nov 1994 08:49:37 GMT\t", NOW_1994, 120, 60);
    assert_delay("\tSunday, 06-Nov-94 08:49:37 GMT ", NOW_1994, 120, 60);
    assert_delay(" Sun Nov  6 08:49:37 1994 ", NOW_1994, 120, 60);

    /* exact: a day later is 86400 + 60 s away, or max_s */
    assert_delay("Mon, 07 Nov 1994 08:49:37 GMT", NOW_1994, 1e6, 86460);
    assert_delay("Mon, 07 Nov 1994 08:49:37 GMT", NOW_1994, 120, 120);
    assert_delay("Monday, 07-Nov-94 08:49:37 GMT", NOW_1994, 1e6, 86460);
    assert_delay("Mon Nov  7 08:49:37 1994", NOW_1994, 1e6, 86460);
    /* a fractional now */
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", NOW_1994 + 0.25, 120, 59.75);

    /* past and present give 0 */
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", EXAMPLE_S, 120, 0);
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", EXAMPLE_S + 1, 120, 0);
    assert_delay("Sun, 06 Nov 1994 08:48:36 GMT", NOW_1994, 120, 0);
    assert_delay("Sun Nov  6 08:48:36 1994", NOW_1994, 120, 0);
    assert_delay("Thu, 01 Jan 1970 00:00:00 GMT", NOW_1994, 120, 0);
    assert_delay("Mon, 01 Jan 0001 00:00:00 GMT", NOW_1994, 120, 0);

    /* around the epoch, and negative now */
    assert_delay("Thu, 01 Jan 1970 00:00:00 GMT", -30, 120, 30);
    assert_delay("Thu, 01 Jan 1970 00:00:00 GMT", 0, 120, 0);
    assert_delay("Wed, 31 Dec 1969 23:59:59 GMT", -31, 120, 30);
    /* past 2^31 and the end of year 9999 */
    assert_delay("Tue, 19 Jan 2038 03:14:08 GMT", 2147483648.0 - 10, 120, 10);
    assert_delay("Tue Jan 19 03:14:08 2038", 2147483648.0 - 10, 120, 10);
    assert_delay("Fri, 31 Dec 9999 23:59:59 GMT", 253402300799.0 - 5, 120, 5);
    assert_delay("Fri, 31 Dec 9999 23:59:59 GMT", NOW_1994, 1e12,
                 253402300799.0 - NOW_1994);
    /* a fresh year: 1994-12-31T23:59:59 + 1 s */
    assert_delay("Sun, 01 Jan 1995 00:00:00 GMT", 788918399.0, 120, 1);

    /* second 60 is the next minute's 0 */
    assert_delay("Sun, 06 Nov 1994 08:49:60 GMT", NOW_1994, 120, 83);
    /* the day name is not checked against the date */
    assert_delay("Mon, 06 Nov 1994 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Friday, 06-Nov-94 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Sat Nov  6 08:49:37 1994", NOW_1994, 120, 60);
}

TEST(test_rfc850_century)
{
    /* now in 1994: 94 is 1994; 44 is 2044 (50 years on); 45 is 1945 */
    assert_delay("Sunday, 06-Nov-94 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Friday, 01-Jan-44 00:00:00 GMT", NOW_1994, 1e12,
                 2335219200.0 - NOW_1994);
    assert_delay("Monday, 01-Jan-45 00:00:00 GMT", NOW_1994, 1e12, 0);
    assert_delay("Thursday, 01-Jan-70 00:00:00 GMT", -30, 120, 30);

    /* now 2024-02-29: 74 is 2074 (by year, even on 31 Dec, a little more
     * than 50 years ahead by the clock), 75 is 1975 */
    assert_delay("Monday, 01-Jan-74 00:00:00 GMT", LEAP_2024_S, 1e12,
                 3281990400.0 - LEAP_2024_S);
    assert_delay("Monday, 31-Dec-74 23:59:59 GMT", LEAP_2024_S, 1e12,
                 3313526399.0 - LEAP_2024_S);
    assert_delay("Wednesday, 01-Jan-75 00:00:00 GMT", LEAP_2024_S, 1e12, 0);
    assert_delay("Thursday, 29-Feb-24 12:02:00 GMT", LEAP_2024_S, 1e12, 120);
    assert_delay("Monday, 01-Jan-00 00:00:00 GMT", LEAP_2024_S, 1e12, 0);

    /* now 2090-06-01: 10 is 2110 (the next century), 40 is 2140, 41 is 2041 */
    assert_delay("Tuesday, 04-Mar-10 05:06:07 GMT", 3799958400.0, 1e12,
                 4423352767.0 - 3799958400.0);
    assert_delay("Friday, 01-Jan-40 00:00:00 GMT", 3799958400.0, 1e12,
                 5364662400.0 - 3799958400.0);
    assert_delay("Tuesday, 01-Jan-41 00:00:00 GMT", 3799958400.0, 1e12, 0);

    /* the year decides leap days: 29-Feb-00 is 2000 in 2024 (leap), 2100 in
     * 2090 (not leap) */
    assert_delay("Tuesday, 29-Feb-00 00:00:00 GMT", LEAP_2024_S, 120, 0);
    assert_rejected("Monday, 29-Feb-00 00:00:00 GMT", 3799958400.0, 120);
}

TEST(test_leap_days_and_months)
{
    static const char *const ok[] = {
        "Thu, 29 Feb 2024 12:00:00 GMT", "Tue, 29 Feb 2000 00:00:00 GMT",
        "Sat, 29 Feb 1600 00:00:00 GMT", "Thu Feb 29 12:00:00 2024",
        "Wed, 31 Jan 2024 00:00:00 GMT", "Wed, 28 Feb 2023 00:00:00 GMT",
        "Sun, 31 Mar 2024 00:00:00 GMT", "Tue, 30 Apr 2024 00:00:00 GMT",
        "Fri, 31 May 2024 00:00:00 GMT", "Sun, 30 Jun 2024 00:00:00 GMT",
        "Wed, 31 Jul 2024 00:00:00 GMT", "Sat, 31 Aug 2024 00:00:00 GMT",
        "Mon, 30 Sep 2024 00:00:00 GMT", "Thu, 31 Oct 2024 00:00:00 GMT",
        "Sat, 30 Nov 2024 00:00:00 GMT", "Tue, 31 Dec 2024 00:00:00 GMT",
    };
    static const char *const bad[] = {
        "Wed, 29 Feb 2023 12:00:00 GMT", "Thu, 29 Feb 1900 00:00:00 GMT",
        "Fri, 29 Feb 2100 00:00:00 GMT", "Fri, 30 Feb 2024 00:00:00 GMT",
        "Wed Feb 29 12:00:00 2023",      "Wednesday, 29-Feb-23 12:00:00 GMT",
        "Wed, 31 Apr 2024 00:00:00 GMT", "Mon, 31 Jun 2024 00:00:00 GMT",
        "Tue, 31 Sep 2024 00:00:00 GMT", "Sun, 31 Nov 2024 00:00:00 GMT",
        "Sun, 32 Dec 2024 00:00:00 GMT", "Sun, 32 Jan 2024 00:00:00 GMT",
        "Sun, 00 Jan 2024 00:00:00 GMT", "Sun Jan  0 00:00:00 2024",
        "Sun Jan 00 00:00:00 2024",
    };
    size_t i;

    assert_delay("Thu, 29 Feb 2024 12:00:00 GMT", LEAP_2024_S - 100, 120, 100);
    assert_delay("Thu Feb 29 12:00:00 2024", LEAP_2024_S - 100, 120, 100);
    assert_delay("Fri, 01 Mar 2024 00:00:00 GMT", LEAP_2024_S, 1e6, 43200);
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++)
        assert_delay(ok[i], 1e12, 120, 0); /* valid, and in the past */
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_rejected(bad[i], 0, 120);
}

/* --------------------------------------------------------------- garbage */

TEST(test_garbage)
{
    static const char *const bad[] = {
        /* empty, whitespace, and what is not OWS */
        "", " ", "\t", " \t ", "\n120", "120\n", "120\r\n", "\r120", "\v120",
        "120\f",
        /* delay-seconds that are not 1*DIGIT */
        "-5", "+5", "-0", "1.5", "1.", ".5", "5 s", "5s", "1 2", "1\t2",
        "0x10", "1e3", "five", "12a", "a12", "\xef\xbc\x91\xef\xbc\x92", /* "１２" */
        "1,5", "1_000", "--5", "5-",
        /* IMF-fixdate */
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 gmt",
        "Sun, 06 Nov 1994 08:49:37 GMT junk", "Sun, 06 Nov 1994 08:49:37 GMTX",
        "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 +0000",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 NOV 1994 08:49:37 GMT", "sun, 06 Nov 1994 08:49:37 GMT",
        "Sux, 06 Nov 1994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun,  06 Nov 1994 08:49:37 GMT", "Sun,06 Nov 1994 08:49:37 GMT",
        "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994  08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37  GMT", "Sun, 06-Nov-1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
        "Sun, 06 Nov 1994 08.49.37 GMT", "Sun, 06 Nov 1994 08:49:3x GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 1994 99:99:99 GMT",
        "Sun, 0x Nov 1994 08:49:37 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT",
        "Sun, 06 Nov -994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT,",
        "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT 5",
        /* rfc850-date */
        "Sun, 06-Nov-94 08:49:37 GMT", "sunday, 06-Nov-94 08:49:37 GMT",
        "Sundae, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sunday, 6-Nov-94 08:49:37 GMT", "Sunday, 06-Foo-94 08:49:37 GMT",
        "Sunday, 06 Nov 94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 UTC",
        "Sunday, 06-Nov-94 08:49:37", "Sunday,06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT x", "Sunday, 31-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-9x 08:49:37 GMT", "Sunday, 06-Nov-94 25:49:37 GMT",
        "Sunday, 06/Nov/94 08:49:37 GMT", ", 06-Nov-94 08:49:37 GMT",
        "SundaySunday, 06-Nov-94 08:49:37 GMT",
        /* asctime-date */
        "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94",
        "Sun Nov  6 08:49:37 1994 GMT", "Sun Nov  6 08:49:37  1994",
        "Sun Nov   6 08:49:37 1994", "Sun Nov 6  08:49:37 1994",
        "Sun Foo  6 08:49:37 1994", "Sun Nov  x 08:49:37 1994",
        "Sunday Nov  6 08:49:37 1994", "Sun, Nov  6 08:49:37 1994",
        "Sun Nov 31 08:49:37 1994", "Sun Nov  6 08:49:37 199x",
        "Sun Nov  6 08-49-37 1994", "Sun Nov  6 08:49:37 1994x",
        "Sun  Nov 6 08:49:37 1994",
        /* neither */
        "GMT", "Sun", "Sunday,", "tomorrow", "120 Sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT 120",
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_rejected(bad[i], NOW_1994, 120);
    /* well-formed ones differing from the above in one place are accepted */
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Sunday, 06-Nov-94 08:49:37 GMT", NOW_1994, 120, 60);
    assert_delay("Sun Nov  6 08:49:37 1994", NOW_1994, 120, 60);
}

TEST(test_bad_arguments)
{
    double d = SENTINEL;

    assert_rejected(NULL, 0, 120);
    assert_int_equal(hp_parse_retry_after("5", 0, 120, NULL), -1);
    assert_rejected("5", NAN, 120);
    assert_rejected("5", INFINITY, 120);
    assert_rejected("5", -INFINITY, 120);
    assert_rejected("Sun, 06 Nov 1994 08:49:37 GMT", NAN, 120);
    /* max_s reads as hp_policy.retry_after_max_s: 0 is the default
     * HP_DEFAULT_RETRY_AFTER_MAX_S, HP_OFF (any negative) is 0 */
    assert_delay("5", 0, 0, 5);
    assert_delay("500", 0, 0, HP_DEFAULT_RETRY_AFTER_MAX_S);
    assert_delay("500", 0, -0.0, HP_DEFAULT_RETRY_AFTER_MAX_S);
    assert_delay("Sun, 06 Nov 1994 08:50:37 GMT", NOW_1994, 0, 120);
    assert_delay("Sun, 06 Nov 1994 09:49:37 GMT", NOW_1994, 0, HP_DEFAULT_RETRY_AFTER_MAX_S);
    assert_delay("5", 0, HP_OFF, 0);
    assert_delay("5", 0, -1e-300, 0);
    assert_delay("Sun, 06 Nov 1994 08:50:37 GMT", NOW_1994, HP_OFF, 0);
    assert_rejected("5x", 0, HP_OFF);
    assert_rejected("5", 0, NAN);
    assert_rejected("5", 0, -INFINITY);
    assert_rejected("5", 0, INFINITY);
    /* a huge but finite now still parses dates (all in the past) */
    assert_int_equal(hp_parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT",
                                          1e300, 120, &d), 0);
    assert_true(d == 0);
    d = SENTINEL;
    assert_int_equal(hp_parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT",
                                          -1e300, 120, &d), 0);
    assert_true(d == 120);
    assert_delay("Sun, 06 Nov 1994 08:49:37 GMT", -1e300, 120, 120);
}

/* ------------------------------------------------ round trip with oracle */

static int leap(long y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int mdays(long y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    return m == 2 && leap(y) ? 29 : dim[m - 1];
}

/* Days since 1970-01-01 by plain counting: the oracle. */
static long days_oracle(long y, int m, int d)
{
    long n = 0, k;
    int i;

    for (k = 1970; k < y; k++)
        n += 365 + leap(k);
    for (k = y; k < 1970; k++)
        n -= 365 + leap(k);
    for (i = 1; i < m; i++)
        n += mdays(y, i);
    return n + d - 1;
}


static long pick(uint64_t *s, long lo, long hi) /* [lo, hi]; tiny bias is fine */
{
    return lo + (long)(splitmix64(s) % (uint64_t)(hi - lo + 1));
}

TEST(test_round_trip)
{
    static const char *const mon[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    static const char *const wday[7] = {"Sunday",   "Monday", "Tuesday",
                                        "Wednesday", "Thursday", "Friday",
                                        "Saturday"};
    uint64_t seed = 2024;
    char buf[3][64];
    int i, f;

    for (i = 0; i < 20000; i++) {
        long y = pick(&seed, 1600, 2400);
        int m = (int)pick(&seed, 1, 12);
        int d = (int)pick(&seed, 1, mdays(y, m));
        int hh = (int)pick(&seed, 0, 23), mi = (int)pick(&seed, 0, 59);
        int ss = (int)pick(&seed, 0, 59);
        long days = days_oracle(y, m, d);
        double t = (double)days * 86400 + hh * 3600 + mi * 60 + ss;
        double ahead = (double)pick(&seed, 0, 100000) / 4; /* exact */
        const char *wd = wday[((days % 7) + 11) % 7];      /* 1970-01-01: Thu */

        snprintf(buf[0], sizeof buf[0], "%.3s, %02d %s %04ld %02d:%02d:%02d GMT",
                 wd, d, mon[m - 1], y, hh, mi, ss);
        snprintf(buf[1], sizeof buf[1], "%s, %02d-%s-%02ld %02d:%02d:%02d GMT",
                 wd, d, mon[m - 1], y % 100, hh, mi, ss);
        snprintf(buf[2], sizeof buf[2], "%.3s %s %2d %02d:%02d:%02d %04ld", wd,
                 mon[m - 1], d, hh, mi, ss, y);
        for (f = 0; f < 3; f++) {
            assert_delay(buf[f], t - ahead, 1e6, ahead);
            assert_delay(buf[f], t + ahead, 1e6, 0);
        }
    }
    /* the oracle's anchors */
    assert_int_equal(days_oracle(1994, 11, 6), 9075);
    assert_int_equal(days_oracle(1970, 1, 1), 0);
    assert_int_equal(days_oracle(1969, 12, 31), -1);
}

/* The non-standard headers the client presets read: retry-after-ms (the
 * Stainless SDKs) and X-RateLimit-Reset (cohere). */
TEST(test_parse_ms_and_reset)
{
    double d = -7;

    assert_int_equal(hp_parse_retry_after_ms("1500", 60, &d), 0);
    assert_close(d, 1.5, 0);
    assert_int_equal(hp_parse_retry_after_ms(" 250.5\t", 60, &d), 0);
    assert_close(d, 0.2505, 1e-15);
    assert_int_equal(hp_parse_retry_after_ms("99999999999999999999", 60, &d), 0);
    assert_close(d, 60, 0);
    d = -7;
    assert_int_equal(hp_parse_retry_after_ms("-1", 60, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms("1e3", 60, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms("1.", 60, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms(".5", 60, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms("", 60, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms("5", NAN, &d), -1);
    assert_int_equal(hp_parse_retry_after_ms("5", INFINITY, &d), -1);
    assert_close(d, -7, 0); /* untouched */
    /* max_s 0: the default; HP_OFF: 0 */
    assert_int_equal(hp_parse_retry_after_ms("1500", 0, &d), 0);
    assert_close(d, 1.5, 0);
    assert_int_equal(hp_parse_retry_after_ms("999999999", 0, &d), 0);
    assert_close(d, HP_DEFAULT_RETRY_AFTER_MAX_S, 0);
    assert_int_equal(hp_parse_retry_after_ms("1500", HP_OFF, &d), 0);
    assert_close(d, 0, 0);
    d = -7;
    assert_int_equal(hp_parse_ratelimit_reset("1000", 990.5, &d), 0);
    assert_close(d, 9.5, 0);
    assert_int_equal(hp_parse_ratelimit_reset("990", 990, &d), -1); /* not in the future */
    assert_int_equal(hp_parse_ratelimit_reset("12a", 0, &d), -1);
    assert_int_equal(hp_parse_ratelimit_reset("5", NAN, &d), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_delta_seconds),
        cmocka_unit_test(test_three_formats),
        cmocka_unit_test(test_rfc850_century),
        cmocka_unit_test(test_leap_days_and_months),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_parse_ms_and_reset),
    };

    return cmocka_run_group_tests_name("retry_after", tests, NULL, NULL);
}
