/*
 * test_scenario.c - scenario files: defaults, every key type, and the
 * catalogue of bad input, each with the exact FILE:LINE and a message
 * naming the key and what was expected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/experiment/plan.h"
#include "../sim/scenario/keys.h"
#include "../sim/scenario/scenario.h"

static char path[64];

static void write_file(const char *text, size_t len)
{
    snprintf(path, sizeof path, "/tmp/herd-test-scn-%d.ini", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* Loads text and builds its plan (every variant and sweep point checked),
 * as herd run does before anything runs. */
static int load(const char *text, char *err)
{
    write_file(text, strlen(text));
    static scn_config c;
    if (scn_load(&c, path, NULL, 0, err) != 0)
        return -1;
    exp_plan plan;
    if (exp_plan_build(&plan, &c, path, err, SCN_ERR_MAX) != 0)
        return -1;
    exp_plan_free(&plan);
    return 0;
}

/* Loads text and expects failure with "PATH:LINE: " followed by a message
 * containing every fragment. */
static void expect_error(const char *text, int line, const char *frag1, const char *frag2)
{
    char err[SCN_ERR_MAX];
    assert_int_equal(load(text, err), -1);
    char prefix[128];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", path);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("want prefix '%s', got '%s'", prefix, err);
    if (frag1 && !strstr(err, frag1))
        fail_msg("want '%s' in '%s'", frag1, err);
    if (frag2 && !strstr(err, frag2))
        fail_msg("want '%s' in '%s'", frag2, err);
}

static void defaults_and_every_key(void **state)
{
    (void)state;
    const char *text = "; comment\n# another\n"
                       "[run]\nname = demo\nseed = 42\nreplications = 3\n"
                       "strategies = full_jitter, exponential\nbucket_s = 0.5\nhorizon_s = 100\n"
                       "[clients]\ncount = 7\nrequests_per_client = 2\nstart = spread\nspread_s = 3\n"
                       "think_time_s = exponential(2)\n"
                       "[network]\ndelay_s = uniform(0.001, 0.002) ; inline comment\n"
                       "[server]\n  workers = 5\nqueue = 0\nservice_time_s = lognormal(0.1, 0.05)\n"
                       "error_rate_503 = 0.1\nerror_rate_connection_reset = 0.2\n"
                       "[outage b]\nstart_s = 20\nend_s = 30\nmode = black_hole\n"
                       "[outage a]\nstart_s = 1\nend_s = 2\nstatus = connection_refused\n"
                       "[retry]\nbase_s = 0.2\ncap_s = 5\nmax_attempts = 0\n"
                       "attempt_timeout_s = 1.5\nunknown_errors = fail\nidempotent = false\n";
    write_file(text, strlen(text));
    scn_config c;
    char err[SCN_ERR_MAX];
    if (scn_load(&c, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.name, "demo");
    assert_int_equal(c.seed, 42);
    assert_int_equal(c.replications, 3);
    assert_int_equal(c.nstrategies, 2);
    assert_int_equal(c.strategies[0], HP_FULL_JITTER);
    assert_int_equal(c.strategies[1], HP_EXPONENTIAL);
    assert_true(c.bucket_s == 0.5 && c.horizon_s == 100);
    assert_int_equal(c.clients, 7);
    assert_int_equal(c.requests_per_client, 2);
    assert_int_equal(c.start, SPEC_START_SPREAD);
    assert_int_equal(c.think.kind, DIST_EXPONENTIAL);
    assert_int_equal(c.delay.kind, DIST_UNIFORM);
    assert_true(c.delay.b == 0.002);
    assert_int_equal(c.workers, 5); /* indented key: still a key */
    assert_int_equal(c.queue, 0);
    assert_int_equal(c.service.kind, DIST_LOGNORMAL);
    assert_int_equal(c.nerrors, 2);
    assert_int_equal(c.errors[0].outcome, 503);
    assert_int_equal(c.errors[1].outcome, HP_OUTCOME_CONN_RESET);
    assert_int_equal(c.noutages, 2);
    assert_string_equal(c.outages[0].name, "b");
    assert_int_equal(c.outages[0].mode, SPEC_OUTAGE_BLACK_HOLE);
    assert_int_equal(c.outages[1].outcome, HP_OUTCOME_CONN_REFUSED);
    assert_int_equal(c.policy.strategy, HP_EXPONENTIAL); /* [run] strategies: a [retry] strategy is refused */
    assert_int_equal(c.policy.max_attempts, 0);
    assert_int_equal(c.policy.unknown, HP_UNKNOWN_FAIL);
    assert_true(c.policy.non_idempotent);
    assert_true(c.policy.attempt_timeout_s == 1.5);

    /* an empty-of-keys scenario means the documented defaults */
    write_file("[run]\n", 6);
    assert_int_equal(scn_load(&c, path, NULL, 0, err), 0);
    assert_int_equal(c.replications, 10);
    assert_int_equal(c.clients, 1000);
    assert_int_equal(c.policy.strategy, HP_EXPONENTIAL);
    assert_int_equal(c.nstrategies, 0);
    hp_strategy s[HP_STRATEGY_COUNT];
    assert_int_equal(scn_strategies(&c, s), 1);
    assert_int_equal(s[0], HP_EXPONENTIAL);
    char name[SCN_NAME_MAX];
    snprintf(name, sizeof name, "herd-test-scn-%d", (int)getpid());
    assert_string_equal(c.name, name); /* file name without .ini */
}

static void overrides(void **state)
{
    (void)state;
    write_file("[clients]\ncount = 10\n", 21);
    const char *sets[] = {"clients.count=20", "outage x.start_s=1", "outage x.end_s=2", "run.seed=9"};
    scn_config c;
    char err[SCN_ERR_MAX];
    if (scn_load(&c, path, sets, 4, err) != 0)
        fail_msg("%s", err);
    assert_int_equal(c.clients, 20);
    assert_int_equal(c.noutages, 1);
    assert_int_equal(c.seed, 9);

    const char *bad1[] = {"clients.count=abc"};
    assert_int_equal(scn_load(&c, path, bad1, 1, err), -1);
    assert_non_null(strstr(err, "--set clients.count=abc: [clients] count: expected an integer"));
    const char *bad2[] = {"clientscount=3"};
    assert_int_equal(scn_load(&c, path, bad2, 1, err), -1);
    assert_non_null(strstr(err, "expected section.key=value"));
    const char *bad3[] = {"clients.colour=3"};
    assert_int_equal(scn_load(&c, path, bad3, 1, err), -1);
    assert_non_null(strstr(err, "unknown key 'colour'"));
    /* an override may break a cross-key rule: reported too */
    const char *bad4[] = {"retry.cap_s=0.5", "retry.base_s=2"};
    assert_int_equal(scn_load(&c, path, bad4, 2, err), -1);
    assert_non_null(strstr(err, "cap_s (0.5 s) is below base_s (2 s)"));
}

static void bad_syntax_and_keys(void **state)
{
    (void)state;
    expect_error("[run]\nseed = 1\n[bogus]\nx = 1\n", 3, "unknown section [bogus]", "expected run, clients");
    expect_error("[server]\nworkers = 4\ncolour = red\n", 3, "[server]: unknown key 'colour'", NULL);
    expect_error("[server]\nworkers = 4\nworkers = 5\n", 3, "[server] workers: duplicate key", "line 2");
    expect_error("[server]\nworkers = 4\n[clients]\ncount = 1\n[server]\nqueue = 1\n", 5,
                 "duplicate section [server]", "line 1");
    expect_error("seed = 4\n[run]\n", 1, "before any [section]", NULL);
    expect_error("[run]\nthis line has no equals sign\n", 2, "syntax error", "key = value");
    expect_error("[run\nseed = 1\n", 1, "syntax error", NULL);
    expect_error("[outage]\nstart_s = 1\n", 1, "this section needs a name", NULL);
    expect_error("[outage 1]\nstart_s = 1\nend_s = 2\nstart_s = 3\n", 4, "[outage 1] start_s: duplicate key", NULL);
}

static void bad_values(void **state)
{
    (void)state;
    expect_error("[server]\nworkers = abc\n", 2, "[server] workers: expected an integer in [1, 10000000]", "'abc'");
    expect_error("[server]\nworkers = 10x\n", 2, "[server] workers: expected an integer", "'10x'");
    expect_error("[server]\nworkers = 0\n", 2, "[server] workers: expected an integer in [1,", "'0'");
    expect_error("[server]\nworkers = -3\n", 2, "[server] workers", "'-3'");
    expect_error("[clients]\ncount = 1e308\n", 2, "[clients] count: expected an integer", NULL);
    expect_error("[clients]\ncount = 99999999999999999999999\n", 2, "[clients] count", NULL);
    expect_error("[retry]\nbase_s = nan\n", 2, "[retry] base_s: expected a number in", "'nan'");
    expect_error("[retry]\nbase_s = inf\n", 2, "[retry] base_s", "'inf'");
    expect_error("[retry]\nbase_s = 1e308\n", 2, "[retry] base_s", NULL);
    expect_error("[retry]\nbase_s = 0\n", 2, "[retry] base_s", NULL);
    expect_error("[retry]\nbase_s = \n", 2, "[retry] base_s", NULL);
    expect_error("[retry]\nstrategy = full-jitter\n", 2, "unknown strategy 'full-jitter'", "full_jitter");
    expect_error("[run]\nstrategies = full_jitter, bogus\n", 2, "unknown strategy 'bogus'", NULL);
    expect_error("[run]\nstrategies = full_jitter, full_jitter\n", 2, "listed twice", NULL);
    expect_error("[run]\nstrategies = full_jitter,,exponential\n", 2, "comma-separated", NULL);
    expect_error("[run]\nseed = 0\n", 2, "[run] seed", NULL);
    expect_error("[run]\nname = ../etc\n", 2, "[run] name", NULL);
    expect_error("[clients]\nstart = later\n", 2, "expected one of burst, spread", "'later'");
    expect_error("[network]\ndelay_s = cauchy(1, 2)\n", 2, "[network] delay_s", "exponential(MEAN)");
    expect_error("[network]\ndelay_s = exponential(0)\n", 2, "MEAN > 0", NULL);
    expect_error("[server]\nerror_rate_503 = 1.5\n", 2, "error_rate_503: expected a probability in [0, 1]", NULL);
    expect_error("[server]\nerror_rate_503 = -0.1\n", 2, "error_rate_503", NULL);
    expect_error("[server]\nerror_rate_abc = 0.1\n", 2, "error_rate_abc: unknown error", NULL);
    expect_error("[server]\nerror_rate_503 = 0.1\nerror_rate_503 = 0.2\n", 3, "duplicate key", NULL);
    expect_error("[outage 1]\nstart_s = 1\nend_s = 2\nstatus = 999\n", 4, "[outage 1] status", NULL);
    expect_error("[outage 1]\nstart_s = 1\nend_s = 2\nmode = sometimes\n", 4, "fail_fast, black_hole", NULL);
}

static void cross_key_rules(void **state)
{
    (void)state;
    expect_error("[retry]\nbase_s = 2\ncap_s = 1\n", 3, "cap_s (1 s) is below base_s (2 s)", NULL);
    expect_error("[retry]\nbase_s = 100\n", 2, "cap_s (60 s) is below base_s (100 s)", NULL);
    expect_error("[x]\n", 1, "unknown section", NULL);
    expect_error("[run]\n\n[outage 1]\nstart_s = 5\nend_s = 2\n", 3, "end_s (2) must be after start_s (5)", NULL);
    expect_error("[outage 1]\nstart_s = 5\n", 1, "missing required key end_s", NULL);
    expect_error("[outage 1]\nend_s = 5\n", 1, "missing required key start_s", NULL);
    expect_error("[outage 1]\nstart_s = 0\nend_s = 10\n[outage 2]\nstart_s = 5\nend_s = 20\n", 4,
                 "[outage 2] [5, 20) overlaps [outage 1] [0, 10)", NULL);
    /* with layers, the innermost layer's wait must be bounded: by its own
     * timeout or by an outer layer's propagated deadline */
    expect_error("[outage 1]\nstart_s = 0\nend_s = 10\nmode = black_hole\n[layer a]\nmax_attempts = 2\n"
                 "propagate_deadline = false\nbudget_s = 5\n[layer b]\nmax_attempts = 2\n",
                 1, "set attempt_timeout_s > 0 (or budget_s) for [layer b]", NULL);
    {
        char err[SCN_ERR_MAX];
        if (load("[outage 1]\nstart_s = 0\nend_s = 10\nmode = black_hole\n[layer a]\nbudget_s = 5\n"
                 "[layer b]\nmax_attempts = 2\n", err) != 0)
            fail_msg("a propagated outer budget bounds the inner layer: %s", err);
    }
    expect_error("[outage 1]\nstart_s = 0\nend_s = 10\nmode = black_hole\n", 1, "for [retry]",
                 NULL);
    expect_error("[server]\nerror_rate_500 = 0.6\nerror_rate_503 = 0.6\n", 3, "sum to 1.2", NULL);
    expect_error("[clients]\nstart = spread\n", 2, "spread_s > 0", NULL);
    expect_error("[clients]\ncount = 100000000\nrequests_per_client = 1000000\n", 3, "exceeds 4e9", NULL);
    expect_error("[clients]\ncount = 100000000\nrequests_per_client = 30\n", 2, "GiB of memory", NULL);
}

static void bad_files(void **state)
{
    (void)state;
    char err[SCN_ERR_MAX];
    scn_config c;
    assert_int_equal(scn_load(&c, "/nonexistent/x.ini", NULL, 0, err), -1);
    assert_string_equal(err, "/nonexistent/x.ini: cannot open scenario: No such file or directory");
    assert_int_equal(scn_load(&c, "/tmp", NULL, 0, err), -1);
    assert_non_null(strstr(err, "/tmp: is a directory"));
    expect_error("", 0, "the file is empty", NULL);

    /* a line over the limit is reported, not silently split */
    char big[3000];
    memset(big, 0, sizeof big);
    strcpy(big, "[run]\nname = x\n; ");
    size_t n = strlen(big);
    memset(big + n, 'a', 2000);
    strcpy(big + n + 2000, "\nseed = 3\n");
    expect_error(big, 3, "line longer than", NULL);

    /* binary garbage: a NUL byte, or non-INI bytes */
    write_file("[run]\nseed = 1\0\x01\x02\n", 18);
    assert_int_equal(scn_load(&c, path, NULL, 0, err), -1);
    assert_non_null(strstr(err, ":2: the file contains a NUL byte"));
    expect_error("\x7f\x45\x4c\x46\x02\x01\x01\n", 1, "syntax error", NULL);
}

static scn_config expand_base;

/* The plan of text: its points (compiled specs) and sweep labels. */
static long expand(const char *text, exp_plan *plan, char *err)
{
    write_file(text, strlen(text));
    if (scn_load(&expand_base, path, NULL, 0, err) != 0)
        return -1;
    if (exp_plan_build(plan, &expand_base, path, err, SCN_ERR_MAX) != 0)
        return -1;
    return (long)plan->npoints;
}

/* The label of sweep k at point i. */
static const char *label(const exp_plan *plan, size_t i, int k)
{
    return plan->labels[k][plan->points[i].value[k]];
}

static void sweeps(void **state)
{
    (void)state;
    char err[SCN_ERR_MAX];
    exp_plan p;
    /* a range: inclusive of TO, enumerated exactly in decimal */
    long n = expand("[sweep]\nkey = retry.base_s\nvalues = 0.1:0.5:0.1\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 5);
    assert_string_equal(label(&p, 0, 0), "0.1");
    assert_string_equal(label(&p, 4, 0), "0.5");
    assert_true(p.points[2].spec.policy.base_s == 0.3); /* the double nearest 0.3, as --set gives */
    exp_plan_free(&p);

    /* points 1e-10 apart (relative) keep distinct labels and the end value */
    n = expand("[sweep]\nkey = network.delay_s\nvalues = 1:1.0000000003:0.0000000001\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 4);
    assert_string_equal(label(&p, 1, 0), "1.0000000001");
    assert_string_equal(label(&p, 3, 0), "1.0000000003");
    assert_true(p.points[3].spec.delay.a == 1.0000000003);
    exp_plan_free(&p);

    /* exponent notation, integers beyond 1e10 (seeds) */
    n = expand("[sweep]\nkey = run.seed\nvalues = 12345678901:12345678903:1\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 3);
    assert_string_equal(label(&p, 2, 0), "12345678903");
    assert_true(p.points[2].seed == 12345678903ULL);
    exp_plan_free(&p);
    n = expand("[sweep]\nkey = retry.base_s\nvalues = 1e-3:1e-2:3e-3\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 4);
    assert_string_equal(label(&p, 3, 0), "0.01");
    exp_plan_free(&p);

    /* a list (commas inside a distribution do not split), and a grid:
     * the first sweep is outermost */
    n = expand("[sweep d]\nkey = network.delay_s\nvalues = constant(0.01), normal(0.01, 0.002)\n"
               "[sweep w]\nkey = server.workers\nvalues = 10:30:10\n",
               &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 6);
    assert_string_equal(label(&p, 0, 0), "constant(0.01)");
    assert_string_equal(label(&p, 0, 1), "10");
    assert_string_equal(label(&p, 2, 1), "30");
    assert_string_equal(label(&p, 3, 0), "normal(0.01, 0.002)");
    assert_int_equal(p.points[3].spec.delay.kind, DIST_NORMAL);
    assert_int_equal(p.points[4].spec.workers, 20);
    exp_plan_free(&p);

    /* a mixture has colons: a list of distributions, never a range */
    n = expand("[sweep]\nkey = server.service_time_s\nvalues = mixture(0.5: 0.1, 0.5: 0.2), pareto(0.1, 2)\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 2);
    assert_string_equal(label(&p, 0, 0), "mixture(0.5: 0.1, 0.5: 0.2)");
    assert_int_equal(p.points[0].spec.service.kind, DIST_MIXTURE);
    assert_int_equal(p.points[1].spec.service.kind, DIST_PARETO);
    exp_plan_free(&p);

    /* no sweep: one point, the config itself */
    n = expand("[clients]\ncount = 3\n", &p, err);
    assert_int_equal(n, 1);
    assert_int_equal(p.points[0].spec.clients, 3);
    exp_plan_free(&p);

    /* a variant sets run-level keys and adds a tool: they take effect */
    n = expand("[tool a]\nweight = 1\n[variant v]\nrun.seed = 7\nrun.replications = 3\n"
               "run.strategies = full_jitter, equal_jitter\ntool b.weight = 2\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, 1);
    assert_true(p.points[0].seed == 7);
    assert_int_equal(p.points[0].replications, 3);
    assert_int_equal(p.points[0].nstrategies, 2);
    assert_int_equal(p.points[0].strategies[1], HP_EQUAL_JITTER);
    assert_int_equal(p.points[0].spec.ntools, 2);
    assert_string_equal(p.names[p.points[0].tool_name[1]], "b");
    assert_int_equal(p.njobs, 6);
    exp_plan_free(&p);

    /* what cannot vary, or varies twice, is refused */
    expect_error("[sweep a]\nkey = clients.count\nvalues = 1, 2\n[sweep b]\nkey = clients . count\nvalues = 3\n", 4,
                 "clients.count is already swept by", NULL);
    expect_error("[sweep a]\nkey = run.name\nvalues = x, y\n", 1, "run.name cannot be swept", NULL);
    expect_error("[variant v]\nrun.columns = calls\n", 1, "[variant v] run.columns: cannot vary", NULL);
    expect_error("[variant v]\nclients.count = 5\n[sweep]\nkey = clients.count\nvalues = 1, 2\n", 3,
                 "also set by [variant v]", NULL);
    expect_error("[sweep]\nkey = network.delay_s\nvalues = 1:1.0000000000000002:0.00000000000000001\n", 1,
                 "same binary floating-point number", NULL);
    expect_error("[sweep]\nkey = server.workers\nvalues = 1, 2, 1\n", 1, "appears twice", NULL);

    /* errors, at the sweep section's line */
    expect_error("[run]\n[sweep]\nkey = clients.count\nvalues = 10, abc\n", 2,
                 "[sweep] clients.count=abc: [clients] count: expected an integer", NULL);
    expect_error("[run]\n[sweep]\nkey = clients.colour\nvalues = 1\n", 2, "unknown key 'colour'", NULL);
    expect_error("[sweep]\nkey = clients.count\n", 1, "[sweep]: missing required key values", NULL);
    expect_error("[sweep x]\nvalues = 1:2:1\n", 1, "[sweep x]: missing required key key", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 10:1:1\n", 1, "STEP > 0 and FROM <= TO", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 1:10:0\n", 1, "STEP > 0", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 1:100000:1\n", 1, "at most 10000 points", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 1,,2\n", 1, "empty value", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 1\nstep = 2\n", 4, "unknown key 'step'", NULL);
    expect_error("[sweep]\nkey = clients.count\nvalues = 1\nvalues = 2\n", 4, "[sweep] values: duplicate key",
                 NULL);
    /* a swept value that breaks a cross-key rule names the point */
    expect_error("[retry]\ncap_s = 2\n[sweep]\nkey = retry.base_s\nvalues = 1, 3\n", 3,
                 "sweep point retry.base_s=3: [retry] cap_s (2 s) is below base_s (3 s)", NULL);
    /* baseline must be one of the strategies run */
    expect_error("[run]\nstrategies = full_jitter\nbaseline = exponential\n", 3,
                 "baseline = exponential is not one of the strategies run", NULL);
}

/* Shards: every job in exactly one shard, and the loads (cost = clients x
 * requests x horizon) within one job's cost of each other (LPT). */
static void shards_partition_and_balance(void **state)
{
    (void)state;
    char err[SCN_ERR_MAX];
    exp_plan p;
    long n = expand("[run]\nreplications = 3\nstrategies = exponential, full_jitter\n"
                    "[sweep]\nkey = clients.count\nvalues = 10, 20, 50, 70, 130\n", &p, err);
    if (n < 0)
        fail_msg("%s", err);
    uint8_t *mine = calloc(p.njobs, 1);
    int *owner = calloc(p.njobs, sizeof *owner);
    for (uint32_t shards = 1; shards <= 7; shards++) {
        for (size_t j = 0; j < p.njobs; j++)
            owner[j] = 0;
        double load[8] = {0}, most = 0;
        for (uint32_t k = 1; k <= shards; k++) {
            long got = exp_plan_shard(&p, k, shards, mine);
            assert_true(got >= 0);
            long count = 0;
            for (size_t g = 0; g < p.ngroups; g++) {
                const exp_point *pt = &p.points[p.groups[g].point];
                double cost = (double)pt->spec.clients * pt->spec.requests_per_client * pt->spec.horizon_s;
                most = cost > most ? cost : most;
                for (uint32_t r = 0; r < pt->replications; r++)
                    if (mine[p.groups[g].first_job + r]) {
                        owner[p.groups[g].first_job + r]++;
                        load[k] += cost;
                        count++;
                    }
            }
            assert_int_equal(count, got);
        }
        for (size_t j = 0; j < p.njobs; j++)
            assert_int_equal(owner[j], 1);
        double lo = load[1], hi = load[1];
        for (uint32_t k = 2; k <= shards; k++) {
            lo = load[k] < lo ? load[k] : lo;
            hi = load[k] > hi ? load[k] : hi;
        }
        assert_true(hi - lo <= most);
    }
    free(mine);
    free(owner);
    exp_plan_free(&p);
}

/* Library presets: the section's own keys override the preset's fields;
 * a library preset fixes a layer's strategy; [retry] takes the whole
 * policy but keeps what the operation is; llamaindex_openai compiles into
 * two loops; a tool keeps its preset's strategy. */
/* The text of scn_explain for c (origins or not), into a static buffer. */
static const char *explained(const scn_config *c, bool origins)
{
    static char out[65536];
    FILE *f = fmemopen(out, sizeof out - 1, "w");
    assert_non_null(f);
    assert_int_equal(scn_explain(f, c, "S.ini", NULL, 0, origins), 0);
    long n = ftell(f);
    fclose(f);
    out[n > 0 ? n : 0] = '\0';
    return out;
}

static void explain_model(void **state)
{
    (void)state;
    static scn_config a, b;
    char err[SCN_ERR_MAX];
    /* the case: jitter = none is what aws_standard has: accepted
     * (the key is live), and the model is the same */
    const char *t1 = "[run]\nstrategies = full_jitter\n[retry]\npreset = aws_standard\n";
    const char *t2 = "[run]\nstrategies = full_jitter\n[retry]\npreset = aws_standard\njitter = none\n";
    write_file(t1, strlen(t1));
    if (scn_load(&a, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    write_file(t2, strlen(t2));
    if (scn_load(&b, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    char ca[65536];
    snprintf(ca, sizeof ca, "%s", explained(&a, false));
    assert_string_equal(ca, explained(&b, false));
    /* a full jitter capped first is the full_jitter strategy */
    const char *t3 = "[run]\nstrategies = exponential\n[retry]\npreset = aws_standard\njitter = full\n";
    write_file(t3, strlen(t3));
    if (scn_load(&b, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    assert_non_null(strstr(explained(&b, false), "retry.backoff = full_jitter\n"));
    /* origins: the preset's values name it, written ones their line */
    const char *o = explained(&a, true);
    assert_non_null(strstr(o, "retry.cap_s = 20"));
    assert_non_null(strstr(o, "# preset aws_standard (S.ini:4)"));
    assert_non_null(strstr(o, "run.strategies = full_jitter"));
    assert_non_null(strstr(o, "# S.ini:2"));
    assert_non_null(strstr(o, "retry.jitter_factor = 0"));
    assert_non_null(strstr(o, "# unused: jitter is none"));
    /* the canonical text leaves unused values out */
    assert_null(strstr(explained(&a, false), "jitter_factor"));
}

static void library_presets(void **state)
{
    (void)state;
    const char *text = "[retry]\npreset = aws_standard\nidempotent = false\n"
                       "[layer agent]\nmax_attempts = 3\n"
                       "[layer sdk]\npreset = openai_python\nmax_attempts = 2\njitter_factor = 0.5\n";
    write_file(text, strlen(text));
    scn_config c;
    char err[SCN_ERR_MAX];
    if (scn_load(&c, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    assert_int_equal(c.policy.strategy, HP_FULL_JITTER);
    assert_int_equal(c.policy.max_attempts, 3);
    assert_true(c.policy.non_idempotent);
    model_spec s;
    scn_compile(&c, &s);
    assert_int_equal(s.nlayers, 2);
    assert_false(s.layers[0].own_strategy);
    assert_true(s.layers[1].own_strategy);
    const hp_policy *p = &s.layers[1].policy;
    assert_int_equal(p->max_attempts, 2); /* the key after the preset wins */
    assert_int_equal(p->jitter, HP_JITTER_PROPORTIONAL);
    assert_true(p->jitter_f == 0.5);
    assert_true(p->base_s == 0.5 && p->cap_s == 8 && p->retry_after_max_s == 60);
    assert_int_equal(p->ra_mode, HP_RA_INSTEAD);
    assert_true(p->non_idempotent); /* from [retry]: what the operation is */
    assert_int_equal(s.layers[0].policy.strategy, HP_FULL_JITTER); /* [retry]'s preset */

    text = "[layer agent]\nmax_attempts = 3\n[layer llm]\npreset = llamaindex_openai\n"
           "[tool search]\npreset = resilience4j\n";
    write_file(text, strlen(text));
    if (scn_load(&c, path, NULL, 0, err) != 0)
        fail_msg("%s", err);
    assert_int_equal(scn_expanded_layers(&c), 3);
    scn_compile(&c, &s);
    assert_int_equal(s.nlayers, 3);
    assert_int_equal(s.layers[1].policy.jitter, HP_JITTER_FLOOR);
    assert_int_equal(s.layers[1].policy.max_attempts, 3);
    assert_int_equal(s.layers[2].policy.max_attempts, 4);
    assert_true(s.layers[2].own_strategy);
    assert_true(s.tools[0].own_strategy);
    assert_int_equal(s.tools[0].policy.strategy, HP_CONSTANT);
    assert_int_equal(s.tools[0].effect, HP_EFFECT_READ);
}

static void reference_lists_every_key(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    scn_print_reference(f);
    fclose(f);
    const char *want[] = {"`seed`", "`replications`", "`strategies`", "`bucket_s`", "`horizon_s`",
                          "`count`", "`requests_per_client`", "`start`", "`spread_s`", "`think_time_s`",
                          "`delay_s`", "`workers`", "`queue`", "`service_time_s`", "`error_rate_NNN`",
                          "`start_s`", "`end_s`", "`mode`", "`status`", "`strategy`", "`base_s`",
                          "`cap_s`", "`max_attempts`", "`attempt_timeout_s`", "`unknown_errors`",
                          "`idempotent`"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(buf, want[i]))
            fail_msg("reference lacks %s", want[i]);
    free(buf);
}

/* scn_key_find and scn_first_key (a hash table built once) give what a
 * scan of the key table gives: every key at its index (the first of equal
 * ones), every section's first key, and scn_key_count for what is not
 * there. */
static void key_lookup_is_the_scan(void **state)
{
    (void)state;
    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        size_t want = 0, first = 0;
        while (strcmp(scn_key_table[want].section, k->section) || strcmp(scn_key_table[want].name, k->name))
            want++;
        while (strcmp(scn_key_table[first].section, k->section))
            first++;
        assert_int_equal(scn_key_find(k->section, k->name), want);
        assert_int_equal(scn_first_key(k->section), first);
    }
    assert_int_equal(scn_key_find("retry", "no_such_key"), scn_key_count);
    assert_int_equal(scn_key_find("no_such_section", "base_s"), scn_key_count);
    assert_int_equal(scn_key_find("", ""), scn_key_count);
    assert_int_equal(scn_first_key("no_such_section"), scn_key_count);
    assert_int_equal(scn_key_find("retry", "base_s") < scn_key_count, 1);
    assert_int_equal(scn_key_find("server", "base_s"), scn_key_count); /* a name of another section */
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_and_every_key), cmocka_unit_test(overrides),
        cmocka_unit_test(bad_syntax_and_keys),    cmocka_unit_test(bad_values),
        cmocka_unit_test(cross_key_rules),        cmocka_unit_test(bad_files),
        cmocka_unit_test(sweeps),
        cmocka_unit_test(shards_partition_and_balance),
        cmocka_unit_test(reference_lists_every_key),
        cmocka_unit_test(library_presets),
        cmocka_unit_test(explain_model),
        cmocka_unit_test(key_lookup_is_the_scan),
    };
    return cmocka_run_group_tests_name("scenario", tests, NULL, teardown);
}
