/*
 * classify.c - herd policy library: which failures are worth retrying.
 *
 * Maps an attempt's outcome (HTTP status or HP_OUTCOME_* transport error) to
 * a failure class, and says whether a policy retries a
 * class at all.  hp_classify() is total: every int, including codes outside
 * 100..599, lands in exactly one class, HP_CLASS_UNKNOWN for anything not
 * listed.  Timeouts count as retryable here; refusing them (on_timeout,
 * non-idempotent operations without a key) is hp_decide_result()'s job.
 */
#include "herdpolicy.h"
#include "names.h"
#include "classes.h"

#include <stddef.h>

/* Table indexed by hp_class. */
static const char *const class_names[HP_CLASS_COUNT] = {
    "ok",          "rate_limited", "server",  "not_implemented", "bad_request",
    "auth",        "not_found",    "timeout", "connection",      "unknown",
    "conflict",    "request_timeout", "overloaded",
};

const char *hp_class_name(hp_class c)
{
    return name_at(class_names, HP_CLASS_COUNT, (unsigned)c);
}

/* See classes.h: class XOR HP_CLASS_UNKNOWN, by outcome - CLASS_TABLE_LO
 * (2xx is tested before the table is read). */
#define AT(code, cls) [(code) - CLASS_TABLE_LO] = (uint8_t)((cls) ^ HP_CLASS_UNKNOWN)
const uint8_t hp__class_table[CLASS_TABLE_N] = {
    AT(429, HP_CLASS_RATE_LIMITED),
    AT(500, HP_CLASS_SERVER),
    AT(502, HP_CLASS_SERVER),
    AT(503, HP_CLASS_SERVER),
    AT(504, HP_CLASS_SERVER),
    AT(501, HP_CLASS_NOT_IMPLEMENTED),
    AT(400, HP_CLASS_BAD_REQUEST),
    AT(422, HP_CLASS_BAD_REQUEST),
    AT(401, HP_CLASS_AUTH),
    AT(402, HP_CLASS_AUTH),
    AT(403, HP_CLASS_AUTH),
    AT(404, HP_CLASS_NOT_FOUND),
    AT(409, HP_CLASS_CONFLICT),
    AT(408, HP_CLASS_REQUEST_TIMEOUT),
    AT(529, HP_CLASS_OVERLOADED),
    AT(HP_OUTCOME_TIMEOUT, HP_CLASS_TIMEOUT),
    AT(HP_OUTCOME_CONN_REFUSED, HP_CLASS_CONNECTION),
    AT(HP_OUTCOME_CONN_RESET, HP_CLASS_CONNECTION),
};
#undef AT

hp_class hp_classify(int outcome)
{
    return classify_inline(outcome);
}

bool hp_retryable(const hp_policy *p, hp_class c)
{
    return retryable_inline(p, c);
}
