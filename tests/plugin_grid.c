/*
 * plugin_grid.c - proof 2 of doc/plugins.md, first half: the independent
 * full jitter of tests/plugins/fulljitter.c (u * min(cap, base * 2^n),
 * written from the formula) is bit-equal to libherdpolicy's hp_backoff
 * with HP_FULL_JITTER on a grid of bases, caps, retries and uniforms
 * (the edges included: u = 0, the largest double below 1, n past the
 * cap and past 1023).  Prints the count and exits 1 on the first
 * difference.
 *
 *   build/tests/plugin_grid build/plugins/fulljitter.so
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "herdpolicy.h"

typedef double (*sleep_fn)(double, double, unsigned, double);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: plugin_grid PATH/fulljitter.so\n");
        return 2;
    }
    void *dl = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    void *sym = dl ? dlsym(dl, "fulljitter_sleep") : NULL;
    if (!sym) {
        fprintf(stderr, "plugin_grid: %s\n", dlerror());
        return 2;
    }
    sleep_fn f;
    memcpy(&f, &sym, sizeof f);
    const double bases[] = {0.001, 0.1, 0.5, 1, 3, 7.3};
    const double caps[] = {0.5, 8, 20, 60, 1e6};
    const unsigned ns[] = {0, 1, 2, 3, 4, 5, 7, 10, 20, 31, 32, 63, 64, 100, 1022, 1023, 1024, 5000, 4294967295u};
    double us[64];
    size_t nu = 0;
    us[nu++] = 0;
    us[nu++] = nextafter(1.0, 0.0);
    us[nu++] = 0.5;
    us[nu++] = 0x1p-53;
    for (unsigned i = 1; i < 60; i++) /* a low-discrepancy sweep of [0, 1) */
        us[nu++] = fmod(i * 0.6180339887498949, 1.0);
    size_t checked = 0;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            if (caps[c] < bases[b])
                continue;
            hp_policy p = hp_policy_defaults();
            p.strategy = HP_FULL_JITTER;
            p.base_s = bases[b];
            p.cap_s = caps[c];
            for (size_t n = 0; n < sizeof ns / sizeof ns[0]; n++)
                for (size_t u = 0; u < nu; u++) {
                    double want = hp_backoff(&p, NULL, ns[n], us[u]);
                    double got = f(bases[b], caps[c], ns[n], us[u]);
                    checked++;
                    if (memcmp(&want, &got, sizeof want)) {
                        printf("plugin_grid: base %g cap %g n %u u %a: built-in %a, plugin %a\n", bases[b], caps[c],
                               ns[n], us[u], want, got);
                        return 1;
                    }
                }
        }
    printf("plugin_grid: %zu sleeps bit-equal\n", checked);
    return 0;
}
