/*
 * space.c - search dimensions and candidates (see space.h).
 */
#include "space.h"

#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"

int tune_space_add(tune_space *s, const char *text, char *err, size_t errlen)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1]) {
        snprintf(err, errlen, "--search %s: expected SECTION.KEY=A,B,C or SECTION.KEY=FROM:TO:STEP", text);
        return -1;
    }
    if (s->ndims == TUNE_MAX_DIMS) {
        snprintf(err, errlen, "--search %s: at most %d dimensions", text, TUNE_MAX_DIMS);
        return -1;
    }
    scn_sweep sw;
    memset(&sw, 0, sizeof sw);
    if ((size_t)(eq - text) >= sizeof sw.key || strlen(eq + 1) >= sizeof sw.values) {
        snprintf(err, errlen, "--search %.60s...: key or values too long", text);
        return -1;
    }
    char raw[SCN_SWEEP_KEY_MAX];
    snprintf(raw, sizeof raw, "%.*s", (int)(eq - text), text);
    scn_key_canonical(raw, sw.key, sizeof sw.key);
    snprintf(sw.values, sizeof sw.values, "%s", eq + 1);
    if (!strchr(sw.key, '.')) {
        snprintf(err, errlen, "--search %s: expected a key SECTION.KEY (e.g. retry.max_attempts), got '%s'", text,
                 sw.key);
        return -1;
    }
    const char *why = scn_fixed_key(sw.key); /* a candidate varies as a sweep point does */
    if (why) {
        snprintf(err, errlen, "--search %s: %s cannot be searched (nor swept): %s", text, sw.key, why);
        return -1;
    }
    if (tune_space_has(s, sw.key)) {
        snprintf(err, errlen, "--search %s: %s is searched twice; give each key one --search", text, sw.key);
        return -1;
    }
    tune_dim *d = &s->dims[s->ndims];
    d->labels = herd_malloc_array(TUNE_MAX_CANDIDATES, sizeof *d->labels);
    if (!d->labels) {
        snprintf(err, errlen, "--search %s: out of memory", text);
        return -1;
    }
    const char *msg = NULL;
    long n = scn_sweep_labels(&sw, d->labels, TUNE_MAX_CANDIDATES, &msg);
    if (n < 0 && !strcmp(msg, SCN_SWEEP_TOO_MANY)) {
        snprintf(err, errlen, "--search %s: the search has more than %d candidates; expected fewer values", text,
                 TUNE_MAX_CANDIDATES);
        goto fail;
    }
    if (n < 0) {
        snprintf(err, errlen, "--search %s: %s", text, msg);
        goto fail;
    }
    size_t total = (s->ndims ? s->ncand : 1) * (size_t)n;
    if (total > TUNE_MAX_CANDIDATES) {
        snprintf(err, errlen, "--search %s: the search has more than %d candidates; expected fewer values", text,
                 TUNE_MAX_CANDIDATES);
        goto fail;
    }
    snprintf(d->key, sizeof d->key, "%s", sw.key);
    d->n = n;
    s->ncand = total;
    s->ndims++;
    return 0;
fail:
    herd_free(d->labels);
    d->labels = NULL;
    return -1;
}

void tune_space_index(const tune_space *s, size_t c, long *idx)
{
    for (int d = s->ndims - 1; d >= 0; d--) {
        idx[d] = (long)(c % (size_t)s->dims[d].n);
        c /= (size_t)s->dims[d].n;
    }
}

void tune_space_set(const tune_space *s, size_t c, int d, char *out, size_t n)
{
    long idx[TUNE_MAX_DIMS];
    tune_space_index(s, c, idx);
    snprintf(out, n, "%s=%s", s->dims[d].key, s->dims[d].labels[idx[d]]);
}

int tune_space_has(const tune_space *s, const char *key)
{
    for (int d = 0; d < s->ndims; d++)
        if (!strcmp(s->dims[d].key, key))
            return 1;
    return 0;
}

void tune_space_free(tune_space *s)
{
    for (int d = 0; d < s->ndims; d++)
        herd_free(s->dims[d].labels);
    memset(s, 0, sizeof *s);
}
