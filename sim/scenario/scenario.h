/*
 * scenario.h - a scenario file (INI, read with inih) turned into a validated
 * scenario (scn_config), and a scenario compiled into a model_spec.  This
 * layer is the only code that knows INI text and key names; below it the
 * model reads plain specs, above it the experiment layer asks for one
 * scenario per point (scn_derive) and keeps only the compiled spec.
 *
 * Every key is described once, in the key table of scenario.c, which both
 * the parser and `herd keys` (the reference page) read.  Errors are reported
 * as "FILE:LINE: [section] key: what is wrong; expected ..." and nothing is
 * applied after the first one.
 */
#ifndef HERD_SCENARIO_H
#define HERD_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../spec/spec.h"
#include "../policy/herdpolicy.h"

#define SCN_NAME_MAX 64
#define SCN_ERR_MAX 2048

/* Room for per-key bookkeeping (keys.c checks the key table fits). */
#define SCN_MAX_KEYS 256
/* Keys of one [tool] or [layer] section at most (bits of scn_tool.set). */
#define SCN_MAX_SECTION_KEYS 64

/* Where a value came from (scn_config.origin and friends): 0 the default,
 * > 0 a line of the file, SCN_ORIGIN_SET(k) the k-th --set,
 * SCN_ORIGIN_VARIANT(v) the v-th [variant], SCN_ORIGIN_SWEEP(s) the s-th
 * sweep, SCN_ORIGIN_OTHER an override of unknown source (scn_set). */
#define SCN_ORIGIN_SET(k) (-(k) - 2)
#define SCN_ORIGIN_VARIANT(v) (-1000 - (v))
#define SCN_ORIGIN_SWEEP(s) (-2000 - (s))
#define SCN_ORIGIN_OTHER (-1)


typedef struct scn_outage {
    char name[SCN_NAME_MAX];
    double start_s, end_s;      /* [start, end) */
    spec_outage_mode mode;
    int outcome;                /* fail_fast: 503 or HP_OUTCOME_CONN_REFUSED */
    double error_p;             /* partial: probability of answering `outcome` */
    int line;                   /* where the section starts, for messages */
    int origin[8];              /* per [outage] key (table order): where it was set */
} scn_outage;


#define SCN_MAX_SWEEPS 4
#define SCN_SWEEP_KEY_MAX 96
#define SCN_SWEEP_VALUES_MAX 1024
#define SCN_VALUE_MAX 64

/* [sweep NAME]: run the scenario once per value of one key.  Several
 * sweeps combine as a cartesian product, the first one outermost. */
typedef struct scn_sweep {
    char name[SCN_NAME_MAX];
    char key[SCN_SWEEP_KEY_MAX];        /* "section.key" */
    char values[SCN_SWEEP_VALUES_MAX];  /* "FROM:TO:STEP" or "a, b, c" */
    int line;                           /* of the section, for messages */
} scn_sweep;

typedef enum scn_ts_mode { SCN_TS_ALL = 0, SCN_TS_FIRST, SCN_TS_NONE } scn_ts_mode;



/* scn_tool.preset values from here on are library presets (index + this). */
#define SCN_LIBRARY_PRESET 100

#define SCN_MAX_VARIANTS 16 /* scenario.c and keys.c say "at most 16" */
#define SCN_VARIANT_SETS_MAX 1024

/* [tool NAME]: an operation clients call, with its own side effect and
 * retry policy: the [retry] policy, then the tool's preset, then the keys
 * the tool sets (bit i of `set` for the i-th tool key of the key table). */
/* `plugin = PATH.so` (or python:MODULE:OBJECT) and `plugin.KEY = value`
 * of a [retry] or [tool NAME] section (sim/plugin/loader.h). */
#define SCN_PLUGIN_SPEC_MAX 256
#define SCN_PLUGIN_KEYS_MAX 768
#define SCN_PLUGIN_KEYS 32
typedef struct scn_plugin {
    char spec[SCN_PLUGIN_SPEC_MAX]; /* "": none */
    char keys[SCN_PLUGIN_KEYS_MAX]; /* "KEY=VALUE\n" lines, in the order written */
    int origin;                     /* of `plugin` (SCN_ORIGIN_*) */
    int keys_origin;                /* of the first plugin.KEY */
    int key_origin[SCN_PLUGIN_KEYS]; /* of each plugin.KEY, in the order of keys */
} scn_plugin;

typedef struct scn_tool {
    char name[SCN_NAME_MAX];
    int effect;                 /* hp_side_effect; -1: from the preset, else read */
    int preset;                 /* hp_side_effect, SCN_LIBRARY_PRESET + library preset index,
                                 * -1: none */
    double weight;              /* relative probability that a request uses it */
    int priority;               /* [tool]: 0 critical, 1 sheddable, -1: [clients] priority */
    hp_policy over;             /* the keys the tool sets */
    uint64_t set;
    int line;
    /* [layer NAME] only */
    spec_layer_kind kind;
    uint32_t retry_mask;        /* classes this layer retries (bit per hp_class); 0: all retryable */
    bool obey_overload;         /* give up at once on an "overloaded, don't retry" failure */
    bool propagate_deadline;    /* inner layers' deadlines are bounded by this layer's */
    dist think;                 /* llm: think time before each call */
    double reissue_p;           /* llm: probability of re-issuing a failed call */
    double repeat_p;            /* llm: probability of repeating a call that succeeded */
    double dedup_window_s;      /* llm: a repeated write within this window is intercepted */
    scn_plugin plugin;          /* [tool]: its own plugin (else [retry]'s) */
    int origin[SCN_MAX_SECTION_KEYS]; /* per key of the section (bit i of `set`): where it was set */
} scn_tool;

/* [variant NAME]: overrides applied on top of the scenario; every variant
 * runs on the same seeds and shows as its own rows. */
typedef struct scn_variant {
    char name[SCN_NAME_MAX];
    char sets[SCN_VARIANT_SETS_MAX]; /* "section.key=value" lines, '\n'-separated */
    int line;
} scn_variant;

typedef struct scn_config {
    char name[SCN_NAME_MAX];    /* scenario name (output folder) */

    /* [run] */
    uint64_t seed;
    uint32_t replications;
    hp_strategy strategies[HP_STRATEGY_COUNT];
    uint32_t nstrategies;       /* 0: just [retry] strategy */
    double bucket_s;
    double horizon_s;
    double warmup_s;            /* requests started before are not measured */
    double window_s[2];         /* [run] window_s = FROM:TO; {0, 0}: none */
    double trigger_start_s;     /* recovery_time_s counts from here (< 0: start of the last outage or spike) */
    double trigger_end_s;       /* end of the trigger, for figures (< 0: end of the last outage or spike) */
    double recovery_dwell_s;    /* recovered: this long in the healthy band after the trigger */
    scn_ts_mode timeseries;     /* which replications go to timeseries.csv */
    int baseline;               /* strategy compared against in compare.csv, -1: none */
    char baseline_variant[SCN_NAME_MAX]; /* variant compared against in compare_variants.csv, "": none */
    char columns[512];          /* metrics in the printed table, comma-separated */

    /* [clients] */
    uint32_t clients;
    uint32_t requests_per_client;
    spec_start start;
    double spread_s;
    double rate_per_s;          /* start = poisson: client starts per second */
    double step_at_s, step_rate_per_s;   /* poisson: from step_at_s on, this rate (0: none) */
    double spike_start_s, spike_end_s, spike_rate_per_s; /* poisson: this rate during the spike */
    uint32_t trace;             /* start = trace: entry of the data store (0: none) */
    int trace_linear;           /* 0: step, 1: linear */
    dist think;
    hp_side_effect side_effect; /* of the requests, without [tool] sections */
    int priority;               /* 0 critical, 1 sheddable: the requests', or a [tool]'s default */
    uint32_t task_steps;        /* requests per task: a task succeeds if every step does */
    uint32_t hosts;             /* the clients' hosts: client i on host i mod hosts (default 1) */
    uint32_t connections_per_host; /* each host's connection pool (0: no pool) */

    /* [network] */
    dist delay;                 /* one way, drawn per hop */
    double send_cost_s;         /* the client host's time per attempt sent, paid in turn */
    double reply_cost_s;        /* ... and per reply read, in turn with the sends */

    /* [server] */
    spec_server_kind kind;
    uint32_t workers;
    uint32_t queue;
    spec_qdisc queue_discipline; /* fifo, lifo, adaptive_lifo */
    double adaptive_lifo_after_s; /* adaptive_lifo: LIFO once the oldest waited longer */
    double codel_target_s;      /* CoDel target (0: none) */
    double codel_interval_s;    /* CoDel interval */
    spec_climiter concurrency_limiter; /* none, fixed, aimd, gradient2 */
    uint32_t concurrency_limit; /* fixed limit / initial limit */
    uint32_t limiter_min, limiter_max;
    double aimd_backoff_ratio, aimd_timeout_s;
    double gradient2_smoothing, gradient2_rtt_tolerance;
    uint32_t gradient2_long_window, gradient2_queue_size;
    spec_g2queue gradient2_queue_function;
    double limiter_window_s;
    uint32_t limiter_window_size;
    bool drop_expired;          /* skip attempts whose propagated deadline passed */
    double shed_sheddable_above; /* busy share above which sheddable attempts are rejected (0: none) */
    dist service;
    spec_error_rate errors[SPEC_MAX_ERRORS];
    uint32_t nerrors;
    double rate_limit_rps;      /* token bucket, 0: none */
    double burst;               /* bucket size */
    spec_retry_after retry_after; /* what a 429 says */
    double retry_after_s;       /* with retry_after = fixed */
    double reply_loss_rate;     /* a served reply is lost on the way back */
    double load_slowdown;       /* service time x (1 + load_slowdown * in_flight / workers) */
    spec_ra_format retry_after_format; /* seconds, ms, both */
    bool retry_after_on_503;    /* 503s carry retry_after_s too */
    bool ratelimit_reset;       /* 429s carry X-RateLimit-Reset */
    uint32_t capacity;          /* capacity timeline: entry of the data store (0: none) */

    /* [idempotency] */
    spec_keys keys;
    spec_enforce enforcement;
    double content_collision_p; /* an operation repeats its client's previous content */

    /* [tool NAME] */
    scn_tool tools[SPEC_MAX_TOOLS];
    uint32_t ntools;

    /* [layer NAME], outermost first */
    scn_tool layers[SPEC_MAX_LAYERS];
    uint32_t nlayers;
    bool overload_signal;       /* [server]: rejections say "overloaded, don't retry" */

    /* [variant NAME] */
    scn_variant variants[SCN_MAX_VARIANTS];
    uint32_t nvariants;

    /* [outage NAME] */
    scn_outage outages[SPEC_MAX_OUTAGES];
    uint32_t noutages;

    /* [sweep NAME] */
    scn_sweep sweeps[SCN_MAX_SWEEPS];
    uint32_t nsweeps;

    /* [limits]: shared by all clients (one application's retry limiting) */
    int limiter;                /* hp_limiter_kind */
    hp_limiter_opts limiter_opts; /* its parameters (kind taken from `limiter`) */
    bool breaker;
    hp_breaker_opts breaker_opts;
    bool throttling;
    hp_throttle_opts throttle_opts;
    bool hedging;
    hp_hedge_opts hedge_opts;
    uint32_t clients_per_instance; /* 0: not written (one state for all clients) */

    /* [retry] */
    hp_policy policy;           /* policy.strategy: the [retry] strategy */
    int retry_keys_line;        /* first [retry] key other than preset (file order check) */
    int retry_preset;           /* the [retry] preset applied last (scn_tool.preset values), -1: none */
    scn_plugin plugin;          /* [retry] plugin: every tool's unless it has its own */

    /* where each value came from (SCN_ORIGIN_*): per key of the table for
     * the sections that are not repeated, per error_rate key */
    int origin[SCN_MAX_KEYS];
    int error_origin[SPEC_MAX_ERRORS];
} scn_config;

/* The built-in defaults (what an empty scenario means). */
void scn_defaults(scn_config *c);

/* Reads scenario file `path` into *c (starting from defaults), then applies
 * each "section.key=value" of sets[0..nsets), then validates the base
 * scenario and what varies (scn_check_variation; every point is validated
 * when the plan is built).  Returns 0, or -1 with a one-line message in err
 * (FILE:LINE: ...).  *c is only meaningful on success.  With text != NULL,
 * *text receives the file's bytes as read (NUL-terminated, *len bytes; free
 * with herd_free), so a manifest can quote exactly what ran.  set_shown[k]
 * (scn_load_text; the array or an entry may be NULL) is how override k was
 * written ("--seed 0", "--sweep KEY=VALUES"): messages blame that flag,
 * not "--set " + sets[k]. */
int scn_load(scn_config *c, const char *path, const char *const *sets, int nsets,
             char err[static SCN_ERR_MAX]);
int scn_load_text(scn_config *c, const char *path, const char *const *sets, const char *const *set_shown, int nsets,
                  char err[static SCN_ERR_MAX],
                  char **text, size_t *len);

/* scn_load without the no-op rule (scn_check_effect): herd tune's
 * candidates.  The scenario and tune's own --set were loaded once with
 * it; a searched value that changes nothing makes its candidate the same
 * model as another (tune runs and reports such candidates once), not an
 * error.  Every other check applies. */
int scn_load_candidate(scn_config *c, const char *path, const char *const *sets, int nsets,
                       char err[static SCN_ERR_MAX]);

/* path as messages show it: whole up to 120 bytes, else "..." and its
 * last 117 bytes, so a long path never pushes the key and the expectation
 * out of a one-line message. */
void scn_display_path(const char *path, char *out, size_t n);

/* Applies one "section.key=value" override to *c (no validation of the
 * whole config).  `origin` names the source in messages.  Returns 0 or -1
 * with err filled. */
int scn_set(scn_config *c, const char *assignment, const char *origin, char err[static SCN_ERR_MAX]);

/* Checks cross-key rules (cap >= base, outages in order, rates sum <= 1,
 * memory estimate, ...).  Returns 0 or -1 with err filled. */
int scn_validate(const scn_config *c, const char *path, char err[static SCN_ERR_MAX]);

/* The effective retry policy of tool t (cfg->ntools == 0: the implicit
 * single tool) under strategy s, and its side effect. */
hp_policy scn_tool_policy(const scn_config *c, uint32_t t, hp_strategy s);
hp_side_effect scn_tool_effect(const scn_config *c, uint32_t t);

/* The retry policy of layer l (0 outermost) under strategy s. */
hp_policy scn_layer_policy(const scn_config *c, uint32_t l, hp_strategy s);

/* The retry loops the [layer] sections make once two-layer library presets
 * (llamaindex_openai) are expanded: at least c->nlayers. */
uint32_t scn_expanded_layers(const scn_config *c);

/* The labels of sweep s's values, in order: a list's values as written,
 * or a range FROM:TO:STEP enumerated exactly in decimal (TO included when
 * TO - FROM is a multiple of STEP).  Returns the count (<= max), or -1 with
 * *msg set: a malformed range, an empty or repeated value, too many, or two
 * points that are the same binary number. */
long scn_sweep_labels(const scn_sweep *s, char (*out)[SCN_VALUE_MAX], long max, const char **msg);
/* 1 if byte c may appear in a sweep value: the labels herd run writes into
 * its CSVs and that every reader of a results folder takes back (herd
 * plot, herd report): any byte from a space up (UTF-8 included) but DEL
 * and '"', '\\', '`', '@' (quoting and macros in gnuplot).  scn_sweep_labels
 * refuses a value with another byte, so what herd writes, herd reads. */
static inline int scn_label_byte(unsigned char c)
{
    return c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && c != '`' && c != '@';
}
/* *msg of scn_sweep_labels when there are more than max values: the
 * caller says which limit (a sweep's points, tune's candidates). */
#define SCN_SWEEP_TOO_MANY "too many values"
/* The most labels one sweep can have (the plan's limit on points): the
 * size of every table of a sweep's labels. */
#define SCN_SWEEP_POINTS_MAX 10000

/* Checks what varies before anything is expanded: every sweep has a key
 * and values, no key is swept twice (in the file or by --sweep), sweeps
 * and variants change only keys that may vary, and no --set of
 * sets[0..nsets) names a key a variant or a sweep also sets.  0, or -1
 * with a one-line message. */
int scn_check_variation(const scn_config *c, const char *path, const char *const *sets, const char *const *shown,
                        int nsets, char err[static SCN_ERR_MAX]);

/* The scenario of one point: *out = base with variant `variant`'s
 * overrides (-1: none), then labels[i] for the i-th sweep's key, applied
 * through the key table exactly as --set would, then validated.  Returns 0,
 * or -1 with err naming the variant's or sweep's line. */
int scn_derive(scn_config *out, const scn_config *base, int variant, const char *const *labels, const char *path,
               char err[static SCN_ERR_MAX]);

/* The model_spec of a validated scenario: presets applied, tool and layer
 * policies resolved, outages sorted.  Cannot fail. */
void scn_compile(const scn_config *c, model_spec *out);

/* Writes the model a validated point scenario c resolves to (the spec
 * scn_compile makes of it, and the strategies, seeds and outputs of its
 * runs), one value per line, canonically: every retry loop that runs with
 * its whole policy, the clients, the network, the server with its outages
 * and limits.  With origins, each line also says where its value came
 * from (default, preset NAME, FILE:LINE, --set, variant NAME, sweep) and
 * values the model never reads are shown with the reason; without, those
 * are left out, so two scenarios print the same text exactly when they
 * resolve to the same model.  path and sets[0..nsets) name the origins.
 * Returns 0, or -1 on a write error. */
int scn_explain(FILE *f, const scn_config *c, const char *path, const char *const *sets, int nsets, bool origins);

/* scn_explain for every point a run of c has (each variant, then each
 * sweep point, as the plan orders them), each after a line "== point N:
 * variant NAME KEY=LABEL ...".  0, or -1 on a write error or a point that
 * does not validate. */
int scn_explain_points(FILE *f, const scn_config *c, const char *path, const char *const *sets, int nsets,
                       bool origins);

/* The no-op rule: every key a scenario writes (file, --set, [variant],
 * sweep) must change the resolved model (scn_explain without origins).  A
 * key of the file or --set is refused when no value of it would change the
 * model of c or of any of its variants (a file's key may also be live in
 * `file`, the scenario before its --set overrides: an override may make a
 * file's key moot, as an experiment); a variant's key likewise in the
 * variant; two variants that resolve to the same model at every point are
 * refused; so is a sweep two values of which give the same model.  0, or
 * -1 with err naming the key, where it was written and why it has no
 * effect. */
int scn_check_effect(const scn_config *c, const scn_config *file, const char *path, const char *const *sets,
                     int nsets, char err[static SCN_ERR_MAX]);

/* "section.key" of a "section.key[=value]" text with blanks normalised
 * ("outage  1 .end_s" -> "outage 1.end_s"), into out; returns its length. */
size_t scn_key_canonical(const char *text, char *out, size_t n);

/* Why a canonical key may not vary between points (NULL if it may). */
const char *scn_fixed_key(const char *canonical);

/* The strategies a run compares: c->strategies, or the [retry] strategy. */
uint32_t scn_strategies(const scn_config *c, hp_strategy out[HP_STRATEGY_COUNT]);

/* Prints the key table for scripts, one key per line, tab-separated:
 * section, key, type, lo, hi (numbers; else -), choices (comma-separated;
 * else -), default. */
void scn_print_key_list(FILE *f);

/* Prints the key reference (every section and key, type, unit, default,
 * meaning) as Markdown. */
void scn_print_reference(FILE *f);

/* The data store of the scenario loaded last (files read once, shared by
 * every point and thread; valid until the next scn_load), and a line per
 * data file it read (for `herd check` and the manifest: its path, form,
 * rows and the FNV-1a 64 hash of its bytes, so that the plan's
 * fingerprint changes when a data file is rewritten). */
const spec_table *scn_data(void);
void scn_data_print_files(FILE *f);

/* input.csv of a run of c: the input data the results can be laid over,
 * as rows "series,x,y": service_cdf (x seconds, y the CDF) when the
 * service time is empirical, arrival_rate (x seconds, y requests/s) with
 * start = trace.  *out = NULL when there is neither.  0, or -1 when out of
 * memory.  Free *out with herd_free. */
int scn_data_input_csv(const scn_config *c, char **out);

/* With start = trace: the clients a run has room for (the trace's expected
 * arrivals plus ten standard deviations of a Poisson count, plus 10). */
uint32_t scn_trace_clients(const scn_config *c);

/* Bytes a scenario may use: 80% of physical memory (16 GiB if unknown). */
double scn_memory_limit(void);

#endif
