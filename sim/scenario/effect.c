/*
 * effect.c - the no-op rule (scn_check_effect): every key a scenario
 * writes changes the model herd runs, or it is refused with the reason.
 *
 * "The model" is the canonical text of scn_explain (explain.c), which
 * leaves out what the model never reads.  Each written key is written
 * again with other values (every choice of an enum, a few numbers around
 * the written one, other distributions, presets, classes) and the texts
 * are compared: a key no value of which changes the text is refused, with
 * the reason explain gives on its line (`unused: ...`), if any.  A key
 * written with the value it would have anyway passes when it is live.
 *
 * Cost: one compile and one dump per probe, at most a few dozen probes per
 * written key, once on the scenario (and on a variant only when a key is
 * dead there); a variant's keys once on the variant; a sweep compiles each
 * of its values once.  Two variants equal at their first point are
 * compared at every point.
 */
#include "keys.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

#define KEYTXT 160

/* The canonical text of c (herd_free it), or NULL when out of memory. */
static char *canon(const scn_config *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = scn_explain(f, c, "", NULL, 0, false);
    fclose(f);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    char *out = herd_strdup(buf);
    free(buf);
    return out;
}

/* What explain says of key (canonical "section.key") in c: its origin, or
 * "unused: why"; into out ("" if the key has no line). */
static void key_note(const scn_config *c, const char *path, const char *const *sets, int nsets, const char *keyname,
                     char *out, size_t n)
{
    out[0] = '\0';
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    scn_explain(f, c, path, sets, nsets, true);
    fclose(f);
    char want[KEYTXT + 8];
    snprintf(want, sizeof want, "  %s = ", keyname);
    for (char *l = buf; l && *l;) {
        char *e = strchr(l, '\n');
        if (!strncmp(l, want, strlen(want))) {
            char *hash = strstr(l, " # ");
            if (hash && (!e || hash < e)) {
                size_t m = (size_t)((e ? e : l + strlen(l)) - hash - 3);
                snprintf(out, n, "%.*s", (int)m, hash + 3);
            }
            break;
        }
        l = e ? e + 1 : NULL;
    }
    free(buf);
}

/* Probe values for key k (other values a written key could have), written
 * into vals; returns how many. */
static int probes(const key *k, const char *current, char (*vals)[64], int max)
{
    int n = 0;
#define ADD(...) (n < max ? (void)snprintf(vals[n++], 64, __VA_ARGS__) : (void)0)
    switch (k->type) {
    case K_DOUBLE: {
        double v = 0, c[] = {k->lo, k->hi, 0, 0, 0, 0, 1, 0.5, 2};
        if (scn_parse_double(current, &v) != 0)
            v = k->lo;
        c[2] = v * 2;
        c[3] = v / 2;
        c[4] = v + 1;
        c[5] = v * 1.5 + 0.01;
        for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
            if (c[i] >= k->lo && c[i] <= k->hi && c[i] != v)
                ADD("%.17g", c[i]);
        break;
    }
    case K_U32:
    case K_U64: {
        uint64_t v = 0;
        if (scn_parse_u64(current, &v) != 0)
            v = (uint64_t)k->lo;
        double c[] = {k->lo, (double)v + 1, (double)v - 1, 1, 2, 3, (double)v * 2, k->hi < 1e6 ? k->hi : 1e6};
        for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
            if (c[i] >= k->lo && c[i] <= k->hi && c[i] != (double)v)
                ADD("%.0f", c[i]);
        break;
    }
    case K_ENUM:
    case K_BOOL:
    case K_NBOOL:
        for (int i = 0; k->enums[i]; i++)
            ADD("%s", k->enums[i]);
        break;
    case K_STRATEGY:
        for (int i = 0; i < HP_STRATEGY_COUNT; i++)
            ADD("%s", hp_strategy_name((hp_strategy)i));
        break;
    case K_STRATEGIES:
        ADD("all");
        for (int i = 0; i < HP_STRATEGY_COUNT; i++)
            ADD("%s", hp_strategy_name((hp_strategy)i));
        break;
    case K_DIST:
    case K_DELAY:
        ADD("constant(0.5)");
        ADD("exponential(0.7)");
        ADD("uniform(0.1, 0.3)");
        break;
    case K_CLASSES:
        for (int i = 1; i < HP_CLASS_COUNT; i++)
            ADD("%s", hp_class_name((hp_class)i));
        ADD("server, timeout");
        break;
    case K_STATUSES:
        ADD("500");
        ADD("503");
        ADD("429");
        break;
    case K_PRESET:
        for (int i = 0; i < HP_EFFECT_COUNT; i++)
            ADD("%s", hp_effect_name((hp_side_effect)i));
        for (uint32_t i = 0; i < hp_library_preset_count(); i++)
            ADD("%s", hp_library_preset_at(i)->name);
        break;
    case K_WINDOW: /* output-shaping: the dump lists it among the outputs */
        ADD("0:1");
        ADD("1:2");
        ADD("0:1000000");
        break;
    case K_OUTCOME:
        ADD("503");
        ADD("429");
        ADD("500");
        ADD("connection_refused");
        break;
    default: /* names, columns, baselines, data files: outputs or files, not probed */
        break;
    }
#undef ADD
    return n;
}

/* A written key: its assignment target ("tool x.base_s"), table entry (NULL
 * for error_rate_*) and origin. */
typedef struct written {
    char target[KEYTXT];
    const key *k;
    int origin;
} written;

/* The keys of c written by the file or --set. */
static size_t written_keys(const scn_config *c, written *w, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < scn_key_count && n < max; i++) {
        const key *k = &scn_key_table[i];
        const char *sec = k->section;
        if (!strcmp(sec, "tool") || !strcmp(sec, "layer")) {
            const scn_tool *arr = sec[0] == 't' ? c->tools : c->layers;
            uint32_t m = sec[0] == 't' ? c->ntools : c->nlayers;
            size_t b = i - scn_first_key(sec);
            for (uint32_t t = 0; t < m && n < max; t++)
                if ((arr[t].set >> b & 1) && (arr[t].origin[b] > 0 || arr[t].origin[b] <= -2) &&
                    arr[t].origin[b] > SCN_ORIGIN_VARIANT(0)) {
                    snprintf(w[n].target, KEYTXT, "%s %s.%s", sec, arr[t].name, k->name);
                    w[n].k = k;
                    w[n++].origin = arr[t].origin[b];
                }
        } else if (!strcmp(sec, "outage")) {
            size_t b = i - scn_first_key(sec);
            for (uint32_t o = 0; o < c->noutages && n < max; o++)
                if (c->outages[o].origin[b] > 0 || (c->outages[o].origin[b] <= -2 &&
                                                    c->outages[o].origin[b] > SCN_ORIGIN_VARIANT(0))) {
                    snprintf(w[n].target, KEYTXT, "outage %s.%s", c->outages[o].name, k->name);
                    w[n].k = k;
                    w[n++].origin = c->outages[o].origin[b];
                }
        } else if (c->origin[i] > 0 || (c->origin[i] <= -2 && c->origin[i] > SCN_ORIGIN_VARIANT(0))) {
            snprintf(w[n].target, KEYTXT, "%s.%s", sec, k->name);
            w[n].k = k;
            w[n++].origin = c->origin[i];
        }
    }
    for (uint32_t e = 0; e < c->nerrors && n < max; e++)
        if (c->error_origin[e] > 0 || (c->error_origin[e] <= -2 && c->error_origin[e] > SCN_ORIGIN_VARIANT(0))) {
            int oc = c->errors[e].outcome;
            if (oc > 0)
                snprintf(w[n].target, KEYTXT, "server.error_rate_%d", oc);
            else
                snprintf(w[n].target, KEYTXT, "server.error_rate_%s",
                         oc == HP_OUTCOME_CONN_REFUSED ? "connection_refused" : "connection_reset");
            w[n].k = NULL;
            w[n++].origin = c->error_origin[e];
        }
    return n;
}

/* The current value of a written key, as text (for the probes around it). */
static void current_value(const scn_config *c, const written *w, char *out, size_t n)
{
    out[0] = '\0';
    if (!w->k) {
        snprintf(out, n, "0.5");
        return;
    }
    const char *base = (const char *)c;
    const char *sec = w->k->section;
    if (!strcmp(sec, "tool") || !strcmp(sec, "layer") || !strcmp(sec, "outage")) {
        const char *name = w->target + strlen(sec) + 1;
        size_t len = strcspn(name, ".");
        if (sec[0] == 'o') {
            for (uint32_t o = 0; o < c->noutages; o++)
                if (strlen(c->outages[o].name) == len && !strncmp(c->outages[o].name, name, len))
                    base = (const char *)&c->outages[o];
        } else {
            const scn_tool *arr = sec[0] == 't' ? c->tools : c->layers;
            uint32_t m = sec[0] == 't' ? c->ntools : c->nlayers;
            for (uint32_t t = 0; t < m; t++)
                if (strlen(arr[t].name) == len && !strncmp(arr[t].name, name, len))
                    base = (const char *)&arr[t];
        }
    }
    if (w->k->type == K_DOUBLE)
        snprintf(out, n, "%.17g", *(const double *)(base + w->k->off));
    else if (w->k->type == K_U32)
        snprintf(out, n, "%u", *(const uint32_t *)(base + w->k->off));
    else if (w->k->type == K_U64)
        snprintf(out, n, "%llu", (unsigned long long)*(const uint64_t *)(base + w->k->off));
}

/* 1 if some probe value of w changes the canonical text of c (ref). */
static int live_in(const scn_config *c, const char *ref, const written *w, scn_config *scratch)
{
    char vals[48][64], cur[64], a[KEYTXT + 80], e[SCN_ERR_MAX];
    current_value(c, w, cur, sizeof cur);
    int nv;
    if (w->k)
        nv = probes(w->k, cur, vals, 48);
    else {
        nv = 3;
        snprintf(vals[0], 64, "0");
        snprintf(vals[1], 64, "0.25");
        snprintf(vals[2], 64, "1");
    }
    if (w->k && (w->k->type == K_NAME || w->k->type == K_COLUMNS || w->k->type == K_BASELINE ||
                 w->k->type == K_DATA))
        return 1; /* outputs and files: not probed (see the file-top comment) */
    for (int i = 0; i < nv; i++) {
        *scratch = *c;
        snprintf(a, sizeof a, "%s=%s", w->target, vals[i]);
        if (scn_set_coded(scratch, a, "probe", SCN_ORIGIN_OTHER, e) != 0)
            continue;
        char *t = canon(scratch);
        int differs = t && strcmp(t, ref);
        herd_free(t);
        if (differs)
            return 1;
    }
    return 0;
}

/* The message of a key w of c that changes nothing. */
static void refuse(const scn_config *c, const char *path, const char *const *sets, int nsets, const written *w,
                   const char *what, char err[static SCN_ERR_MAX])
{
    char note[512], where[SCN_ERR_MAX / 2];
    key_note(c, path, sets, nsets, w->target, note, sizeof note);
    scn_origin_label(c, path, sets, nsets, w->origin, where, sizeof where);
    const char *because = !strncmp(note, "unused: ", 8) ? note + 8 : NULL;
    if (!because && !strncmp(w->target, "tool ", 5) && c->nlayers)
        because = "the [layer] sections are the retry loops: a [tool]'s policy keys are unused";
    if (!because && !strcmp(w->target, "retry.strategy") && c->nstrategies)
        because = "[run] strategies replaces it: every loop without its own strategy runs each compared one";
    if (!because && !strncmp(w->target, "retry.", 6) && (c->ntools || c->nlayers))
        because = c->nlayers ? "every [layer] retry loop sets its own value or does not read it"
                             : "every [tool] retry loop sets its own value or does not read it";
    if (because)
        snprintf(err, SCN_ERR_MAX, "%s: %s: no effect, because %s%s", where, w->target, because, what);
    else
        snprintf(err, SCN_ERR_MAX, "%s: %s: no effect: no value of it changes the model herd runs%s (see herd check "
                 "--explain)", where, w->target, what);
}

/* The written key of "section.key=value" (target, table entry), or 0. */
static int written_of(const char *assignment, written *w)
{
    char canonical[KEYTXT];
    scn_key_canonical(assignment, canonical, sizeof canonical);
    const char *dot = strrchr(canonical, '.');
    if (!dot)
        return 0;
    snprintf(w->target, KEYTXT, "%s", canonical);
    char section[KEYTXT];
    snprintf(section, sizeof section, "%.*s", (int)(dot - canonical), canonical);
    const char *kind = !strncmp(section, "tool ", 5) ? "tool" : !strncmp(section, "layer ", 6) ? "layer"
                       : !strncmp(section, "outage ", 7) ? "outage" : section;
    w->k = NULL;
    if (!strncmp(dot + 1, "error_rate_", 11) && !strcmp(kind, "server"))
        return 1;
    size_t i = scn_key_find(kind, dot + 1);
    if (i == scn_key_count)
        return 0;
    w->k = &scn_key_table[i];
    return 1;
}


/* A sweep's canonical texts, for the duplicate search: a text's 64-bit
 * FNV-1a hash, the text, its point. */
typedef struct {
    uint64_t h;
    const char *t;
    long j;
} point_text;

static int by_text(const void *a, const void *b)
{
    const point_text *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    int c = strcmp(x->t, y->t);
    return c ? c : (x->j > y->j) - (x->j < y->j);
}

/* The first point j of texts[0..n) whose text equals an earlier point's
 * (*dup = j, *with = the first such earlier point; -1 both when none; a
 * NULL text takes no part): what comparing each text with every earlier
 * one finds, in O(n log n) (sorted by hash, then text, then point), so a
 * sweep of 10,000 points is checked in a fraction of a second.  0, or -1
 * out of memory. */
static int first_duplicate(char **texts, long n, int *dup, int *with)
{
    *dup = *with = -1;
    point_text *p = herd_calloc((size_t)(n ? n : 1), sizeof *p);
    if (!p)
        return -1;
    long m = 0;
    for (long j = 0; j < n; j++) {
        if (!texts[j])
            continue;
        uint64_t h = 14695981039346656037ULL;
        for (const unsigned char *q = (const unsigned char *)texts[j]; *q; q++)
            h = (h ^ *q) * 1099511628211ULL;
        p[m++] = (point_text){h, texts[j], j};
    }
    qsort(p, (size_t)m, sizeof *p, by_text);
    for (long k = 1; k < m; k++)
        if (p[k].h == p[k - 1].h && !strcmp(p[k].t, p[k - 1].t)) {
            /* p[k] repeats its group's first, p[g] */
            long g = k - 1;
            while (g > 0 && p[g - 1].h == p[g].h && !strcmp(p[g - 1].t, p[g].t))
                g--;
            if (*dup < 0 || p[k].j < *dup) {
                *dup = (int)p[k].j;
                *with = (int)p[g].j;
            }
        }
    herd_free(p);
    return 0;
}

/* 1 if variants a and b resolve to the same model at every sweep point
 * (x and y: scratch configs). */
static int same_at_every_point(const scn_config *c, int a, int b, const char *path, scn_config *x, scn_config *y)
{
    if (!c->nsweeps)
        return 1;
    char (*labels[SCN_MAX_SWEEPS])[SCN_VALUE_MAX] = {0};
    long nl[SCN_MAX_SWEEPS], total = 1;
    int same = 1;
    char e[SCN_ERR_MAX];
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const char *msg;
        labels[i] = herd_malloc_array(SCN_SWEEP_POINTS_MAX, sizeof *labels[i]);
        nl[i] = labels[i] ? scn_sweep_labels(&c->sweeps[i], labels[i], SCN_SWEEP_POINTS_MAX, &msg) : -1;
        if (nl[i] <= 0) {
            same = 0; /* the plan reports it */
            goto out;
        }
        total *= nl[i];
    }
    for (long p = 0; p < total && same; p++) {
        const char *lab[SCN_MAX_SWEEPS];
        long rest = p;
        for (int i = (int)c->nsweeps - 1; i >= 0; i--) {
            lab[i] = labels[i][rest % nl[i]];
            rest /= nl[i];
        }
        if (scn_derive(x, c, a, lab, path, e) != 0 || scn_derive(y, c, b, lab, path, e) != 0)
            continue;
        char *s1 = canon(x), *s2 = canon(y);
        same = s1 && s2 && !strcmp(s1, s2);
        herd_free(s1);
        herd_free(s2);
    }
out:
    for (uint32_t i = 0; i < c->nsweeps; i++)
        herd_free(labels[i]);
    return same;
}

int scn_check_effect(const scn_config *c, const scn_config *file, const char *path, const char *const *sets,
                     int nsets, char err[static SCN_ERR_MAX])
{
    int rc = -1;
    enum { MAXW = 1024 };
    written *w = herd_malloc_array(MAXW, sizeof *w);
    scn_config *scratch = herd_malloc_array(1, sizeof *scratch);
    scn_config *point = herd_malloc_array(1, sizeof *point);
    char (*labels)[SCN_VALUE_MAX] = herd_malloc_array(SCN_SWEEP_POINTS_MAX, sizeof *labels);
    char (*first)[SCN_VALUE_MAX] = herd_malloc_array(SCN_MAX_SWEEPS, sizeof *first);
    char *ref = canon(c), *text = NULL, e[SCN_ERR_MAX];
    if (!w || !scratch || !point || !labels || !first || !ref) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory checking that every key takes effect", path);
        goto out;
    }
    /* the first label of every sweep: the point variants are checked at */
    const char *lab0[SCN_MAX_SWEEPS];
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const char *msg;
        long nl = scn_sweep_labels(&c->sweeps[i], labels, SCN_SWEEP_POINTS_MAX, &msg);
        if (nl <= 0) { /* the plan reports it */
            rc = 0;
            goto out;
        }
        memcpy(first[i], labels[0], SCN_VALUE_MAX);
        lab0[i] = first[i];
    }

    /* the file's and --set's keys: some value must change the model, in
     * the base scenario or in one of its variants */
    size_t nw = written_keys(c, w, MAXW);
    for (size_t i = 0; i < nw; i++) {
        if (live_in(c, ref, &w[i], scratch))
            continue;
        int live = 0;
        if (file && w[i].origin > 0) { /* a --set may override what makes a file's key live */
            char *fr = canon(file);
            live = fr && live_in(file, fr, &w[i], scratch);
            herd_free(fr);
        }
        for (uint32_t v = 0; v < c->nvariants && !live; v++) {
            if (scn_derive(point, c, (int)v, lab0, path, e) != 0)
                continue;
            char *pr = canon(point);
            live = pr && live_in(point, pr, &w[i], scratch);
            herd_free(pr);
        }
        if (!live) {
            refuse(c, path, sets, nsets, &w[i], "", err);
            goto out;
        }
    }

    /* a variant's keys: as the file's, some value of each must change the
     * variant's model (a value equal to the base's is allowed: it says what
     * the variant is); and no two variants may resolve to the same model */
    for (uint32_t v = 0; v < c->nvariants; v++) {
        const scn_variant *var = &c->variants[v];
        if (scn_derive(point, c, (int)v, lab0, path, e) != 0)
            continue;
        herd_free(text);
        text = canon(point);
        if (!text)
            continue;
        char line[SCN_VARIANT_SETS_MAX];
        for (const char *s = var->sets; *s;) {
            size_t n = strcspn(s, "\n");
            memcpy(line, s, n);
            line[n] = '\0';
            s += n + (s[n] == '\n');
            written one;
            if (!written_of(line, &one))
                continue;
            one.origin = SCN_ORIGIN_VARIANT(v);
            if (!live_in(point, text, &one, scratch)) {
                char note[512];
                key_note(point, path, sets, nsets, one.target, note, sizeof note);
                snprintf(err, SCN_ERR_MAX, "%s:%d: [variant %s] %s: no effect, because %s", path, var->line,
                         var->name, line,
                         !strncmp(note, "unused: ", 8) ? note + 8 : "no value of it changes the model herd runs");
                goto out;
            }
        }
        for (uint32_t q = 0; q < v; q++) {
            if (scn_derive(scratch, c, (int)q, lab0, path, e) != 0)
                continue;
            char *other = canon(scratch);
            int same = other && !strcmp(other, text);
            herd_free(other);
            if (same && same_at_every_point(c, (int)q, (int)v, path, point, scratch)) {
                snprintf(err, SCN_ERR_MAX, "%s:%d: [variant %s]: no effect: it resolves to the same model as [variant "
                         "%s] at every point (its keys change nothing there; herd check --explain shows both)",
                         path, var->line, var->name, c->variants[q].name);
                goto out;
            }
        }
    }

    /* a sweep: its values must give distinct models (the other sweeps at
     * their first value) */
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const char *msg;
        long nl = scn_sweep_labels(&c->sweeps[i], labels, SCN_SWEEP_POINTS_MAX, &msg);
        char **texts = herd_calloc((size_t)nl, sizeof *texts);
        if (!texts) {
            snprintf(err, SCN_ERR_MAX, "%s: out of memory checking the sweeps", path);
            goto out;
        }
        const char *lab[SCN_MAX_SWEEPS];
        memcpy(lab, lab0, sizeof lab);
        for (long j = 0; j < nl; j++) {
            lab[i] = labels[j];
            if (scn_derive(point, c, c->nvariants ? 0 : -1, lab, path, e) == 0)
                texts[j] = canon(point);
        }
        int dup = -1, with = -1;
        if (first_duplicate(texts, nl, &dup, &with) < 0) {
            for (long j = 0; j < nl; j++)
                herd_free(texts[j]);
            herd_free(texts);
            snprintf(err, SCN_ERR_MAX, "%s: out of memory checking the sweeps", path);
            goto out;
        }
        for (long j = 0; j < nl; j++)
            herd_free(texts[j]);
        herd_free(texts);
        if (dup >= 0) {
            char keyname[KEYTXT], note[512] = "", where[SCN_ERR_MAX / 2];
            scn_key_canonical(c->sweeps[i].key, keyname, sizeof keyname);
            key_note(point, path, sets, nsets, keyname, note, sizeof note);
            if (c->sweeps[i].line > 0)
                snprintf(where, sizeof where, "%s:%d: [sweep%s%s]", path, c->sweeps[i].line,
                         *c->sweeps[i].name ? " " : "", c->sweeps[i].name);
            else
                snprintf(where, sizeof where, "--sweep %s", c->sweeps[i].key);
            snprintf(err, SCN_ERR_MAX, "%s values: %s = %s and %s give the same model%s%s", where, keyname,
                     labels[with], labels[dup], !strncmp(note, "unused: ", 8) ? ", because " : "",
                     !strncmp(note, "unused: ", 8) ? note + 8 : " (see herd check --explain)");
            goto out;
        }
    }
    rc = 0;
out:
    herd_free(text);
    herd_free(ref);
    herd_free(first);
    herd_free(labels);
    herd_free(point);
    herd_free(scratch);
    herd_free(w);
    return rc;
}

