/*
 * explain_server.c - [server]'s part of the resolved model (explain.h):
 * every server key with the reason it goes unread at this point, which is
 * where each server-side defence (queue discipline, CoDel, deadline-aware
 * dropping, priority shedding, concurrency limiters, the token bucket)
 * says what it needs to act; then the error_rate_NNN lines.
 */
#include "explain.h"

#include <string.h>

void scn_x_server(xctx *x)
{
    const scn_config *c = x->c;
    const model_spec *s = &x->spec;
    char v[256], o[256];
    bool occ = s->kind == SPEC_SERVER_OCC, shedding = !occ && s->shed_sheddable_above > 0,
         any_sheddable = x->any_sheddable;

    /* [server] */
    bool limited = s->rate_limit_rps > 0;
    bool g2 = s->concurrency_limiter == SPEC_CL_GRADIENT2;
    bool adaptive_cl = g2 || s->concurrency_limiter == SPEC_CL_AIMD;
    const char *sv[] = {"kind", "workers", "queue", "queue_discipline", "adaptive_lifo_after_s", "codel_target_s", "codel_interval_s",
                        "drop_expired", "shed_sheddable_above",
                        "concurrency_limiter", "concurrency_limit", "limiter_min", "limiter_max", "aimd_backoff_ratio",
                        "aimd_timeout_s", "gradient2_smoothing", "gradient2_rtt_tolerance", "gradient2_long_window",
                        "gradient2_queue_size", "gradient2_queue_function", "limiter_window_s",
                        "limiter_window_size", "service_time_s", "rate_limit_rps", "burst", "retry_after",
                        "retry_after_s", "retry_after_format", "retry_after_on_503", "ratelimit_reset",
                        "load_slowdown", "overload_signal", "reply_loss_rate", "capacity_file"};
    const char *svw[] = {
        NULL,
        NULL,
        NULL,
        s->kind == SPEC_SERVER_OCC ? "kind is occ: no queue"
        : s->queue == 0            ? "queue is 0: nothing waits"
                                   : NULL,
        s->kind == SPEC_SERVER_OCC ? "kind is occ: no queue"
        : s->queue == 0            ? "queue is 0: nothing waits"
        : s->queue_discipline != SPEC_QD_ADAPTIVE_LIFO ? "queue_discipline is not adaptive_lifo"
                                                        : NULL,
        s->kind == SPEC_SERVER_OCC ? "kind is occ: no queue"
        : s->queue == 0            ? "queue is 0: nothing waits"
                                   : NULL,
        s->kind == SPEC_SERVER_OCC ? "kind is occ: no queue"
        : s->queue == 0            ? "queue is 0: nothing waits"
        : !(s->codel_target_s > 0) ? "codel_target_s is 0: no CoDel"
                                   : NULL,
        occ                ? "kind is occ: no queue"
        : !x->any_timeout  ? "no attempt has a timeout or a budget: no deadline to carry"
        : s->queue == 0 && !(s->send_cost_s > 0)
            ? "queue is 0 and send_cost_s is 0: every attempt starts service on arrival, with time left"
            : NULL,
        occ                ? "kind is occ: no workers to share"
        : !any_sheddable   ? "no traffic is sheddable ([clients] or [tool] priority)"
        : !shedding        ? "0: no shedding"
                           : NULL,
        occ ? "kind is occ: no workers to limit" : NULL,
        occ ? "kind is occ: no workers to limit" : s->concurrency_limiter == SPEC_CL_NONE ? "concurrency_limiter is none" : NULL,
        occ ? "kind is occ: no workers to limit" : !adaptive_cl ? "concurrency_limiter is not aimd or gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !adaptive_cl ? "concurrency_limiter is not aimd or gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : s->concurrency_limiter != SPEC_CL_AIMD ? "concurrency_limiter is not aimd" : NULL,
        occ ? "kind is occ: no workers to limit" : s->concurrency_limiter != SPEC_CL_AIMD ? "concurrency_limiter is not aimd" : NULL,
        occ ? "kind is occ: no workers to limit" : !g2 ? "concurrency_limiter is not gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !g2 ? "concurrency_limiter is not gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !g2 ? "concurrency_limiter is not gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !g2 ? "concurrency_limiter is not gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !g2 ? "concurrency_limiter is not gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !adaptive_cl ? "concurrency_limiter is not aimd or gradient2" : NULL,
        occ ? "kind is occ: no workers to limit" : !adaptive_cl ? "concurrency_limiter is not aimd or gradient2"
        : !(s->limiter_window_s > 0) ? "limiter_window_s is 0: every sample is passed on" : NULL,
        NULL,
        NULL,
        !limited ? "rate_limit_rps is 0: no token bucket" : NULL,
        !limited ? "rate_limit_rps is 0: no 429s" : NULL,
        !((limited && s->retry_after == SPEC_RA_FIXED) || s->retry_after_on_503)
            ? "no Retry-After of retry_after_s is sent (retry_after = fixed with a rate limit, or retry_after_on_503)"
            : NULL,
        !((limited && s->retry_after != SPEC_RA_NONE) || s->retry_after_on_503) ? "no Retry-After is sent" : NULL,
        NULL,
        !limited ? "rate_limit_rps is 0: no 429s" : NULL,
        NULL,
        !x->obeys_overload ? "no [layer] has obey_overload" : NULL,
        NULL,
        NULL,
    };
    scn_x_put_section(x, "server", sv, svw, sizeof sv / sizeof sv[0]);
    for (uint32_t i = 0; i < c->nerrors; i++) {
        char k[64];
        if (c->errors[i].outcome > 0)
            snprintf(k, sizeof k, "server.error_rate_%d", c->errors[i].outcome);
        else
            snprintf(k, sizeof k, "server.error_rate_%s",
                     c->errors[i].outcome == HP_OUTCOME_CONN_REFUSED ? "connection_refused" : "connection_reset");
        snprintf(v, sizeof v, "%s", scn_x_num(c->errors[i].p).s);
        scn_x_origin_text(x, c->error_origin[i], o, sizeof o);
        scn_x_put(x, k, v, o, NULL);
    }
}
