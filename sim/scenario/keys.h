/*
 * keys.h - the scenario key table (keys.c) and the value parsers behind it
 * (keyparse.c), shared by the parser (scenario.c), the checks after reading
 * (validate.c), the expansion of sweeps and variants (expand.c) and the
 * reference (`herd keys`).  Internal to sim/scenario.
 */
#ifndef HERD_KEYS_H
#define HERD_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

typedef enum ktype {
    K_DOUBLE, K_U32, K_U64, K_DIST, K_STRATEGY, K_STRATEGIES, K_ENUM, K_NAME, K_OUTCOME, K_BASELINE,
    K_BOOL,  /* true / false into a bool */
    K_NBOOL, /* true / false into a bool, negated */
    K_PRESET, /* a side-effect preset: [retry] applies it, [tool] records it */
    K_COLUMNS, /* a list of metric names */
    K_CLASSES, /* a list of failure classes, into a bit mask */
    K_DELAY,   /* constant / uniform / exponential, into an hp_policy's delay_* fields */
    K_STATUSES, /* a list of up to HP_MAX_NO_RETRY_STATUS HTTP statuses, into uint16_t[] */
    K_DATA,    /* a CSV data file (lo: its spec_data_kind), into a uint32_t entry index */
    K_WINDOW   /* FROM:TO, two numbers in [lo, hi] with FROM < TO, into double[2] */
} ktype;

typedef struct key {
    const char *section; /* "outage" for [outage NAME] */
    const char *name;
    ktype type;
    size_t off;          /* into scn_config, or into scn_outage */
    double lo, hi;       /* numeric range, inclusive */
    const char *const *enums; /* K_ENUM: names, index = value */
    const char *unit;
    const char *def;     /* default, as text (documentation only) */
    const char *doc;
} key;


/* [clients] count when the scenario does not set it (validate.c checks a
 * trace scenario leaves it so). */
#define SCN_DEFAULT_CLIENTS 1000

/* Where a key or section came from: a file line (> 0), the k-th --set
 * (SET_ORIGIN(k) <= -2), or unknown (0 or -1). */
#define SET_ORIGIN(k) SCN_ORIGIN_SET(k)

/* What the parser (scenario.c) recorded of where each key came from, for
 * the messages of the checks after reading (validate.c). */
typedef struct scn_origins {
    const char *path;        /* the file as shown in messages */
    const int *key_line;     /* per scn_key_table entry: its origin; NULL: none known */
    const char *const *sets; /* the --set assignments SET_ORIGIN refers to */
    const char *const *shown; /* how each was written ("--seed 0"); NULL or a NULL entry: "--set " + sets[k] */
    int nsets;
    const int *error_line;   /* per [server] error_rate_* (c->errors[i]): its origin; NULL: none known */
} scn_origins;

/* The classes herd's table retries (what [layer] retry_on documents). */
#define SCN_RETRYABLE_CLASSES                                                                              \
    ((1u << HP_CLASS_SERVER) | (1u << HP_CLASS_RATE_LIMITED) | (1u << HP_CLASS_TIMEOUT) |                    \
     (1u << HP_CLASS_CONNECTION) | (1u << HP_CLASS_CONFLICT) | (1u << HP_CLASS_UNKNOWN) |                    \
     (1u << HP_CLASS_REQUEST_TIMEOUT) | (1u << HP_CLASS_OVERLOADED))
/* What retry_also adds: the classes herd's table refuses. */
#define SCN_REFUSED_CLASSES                                                                                \
    ((1u << HP_CLASS_NOT_IMPLEMENTED) | (1u << HP_CLASS_BAD_REQUEST) | (1u << HP_CLASS_AUTH) |               \
     (1u << HP_CLASS_NOT_FOUND))

/* scn_set with the origin code (SCN_ORIGIN_*) the values it sets record. */
int scn_set_coded(scn_config *c, const char *assignment, const char *origin, int code, char err[static SCN_ERR_MAX]);

/* 1 if preset (scn_tool.preset values) sets the policy field of [retry]
 * key k (library presets: the whole policy but what the operation is). */
int scn_preset_sets(int preset, const key *k);

/* The preset's name ("aws_standard", "reversible"), "" for none. */
const char *scn_preset_name(int preset);

/* What explain shows as the origin of code (SCN_ORIGIN_*) in c: "default",
 * "PATH:LINE", "--set ...", "variant NAME", "sweep KEY". */
void scn_origin_label(const scn_config *c, const char *path, const char *const *sets, int nsets, int code, char *out,
                      size_t n);

/* Index of key name of section (the kind: "tool", "outage", ...) in
 * scn_key_table, or scn_key_count. */
size_t scn_key_find(const char *section, const char *name);

/* "PATH:LINE", the flag of an override as written ("--set ASSIGNMENT",
 * "--seed N", "--sweep KEY=VALUES") or "PATH" for an origin. */
void scn_origin_text(const scn_origins *o, int where, char *out, size_t n);

/* Override k as written on the command line: shown[k] when given, else
 * "--set " + sets[k]; into out[0..n). */
void scn_override_text(const char *const *sets, const char *const *shown, int k, char *out, size_t n);

/* The checks across keys of a parsed scenario (validate.c).  0, or -1 with
 * err naming the origin of the key at fault. */
int scn_check(const scn_config *c, const scn_origins *o, char err[static SCN_ERR_MAX]);

/* The plugin of tool t (t >= ntools: [retry]'s): its own, else [retry]'s;
 * NULL for none (compile.c). */
const scn_plugin *scn_plugin_at(const scn_config *c, uint32_t t);

/* Every key of every section, in reference order; a [tool] or [layer]
 * section's keys are contiguous (its set-bit i is the i-th of them). */
extern const key scn_key_table[];
extern const size_t scn_key_count;

/* What replaced a retired key of `section` (a sentence), or NULL when
 * `name` was never a key there or still is one. */
const char *scn_retired_key(const char *section, const char *name);

/* Index of the first key of `section` in spec_keys. */
size_t scn_first_key(const char *section);

/* Strict parsers: the whole text must be one value.  0 and *out, or -1. */
int scn_parse_double(const char *s, double *out);
int scn_parse_u64(const char *s, uint64_t *out);
int scn_parse_outcome(const char *s, int *out); /* status 100..599 or connection_* */

/* The candidate nearest to word (edit distance at most a third of its
 * length, at least 2), for "did you mean" hints; NULL if none is close. */
const char *scn_nearest(const char *word, const char *const *cands, size_t n);

/* 1 if s is a valid scenario / variant name. */
int scn_valid_name(const char *s);

/* A preset value (as stored in scn_tool.preset) applied to p: a
 * side-effect level's numbers, or a library preset's whole policy except
 * what the operation is (idempotency, key, not_found_ok_on_retry).
 * Negative: none. */
void scn_apply_preset_policy(hp_policy *p, int preset);

/* Why key k refuses an explicit 0 (its library field reads 0 as the
 * default and has no HP_OFF; compile.c), or NULL: a 0 written to any other
 * key is a 0. */
const char *scn_zero_refusal(const key *k);

/* Bytes of the field key k writes (tool and layer overrides are copied with
 * it). */
size_t scn_key_field_size(const key *k);

/* "an integer in [lo, hi]" or "a number in [lo, hi] unit" for key k. */
void scn_range_text(const key *k, char *buf, size_t n);

/* Applies value to the field of key k inside base (the config, an outage,
 * a tool or a layer).  Returns NULL, or a message written into buf. */
const char *scn_apply(const key *k, void *base, const char *value, char *buf, size_t n);

#endif
