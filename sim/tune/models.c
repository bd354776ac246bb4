/*
 * models.c - herd tune's candidates that are the same: those that resolve
 * to the same model at every point (one candidate, never run twice; a
 * searched key that changes no candidate refused), and the summary's
 * "identical:" lines for values that left the race with results
 * identical, run for run, to another's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "internal.h"

/* Candidate c's overrides (tune's --set first, then its values; c ==
 * ncand: the scenario as written) into sets, the texts in buf; returns
 * their number. */
int tune_cand_sets(const tune_state *st, size_t c, const char **sets,
                   char (*buf)[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2])
{
    const tune_request *rq = st->rq;
    int n = 0;
    for (int i = 0; i < rq->nsets && n < 256; i++)
        sets[n++] = rq->sets[i];
    if (c != st->ncand)
        for (int d = 0; d < rq->space->ndims; d++) {
            tune_space_set(rq->space, c, d, buf[d], sizeof buf[d]);
            sets[n++] = buf[d];
        }
    return n;
}

/* The resolved model of cfg at every point, as herd check --explain
 * prints it without origins (what the no-op rule compares): a new string
 * (herd_free it), or NULL when out of memory. */
char *tune_model_text(const scn_config *cfg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = scn_explain_points(f, cfg, "", NULL, 0, false);
    fclose(f);
    char *out = rc == 0 && buf ? herd_strdup(buf) : NULL;
    free(buf);
    return out;
}

/* What explain says of `key` in candidate c's model, after "unused: "
 * (the first point where it is unused), into out; "" if nothing. */
static void unused_note(const tune_state *st, size_t c, const char *key, char *out, size_t n)
{
    out[0] = '\0';
    const char *sets[256 + TUNE_MAX_DIMS];
    char buf[TUNE_MAX_DIMS][SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2], serr[SCN_ERR_MAX];
    int ns = tune_cand_sets(st, c, sets, buf);
    scn_config *cfg = herd_malloc_array(1, sizeof *cfg);
    char *text = NULL;
    size_t len = 0;
    FILE *f = NULL;
    if (!cfg || scn_load_candidate(cfg, st->rq->file, sets, ns, serr) != 0 || !(f = open_memstream(&text, &len)))
        goto out;
    scn_explain_points(f, cfg, st->rq->path, sets, ns, true);
    fclose(f);
    char want[SCN_SWEEP_KEY_MAX + 8];
    snprintf(want, sizeof want, "  %s = ", key);
    for (char *l = text; l && *l;) {
        char *e = strchr(l, '\n');
        char *u = strstr(l, " # unused: ");
        if (!strncmp(l, want, strlen(want)) && u && (!e || u < e)) {
            snprintf(out, n, "%.*s", (int)((e ? e : l + strlen(l)) - u - 11), u + 11);
            break;
        }
        l = e ? e + 1 : NULL;
    }
out:
    free(text);
    herd_free(cfg);
}

/* Candidates that resolve to the same model at every point are one
 * candidate: each is dropped before the search (TUNE_SAME_MODEL, never
 * run) in favour of the first with its model.  A searched key no value of
 * which changes the model of any candidate is refused, as the no-op rule
 * refuses a key that changes nothing.  0; -2 refused (err). */
int tune_same_models(tune_state *st, char *err, size_t errlen)
{
    const tune_space *sp = st->rq->space;
    for (size_t c = 0; c < st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        for (size_t e = 0; e < c; e++) {
            const tune_cand *k = &st->c[e];
            if (k->status == TUNE_ALIVE && k->model == cd->model && !strcmp(k->model_text, cd->model_text)) {
                cd->status = TUNE_DROPPED;
                cd->reason = TUNE_SAME_MODEL;
                cd->versus = (long)e;
                break;
            }
        }
    }
    long idx[TUNE_MAX_DIMS], kdx[TUNE_MAX_DIMS];
    for (int d = 0; d < sp->ndims; d++) {
        if (sp->dims[d].n < 2)
            continue;
        int live = 0;
        size_t stride = 1; /* from a candidate to the next value of d */
        for (int e = sp->ndims - 1; e > d; e--)
            stride *= (size_t)sp->dims[e].n;
        for (size_t c = 0; c < st->ncand && !live; c++) {
            tune_space_index(sp, c, idx);
            size_t other = c - (size_t)idx[d] * stride; /* the same but value 0 of d */
            long a = st->c[c].versus >= 0 && st->c[c].reason == TUNE_SAME_MODEL ? st->c[c].versus : (long)c;
            long b = st->c[other].versus >= 0 && st->c[other].reason == TUNE_SAME_MODEL ? st->c[other].versus
                                                                                        : (long)other;
            live = a != b;
        }
        if (!live) {
            char note[300];
            unused_note(st, 0, sp->dims[d].key, note, sizeof note);
            char *origin = strstr(note, " (--set ");
            if (origin)
                *origin = '\0';
            snprintf(err, errlen, "--search %s: no effect: no value of it changes the model of any candidate, "
                     "because %s", sp->dims[d].key, note[0] ? note : "no value of it changes the model herd runs");
            return -2;
        }
    }
    for (size_t c = 0; c < st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        if (cd->reason != TUNE_SAME_MODEL)
            continue;
        /* why: the keys in which it differs from the one kept, and what
         * explain says of the first (unused: ...) */
        tune_space_index(sp, c, idx);
        tune_space_index(sp, (size_t)cd->versus, kdx);
        size_t o = (size_t)snprintf(cd->why, sizeof cd->why, "the same model as candidate %ld at every point (",
                                    cd->versus + 1);
        int first = -1;
        for (int d = 0; d < sp->ndims; d++)
            if (idx[d] != kdx[d]) {
                if (first < 0)
                    first = d;
                if (o < sizeof cd->why)
                    o += (size_t)snprintf(cd->why + o, sizeof cd->why - o, "%s%s=%s", first == d ? "" : ", ",
                                          sp->dims[d].key, sp->dims[d].labels[idx[d]]);
            }
        char note[200] = "";
        if (first >= 0)
            unused_note(st, c, sp->dims[first].key, note, sizeof note);
        char *origin = strstr(note, " (--set ");
        if (origin)
            *origin = '\0';
        if (o < sizeof cd->why)
            snprintf(cd->why + o, sizeof cd->why - o, " changes nothing here%s%s); run and reported once",
                     note[0] ? ": " : "", note);
    }
    return 0;
}

/* Why a searched key can give identical results, run for run, whatever
 * its value: what did not happen in the runs. */
static const char *idle_reason(const char *key)
{
    static const struct {
        const char *key, *why;
    } why[] = {
        {"limits.breaker", "the breaker never opened"},
        {"limits.limiter", "the limiter never refused a retry"},
        {"limits.retry_budget", "the budget never ran out"},
        {"limits.throttle", "the throttle never rejected a request"},
        {"retry.cap_s", "no sleep reached the cap"},
        {"retry.max_attempts", "no request used the extra attempts"},
        {"retry.attempt_timeout_s", "no attempt ran into the timeout"},
    };
    for (size_t i = 0; i < sizeof why / sizeof why[0]; i++)
        if (!strncmp(key, why[i].key, strlen(why[i].key)))
            return why[i].why;
    return "it changed no metric in any run";
}

/* The lines "identical: ..." of the summary: for every searched key and
 * value, the candidates dropped before the search as the same model as
 * another, or that left the race with results identical, run for run, to
 * their group's first (racing's groups), that differ from that candidate
 * in that key alone (a value that changed nothing there).  The first line
 * names the recommendation's keys. */
void tune_identical_lines(const tune_state *st, FILE *f)
{
    const tune_space *sp = st->rq->space;
    long idx[TUNE_MAX_DIMS], kdx[TUNE_MAX_DIMS];
    for (int d = 0; d < sp->ndims; d++)
        for (long vk = 0; vk < sp->dims[d].n; vk++) {
            size_t n = 0, model = 0, rec = 0, o = 0;
            char vals[512] = "";
            for (long va = 0; va < sp->dims[d].n; va++) {
                size_t m = 0;
                for (size_t c = 0; c < st->ncand; c++) {
                    const tune_cand *cd = &st->c[c];
                    long kept = cd->identical ? cd->twin : cd->reason == TUNE_SAME_MODEL ? cd->versus : -1;
                    if (kept < 0)
                        continue;
                    tune_space_index(sp, c, idx);
                    tune_space_index(sp, (size_t)kept, kdx);
                    int only = idx[d] == va && kdx[d] == vk;
                    for (int e = 0; e < sp->ndims && only; e++)
                        only = e == d || idx[e] == kdx[e];
                    if (!only)
                        continue;
                    m++;
                    model += cd->reason == TUNE_SAME_MODEL;
                    rec += kept == st->recommended;
                }
                if (m && o < sizeof vals)
                    o += (size_t)snprintf(vals + o, sizeof vals - o, "%s%s", n ? ", " : "", sp->dims[d].labels[va]);
                n += m;
            }
            if (!n)
                continue;
            fprintf(f, "identical: %s=%s %s %s=%s (%zu candidate(s)%s): %s\n", sp->dims[d].key, vals,
                    model == n ? "is the same model as" : "gave the same results in every run as", sp->dims[d].key,
                    sp->dims[d].labels[vk], n, rec ? ", the recommendation's among them" : "",
                    model == n ? "the value changes nothing there (tune.csv: same_model)"
                               : idle_reason(sp->dims[d].key));
        }
}
