/*
 * qbench.c - the classic hold benchmark (Vaucher and Duval 1975; Jones
 * 1986) for the pending-event sets: fill n events, then repeat "pop the
 * minimum, push one at its time + a random increment", and time the holds.
 *
 *   build/tests/qbench QUEUE N HOLDS DIST
 *     QUEUE  heap | ladder
 *     DIST   exp (mean 1), unif [0, 2), bimodal (90% [0, 0.1), 10% [0, 100)),
 *            herd (half |N(5 ms, 1 ms)| hops, half sleeps U(0, 2^k), k in 0..6),
 *            ties (integers 0..3: many events at one time),
 *            occ (80% hops |N(10 ms, 2 ms)|, 20% full-jitter sleeps 10 ms..2 s)
 *
 * Prints ns per hold and a checksum of the popped sequence, which must be
 * the same for every queue (the order is exactly (time, seq)).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sim/engine/chunk.h"
#include "../sim/engine/equeue.h"
#include "../sim/engine/ladder.h"

static uint64_t s = 0x9e3779b97f4a7c15ULL;

static double unif(void)
{
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static double incr(const char *d)
{
    double u = unif();
    if (!strcmp(d, "exp"))
        return -__builtin_log(1 - u);
    if (!strcmp(d, "unif"))
        return 2 * u;
    if (!strcmp(d, "bimodal"))
        return u < 0.9 ? 0.1 * unif() : 100 * unif();
    if (!strcmp(d, "ties"))
        return (double)(int)(4 * u);
    if (!strcmp(d, "occ")) { /* 4 hops of |N(10 ms, 2 ms)| and a full-jitter sleep */
        if (u < 0.8) {
            double a = unif(), b = unif();
            return __builtin_fabs(0.01 + 0.002 * 2.449 * (a + b - 1));
        }
        double c = 0.005 * (double)(1u << (1 + (int)(9 * unif())));
        return (c < 2 ? c : 2) * unif();
    }
    /* herd */
    if (u < 0.5) {
        double a = unif(), b = unif(); /* a crude normal from 12 uniforms is too slow: Irwin-Hall of 2 */
        return __builtin_fabs(0.005 + 0.001 * 2.449 * (a + b - 1));
    }
    return (double)(1u << (int)(7 * unif())) * unif();
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: qbench heap|ladder N HOLDS exp|unif|bimodal|herd|ties|occ\n");
        return 2;
    }
    const char *kind = argv[1], *dist = argv[4];
    size_t n = strtoull(argv[2], NULL, 10), holds = strtoull(argv[3], NULL, 10);
    ck_pool pool;
    eq_queue h;
    lq_queue l;
    ck_pool_init(&pool);
    int k = !strcmp(kind, "heap") ? 0 : 1;
    if ((k == 0 && eq_init(&h, n)) || (k == 1 && lq_init(&l, &pool)))
        return 1;
    eq_event e = {0};
    for (size_t i = 0; i < n; i++) {
        e.time = incr(dist);
        e.obj = (uint32_t)i;
        int rc = k == 0 ? eq_push(&h, &e) : lq_push(&l, &e);
        if (rc)
            return 1;
    }
    struct timespec t0, t1;
    uint64_t sum = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < holds; i++) {
        int rc = k == 0 ? eq_pop(&h, &e) : lq_pop(&l, &e);
        if (rc)
            return 1;
        sum = sum * 31 + e.obj;
        e.time += incr(dist);
        rc = k == 0 ? eq_push(&h, &e) : lq_push(&l, &e);
        if (rc)
            return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)holds;
    printf("qbench: queue=%s n=%zu holds=%zu dist=%s ns_per_hold=%.1f peak_chunks=%zu checksum=%016llx\n", kind, n,
           holds, dist, ns, pool.peak, (unsigned long long)sum);
    if (k == 0)
        eq_free(&h);
    else
        lq_free(&l);
    ck_pool_free(&pool);
    return 0;
}
