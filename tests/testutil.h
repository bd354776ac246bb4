/*
 * testutil.h - what the cmocka test files share: the TEST() wrapper, a
 * relative comparison of doubles (cmocka 1.1.5 has none), and a small
 * fixed-seed generator for property and distribution tests that must not
 * depend on GSL.  Include after <cmocka.h>.
 */
#ifndef HERD_TESTUTIL_H
#define HERD_TESTUTIL_H

#include <math.h>
#include <stdint.h>

/* A cmocka test whose body does not use the state pointer. */
#define TEST(name)                                                             \
    static void name##_body(void);                                             \
    static void name(void **state)                                             \
    {                                                                          \
        (void)state;                                                           \
        name##_body();                                                         \
    }                                                                          \
    static void name##_body(void)

/* |a - b| <= eps * max(1, |b|), with both numbers in the message. */
#define assert_close(a, b, eps) check_close((a), (b), (eps), __FILE__, __LINE__)
#define EPS 1e-12

static inline void check_close(double a, double b, double eps, const char *file,
                               int line)
{
    double scale = fabs(b) > 1.0 ? fabs(b) : 1.0;

    if (!(fabs(a - b) <= eps * scale)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        _fail(file, line);
    }
}

/* splitmix64 (Steele, Lea, Flood 2014): small, self-contained, fixed seed. */
static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits scaled by 2^-53. */
static inline double unif(uint64_t *s)
{
    return (double)(splitmix64(s) >> 11) * 0x1.0p-53;
}

#endif
