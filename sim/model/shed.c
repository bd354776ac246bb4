/*
 * shed.c - deadline-aware dropping and priority shedding (see shed.h).
 */
#include "shed.h"

#include <math.h>
#include <string.h>

float shed_carried(double timeout_s, double elapsed)
{
    if (isinf(timeout_s))
        return INFINITY;
    double left = timeout_s - elapsed;
    float f = (float)left;
    if ((double)f < left)
        f = nextafterf(f, INFINITY);
    return f;
}

bool shed_rejects(double above, uint32_t busy, uint32_t workers)
{
    double share = workers ? (double)busy / workers : 1.0;
    return share > above;
}

int shed_parse_deadline(const char *value, double *left_s)
{
    if (!value)
        return -1;
    size_t whole = strspn(value, "0123456789"), frac = 0;
    if (value[whole] == '.')
        frac = strspn(value + whole + 1, "0123456789");
    size_t len = whole + (value[whole] == '.' ? 1 + frac : 0);
    if (value[len] != '\0' || whole + frac == 0 || whole > 10)
        return -1;
    /* digits only: the value is whole + frac / 10^k, read without strtod's
     * locale and its hex, inf and exponent forms */
    double v = 0;
    for (size_t i = 0; i < whole; i++)
        v = v * 10 + (value[i] - '0');
    double scale = 0.1;
    for (size_t i = 0; i < frac && i < 17; i++, scale /= 10)
        v += (value[whole + 1 + i] - '0') * scale;
    if (v > 1e9)
        return -1;
    *left_s = v;
    return 0;
}

int shed_parse_priority(const char *value)
{
    if (!value)
        return -1;
    if (!strcmp(value, "critical"))
        return 0;
    if (!strcmp(value, "sheddable"))
        return 1;
    return -1;
}
