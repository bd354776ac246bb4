/*
 * partial.h - results that travel: a shard's results on disk
 * (partial.herd) and their merge into the outputs of the whole plan, and
 * one job's results as bytes (for MPI ranks).
 *
 * A partial file holds the plan's fingerprint, the shard's place (K of N),
 * the whole report table (labels, groups, tool names), the manifest, and a
 * record per job of this shard: its index, seed and results.  Merging the
 * N shards of one plan gives a table whose files are byte-identical to a
 * single run's.  Records are this build's struct bytes: shards and merge
 * must come from the same herd version on the same platform (the
 * fingerprint and the header's sizes check it).
 *
 * Every reader is defensive: lengths and counts are bounded by the file's
 * size, strings by a maximum, and a checksum covers every byte; a
 * damaged, foreign or incomplete set is refused with a one-line message.
 */
#ifndef HERD_PARTIAL_H
#define HERD_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

/* A growable byte buffer; oom is set (and nothing more is appended) when
 * an allocation fails. */
typedef struct rep_buf {
    uint8_t *p;
    size_t len, cap;
    int oom;
} rep_buf;

void rep_buf_free(rep_buf *b);

/* Appends n bytes to b. */
void rep_put_bytes(rep_buf *b, const void *p, size_t n);

/* Appends job j's record (index, seed, results) to b. */
void rep_put_result(rep_buf *b, uint64_t j, uint64_t seed, const model_results *r);

/* Reads one job record from data[*at..len): 0 and *j, *seed, *r (its
 * series allocated; free with model_results_free), advancing *at; -1 if
 * the bytes are not a well-formed record. */
int rep_get_result(const uint8_t *data, size_t len, size_t *at, uint64_t *j, uint64_t *seed, model_results *r);

/* 64-bit FNV-1a of n bytes, continuing from h (start with
 * REP_FNV_OFFSET). */
#define REP_FNV_OFFSET 14695981039346656037ULL
uint64_t rep_fnv(uint64_t h, const void *p, size_t n);

/* Writes dir/partial.herd (atomically, dir created only to publish) for
 * shard K of N (1 <= K <= N): the table t (whose groups' runs and seeds
 * point into results/seeds, indexed by job), the manifest, the plan's
 * fingerprint, and the records of the jobs with mine[j] set.  Returns 0,
 * or -1 with err. */
int rep_partial_write(const char *dir, const rep_table *t, const char *manifest, uint64_t fingerprint,
                      uint32_t k, uint32_t n, const model_results *results, const uint64_t *seeds,
                      const uint8_t *mine, size_t njobs, char *err, size_t errlen);

/* herd merge: reads dirs[0..ndirs)/partial.herd, checks that they are the
 * N shards of one plan, each once, every job present once, then writes
 * the plan's outputs into out (rep_write).  Returns 0; -2 when the shards
 * are refused (message in err, nothing written); -1 on I/O failure. */
int rep_merge(const char *out, const char *const *dirs, int ndirs, char *err, size_t errlen);

#endif
