/*
 * partial.c - partial results of a shard, their merge, and one job's
 * results as bytes (see partial.h).
 *
 * Layout of partial.herd (native byte order, this build's struct sizes):
 *   "HERD-PARTIAL\n", u32 format, u32 sizeof(metrics), u32
 *   sizeof(tool_metrics), u32 sizeof(ts_bucket), u32 sizeof(mech_bucket),
 *   u32 SPEC_MAX_TOOLS,
 *   u64 fingerprint, u32 K, u32 N, u64 jobs, str manifest,
 *   table (see put_table; it ends with input.csv: u32 present, str),
 *   u64 records, records (rep_put_result),
 *   u64 FNV-1a of every byte before it.
 * A str is a u32 length and its bytes.
 */
#include "partial.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/alloc.h"
#include "../base/fileio.h"
#include "csv.h"

#define MAGIC "HERD-PARTIAL\n"
#define FORMAT 3u
#define MAX_FILE ((size_t)1 << 34) /* 16 GiB */
/* the fewest bytes of a record (rep_put_result, empty series) */
#define REC_MIN (16 + sizeof(metrics) + sizeof(((model_results *)0)->tm) + 24)

uint64_t rep_fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void rep_buf_free(rep_buf *b)
{
    herd_free(b->p);
    *b = (rep_buf){0};
}

static void put(rep_buf *b, const void *p, size_t n)
{
    if (b->oom)
        return;
    if (!n) /* nothing to add (p may be NULL): memcpy's pointer must not be */
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *q = herd_realloc_array(b->p, cap, 1);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

void rep_put_bytes(rep_buf *b, const void *p, size_t n)
{
    put(b, p, n);
}

static void put_u32(rep_buf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_u64(rep_buf *b, uint64_t v) { put(b, &v, sizeof v); }
static void put_f64(rep_buf *b, double v) { put(b, &v, sizeof v); }

static void put_str(rep_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(b, (uint32_t)n);
    put(b, s ? s : "", n);
}

void rep_put_result(rep_buf *b, uint64_t j, uint64_t seed, const model_results *r)
{
    put_u64(b, j);
    put_u64(b, seed);
    put(b, &r->m, sizeof r->m);
    put(b, r->tm, sizeof r->tm);
    put_f64(b, r->ts.bucket_s);
    put_u64(b, r->ts.len);
    put(b, r->ts.b, r->ts.len * sizeof *r->ts.b);
    put_u64(b, r->ms.len);
    put(b, r->ms.b, r->ms.len * sizeof *r->ms.b);
}

/* ---- reading ------------------------------------------------------- */

typedef struct cursor {
    const uint8_t *p;
    size_t len, at;
    int bad;
} cursor;

static void get(cursor *c, void *out, size_t n)
{
    if (c->bad || n > c->len - c->at) {
        c->bad = 1;
        memset(out, 0, n);
        return;
    }
    memcpy(out, c->p + c->at, n);
    c->at += n;
}

static uint32_t get_u32(cursor *c)
{
    uint32_t v;
    get(c, &v, sizeof v);
    return v;
}

static uint64_t get_u64(cursor *c)
{
    uint64_t v;
    get(c, &v, sizeof v);
    return v;
}

static double get_f64(cursor *c)
{
    double v;
    get(c, &v, sizeof v);
    return v;
}

int rep_get_result(const uint8_t *data, size_t len, size_t *at, uint64_t *j, uint64_t *seed, model_results *r)
{
    cursor c = {.p = data, .len = len, .at = *at};
    memset(r, 0, sizeof *r);
    *j = get_u64(&c);
    *seed = get_u64(&c);
    get(&c, &r->m, sizeof r->m);
    get(&c, r->tm, sizeof r->tm);
    r->ts.bucket_s = get_f64(&c);
    uint64_t n = get_u64(&c);
    if (c.bad || n > (c.len - c.at) / sizeof(ts_bucket))
        return -1;
    if (n) {
        r->ts.b = herd_malloc_array((size_t)n, sizeof *r->ts.b);
        if (!r->ts.b)
            return -1;
        get(&c, r->ts.b, (size_t)n * sizeof *r->ts.b);
        r->ts.len = r->ts.cap = (size_t)n;
    }
    n = get_u64(&c);
    if (c.bad || n > (c.len - c.at) / sizeof(mech_bucket)) {
        model_results_free(r);
        return -1;
    }
    if (n) {
        r->ms.b = herd_malloc_array((size_t)n, sizeof *r->ms.b);
        if (!r->ms.b) {
            model_results_free(r);
            return -1;
        }
        get(&c, r->ms.b, (size_t)n * sizeof *r->ms.b);
        r->ms.len = r->ms.cap = (size_t)n;
    }
    *at = c.at;
    return 0;
}

/* ---- the table ----------------------------------------------------- */

static void put_table(rep_buf *b, const rep_table *t)
{
    put_str(b, t->scenario);
    put_u32(b, t->variants);
    put_u32(b, t->nkeys);
    for (uint32_t i = 0; i < t->nkeys; i++)
        put_str(b, t->keys[i]);
    put_str(b, t->columns);
    put_u32(b, t->clients);
    put_u32(b, t->requests_per_client);
    put_u32(b, t->replications);
    put_u32(b, t->nvariants);
    put_u64(b, t->seed);
    put_u64(b, t->points_per_variant);
    put_u64(b, t->ngroups);
    for (size_t g = 0; g < t->ngroups; g++) {
        const rep_group *r = &t->groups[g];
        put_str(b, r->variant);
        for (uint32_t i = 0; i < t->nkeys; i++)
            put_str(b, r->values[i]);
        put_u32(b, (uint32_t)r->strategy);
        put_u32(b, r->nreps);
        put_f64(b, r->bucket_s);
        put_u64(b, (uint64_t)(int64_t)r->baseline);
        put_u64(b, (uint64_t)(int64_t)r->vbaseline);
        put_u32(b, r->ntools);
        for (uint32_t k = 0; k < r->ntools; k++)
            put_str(b, r->tools[k]);
    }
    put_u32(b, t->input != NULL); /* input.csv, written by the merge as by a single run */
    put_str(b, t->input);
}

/* A parsed partial file; strings live in one arena. */
typedef struct partial {
    uint8_t *data;              /* the file */
    size_t len;
    uint64_t fingerprint, njobs, table_sum;
    uint32_t k, n;
    char *manifest;
    rep_table t;
    rep_group *groups;
    char *arena;
    size_t used, cap;
    size_t records_at;          /* offset of the record count */
} partial;

static const char *get_str(cursor *c, partial *p)
{
    uint32_t n = get_u32(c);
    if (c->bad || n > c->len - c->at || p->used + n + 1 > p->cap) {
        c->bad = 1;
        return "";
    }
    char *s = p->arena + p->used;
    memcpy(s, c->p + c->at, n);
    s[n] = '\0';
    c->at += n;
    p->used += n + 1;
    if (strlen(s) != n) /* an embedded NUL */
        c->bad = 1;
    return s;
}

static void partial_free(partial *p)
{
    herd_free(p->data);
    herd_free(p->groups);
    herd_free(p->arena);
    memset(p, 0, sizeof *p);
}

/* Everything that must agree between the shards of one run, in one
 * value: the plan's fingerprint (the manifest, data files included), the
 * tables' checksum, the job and shard counts. */
static uint64_t shard_identity(const partial *p)
{
    uint64_t v[4] = {p->fingerprint, p->table_sum, p->njobs, p->n};
    return rep_fnv(REP_FNV_OFFSET, v, sizeof v);
}

/* Reads and checks path into *p (everything but the records).  0, or -1
 * with err. */
static int partial_read(const char *path, partial *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    int e = 0;
    char *bytes = NULL;
    /* a shard folder is untrusted: its partial.herd is never followed through a link */
    herd_file_status s = herd_file_read(path, (long long)MAX_FILE, HERD_FILE_NOFOLLOW, &bytes, &p->len, &e);
    p->data = (uint8_t *)bytes;
    if (s != HERD_FILE_OK) {
        char why[160];
        if (s == HERD_FILE_MISSING || s == HERD_FILE_ERROR)
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e ? e : EIO));
        else
            snprintf(err, errlen, "%s: %s; expected a herd partial results file (a regular file of at most 16 GiB)",
                     path, herd_file_why(s, (long long)MAX_FILE, e, why, sizeof why));
        memset(p, 0, sizeof *p);
        return -1;
    }
    p->cap = 2 * p->len + 64;
    p->arena = herd_malloc_array(p->cap, 1);
    if (!p->arena) {
        snprintf(err, errlen, "%s: out of memory reading it", path);
        partial_free(p);
        return -1;
    }
    if (p->len < strlen(MAGIC) + 8 || memcmp(p->data, MAGIC, strlen(MAGIC))) {
        snprintf(err, errlen, "%s: not a herd partial results file (no HERD-PARTIAL header)", path);
        goto bad_noclean;
    }
    uint64_t sum;
    memcpy(&sum, p->data + p->len - 8, 8);
    if (rep_fnv(REP_FNV_OFFSET, p->data, p->len - 8) != sum) {
        snprintf(err, errlen, "%s: damaged or truncated (checksum mismatch)", path);
        goto bad_noclean;
    }
    cursor c = {.p = p->data, .len = p->len - 8, .at = strlen(MAGIC)};
    uint32_t format = get_u32(&c), sm = get_u32(&c), st_ = get_u32(&c), sb = get_u32(&c), smb = get_u32(&c),
             mt = get_u32(&c);
    if (format != FORMAT || sm != sizeof(metrics) || st_ != sizeof(tool_metrics) || sb != sizeof(ts_bucket) ||
        smb != sizeof(mech_bucket) || mt != SPEC_MAX_TOOLS) {
        snprintf(err, errlen, "%s: written by another herd version or platform (format %u); expected format %u "
                              "from this build", path, format, FORMAT);
        goto bad_noclean;
    }
    p->fingerprint = get_u64(&c);
    p->k = get_u32(&c);
    p->n = get_u32(&c);
    p->njobs = get_u64(&c);
    p->manifest = (char *)get_str(&c, p);
    size_t table_from = c.at;
    rep_table *t = &p->t;
    t->scenario = get_str(&c, p);
    t->variants = get_u32(&c) != 0;
    t->nkeys = get_u32(&c);
    if (t->nkeys > REP_MAX_KEYS)
        c.bad = 1;
    for (uint32_t i = 0; i < t->nkeys && !c.bad; i++)
        t->keys[i] = get_str(&c, p);
    t->columns = get_str(&c, p);
    t->clients = get_u32(&c);
    t->requests_per_client = get_u32(&c);
    t->replications = get_u32(&c);
    t->nvariants = get_u32(&c);
    t->seed = get_u64(&c);
    t->points_per_variant = (size_t)get_u64(&c);
    uint64_t ngroups = get_u64(&c);
    if (c.bad || ngroups == 0 || ngroups > p->njobs || ngroups > (c.len - c.at) / 24) {
        snprintf(err, errlen, "%s: malformed table", path);
        goto bad_noclean;
    }
    p->groups = herd_calloc((size_t)ngroups, sizeof *p->groups);
    if (!p->groups) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto bad_noclean;
    }
    uint64_t jobs = 0;
    for (uint64_t g = 0; g < ngroups && !c.bad; g++) {
        rep_group *r = &p->groups[g];
        const char *v = get_str(&c, p);
        r->variant = t->variants ? v : NULL;
        for (uint32_t i = 0; i < t->nkeys; i++)
            r->values[i] = get_str(&c, p);
        r->strategy = (hp_strategy)get_u32(&c);
        r->nreps = get_u32(&c);
        r->bucket_s = get_f64(&c);
        r->baseline = (long)(int64_t)get_u64(&c);
        r->vbaseline = (long)(int64_t)get_u64(&c);
        r->ntools = get_u32(&c);
        if ((unsigned)r->strategy >= HP_STRATEGY_COUNT || r->nreps == 0 || r->ntools > SPEC_MAX_TOOLS ||
            r->baseline < -1 || r->baseline >= (long)ngroups || r->vbaseline < -1 ||
            r->vbaseline >= (long)ngroups || !(r->bucket_s > 0))
            c.bad = 1;
        for (uint32_t k = 0; k < r->ntools && !c.bad; k++)
            r->tools[k] = get_str(&c, p);
        jobs += r->nreps;
    }
    uint32_t has_input = get_u32(&c);
    const char *input = get_str(&c, p);
    if (has_input > 1 || (!has_input && *input))
        c.bad = 1;
    t->input = has_input ? input : NULL;
    if (c.bad || jobs != p->njobs || p->n == 0 || p->k == 0 || p->k > p->n) {
        snprintf(err, errlen, "%s: malformed table or shard numbers", path);
        goto bad_noclean;
    }
    t->groups = p->groups;
    t->ngroups = (size_t)ngroups;
    p->table_sum = rep_fnv(REP_FNV_OFFSET, p->data + table_from, c.at - table_from);
    p->records_at = c.at;
    return 0;
bad_noclean:
    partial_free(p);
    return -1;
}

int rep_partial_write(const char *dir, const rep_table *t, const char *manifest, uint64_t fingerprint,
                      uint32_t k, uint32_t n, const model_results *results, const uint64_t *seeds,
                      const uint8_t *mine, size_t njobs, char *err, size_t errlen)
{
    rep_buf b = {0};
    put(&b, MAGIC, strlen(MAGIC));
    put_u32(&b, FORMAT);
    put_u32(&b, sizeof(metrics));
    put_u32(&b, sizeof(tool_metrics));
    put_u32(&b, sizeof(ts_bucket));
    put_u32(&b, sizeof(mech_bucket));
    put_u32(&b, SPEC_MAX_TOOLS);
    put_u64(&b, fingerprint);
    put_u32(&b, k);
    put_u32(&b, n);
    put_u64(&b, njobs);
    put_str(&b, manifest);
    put_table(&b, t);
    uint64_t count = 0;
    for (size_t j = 0; j < njobs; j++)
        count += mine[j] != 0;
    put_u64(&b, count);
    for (size_t j = 0; j < njobs; j++)
        if (mine[j])
            rep_put_result(&b, j, seeds[j], &results[j]);
    uint64_t sum = rep_fnv(REP_FNV_OFFSET, b.p, b.len);
    put_u64(&b, sum);
    if (b.oom) {
        rep_buf_free(&b);
        snprintf(err, errlen, "out of memory writing the partial results");
        return -1;
    }
    int rc = -1;
    csv_out o = {0};
    if (csv_mkdirs(dir, err, errlen) == 0 && csv_open(&o, dir, "partial.herd", err, errlen) == 0) {
        if (fwrite(b.p, 1, b.len, o.f) != b.len) {
            snprintf(err, errlen, "%s/partial.herd: write failed: %s", dir, strerror(errno));
        } else if (csv_finish(&o, err, errlen) == 0 && csv_publish(&o, err, errlen) == 0) {
            rc = 0;
        }
    }
    csv_abort(&o);
    rep_buf_free(&b);
    return rc;
}

int rep_merge(const char *out, const char *const *dirs, int ndirs, char *err, size_t errlen)
{
    partial *parts = herd_calloc((size_t)(ndirs > 0 ? ndirs : 1), sizeof *parts);
    model_results *results = NULL;
    uint64_t *seeds = NULL;
    uint8_t *have = NULL;
    rep_group *groups = NULL;
    int rc = -2, nread = 0;
    if (!parts) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char path[4096];
    for (int i = 0; i < ndirs; i++) {
        snprintf(path, sizeof path, "%s/partial.herd", dirs[i]);
        if (partial_read(path, &parts[i], err, errlen) != 0)
            goto done;
        nread = i + 1;
        const partial *a = &parts[0], *p = &parts[i];
        /* what is shown is what is compared: the plan's fingerprint with
         * the tables, the job count and the shard count folded in, so two
         * shards refused here never show the same value */
        uint64_t fa = shard_identity(a), fp = shard_identity(p);
        if (p->fingerprint == a->fingerprint && p->n != a->n) {
            snprintf(err, errlen, "%s: shard %u/%u, but %s/partial.herd is shard %u/%u; expected the shards of one "
                                  "split (the same N)", path, p->k, p->n, dirs[0], a->k, a->n);
            goto done;
        }
        if (fp != fa) {
            snprintf(err, errlen, "%s: a shard of another plan than %s/partial.herd (fingerprints %016llx and "
                                  "%016llx); expected the shards of one run", path, dirs[0],
                     (unsigned long long)fp, (unsigned long long)fa);
            goto done;
        }
        for (int q = 0; q < i; q++)
            if (parts[q].k == p->k) {
                snprintf(err, errlen, "%s: shard %u/%u given twice (also %s); expected each shard once", path, p->k,
                         p->n, dirs[q]);
                goto done;
            }
    }
    if (ndirs < 1 || (uint32_t)ndirs != parts[0].n) {
        uint32_t missing = 0;
        for (uint32_t k = 1; ndirs >= 1 && k <= parts[0].n && !missing; k++) {
            int found = 0;
            for (int i = 0; i < ndirs; i++)
                found |= parts[i].k == k;
            if (!found)
                missing = k;
        }
        snprintf(err, errlen, "%d shard(s) given of %u; shard %u/%u is missing", ndirs, ndirs ? parts[0].n : 0,
                 missing, ndirs ? parts[0].n : 0);
        goto done;
    }
    /* njobs is the table's (the same in every shard): before anything is
     * allocated for it, the shards' records must be as many, each count
     * bounded by the bytes its file holds */
    uint64_t records = 0;
    for (int i = 0; i < ndirs; i++) {
        cursor c = {.p = parts[i].data, .len = parts[i].len - 8, .at = parts[i].records_at};
        uint64_t count = get_u64(&c);
        if (c.bad || count > (c.len - c.at) / REC_MIN) {
            snprintf(err, errlen, "%s/partial.herd: %llu records in %zu bytes; expected at least %zu bytes a record",
                     dirs[i], (unsigned long long)count, c.bad ? (size_t)0 : c.len - c.at, (size_t)REC_MIN);
            goto done;
        }
        records += count;
    }
    if (records != parts[0].njobs) {
        snprintf(err, errlen, "the shards hold %llu records for a plan of %llu jobs; expected every job once",
                 (unsigned long long)records, (unsigned long long)parts[0].njobs);
        goto done;
    }
    size_t njobs = (size_t)parts[0].njobs;
    results = herd_calloc(njobs, sizeof *results);
    seeds = herd_calloc(njobs, sizeof *seeds);
    have = herd_calloc(njobs, 1);
    groups = herd_calloc(parts[0].t.ngroups, sizeof *groups);
    if (!results || !seeds || !have || !groups) {
        snprintf(err, errlen, "out of memory merging %zu jobs", njobs);
        rc = -1;
        goto done;
    }
    for (int i = 0; i < ndirs; i++) {
        partial *p = &parts[i];
        cursor c = {.p = p->data, .len = p->len - 8, .at = p->records_at};
        uint64_t count = get_u64(&c);
        size_t at = c.at;
        for (uint64_t r = 0; r < count && !c.bad; r++) {
            uint64_t j, seed;
            model_results res;
            int ok = rep_get_result(p->data, p->len - 8, &at, &j, &seed, &res) == 0;
            if (!ok || j >= njobs || have[j]) {
                if (ok)
                    model_results_free(&res);
                snprintf(err, errlen, "%s/partial.herd: record %llu is malformed or repeats job %llu", dirs[i],
                         (unsigned long long)r, (unsigned long long)j);
                goto done;
            }
            results[j] = res;
            seeds[j] = seed;
            have[j] = 1;
        }
        if (c.bad || at != p->len - 8) {
            snprintf(err, errlen, "%s/partial.herd: malformed records", dirs[i]);
            goto done;
        }
    }
    for (size_t j = 0; j < njobs; j++)
        if (!have[j]) {
            snprintf(err, errlen, "job %zu of %zu is in no shard; expected every job once", j, njobs);
            goto done;
        }
    rep_table t = parts[0].t;
    size_t first = 0;
    for (size_t g = 0; g < t.ngroups; g++) {
        groups[g] = t.groups[g];
        groups[g].runs = &results[first];
        groups[g].seeds = &seeds[first];
        first += groups[g].nreps;
    }
    t.groups = groups;
    rc = rep_write(&t, out, parts[0].manifest, err, errlen) == 0 ? 0 : -1;
done:
    if (results && nread)
        for (size_t j = 0; j < (size_t)parts[0].njobs; j++)
            model_results_free(&results[j]);
    for (int i = 0; i < nread && i < ndirs; i++)
        partial_free(&parts[i]);
    herd_free(parts);
    herd_free(results);
    herd_free(seeds);
    herd_free(have);
    herd_free(groups);
    return rc;
}
