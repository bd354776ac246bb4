/*
 * retry_after.c - herd policy library: the HTTP Retry-After field value
 * (RFC 9110 section 10.2.3) as a delay from now.
 *
 * Retry-After = HTTP-date / delay-seconds, with optional surrounding
 * whitespace (OWS: spaces and tabs only).  Pure: no clock (the caller
 * passes now), no allocation, no locale (ASCII comparisons only, no
 * strptime/timegm/mktime), and the civil-date arithmetic is done here with
 * Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian).
 *
 * Choices, where the RFC leaves room:
 *   - delay-seconds is 1*DIGIT exactly: no sign, fraction, unit or inner
 *     space.  It is accumulated in a double and stops growing once above
 *     max_s, so any number of digits saturates without overflow; values up
 *     to 2^53 are exact.
 *   - Tokens are case-sensitive, as RFC 9110's %s"..." grammar says: "Nov",
 *     "Sun", "Sunday", "GMT".  Separators are exactly one SP, except the
 *     asctime day, which is 2DIGIT or SP 1DIGIT ("Nov  6" or "Nov 06").
 *   - The day name must be a valid one (3 letters, or the full name in
 *     rfc850-date) but need not match the date: it is redundant, and
 *     recipients are not asked to check it.
 *   - Ranges are checked: day 1..days in the month (leap years included),
 *     hour 0-23, minute 0-59, second 0-60.  Second 60 (a leap second) counts
 *     as the next minute's 0, as POSIX time has no leap seconds.  Years are
 *     0000-9999 as written.
 *   - rfc850-date's two-digit year (RFC 9110 section 5.6.7) is the latest
 *     year with those last two digits that is at most 50 years after the
 *     current year (from now_epoch_s): in 2024, "74" is 2074 and "75" 1975.
 *     The comparison is by year, not by instant.
 *   - Arguments: value and delay_s must be non-NULL, now_epoch_s and max_s
 *     finite; otherwise the call fails (-1), whatever value says.  max_s is
 *     read as hp_policy.retry_after_max_s is (resolve_max): 0 is
 *     HP_DEFAULT_RETRY_AFTER_MAX_S, so a zero-initialised policy's field can
 *     be passed as is; a negative max_s (HP_OFF) is 0, and every delay then
 *     reads as 0.
 */
#include "herdpolicy.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const char month_names[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const day_names_long[7] = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

/* now_epoch_s is clamped to +-2^40 days (about 3e9 years) before its year
 * is taken, which keeps every int64 below far from overflow. */
#define RA_DAYS_LIMIT ((int64_t)1 << 40)

typedef struct ra_date {
    int64_t year;
    int month, day, hour, minute, second;
} ra_date;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_ows(char c)
{
    return c == ' ' || c == '\t';
}

/* n ASCII digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
    int v = 0, i;

    for (i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Month 1..12 for the 3 characters at s, or 0. */
static int month_of(const char *s)
{
    int i;

    for (i = 0; i < 12; i++)
        if (memcmp(s, month_names[i], 3) == 0)
            return i + 1;
    return 0;
}

/* day-name: the first 3 letters of a long name, exactly. */
static int is_day_name(const char *s)
{
    int i;

    for (i = 0; i < 7; i++)
        if (memcmp(s, day_names_long[i], 3) == 0)
            return 1;
    return 0;
}

static int is_day_name_long(const char *s, size_t len)
{
    int i;

    for (i = 0; i < 7; i++)
        if (strlen(day_names_long[i]) == len &&
            memcmp(s, day_names_long[i], len) == 0)
            return 1;
    return 0;
}

/* time-of-day "HH:MM:SS" at s (8 characters); 0 or -1. */
static int parse_time(const char *s, ra_date *d)
{
    if (s[2] != ':' || s[5] != ':')
        return -1;
    d->hour = digits(s, 2);
    d->minute = digits(s + 3, 2);
    d->second = digits(s + 6, 2);
    if (d->hour < 0 || d->minute < 0 || d->second < 0)
        return -1;
    return 0;
}

static int is_leap(int64_t y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int days_in_month(int64_t y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

static int date_valid(const ra_date *d)
{
    return d->month >= 1 && d->month <= 12 && d->day >= 1 &&
           d->day <= days_in_month(d->year, d->month) && d->hour <= 23 &&
           d->minute <= 59 && d->second <= 60;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Hinnant). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;                                   /* [0, 399] */
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* [0, 365] */
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

/* The year of day z since 1970-01-01 (Hinnant's civil_from_days). */
static int64_t year_of_day(int64_t z)
{
    int64_t era, doe, yoe, doy, mp;

    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    return yoe + era * 400 + (mp >= 10); /* months Jan, Feb: next year */
}

/* The current year, from a finite now. */
static int64_t year_of_now(double now)
{
    double days = floor(now / 86400.0);

    if (days > (double)RA_DAYS_LIMIT)
        days = (double)RA_DAYS_LIMIT;
    if (days < -(double)RA_DAYS_LIMIT)
        days = -(double)RA_DAYS_LIMIT;
    return year_of_day((int64_t)days);
}

/* IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" (29 characters). */
static int parse_imf(const char *s, size_t len, ra_date *d)
{
    if (len != 29 || !is_day_name(s) || memcmp(s + 3, ", ", 2) != 0 ||
        s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
        memcmp(s + 25, " GMT", 4) != 0)
        return -1;
    d->day = digits(s + 5, 2);
    d->month = month_of(s + 8);
    d->year = digits(s + 12, 4);
    if (d->year < 0 || parse_time(s + 17, d) != 0)
        return -1;
    return 0;
}

/* rfc850-date: "Sunday, 06-Nov-94 08:49:37 GMT"; the part after the comma
 * is 23 characters. */
static int parse_rfc850(const char *s, size_t len, double now, ra_date *d)
{
    const char *comma = memchr(s, ',', len);
    const char *t;
    int64_t top;
    int yy;

    if (comma == NULL || !is_day_name_long(s, (size_t)(comma - s)) ||
        len - (size_t)(comma - s) != 24)
        return -1;
    t = comma + 1; /* " 06-Nov-94 08:49:37 GMT" */
    if (t[0] != ' ' || t[3] != '-' || t[7] != '-' || t[10] != ' ' ||
        memcmp(t + 19, " GMT", 4) != 0)
        return -1;
    d->day = digits(t + 1, 2);
    d->month = month_of(t + 4);
    yy = digits(t + 8, 2);
    if (yy < 0 || parse_time(t + 11, d) != 0)
        return -1;
    /* the latest year ending in yy that is at most 50 years ahead */
    top = year_of_now(now) + 50;
    d->year = top - (((top - yy) % 100) + 100) % 100;
    return 0;
}

/* asctime-date: "Sun Nov  6 08:49:37 1994" (24 characters). */
static int parse_asctime(const char *s, size_t len, ra_date *d)
{
    if (len != 24 || !is_day_name(s) || s[3] != ' ' || s[7] != ' ' ||
        s[10] != ' ' || s[19] != ' ')
        return -1;
    d->month = month_of(s + 4);
    d->day = s[8] == ' ' ? digits(s + 9, 1) : digits(s + 8, 2);
    d->year = digits(s + 20, 4);
    if (d->year < 0 || parse_time(s + 11, d) != 0)
        return -1;
    return 0;
}

/* max_s as hp_policy.retry_after_max_s reads: 0 the default, negative
 * (HP_OFF) 0; -1 when it is not finite. */
static double resolve_max(double max_s)
{
    if (!isfinite(max_s))
        return -1.0;
    if (max_s == 0.0)
        return HP_DEFAULT_RETRY_AFTER_MAX_S;
    return max_s < 0.0 ? 0.0 : max_s;
}

/* delay-seconds at s (len > 0): 0 and *out in [0, max_s], or -1. */
static int parse_delta(const char *s, size_t len, double max_s, double *out)
{
    double v = 0.0;
    size_t i;

    for (i = 0; i < len; i++) {
        if (!is_digit(s[i]))
            return -1;
        if (v <= max_s) /* once above, the value no longer matters */
            v = v * 10.0 + (s[i] - '0');
    }
    *out = v < max_s ? v : max_s;
    return 0;
}

int hp_parse_retry_after(const char *value, double now_epoch_s, double max_s,
                         double *delay_s)
{
    const char *s;
    size_t len;
    ra_date d;
    double t, delay;

    max_s = resolve_max(max_s);
    if (value == NULL || delay_s == NULL || !isfinite(now_epoch_s) || max_s < 0.0)
        return -1;
    s = value;
    len = strlen(s);
    while (len > 0 && is_ows(s[0])) {
        s++;
        len--;
    }
    while (len > 0 && is_ows(s[len - 1]))
        len--;
    if (len == 0)
        return -1;

    if (is_digit(s[0])) {
        if (parse_delta(s, len, max_s, &delay) != 0)
            return -1;
        *delay_s = delay;
        return 0;
    }

    memset(&d, 0, sizeof d);
    if (parse_imf(s, len, &d) != 0 && parse_rfc850(s, len, now_epoch_s, &d) != 0 &&
        parse_asctime(s, len, &d) != 0)
        return -1;
    if (!date_valid(&d))
        return -1;
    t = (double)(days_from_civil(d.year, d.month, d.day) * 86400 +
                 d.hour * 3600 + d.minute * 60 + d.second);
    delay = t - now_epoch_s;
    if (!(delay > 0.0))
        delay = 0.0;
    else if (delay > max_s)
        delay = max_s;
    *delay_s = delay;
    return 0;
}

/* value without its surrounding OWS: *s and *len (0 for NULL). */
static void trim_ows(const char *value, const char **s, size_t *len)
{
    *s = value;
    *len = value ? strlen(value) : 0;
    while (*len > 0 && is_ows((*s)[0])) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && is_ows((*s)[*len - 1]))
        (*len)--;
}

/* retry-after-ms: 1*DIGIT [ "." 1*DIGIT ] milliseconds.  The integer part
 * saturates like delta-seconds; the fraction adds at most one millisecond. */
int hp_parse_retry_after_ms(const char *value, double max_s, double *delay_s)
{
    const char *s;
    size_t len, i = 0;
    double ms = 0.0, scale = 0.1, cap_ms;

    max_s = resolve_max(max_s);
    if (value == NULL || delay_s == NULL || max_s < 0.0)
        return -1;
    trim_ows(value, &s, &len);
    if (len == 0 || !is_digit(s[0]))
        return -1;
    cap_ms = max_s * 1000.0;
    for (; i < len && is_digit(s[i]); i++)
        if (ms <= cap_ms)
            ms = ms * 10.0 + (s[i] - '0');
    if (i < len) {
        if (s[i] != '.' || i + 1 == len)
            return -1;
        for (i++; i < len; i++) {
            if (!is_digit(s[i]))
                return -1;
            ms += (s[i] - '0') * scale;
            scale /= 10.0;
        }
    }
    *delay_s = ms / 1000.0 < max_s ? ms / 1000.0 : max_s;
    return 0;
}

/* X-RateLimit-Reset: 1*DIGIT Unix seconds; only a future instant counts. */
int hp_parse_ratelimit_reset(const char *value, double now_epoch_s, double *delay_s)
{
    const char *s;
    size_t len;
    double t;

    if (value == NULL || delay_s == NULL || !isfinite(now_epoch_s))
        return -1;
    trim_ows(value, &s, &len);
    if (len == 0 || parse_delta(s, len, 1e300, &t) != 0)
        return -1;
    if (!(t - now_epoch_s > 0.0))
        return -1;
    *delay_s = t - now_epoch_s;
    return 0;
}
